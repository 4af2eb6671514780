package jetstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// MaxConsumerIdle is the longest inactive threshold a consumer of the
// JOURNAL stream may have: what nats.go gives an ordered consumer, and
// what the store's own reads use.
const MaxConsumerIdle = 5 * time.Minute

// consumerAdvisories is the prefix of the subject the server announces
// each consumer created on a stream on:
// $JS.EVENT.ADVISORY.CONSUMER.CREATED.<stream>.<consumer>.
const consumerAdvisories = "$JS.EVENT.ADVISORY.CONSUMER.CREATED."

// ConsumerRefused says why a consumer of the stream is not allowed, or ""
// when it is: the only consumers allowed are what ordered consumers are,
// ephemeral pull consumers that the server removes once unused for at most
// MaxConsumerIdle. Refused: a durable consumer (it stays forever), a push
// consumer (the server publishes the events on its deliver subject with
// its own authority, whoever asked for it), a consumer with no or a longer
// inactive threshold.
func ConsumerRefused(cfg jetstream.ConsumerConfig) string {
	switch {
	case cfg.Durable != "":
		return "durable"
	case cfg.DeliverSubject != "":
		return fmt.Sprintf("push, delivering to %q", cfg.DeliverSubject)
	case cfg.InactiveThreshold <= 0 || cfg.InactiveThreshold > MaxConsumerIdle:
		return fmt.Sprintf("inactive threshold %v, not within (0, %v]", cfg.InactiveThreshold, MaxConsumerIdle)
	}
	return ""
}

// StartGuard enforces on the journal's streams (JOURNAL, or each
// partition's JOURNAL-<p>, as the journal was created) what NATS subject permissions
// cannot: a user allowed to create an ordered consumer on its campaign
// ($JS.API.CONSUMER.CREATE.JOURNAL.<name>.journal.<campaign>, see package
// access) may put any configuration in the request, durable or push
// included. The guard deletes every consumer ConsumerRefused refuses:
// those present when it starts, then each one as the server announces it
// (consumer-created advisories), and calls report for each (nil: no
// report), with the error when it could not read or delete one (it goes
// on with the next). It needs a connection allowed to use the whole JetStream API
// (the journal's). StartGuard returns once the guard watches the
// advisories and has swept the consumers present; stop ends it. A refused consumer lives from
// its creation to its deletion, a round trip or two of the journal: a push
// consumer may deliver some of its campaign's events to its deliver
// subject meanwhile.
func StartGuard(ctx context.Context, js jetstream.JetStream, report func(name, why string, err error)) (stop func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() { done <- guardConsumers(ctx, js, report, ready) }()
	select {
	case <-ready:
	case err := <-done:
		cancel()
		return nil, err
	}
	return func() { cancel(); <-done }, nil
}

// guardConsumers is the guard: it closes ready once it watches and has
// swept, and returns an error only before that.
func guardConsumers(ctx context.Context, js jetstream.JetStream, report func(name, why string, err error), ready chan<- struct{}) error {
	if report == nil {
		report = func(string, string, error) {}
	}
	k, err := Partitions(ctx, js)
	if err != nil {
		return msgerr.Errorf("guard consumers: %w", err)
	}
	streams := StreamNames(k) // every stream of the journal
	advisories := make(chan *nats.Msg, 256)
	for _, stream := range streams {
		sub, err := js.Conn().ChanSubscribe(consumerAdvisories+stream+".*", advisories)
		if err != nil {
			return msgerr.Errorf("guard consumers: %w", err)
		}
		defer sub.Unsubscribe()
	}
	for _, stream := range streams {
		if err := sweep(ctx, js, stream, report); err != nil {
			return err
		}
	}
	close(ready)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-advisories:
			stream, name, _ := strings.Cut(strings.TrimPrefix(m.Subject, consumerAdvisories), ".")
			if err := guardOne(ctx, js, stream, name, nil, report); err != nil && ctx.Err() == nil {
				report(name, "", err)
			}
		}
	}
}

// sweep makes sure the advisories are watched, then deletes the refused
// consumers present on stream.
func sweep(ctx context.Context, js jetstream.JetStream, streamName string, report func(name, why string, err error)) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if err := js.Conn().FlushWithContext(ctx); err != nil {
		return msgerr.Errorf("guard consumers: %w", err)
	}
	stream, err := js.Stream(ctx, streamName)
	if err != nil {
		return msgerr.Errorf("guard consumers: %w", err)
	}
	list := stream.ListConsumers(ctx)
	for info := range list.Info() {
		if err := guardOne(ctx, js, streamName, info.Name, &info.Config, report); err != nil {
			return err
		}
	}
	if err := list.Err(); err != nil {
		return msgerr.Errorf("guard consumers: list: %w", err)
	}
	return nil
}

// guardOne deletes consumer name if its configuration (read from the
// server when cfg is nil) is refused. A consumer already gone is fine.
func guardOne(ctx context.Context, js jetstream.JetStream, stream, name string, cfg *jetstream.ConsumerConfig, report func(name, why string, err error)) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if cfg == nil {
		// Asked by hand: nats.go's Consumer refuses a push consumer.
		resp, err := js.Conn().RequestWithContext(ctx, apiPrefix(js.Options())+"CONSUMER.INFO."+stream+"."+name, nil)
		if err != nil {
			return msgerr.Errorf("guard consumers: consumer %s: %w", name, err)
		}
		var info struct {
			Error  *jetstream.APIError       `json:"error"`
			Config *jetstream.ConsumerConfig `json:"config"`
		}
		if err := json.Unmarshal(resp.Data, &info); err != nil {
			return msgerr.Errorf("guard consumers: consumer %s: %w", name, err)
		}
		switch {
		case info.Error != nil && info.Error.ErrorCode == jetstream.JSErrCodeConsumerNotFound:
			return nil
		case info.Error != nil:
			return msgerr.Errorf("guard consumers: consumer %s: %w", name, info.Error)
		case info.Config == nil:
			return msgerr.Errorf("guard consumers: consumer %s: no configuration in %s", name, resp.Data)
		}
		cfg = info.Config
	}
	why := ConsumerRefused(*cfg)
	if why == "" {
		return nil
	}
	if err := js.DeleteConsumer(ctx, stream, name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return msgerr.Errorf("guard consumers: delete %s (%s): %w", name, why, err)
	}
	report(name, why, nil)
	return nil
}
