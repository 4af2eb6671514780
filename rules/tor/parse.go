package tor

import (
	"strconv"
	"strings"

	"github.com/campaign-journal/journal/internal/clip"
	"github.com/campaign-journal/journal/internal/msgerr"
)

// ParseSkills reads skill ratings as the CLI takes them: comma-separated
// entries NAME=RANK, with a trailing "*" after the rank marking a favoured
// skill, for example "Atletismo=3*,Sigilo=2" or "athletics = 3 *, sig=2".
// Names are looked up with LookupSkill (any case, no accents, English alias,
// unique prefix) and stored under their Spanish name; a skill may appear
// once. Blank text gives no ratings. Only syntax and names are checked here;
// ranks are checked by Character.Validate.
func ParseSkills(text string) (Ratings, error) {
	out := Ratings{}
	if strings.TrimSpace(text) == "" {
		return out, nil
	}
	for i, entry := range strings.Split(text, ",") {
		name, value, ok := strings.Cut(entry, "=")
		if !ok {
			return nil, msgerr.Errorf("%w: skill entry %d %q: want NAME=RANK or NAME=RANK*", ErrSyntax, i+1, clip.Text(entry))
		}
		s, err := LookupSkill(name)
		if err != nil {
			return nil, msgerr.Errorf("skill entry %d: %w", i+1, err)
		}
		if _, dup := out[s.Name]; dup {
			return nil, msgerr.Errorf("%w: skill %s given twice", ErrSyntax, s.Name)
		}
		value = strings.TrimSpace(value)
		fav := strings.HasSuffix(value, "*")
		if fav {
			value = strings.TrimSpace(strings.TrimSuffix(value, "*"))
		}
		rank, err := parseInt(value)
		if err != nil {
			return nil, msgerr.Errorf("%w: skill %s: rank %q is not a number", ErrSyntax, s.Name, clip.Text(value))
		}
		out[s.Name] = SkillRating{Rank: rank, Favoured: fav}
	}
	return out, nil
}

// ParseAttributes reads the three attributes as the CLI takes them:
// comma-separated entries NAME=BASIC/FAVOURED, each attribute exactly once,
// for example "Cuerpo=5/7,Corazón=4/6,Mente=3/5" or "body=5/7,heart=4/6,wits=3/5".
// Names are looked up with LookupAttribute. Only syntax and names are
// checked here; values are checked by Character.Validate.
func ParseAttributes(text string) (Attributes, error) {
	var a Attributes
	seen := map[Attribute]bool{}
	for i, entry := range strings.Split(text, ",") {
		name, value, ok := strings.Cut(entry, "=")
		if !ok {
			return Attributes{}, msgerr.Errorf("%w: attribute entry %d %q: want NAME=BASIC/FAVOURED", ErrSyntax, i+1, clip.Text(entry))
		}
		attr, err := LookupAttribute(name)
		if err != nil {
			return Attributes{}, msgerr.Errorf("attribute entry %d: %w", i+1, err)
		}
		if seen[attr] {
			return Attributes{}, msgerr.Errorf("%w: attribute %s given twice", ErrSyntax, attr)
		}
		seen[attr] = true
		bs, fs, ok := strings.Cut(value, "/")
		if !ok {
			return Attributes{}, msgerr.Errorf("%w: attribute %s: %q: want BASIC/FAVOURED", ErrSyntax, attr, clip.Text(strings.TrimSpace(value)))
		}
		basic, err1 := parseInt(bs)
		fav, err2 := parseInt(fs)
		if err1 != nil || err2 != nil {
			return Attributes{}, msgerr.Errorf("%w: attribute %s: %q: values are not numbers", ErrSyntax, attr, clip.Text(strings.TrimSpace(value)))
		}
		sc := Score{Basic: basic, Favoured: fav}
		switch attr {
		case Cuerpo:
			a.Cuerpo = sc
		case Corazon:
			a.Corazon = sc
		case Mente:
			a.Mente = sc
		}
	}
	for _, attr := range AllAttributes() {
		if !seen[attr] {
			return Attributes{}, msgerr.Errorf("%w: attribute %s missing", ErrSyntax, attr)
		}
	}
	return a, nil
}

// parseInt reads a decimal integer, optionally signed, with space around it.
func parseInt(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, msgerr.Errorf("%w: %q is not a number", ErrSyntax, clip.Text(s))
	}
	return n, nil
}
