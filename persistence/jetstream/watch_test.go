package jetstream_test

import (
	"context"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/jetstream"
)

var _ moderation.Watcher = (*jetstream.Store)(nil)

// A node's watch of the sanctions sends what the bucket holds, then the
// whole list again after each ban or lift made through another node: the
// copy a node keeps in memory for its logins' checks.
func TestWatchSanctionsFollowsAnotherNode(t *testing.T) {
	c := natstest.Start(t, 2, nil)
	a := open(t, connect(t, c, 0), jetstream.Options{Name: "sw"})
	b := open(t, connect(t, c, 1), jetstream.Options{Name: "sw"})
	old := persistence.Sanction{Kind: persistence.SanctionBan, Subject: "SHA256:old", At: time.Now().UTC()}
	if err := a.PutSanction(old); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	views, err := b.WatchSanctions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next := func(want ...string) {
		t.Helper()
		select {
		case v := <-views:
			var got []string
			for _, sn := range v {
				got = append(got, sn.Subject)
			}
			if len(got) != len(want) || (len(want) > 0 && got[0] != want[0]) {
				t.Fatalf("the watch sent %v, want %v", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the watch sent nothing; want %v", want)
		}
	}
	next("SHA256:old")
	if _, err := a.DeleteSanction(persistence.SanctionBan, "SHA256:old"); err != nil {
		t.Fatal(err)
	}
	next()
	troll := persistence.Sanction{Kind: persistence.SanctionBan, Subject: "SHA256:troll", At: time.Now().UTC()}
	if err := a.PutSanction(troll); err != nil {
		t.Fatal(err)
	}
	next("SHA256:troll")
}
