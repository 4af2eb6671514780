package access

import "github.com/campaign-journal/journal/command/catalog"

// AuthorizeCommand is AuthorizeRequest for a catalogued command at every
// door (HTTP, NATS), telling a malformed body from a forbidden one:
//  1. whether p may issue command in campaign at all (a player: for one of
//     its own characters), whatever the body: ErrDenied (403);
//  2. when the acting character cannot be read from the body, the body
//     decoded strictly by the catalogue: a body that does not decode is
//     the requester's mistake (command.ErrInvalid, 400), not a refusal;
//  3. the body's acting character (another's, or the field twice):
//     ErrDenied.
func AuthorizeCommand(p Principal, campaign, command string, body []byte) error {
	own := ""
	if p.Role == RolePlayer && len(p.Characters) > 0 {
		own = p.Characters[0]
	}
	if err := Authorize(p, campaign, command, own); err != nil {
		return err
	}
	if _, err := ActingCharacter(command, body); err != nil {
		if spec, ok := catalog.Lookup(command); ok {
			if err := spec.CheckBody(body); err != nil {
				return err
			}
		}
	}
	return AuthorizeRequest(p, campaign, command, body)
}
