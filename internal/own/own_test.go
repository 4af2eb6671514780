package own_test

import (
	"testing"
	"unsafe"

	"github.com/campaign-journal/journal/internal/own"
)

func TestStringsCopies(t *testing.T) {
	text := "request-id:user:signed"
	a, b, empty := text[:10], text[11:15], ""
	own.Strings(&a, &b, &empty)
	if a != "request-id" || b != "user" || empty != "" {
		t.Fatalf("values changed: %q %q %q", a, b, empty)
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for _, s := range []string{a, b} {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		if p >= start && p < start+uintptr(len(text)) {
			t.Fatalf("%q still shares the text's memory", s)
		}
	}
}
