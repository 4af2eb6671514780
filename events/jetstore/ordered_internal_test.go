package jetstore

import "testing"

// TestAckSequence reads the stream sequence and the pending count from
// both forms of a consumer message's reply subject, as
// jetstream.Msg.Metadata does, and refuses what is not one.
func TestAckSequence(t *testing.T) {
	tests := []struct {
		reply        string
		seq, pending uint64
		ok           bool
	}{
		{"$JS.ACK.JOURNAL.cons.1.42.7.1700000000000000000.3", 42, 3, true},
		{"$JS.ACK._.acchash.JOURNAL.cons.1.42.7.1700000000000000000.0.tok", 42, 0, true},
		{"$JS.ACK.hub.acchash.JOURNAL.cons.1.9001.7.1700000000000000000.12", 9001, 12, true},
		{"$JS.ACK.JOURNAL.cons.1.x42.7.1700000000000000000.3", 0, 0, false},
		{"$JS.ACK.JOURNAL.cons.1.42.7", 0, 0, false},
		{"$JS.ACK.hub.acchash.JOURNAL.cons.1.42.7.170", 0, 0, false},
		{"_INBOX.abc", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		seq, pending, ok := ackSequence(tt.reply)
		if seq != tt.seq || pending != tt.pending || ok != tt.ok {
			t.Errorf("ackSequence(%q) = %d, %d, %v; want %d, %d, %v", tt.reply, seq, pending, ok, tt.seq, tt.pending, tt.ok)
		}
	}
}
