package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/events"
	"github.com/campaign-journal/journal/events/jetstore"
)

// TestPartitionsCLI: a journal created with --partitions 3 keeps its
// campaigns in three streams; later commands need no flag, a disagreeing
// --partitions is refused with one message and changes nothing; list,
// export and replay read every stream; a backup holds the three streams
// and its restore is a journal of three partitions that verifies clean.
func TestPartitionsCLI(t *testing.T) {
	c := newCLI(t)
	campaigns := []string{"mordor", "gondor", "rohan", "erebor"}
	spread := map[int]bool{}
	c.ok("--partitions", "3", "campaign", "create", campaigns[0], "--system", "ryf")
	for _, id := range campaigns {
		if id != campaigns[0] {
			c.ok("campaign", "create", id, "--system", "ryf")
		}
		c.ok("-c", id, "character", "create", "lodin", "--player", "ana", "--attrs", "F=8,R=7,D=9,I=8,P=8",
			"--skills", "Pelea=5,Sigilo=3", "--spec", "Sigilo", "--weapons", "Espada")
		c.ok("-c", id, "session", "start")
		c.ok("-c", id, "roll", "lodin", "Sigilo", "--vs", "media")
		c.ok("-c", id, "session", "end")
		spread[events.Partition(id, 3)] = true
	}
	require.Len(t, spread, 3, "the campaigns are in the three partitions")

	var list []struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "campaign", "list")), &list))
	require.Len(t, list, len(campaigns), "listed from every stream")
	before := c.ok("-c", "mordor", "export")
	require.Len(t, c.events("mordor"), 5)

	_, errb, code := c.run("--lang", "en", "--partitions", "2", "campaign", "list")
	require.Equal(t, exitUsage, code, "another --partitions is a usage error, as another --replicas is")
	require.Contains(t, errb, "this journal has 3, not 2")
	_, _, code = c.run("--partitions", "1", "-c", "mordor", "roll", "lodin", "Sigilo", "--vs", "media")
	require.Equal(t, exitUsage, code)
	require.Equal(t, before, c.ok("-c", "mordor", "export"), "nothing recorded")

	var rep struct {
		Mismatches []json.RawMessage `json:"mismatches"`
		Totals     struct {
			Events           int `json:"events"`
			SessionsVerified int `json:"sessions_verified"`
		} `json:"totals"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "replay")), &rep))
	require.Equal(t, 5*len(campaigns), rep.Totals.Events, "replay read every stream")
	require.Equal(t, len(campaigns), rep.Totals.SessionsVerified)
	require.Empty(t, rep.Mismatches)

	dir := t.TempDir()
	file, key := filepath.Join(dir, "p.jbk"), filepath.Join(dir, "backup.key")
	var res struct {
		Manifest struct {
			Parts []struct {
				Stream string `json:"stream"`
			} `json:"parts"`
		} `json:"manifest"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.ok("--json", "backup", file, "--key", key)), &res))
	var streams []string
	for _, p := range res.Manifest.Parts {
		streams = append(streams, p.Stream)
	}
	for _, name := range jetstore.StreamNames(3) {
		require.Contains(t, streams, name)
	}
	require.NotContains(t, streams, jetstore.StreamName)

	dst := newCLI(t)
	dst.ok("restore", file, "--key", key)
	require.NoError(t, json.Unmarshal([]byte(dst.ok("--json", "replay")), &rep))
	require.Equal(t, 5*len(campaigns), rep.Totals.Events)
	require.Empty(t, rep.Mismatches)
	require.Equal(t, before, dst.ok("-c", "mordor", "export"), "the restored campaign")
	_, errb, code = dst.run("--lang", "en", "--partitions", "1", "campaign", "list")
	require.NotZero(t, code)
	require.Contains(t, errb, "this journal has 3, not 1", "the restore keeps the partitions")
}

// TestPartitionsWithNATSUsers: with NATS users in --access, a journal of
// three partitions opens without --partitions after its creation: the
// embedded server's users get the permissions of the journal's partitions
// (read from the data folder before the server starts, then checked
// against the journal's own record).
func TestPartitionsWithNATSUsers(t *testing.T) {
	c := newAccessCLI(t)
	c.add("ana", "--role", "gm", "--campaign", "mordor")
	c.ok("--partitions", "3", "campaign", "create", "mordor", "--system", "ryf")
	c.ok("campaign", "create", "gondor", "--system", "ryf")
	require.Contains(t, c.ok("campaign", "list"), "gondor")
}
