package projections

import (
	"fmt"
	"strings"
	"time"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Line is one human line of a session transcript.
type Line struct {
	Seq     uint64    `json:"seq"`
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	EventID string    `json:"event_id"`
	Type    string    `json:"type"`
	Text    string    `json:"text"`
}

// Transcript folds events into human lines (in Spanish, the language of the
// rule texts), keeping the campaign state it needs to name things.
type Transcript struct {
	Campaign *Campaign
	Lines    []Line
	// Session, when set, keeps only that session's lines.
	Session string
}

// NewTranscript returns an empty transcript of a campaign, optionally of one session.
func NewTranscript(campaign, session string) *Transcript {
	return &Transcript{Campaign: NewCampaign(campaign), Session: session}
}

// Apply describes the event with the state before it, then folds it.
func (t *Transcript) Apply(rec events.Recorded) error {
	data, err := rec.Event.Payload()
	if err != nil {
		return fmt.Errorf("event %s: %w", rec.Event.ID, err)
	}
	text := Describe(t.Campaign, rec.Event, data)
	if err := t.Campaign.ApplyData(rec, data); err != nil {
		return err
	}
	if t.Session == "" || rec.Event.Session == t.Session {
		t.Lines = append(t.Lines, Line{
			Seq: rec.Seq, Time: rec.Event.Time, Session: rec.Event.Session,
			EventID: rec.Event.ID, Type: rec.Event.Type, Text: text,
		})
	}
	return nil
}

// name returns a character's display name, or its id.
func (c *Campaign) name(id string) string {
	if ch := c.Characters[id]; ch != nil && ch.Name != "" {
		return ch.Name
	}
	return id
}

var levelNames = map[string]string{"low": "bajo", "mid": "medio", "high": "alto"}

// levelReasons are the Spanish words of ryf's level reasons.
var levelReasons = map[string]string{
	ryf.ReasonSpecialization: "especialización",
	ryf.ReasonRankZero:       "habilidad a 0",
	ryf.ReasonBase:           "normal",
	ryf.ReasonTokenSpent:     "+1 por el token",
	ryf.ReasonTokenReturned:  "−1 por el token devuelto",
	ryf.ReasonIncapacitated:  "−1 por estar incapacitado",
	ryf.ReasonClampedLow:     "no baja de bajo",
	ryf.ReasonClampedHigh:    "no sube de alto",
}

// spanishReasons translates level reasons, keeping any it does not know.
func spanishReasons(reasons []string) []string {
	out := make([]string, len(reasons))
	for i, r := range reasons {
		if es, ok := levelReasons[r]; ok {
			out[i] = es
		} else {
			out[i] = r
		}
	}
	return out
}

// Describe returns the transcript line of one event, given the state before it.
func Describe(c *Campaign, ev events.Event, data any) string {
	switch d := data.(type) {
	case *events.CampaignCreated:
		opts := ""
		if d.Carisma {
			opts += ", con Carisma"
		}
		if d.HardDefense {
			opts += ", defensa dura"
		}
		return fmt.Sprintf("Campaña «%s» creada (sistema %s%s).", d.Name, d.System, opts)
	case *events.WeaponDefined:
		return fmt.Sprintf("Arma definida: %s (%s, daño %s, precisión %+d).", d.Name, d.Skill, d.Damage, d.Precision)
	case *events.SkillDefined:
		return fmt.Sprintf("Habilidad de campaña: %s (%s).", d.Name, d.Attribute)
	case *events.CharacterCreated:
		kind := "personaje jugador de " + d.Player
		if d.NPC {
			kind = "PNJ"
		}
		return fmt.Sprintf("%s entra en juego (%s), %d PV.", d.Name, kind, d.MaxHP)
	case *events.SessionStarted:
		return fmt.Sprintf("Empieza la sesión %s. Compromiso de la semilla: %s.", ev.Session, d.Commitment)
	case *events.SessionEnded:
		return fmt.Sprintf("Termina la sesión %s tras %d tiradas. Semilla revelada: %s.", ev.Session, d.Rolls, d.Seed)
	case *events.RollMade:
		return describeRoll(c, d)
	case *events.ContestResolved:
		if d.Tie {
			return fmt.Sprintf("Tirada enfrentada %s contra %s: empate (%s).", c.name(d.A), c.name(d.B), d.Reason)
		}
		return fmt.Sprintf("Tirada enfrentada %s contra %s: gana %s (%s).", c.name(d.A), c.name(d.B), c.name(d.Winner), d.Reason)
	case *events.CombatStarted:
		names := make([]string, len(d.Order))
		for i, id := range d.Order {
			names[i] = c.name(id)
		}
		return "Empieza el combate. Iniciativa: " + strings.Join(names, ", ") + "."
	case *events.CombatRound:
		return fmt.Sprintf("Asalto %d.", d.Round)
	case *events.CombatEnded:
		return "Termina el combate."
	case *events.AttackResolved:
		if !d.Hit {
			return fmt.Sprintf("%s falla contra %s (necesitaba %d).", c.name(d.Attacker), c.name(d.Target), d.Against)
		}
		crit := ""
		if d.Critical {
			crit = " ¡Crítico! Daño doble."
		}
		return fmt.Sprintf("%s impacta a %s (%d contra %d) y hace %d de daño.%s", c.name(d.Attacker), c.name(d.Target), d.Total, d.Against, d.Damage, crit)
	case *events.DamageTaken:
		hp := 0
		if ch := c.Characters[d.Character]; ch != nil {
			hp = ch.HP
		}
		after := hp - d.Amount
		return fmt.Sprintf("%s recibe %d de daño: PV %d → %d (%s).", c.name(d.Character), d.Amount, hp, after, statusNames[statusOf(after)])
	case *events.Healed:
		hp, maxHP := 0, 0
		if ch := c.Characters[d.Character]; ch != nil {
			hp, maxHP = ch.HP, ch.MaxHP
		}
		return fmt.Sprintf("%s recupera %d PV (%s): PV %d → %d.", c.name(d.Character), d.Amount, healReasons[d.Reason], hp, min(hp+d.Amount, maxHP))
	case *events.XPGranted:
		return fmt.Sprintf("%s gana %d PX.", c.name(d.Character), d.Amount)
	case *events.SkillRaised:
		return fmt.Sprintf("%s sube %s de %d a %d (%d PX).", c.name(d.Character), d.Skill, d.From, d.To, d.Cost)
	case *events.TokenReturned:
		return fmt.Sprintf("El máster devuelve el token a %s: su próxima tirada baja un nivel.", c.name(d.Character))
	case *events.WeaponReloaded:
		return fmt.Sprintf("%s recarga %s.", c.name(d.Character), d.Weapon)
	case *events.DayStarted:
		return "Amanece un nuevo día: las especializaciones vuelven a estar disponibles."
	case *events.EventVoided:
		return fmt.Sprintf("Se anula el evento %s: %s.", d.EventID, d.Reason)
	}
	if line, ok := describeTOR(c, ev, data); ok {
		return line
	}
	return ev.Type
}

var statusNames = map[string]string{
	"ok": "bien", "incapacitated": "incapacitado", "unconscious": "inconsciente", "dead": "muerto",
}

var healReasons = map[string]string{
	"gm": "por decisión del máster", "rest": "una noche de descanso", "comfort": "descanso con comodidades",
	HealAfterCombat: "tras el combate",
}

func describeRoll(c *Campaign, d *events.RollMade) string {
	if d.System == "tor" {
		return describeTORRoll(c, d)
	}
	who := c.name(d.Character)
	var b strings.Builder
	switch d.Kind {
	case "damage":
		fmt.Fprintf(&b, "%s tira daño %s con %s: %v = %d", who, d.Dice, orUnarmed(d.Weapon), d.Faces, d.Total)
		if d.Critical {
			b.WriteString(" (crítico ×2)")
		}
		fmt.Fprintf(&b, " [nonce %d]", d.Nonce)
		return b.String()
	case "heal":
		return fmt.Sprintf("%s tira %s de curación: %v [nonce %d]", who, d.Dice, d.Faces, d.Nonce)
	}
	what := d.Skill
	if what == "" {
		what = d.Attribute
	}
	switch d.Kind {
	case "initiative":
		what = "iniciativa"
	case "melee", "ranged":
		what = "ataque a " + c.name(d.Target)
	case "attribute":
		what = "atributo " + d.Attribute
	}
	fmt.Fprintf(&b, "%s tira %s", who, what)
	fmt.Fprintf(&b, " (base %d, nivel %s", d.Base, levelNames[d.Level])
	if len(d.LevelReasons) > 0 {
		fmt.Fprintf(&b, ": %s", strings.Join(spanishReasons(d.LevelReasons), ", "))
	}
	fmt.Fprintf(&b, "): dados %v, objetivo %v → total %d", rounds(d.Faces), d.Kept, d.Total)
	if d.Difficulty != nil {
		if d.DifficultyName != "" {
			fmt.Fprintf(&b, " contra %s (%d)", d.DifficultyName, *d.Difficulty)
		} else {
			fmt.Fprintf(&b, " contra %d", *d.Difficulty)
		}
	}
	fmt.Fprintf(&b, " → %s [nonce %d]", outcomeNames[d.Outcome], d.Nonce)
	return b.String()
}

var outcomeNames = map[string]string{
	"success": "éxito", "failure": "fallo", "critical": "¡crítico!", "fumble": "¡pifia!",
	"natural1": "1 natural (fallo)", "rolled": "tirada",
}

func orUnarmed(w string) string {
	if w == "" {
		return "los puños"
	}
	return w
}

// rounds groups 1o3d10 faces by rounds of three for display.
func rounds(faces []int) [][]int {
	var out [][]int
	for i := 0; i+3 <= len(faces); i += 3 {
		out = append(out, faces[i:i+3])
	}
	return out
}
