package access

import "testing"

// TestRedactURLs: the user information of every URL goes, scheme and
// host stay.
func TestRedactURLs(t *testing.T) {
	got := RedactURLs("nats://journal:s3cret@n1:4222,nats://journal:s3cret@n2:4222,tok@n3:4222,nats://n4")
	if want := "nats://n1:4222,nats://n2:4222,n3:4222,nats://n4"; got != want {
		t.Errorf("RedactURLs = %s, want %s", got, want)
	}
}
