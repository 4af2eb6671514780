package command_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/signed"
)

// consent seals a void.consent of event for reason.
func (d device) consent(t testing.TB, session, event, reason string) command.SignedMessage {
	return d.seal(t, &signed.VoidConsent{Header: signed.Header{Campaign: "mordor", Session: session}, Event: event, Reason: reason})
}

// TestV2VoidConsent voids a v2 roll with its roller's signed consent, and
// attacks the consent: each refusal is one clear error and records nothing.
func TestV2VoidConsent(t *testing.T) {
	ctx := context.Background()
	j, st, ana, gm := setupV2(t)
	aj := j.MustFor(command.Call{Actor: "ana"})
	roll := func(r [32]byte) string {
		id := uuid.NewString()
		_, err := aj.RequestRoll(ctx, "mordor", ana.request(t, "s2", id, r, sigilo))
		require.NoError(t, err)
		res, err := aj.RevealRoll(ctx, "mordor", ana.reveal(t, "s2", id, r))
		require.NoError(t, err)
		return res.Events[0].Event.ID
	}
	first, second := roll(secret(0x20)), roll(secret(0x40))
	const reason = "rolled the wrong skill"
	var notRoll string
	require.NoError(t, st.Read(ctx, events.Query{}, func(r events.Recorded) error {
		if r.Event.Type == events.TypeDeviceRegistered {
			notRoll = r.Event.ID
		}
		return nil
	}))
	before := count(t, st)
	for _, tc := range []struct {
		name, event, reason string
		consent             command.SignedMessage
		want                string
	}{
		{"a consent for another event", first, reason, ana.consent(t, "s2", second, reason), "is for event " + second},
		{"a consent for another reason", first, reason, ana.consent(t, "s2", first, "I changed my mind"), "not the void's"},
		{"a consent signed by the GM", first, reason, gm.consent(t, "s2", first, reason), "signed message of ana"},
		{"a consent for another session", first, reason, ana.consent(t, "s1", first, reason), "session"},
		{"a consent for an event that is no roll", notRoll, reason, ana.consent(t, "s2", notRoll, reason), "is a journal.device.registered.v1"},
		{"a forged signature", first, reason, command.SignedMessage{Signed: ana.consent(t, "s2", first, reason).Signed,
			Signature: gm.consent(t, "s2", first, reason).Signature}, "signed message of ana"},
	} {
		_, err := j.VoidWithConsent(ctx, "mordor", tc.event, tc.reason, tc.consent)
		require.ErrorContains(t, err, tc.want, tc.name)
		require.Equal(t, before, count(t, st), "%s: a refusal recorded something", tc.name)
	}

	res, err := j.VoidWithConsent(ctx, "mordor", first, reason, ana.consent(t, "s2", first, reason))
	require.NoError(t, err)
	var v events.EventVoided
	require.NoError(t, res.Events[0].Event.DecodeData(&v))
	require.Equal(t, "ana", v.ConsentUser)
	require.NotEmpty(t, v.ConsentSigned)
	require.NotEmpty(t, v.ConsentSignature)

	// Without a consent it is Void.
	res, err = j.VoidWithConsent(ctx, "mordor", second, reason, command.SignedMessage{})
	require.NoError(t, err)
	var plain events.EventVoided
	require.NoError(t, res.Events[0].Event.DecodeData(&plain))
	require.Empty(t, plain.ConsentUser+plain.ConsentSigned+plain.ConsentSignature)
}
