package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/campaign-journal/journal/command"
	"github.com/campaign-journal/journal/command/catalog"
	"github.com/campaign-journal/journal/events/memstore"
)

func TestNamesAreUniqueAndFound(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range catalog.Names() {
		if seen[name] {
			t.Fatalf("command %q listed twice", name)
		}
		seen[name] = true
		if s, ok := catalog.Lookup(name); !ok || s.Name != name {
			t.Fatalf("Lookup(%q) = %v, %v", name, s.Name, ok)
		}
	}
	if _, ok := catalog.Lookup("drop-table"); ok {
		t.Fatal("an unknown command was found")
	}
}

// Bad bodies are refused with ErrInvalid before any handler runs.
func TestBadBodiesRefused(t *testing.T) {
	store := memstore.New(memstore.Options{})
	j := command.New(store, command.Options{})
	roll, _ := catalog.Lookup("roll")
	for _, body := range []string{`{"character":`, `{"character":"a","unknown":1}`, `{"character":"a"} {}`, `{}`, `[1]`} {
		_, err := roll.Run(context.Background(), j, "c", []byte(body))
		if !errors.Is(err, command.ErrInvalid) {
			t.Errorf("body %s: err = %v, want ErrInvalid", body, err)
		}
	}
}
