package bench

import "testing"

// TestPeakTrackerShortMeasurement: a measurement shorter than the
// tracker's sampling interval still reports the heap and resident memory
// it ran with, not zero.
func TestPeakTrackerShortMeasurement(t *testing.T) {
	p := newPeakTracker()
	defer p.stop()
	for range 3 {
		p.begin()
		rss, heap := p.end()
		if rss == 0 || heap == 0 {
			t.Fatalf("peaks of a short measurement: RSS %d, heap %d; want both above zero", rss, heap)
		}
	}
}
