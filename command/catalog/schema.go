package catalog

// JSON Schemas of the commands' bodies, made by reflection from the very
// Go types the catalogue decodes them into, so that what GET /api/commands
// and /api/openapi.json describe cannot drift from what DecodeStrict takes.
//
// Invariants:
//   - A body's schema has exactly the JSON members encoding/json decodes
//     into its request type (embedded structs flattened, "-" and unexported
//     fields left out), plus request_id (RequestIDField, an optional
//     string: RequestID takes it out before the strict decoding), each with
//     its JSON type; "additionalProperties": false on every object, since
//     DecodeStrict refuses unknown members at every depth.
//   - Its "required" is the Spec's Required, always an array ([] for none);
//     a required member also says that its zero value is refused
//     (RequireFields): minLength 1, minItems 1, or not 0.
//   - Descriptions and enums come from small tables here (fieldDocs,
//     enums); an enum is given only where the handler takes nothing else.
//     Pure: no I/O.

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/rules/ryf"
)

// Draft2020 is the JSON Schema dialect of Schema.
const Draft2020 = "https://json-schema.org/draft/2020-12/schema"

// Schema is a JSON Schema (the subset of draft 2020-12 the journal's
// bodies need). An object's required list is always written, [] when empty.
type Schema struct {
	Schema      string             `json:"$schema,omitempty"`
	Ref         string             `json:"$ref,omitempty"`
	Type        string             `json:"type,omitempty"`
	Format      string             `json:"format,omitempty"`
	Description string             `json:"description,omitempty"`
	Properties  map[string]*Schema `json:"properties,omitempty"`
	// Required: the members that must be given (written for every
	// object, [] when none).
	Required []string `json:"-"`
	// AdditionalProperties is false for a struct (unknown members are
	// refused) or the schema of a map's values.
	AdditionalProperties any       `json:"additionalProperties,omitempty"`
	Items                *Schema   `json:"items,omitempty"`
	Enum                 []string  `json:"enum,omitempty"`
	Examples             []any     `json:"examples,omitempty"`
	MinLength            *int      `json:"minLength,omitempty"`
	Pattern              string    `json:"pattern,omitempty"`
	MinItems             *int      `json:"minItems,omitempty"`
	Not                  *Schema   `json:"not,omitempty"`
	Const                any       `json:"const,omitempty"`
	OneOf                []*Schema `json:"oneOf,omitempty"`
}

