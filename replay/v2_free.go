package replay

// Verification of journal-dice-v2 free rolls (command/v2_free.go): the
// request's fields are its signed "free-roll" action's (every member, none
// other), the dice written as the journal writes them; the roll answers
// it with the same character, dice, note and nonce (its faces, draws and
// total are checked by rollV2 as for every v2 roll, rolls.Rejudge).

import (
	"fmt"
	"slices"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rolls"
	"github.com/campaign-journal/journal/signed"
)

// v2FreeAction is command.FreeRollAction.
type v2FreeAction struct {
	Command        string `json:"command"`
	SeedCommitment string `json:"seed_commitment"`
	Character      string `json:"character"`
	Dice           string `json:"dice"`
	Note           string `json:"note"`
	Secret         bool   `json:"secret"`
}

// freeMembers are the members of a free roll's action.
var freeMembers = []string{"character", "command", "dice", "note", "secret", "seed_commitment"}

// freeRequestDiff compares a recorded free roll request with its signed action.
func freeRequestDiff(s *session, d *events.RollRequested, action []byte, eq func(string, any, any)) []string {
	var a v2FreeAction
	if err := signed.DecodeAction(action, &a); err != nil {
		return []string{"the signed action: " + err.Error()}
	}
	var diff []string
	if got := actionMembers(action); !slices.Equal(got, freeMembers) {
		diff = append(diff, fmt.Sprintf("the signed free-roll action has members %v, want %v", got, freeMembers))
	}
	if _, err := rolls.FreeExpr(a.Dice); err != nil {
		diff = append(diff, err.Error())
	}
	eq("command", "free-roll", a.Command)
	eq("seed commitment (the session's)", s.commitment, a.SeedCommitment)
	eq("character", d.Character, a.Character)
	eq("dice", d.Dice, a.Dice)
	eq("note", d.Note, a.Note)
	eq("secret", d.Secret, a.Secret)
	return diff
}

// freeRollInputs compares a free roll with its request.
func freeRollInputs(d *events.RollMade, r *v2Request, eq func(string, any, any)) {
	eq("nonce", d.Nonce, r.d.Nonce)
	eq("character", d.Character, r.d.Character)
	eq("kind", d.Kind, r.d.Kind)
	eq("dice", d.Dice, r.d.Dice)
	eq("note", d.Note, r.d.Note)
}
