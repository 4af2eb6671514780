package client

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/projections"
)

// TestFollowFrom: a follow starts after the campaign's last sequence as
// it is loaded (0 when it cannot be), as the user of its start for good,
// and is nil without a user.
func TestFollowFrom(t *testing.T) {
	c, k, _, _, _ := testClient(t, "ana", recs{})
	user := "ana"
	c.User = func() (string, error) { return user, nil }
	camp := projections.NewCampaign("mordor")
	camp.LastSeq = 7
	load := func(context.Context) (*projections.Campaign, error) { return camp, nil }
	open := func(context.Context) (*projections.Campaign, *projections.Session, error) {
		return nil, nil, errors.New("closed")
	}
	f := c.FollowFrom(context.Background(), "mordor", k, load, open)
	require.NotNil(t, f)
	require.Equal(t, uint64(7), f.start)
	user = "bea" // a later 'journal login'
	got, err := f.c.User()
	require.NoError(t, err)
	require.Equal(t, "ana", got, "the follower's user is fixed at its start")
	require.Equal(t, "ana", f.me)

	f = c.FollowFrom(context.Background(), "mordor", k, func(context.Context) (*projections.Campaign, error) {
		return nil, errors.New("no journal")
	}, open)
	require.Equal(t, uint64(0), f.start)

	c.User = func() (string, error) { return "", errors.New("no identity") }
	require.Nil(t, c.FollowFrom(context.Background(), "mordor", k, load, open))
}
