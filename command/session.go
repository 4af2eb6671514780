package command

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
	"github.com/campaign-journal/journal/projections"
	"github.com/campaign-journal/journal/rules/dice"
)

// MaxEntropy is the longest player entropy string, in bytes.
const MaxEntropy = 64

// maxSeedRetries bounds the ids a session start without an id tries when
// seeds are already kept under the next ones.
const maxSeedRetries = 8

// secretKey is where a session's seed is kept until it is revealed.
func secretKey(campaign, session string) (string, error) {
	return events.SecretKey("seed", campaign, session)
}

// sessionKey reads the open session's seed from the secret store.
func (j *Handler) sessionKey(ctx context.Context, campaign, session string) (*dice.Key, error) {
	seed, err := j.sessionSeed(ctx, campaign, session)
	if err != nil {
		return nil, err
	}
	return dice.NewKey(seed), nil
}

func (j *Handler) sessionSeed(ctx context.Context, campaign, session string) (dice.Seed, error) {
	key, err := secretKey(campaign, session)
	if err != nil {
		return dice.Seed{}, err
	}
	b, err := j.secretStore().GetSecret(ctx, key)
	if err != nil {
		return dice.Seed{}, msgerr.Errorf("seed of session %s: %w", session, err)
	}
	if len(b) != dice.SeedSize {
		return dice.Seed{}, msgerr.Errorf("seed of session %s: %d bytes, want %d", session, len(b), dice.SeedSize)
	}
	return dice.Seed(b), nil
}

// checkEntropy refuses entropy that could not be typed back by a verifier.
func checkEntropy(s string) error {
	if err := checkField("entropy", s); err != nil { // length, UTF-8, control characters
		return err
	}
	if strings.ContainsRune(s, '|') {
		return invalid("entropy may not contain %q", '|')
	}
	return nil
}

// stream returns the dice stream of the next roll of the open session.
func (d *draft) stream(entropy string) (*dice.Stream, uint64, error) {
	if d.key == nil {
		return nil, 0, invalid("no session in progress: start one with 'journal session start'")
	}
	if err := checkEntropy(entropy); err != nil {
		return nil, 0, err
	}
	s := d.campaign.OpenSession()
	if s.V2() {
		return nil, 0, msgerr.Errorf("%w: session %s: its rolls are signed requests and reveals ('journal roll', 'attack', 'contest', 'combat start', 'heal-after-combat' do both; or roll-request and roll-reveal)", ErrV2NotWired, s.ID)
	}
	n := d.nonce
	d.nonce++
	return d.key.Stream(d.campaign.ID, s.ID, n, entropy), n, nil
}

// StartSession opens a journal-dice-v1 session: it draws a secret seed,
// keeps it in the secret store, and records only its commitment. An empty
// id takes the next "sN". It is v1 whatever the campaign: the catalogue's
// session-start (HTTP, NATS, CLI) goes through StartSessionWith, whose
// default is the campaign's (DefaultDice).
func (j *Handler) StartSession(ctx context.Context, campaign, id, title string) (Result, error) {
	return j.startSession(ctx, campaign, id, title, dice.Algorithm)
}