// MarshalJSON writes the schema with "required" for every object.
func (s *Schema) MarshalJSON() ([]byte, error) {
	type plain Schema
	out := struct {
		*plain
		Required *[]string `json:"required,omitempty"`
	}{plain: (*plain)(s)}
	if s.Type == "object" && s.AdditionalProperties == false || len(s.Required) > 0 {
		req := s.Required
		if req == nil {
			req = []string{}
		}
		out.Required = &req
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a schema MarshalJSON wrote.
func (s *Schema) UnmarshalJSON(b []byte) error {
	type plain Schema
	in := struct {
		*plain
		Required []string `json:"required"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	s.Required = in.Required
	return nil
}

// Property names the schema's members, in order.
func (s *Schema) PropertyNames() []string {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

var (
	timeType        = reflect.TypeFor[time.Time]()
	rawType         = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// SchemaOf is the JSON Schema of what encoding/json decodes into a value
// of type t (a struct's members by their JSON names; no required list).
// A type with its own JSON decoding is described as any value ({}), a
// TextUnmarshaler as a string.
func SchemaOf(t reflect.Type) *Schema {
	return schemaOf(t, false, map[reflect.Type]bool{})
}

// OutputSchemaOf is SchemaOf for what encoding/json writes of a value of
// type t: each object's required members are those it always writes (no
// omitempty).
func OutputSchemaOf(t reflect.Type) *Schema {
	return schemaOf(t, true, map[reflect.Type]bool{})
}

func schemaOf(t reflect.Type, output bool, seen map[reflect.Type]bool) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return &Schema{Type: "string", Format: "date-time"}
	case t == rawType:
		return &Schema{}
	case reflect.PointerTo(t).Implements(unmarshalerType):
		return &Schema{}
	case reflect.PointerTo(t).Implements(textType):
		return &Schema{Type: "string"}
	}
	switch t.Kind() {
	case reflect.String:
		return &Schema{Type: "string"}
	case reflect.Bool:
		return &Schema{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Schema{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return &Schema{Type: "string", Format: "byte"} // base64
		}
		return &Schema{Type: "array", Items: schemaOf(t.Elem(), output, seen)}
	case reflect.Map:
		return &Schema{Type: "object", AdditionalProperties: schemaOf(t.Elem(), output, seen)}
	case reflect.Struct:
		if seen[t] {
			return &Schema{Type: "object"} // a recursive type: not described twice
		}
		seen[t] = true
		defer delete(seen, t)
		s := &Schema{Type: "object", Properties: map[string]*Schema{}, AdditionalProperties: false}
		for _, f := range jsonFields(t) {
			fs := schemaOf(f.typ, output, seen)
			if f.asString {
				fs = &Schema{Type: "string"}
			}
			s.Properties[f.name] = fs
			if output && !f.omitEmpty {
				s.Required = append(s.Required, f.name)
			}
		}
		return s
	}
	return &Schema{} // interfaces and the like: any value
}

// jsonField is one member encoding/json decodes into a struct.
type jsonField struct {
	name     string
	typ      reflect.Type
	asString bool // the ",string" option
	// omitEmpty: the ",omitempty" or ",omitzero" option (output only).
	omitEmpty bool
}

// jsonFields lists the members of struct t as encoding/json sees them:
// exported fields by their tag's name (else the Go name), embedded
// untagged structs flattened (a shallower name wins; two at one depth
// cancel out, as encoding/json does), "-" left out.
func jsonFields(t reflect.Type) []jsonField {
	type found struct {
		jsonField
		depth  int
		tagged bool
		dup    bool
	}
	byName := map[string]*found{}
	var order []string
	var walk func(t reflect.Type, depth int, visited map[reflect.Type]bool)
	walk = func(t reflect.Type, depth int, visited map[reflect.Type]bool) {
		if visited[t] {
			return
		}
		visited[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous && name == "" {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					walk(et, depth+1, visited)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			tagged := name != ""
			if name == "" {
				name = f.Name
			}
			o := strings.Split(opts, ",")
			asString := slices.Contains(o, "string") && isScalar(ft)
			omit := slices.Contains(o, "omitempty") || slices.Contains(o, "omitzero")
			cur := &found{jsonField: jsonField{name: name, typ: ft, asString: asString, omitEmpty: omit}, depth: depth, tagged: tagged}
			prev, ok := byName[name]
			switch {
			case !ok:
				byName[name] = cur
				order = append(order, name)
			case depth < prev.depth:
				byName[name] = cur
			case depth == prev.depth && tagged && !prev.tagged:
				byName[name] = cur
			case depth == prev.depth && tagged == prev.tagged:
				prev.dup = true
			}
		}
	}
	walk(t, 0, map[reflect.Type]bool{})
	var out []jsonField
	for _, n := range order {
		if f := byName[n]; !f.dup {
			out = append(out, f.jsonField)
		}
	}
	return out
}

func isScalar(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// BodyType is the Go type the command's body decodes into.
func (s Spec) BodyType() reflect.Type { return reflect.TypeOf(s.Body) }

// Schema is the JSON Schema of the command's body: every member of its
// request type, request_id, the required members, no others.
func (s Spec) Schema() *Schema {
	sc := SchemaOf(s.BodyType())
	sc.Description = s.Doc
	sc.Required = slices.Clone(s.Required)
	if sc.Required == nil {
		sc.Required = []string{}
	}
	for name, p := range sc.Properties {
		if d := describe(s.Name, name); d != "" {
			p.Description = d
		}
		if e, ok := enums[s.Name+"."+name]; ok {
			p.Enum = e()
		}
		if x, ok := examples[s.Name+"."+name]; ok {
			p.Examples = x()
		}
	}
	for _, name := range sc.Required {
		p := sc.Properties[name]
		if p == nil {
			continue
		}
		one := 1
		switch p.Type { // RequireFields refuses a zero value
		case "string":
			p.MinLength = &one
		case "array":
			p.MinItems = &one
		case "integer", "number":
			p.Not = &Schema{Const: 0}
		case "boolean":
			p.Const = true
		}
	}
	sc.Properties[RequestIDField] = RequestIDSchema()
	return sc
}

// RequestIDSchema is the schema of a request id (events.ValidRequestID):
// the body's request_id, HTTP's Idempotency-Key.
func RequestIDSchema() *Schema {
	return &Schema{Type: "string", Pattern: "^[A-Za-z0-9._:-]{1," + strconv.Itoa(events.MaxRequestIDLen) + "}$",
		Description: "the request id: a retry with the same one is recorded once (HTTP: or the Idempotency-Key header)"}
}

func ptr[T any](v T) *T { return &v }

// CheckBody decodes body strictly into the command's request type, as Run
// does first, without running anything: malformed JSON, a body that is
// not an object, unknown members and members of the wrong type are
// refused (command.ErrInvalid). Required members are not checked here.
func (s Spec) CheckBody(body []byte) error {
	return DecodeStrict(body, reflect.New(s.BodyType()).Interface())
}

// describe is a member's description: the command's own (fieldDocs
// "command.member"), else the member's everywhere (fieldDocs "member").
func describe(cmd, member string) string {
	if d, ok := fieldDocs[cmd+"."+member]; ok {
		return d
	}
	return fieldDocs[member]
}

// fieldDocs describes members by name, or by "command.member" where a
// command reads a name its own way.
var fieldDocs = map[string]string{
	"character":      "the character's id",
	"id":             "an id: lower-case letters, digits and dashes",
	"name":           "a name",
	"player":         "the user id of the character's player (empty: an NPC or the GM's)",
	"skill":          "a skill (any case, accents optional, unique prefix)",
	"attribute":      "an attribute (a one-letter code or its name)",
	"modifier":       "added to the total",
	"token":          "spend the character's token",
	"specialization": "the character's specialization applies",
	"entropy":        "the player's own entropy mixed into the roll (journal-dice-v1)",
	"amount":         "a number of points",
	"reason":         "why, in words",
	"signed":         "the device's signed message, as signed (journal-dice-v2: see signed.Message)",
	"signature":      "the message's Ed25519 signature, in hex",
	"request":        "the id of a roll request",
	"weapon":         "a weapon's name",
	"target":         "the target character's id",
	"attacker":       "the attacking character's id (it must be their turn)",
	"participants":   "the characters in the combat",
	"roll":           "a roll's event id (a short id works)",
	"event_id":       "the id of the event voided (a short id works)",
	"title":          "a title",

	"campaign-create.id":       "the campaign's id (the path's campaign)",
	"campaign-create.system":   "the game system, fixed for good",
	"session-start.id":         "the session's id (empty: s1, s2, …)",
	"session-start.dice":       "v1 (journal-dice-v1: the server's seed) or v2 (journal-dice-v2: rolls signed by the devices, commit then reveal); empty: v2 once any device key is registered, else v1; v1 is refused once any device key is registered",
	"roll.vs":                  "the difficulty: a name (fácil 10, media 15, difícil 20, insólito 25, imposible 30) or a number 0..100; empty: none",
	"roll.tn":                  "The One Ring's target number (default 14)",
	"roll.trait":               "The One Ring: a trait invoked before the roll",
	"roll.skill":               "the skill rolled; empty: an attribute roll",
	"roll.attribute":           "the attribute of an attribute roll, or the one the GM names for a skill roll",
	"attack.range":             "the band of a ranged attack: corta, media, larga (or short, medium, long)",
	"attack.distance":          "the distance of a ranged attack in metres (instead of range)",
	"attack.cover":             "the target is under cover (one band harder)",
	"damage.source":            "what did the damage",
	"key-register.public_key":  "the device's Ed25519 public key, 64 lower-case hex",
	"key-register.user":        "whose key (empty: the caller's)",
	"key-register.role":        "the key's role (empty: player)",
	"void.consent_signed":      "journal-dice-v2: the roller's signed void.consent",
	"void.consent_signature":   "journal-dice-v2: its signature",
	"roll-request.wait":        "seconds the GM's roll waits for a witness",
	"roll-resolve.beacon":      "resolve by the drand beacon round",
	"roll-resolve.unwitnessed": "resolve without a witness, after the wait (flagged by every audit)",
	"roll-resolve.signature":   "the beacon round's signature, in hex (empty: the journal fetches it)",
	"contest.rematch":          "the tied contest this re-rolls",
	"rest.comfort":             "a comfortable rest",
	"hope-spend.roll":          "the failed roll (empty: the character's latest)",
	"advancement-grant.group":  "a skill group, or one of its skills",
	"advancement-grant.roll":   "the roll that earned the point (empty: the GM's decision)",
	"fellowship-vote.agree":    "the vote",
	"free-roll.character":      "the character who rolls (the GM's roll may name none)",
	"free-roll.dice":           "a dice expression: NdM terms (N 1..100, M 2..256) and numbers joined by + or -, such as 1d6, 2d10+3, 2d6+1d4-1; at most 10 terms, 100 dice, numbers adding up to 1000",
	"free-roll.note":           "a note on the roll, shown with it (a secret roll's too)",
	"free-roll.secret":         "the GM's secret roll: recorded without its outcome until the GM reveals it or the session ends",
	"free-roll.call":           "the roll call it answers",
	"roll.secret":              "the GM's secret roll: recorded without its outcome until the GM reveals it or the session ends",
	"reveal.request":           "the secret roll: its hidden event's id, or its start or end (at least 4 characters)",
}

// enums are the values a member takes, where its handler takes no other.
var enums = map[string]func() []string{
	"campaign-create.system": func() []string { return []string{command.SystemRyF, command.SystemGalaxia, command.SystemTOR} },
	"session-start.dice":     func() []string { return []string{command.DiceV1, command.DiceV2} },
	"key-register.role":      func() []string { return []string{command.RolePlayer, command.RoleGM} },
}

// examples are values a member takes, where the handler also takes
// others (a prefix, a number, another case).
var examples = map[string]func() []any{
	"roll.vs": func() []any {
		var out []any
		for n := ryf.MinDifficulty; n <= ryf.MaxDifficulty; n++ {
			if name := ryf.DifficultyName(n); name != "" {
				out = append(out, name)
			}
		}
		return append(out, "15")
	},
	"attack.range": func() []any {
		return []any{string(ryf.BandShort), string(ryf.BandMedium), string(ryf.BandLong)}
	},
}
