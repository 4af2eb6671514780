package feed_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/campaign-journal/journal/feed"
)

func ev(campaign string, seq uint64) *feed.Event {
	return &feed.Event{Seq: seq, Campaign: campaign, Type: "journal.day.started.v1", Doc: []byte(`{}`)}
}

// TestHubFansOutInOrder: every subscription of a campaign gets every event
// published after it subscribed, in order, and none of another campaign's.
func TestHubFansOutInOrder(t *testing.T) {
	h := feed.NewHub(1000)
	const readers, n = 50, 500
	subs := make([]*feed.Subscription, readers)
	for i := range subs {
		subs[i] = h.Subscribe("mordor")
	}
	other := h.Subscribe("moria")
	var wg sync.WaitGroup
	got := make([][]uint64, readers)
	for i, s := range subs {
		wg.Go(func() {
			for e := range s.Events() {
				got[i] = append(got[i], e.Seq)
			}
		})
	}
	for seq := uint64(1); seq <= n; seq++ {
		if d := h.Publish(ev("mordor", seq)); d != 0 {
			t.Fatalf("publish %d dropped %d readers", seq, d)
		}
	}
	if h.Subscribers() != readers+1 {
		t.Fatalf("subscribers = %d, want %d", h.Subscribers(), readers+1)
	}
	for _, s := range subs {
		s.Close()
		s.Close() // again: nothing
	}
	wg.Wait()
	for i, seqs := range got {
		if len(seqs) != n {
			t.Fatalf("reader %d got %d events, want %d", i, len(seqs), n)
		}
		for k, seq := range seqs {
			if seq != uint64(k+1) {
				t.Fatalf("reader %d: event %d is seq %d, want %d", i, k, seq, k+1)
			}
		}
		if err := subs[i].Err(); !errors.Is(err, feed.ErrClosed) {
			t.Fatalf("reader %d closed with %v, want ErrClosed", i, err)
		}
	}
	if len(other.Events()) != 0 {
		t.Fatalf("moria's reader got %d of mordor's events", len(other.Events()))
	}
	if h.Subscribers() != 1 || h.Wants("mordor") || !h.Wants("moria") {
		t.Fatalf("after close: %d subscribers, wants mordor %v, moria %v", h.Subscribers(), h.Wants("mordor"), h.Wants("moria"))
	}
}

// TestHubClosesSlowReader: a reader whose buffer is full is closed with
// ErrSlow, after the events it had room for; the others go on.
func TestHubClosesSlowReader(t *testing.T) {
	h := feed.NewHub(4)
	slow, fast := h.Subscribe("mordor"), h.Subscribe("mordor")
	var fastGot []uint64
	for seq := uint64(1); seq <= 6; seq++ {
		dropped := h.Publish(ev("mordor", seq))
		if want := map[bool]int{true: 1, false: 0}[seq == 5]; dropped != want {
			t.Fatalf("publish %d dropped %d, want %d", seq, dropped, want)
		}
		fastGot = append(fastGot, (<-fast.Events()).Seq)
	}
	var slowGot []uint64
	for e := range slow.Events() {
		slowGot = append(slowGot, e.Seq)
	}
	if len(slowGot) != 4 || slowGot[3] != 4 || !errors.Is(slow.Err(), feed.ErrSlow) {
		t.Fatalf("slow reader got %v then %v, want [1 2 3 4] then ErrSlow", slowGot, slow.Err())
	}
	if len(fastGot) != 6 || fast.Err() != nil {
		t.Fatalf("fast reader got %v, err %v", fastGot, fast.Err())
	}
	slow.Close() // closed by the hub already: nothing
	if !errors.Is(slow.Err(), feed.ErrSlow) || h.Subscribers() != 1 {
		t.Fatalf("after Close: %v, %d subscribers", slow.Err(), h.Subscribers())
	}
}

// TestHubFail: Fail closes the campaign's subscriptions with its error.
func TestHubFail(t *testing.T) {
	h := feed.NewHub(0)
	s, other := h.Subscribe("mordor"), h.Subscribe("moria")
	bad := errors.New("does not encode")
	h.Fail("mordor", bad)
	if _, ok := <-s.Events(); ok || !errors.Is(s.Err(), bad) {
		t.Fatalf("after Fail: open %v, err %v", ok, s.Err())
	}
	if other.Err() != nil {
		t.Fatalf("another campaign's reader closed: %v", other.Err())
	}
}

// TestHubConcurrent runs publishers, subscribers and closes at once (for
// the race detector).
func TestHubConcurrent(t *testing.T) {
	h := feed.NewHub(8)
	var pubs, readers sync.WaitGroup
	for _, c := range []string{"a", "b"} {
		pubs.Go(func() {
			for seq := uint64(1); seq <= 2000; seq++ {
				h.Publish(ev(c, seq))
			}
		})
	}
	for i := range 4 { // subscribe and close while events are published
		readers.Go(func() {
			for range 500 {
				h.Subscribe([]string{"a", "b"}[i%2]).Close()
			}
		})
	}
	for i := range 20 {
		s := h.Subscribe([]string{"a", "b"}[i%2])
		readers.Go(func() {
			defer s.Close()
			last := uint64(0)
			for k := 0; k < 100; k++ {
				e, ok := <-s.Events()
				if !ok {
					return
				}
				if e.Seq <= last {
					t.Errorf("out of order: %d after %d", e.Seq, last)
				}
				last = e.Seq
			}
		})
	}
	pubs.Wait()
	// Readers that fell behind may wait for more: end them.
	done := errors.New("done")
	h.Fail("a", done)
	h.Fail("b", done)
	readers.Wait()
	if h.Subscribers() != 0 {
		t.Fatalf("%d subscribers left", h.Subscribers())
	}
}