// startSession is StartSession with the session's dice algorithm
// (dice.Algorithm or dice.AlgorithmV2; "" is the campaign's default,
// DefaultDice, judged on the state the event is appended to).
func (j *Handler) startSession(ctx context.Context, campaign, id, title, algorithm string) (Result, error) {
	if res, ok, err := j.repeatedBefore(ctx, campaign); ok || err != nil {
		return res, err
	}
	if err := checkField("title", title); err != nil { // before the seed is stored
		return Result{}, err
	}
	c, err := j.Current(ctx, campaign) // the cached fold, as the command will find it (current.go)
	if err != nil {
		return Result{}, err
	}
	if err := requireCampaign(c); err != nil {
		return Result{}, err
	}
	if s := c.OpenSession(); s != nil {
		return Result{}, invalid("session %s is still in progress: end it first", s.ID)
	}
	if err := checkNoDowngrade(c, algorithm); err != nil { // before the seed is stored
		return Result{}, err
	}
	auto := id == ""
	if auto {
		id = fmt.Sprintf("s%d", len(c.Sessions)+1)
		for c.Session(id) != nil {
			id += "b"
		}
	}
	if err := events.ValidID(id); err != nil {
		return Result{}, invalid("session id %q: %v", clip.Text(id), err)
	}
	if c.Session(id) != nil {
		return Result{}, invalid("session %s already exists", id)
	}
	// Admitted before its seed is stored, so that a refused start leaves
	// no secret behind either.
	if err := j.admit(campaign, c.Events, 1); err != nil {
		return Result{}, err
	}
	j = j.preAdmitted()
	seed, err := dice.NewSeed(j.rand)
	if err != nil {
		return Result{}, err
	}
	for tries := 0; ; tries++ {
		key, err := secretKey(campaign, id)
		if err != nil {
			return Result{}, err
		}
		err = j.secretStore().PutSecret(ctx, key, seed[:])
		if errors.Is(err, events.ErrExists) && auto && tries < maxSeedRetries {
			// A seed kept for a session that is not recorded (another
			// start at the same time, or one whose append was lost):
			// a session of our own takes the next id.
			id += "b"
			continue
		}
		if errors.Is(err, events.ErrExists) {
			return Result{}, invalid("session %s was started elsewhere at the same time", id)
		}
		if err != nil {
			return Result{}, err
		}
		break
	}
	return j.execute(ctx, campaign, func(d *draft) error {
		if s := d.campaign.OpenSession(); s != nil {
			return invalid("session %s is still in progress: end it first", s.ID)
		}
		if d.campaign.Session(id) != nil {
			return invalid("session %s already exists", id)
		}
		algorithm := algorithm
		if algorithm == "" {
			algorithm = dice.Algorithm
			if DefaultDice(d.campaign) == DiceV2 {
				algorithm = dice.AlgorithmV2
			}
		}
		if err := checkNoDowngrade(d.campaign, algorithm); err != nil {
			return err
		}
		ev, err := events.New(events.Spec{
			Campaign: campaign, Kind: events.KindSession, AggregateID: id, Name: events.Name(events.TypeSessionStarted),
			Type: events.TypeSessionStarted, Session: id, Actor: j.actor, RequestID: j.request, Command: j.name,
			Data: events.SessionStarted{Title: title, Algorithm: algorithm, Commitment: seed.Commitment()},
		}, d.ids, d.now)
		if err != nil {
			return err
		}
		d.evs = append(d.evs, ev)
		return nil
	})
}

// ErrDowngrade marks a journal-dice-v1 session refused in a campaign in
// which a device key is registered (docs/design.md §3.3, "No downgrade"). It
// wraps ErrInvalid.
var ErrDowngrade = msgerr.Errorf("%w: no journal-dice-v1 session once device keys are registered", ErrInvalid)

// checkNoDowngrade refuses a journal-dice-v1 session (algorithm
// dice.Algorithm) in campaign c once any device key is registered in it
// (a player's or the GM's): v1 lets the host read the seed and steer the
// rolls, so a campaign whose devices can sign plays v2 only. "" (the
// campaign's default) is judged by the caller once resolved.
func checkNoDowngrade(c *projections.Campaign, algorithm string) error {
	if algorithm != dice.Algorithm || len(c.Participants) == 0 {
		return nil
	}
	users := make([]string, 0, len(c.Participants))
	for u := range c.Participants {
		users = append(users, u)
	}
	slices.Sort(users)
	return msgerr.Errorf("%w (v1 lets the host steer the rolls): campaign %s has keys of %s; start it as journal-dice-v2 (without --dice v1)", ErrDowngrade, c.ID, strings.Join(users, ", "))
}

// EndSession closes the open session and reveals its seed.
func (j *Handler) EndSession(ctx context.Context, campaign string) (Result, error) {
	return j.execute(ctx, campaign, func(d *draft) error {
		if err := requireCampaign(d.campaign); err != nil {
			return err
		}
		s := d.campaign.OpenSession()
		if s == nil {
			return invalid("no session in progress")
		}
		seed, err := j.sessionSeed(ctx, campaign, s.ID)
		if err != nil {
			return err
		}
		if !seed.Matches(s.Commitment) {
			return msgerr.Errorf("seed of session %s does not match its commitment: the secret store was altered", s.ID)
		}
		// Every secret roll left is revealed before the seed is (free.go).
		if err := d.revealAllOf(ctx, s); err != nil {
			return err
		}
		d.add(events.KindSession, s.ID, events.TypeSessionEnded,
			events.SessionEnded{Seed: seed.String(), Rolls: int(s.NextNonce)})
		return nil
	})
}

// noSecrets is the secret store of a journal given none: it keeps nothing,
// so a session cannot start and no seed is found.
type noSecrets struct{}

func (noSecrets) PutSecret(context.Context, string, []byte) error {
	return msgerr.Errorf("%w: this journal has no store for the sessions' secrets", ErrInvalid)
}

func (noSecrets) GetSecret(context.Context, string) ([]byte, error) {
	return nil, msgerr.Errorf("%w: this journal has no store for the sessions' secrets", events.ErrNotFound)
}

// secretStore returns where the journal keeps the sessions' seeds.
func (j *Handler) secretStore() events.Secrets {
	if j.secrets == nil {
		return noSecrets{}
	}
	return j.secrets
}
