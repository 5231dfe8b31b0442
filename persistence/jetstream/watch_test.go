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

// A node's watch of the key lists sends the changes admins made through
// another node, and nothing else of the access records (invites).
func TestWatchKeyListEntriesFollowsAnotherNode(t *testing.T) {
	c := natstest.Start(t, 2, nil)
	a := open(t, connect(t, c, 0), jetstream.Options{Name: "kw"})
	b := open(t, connect(t, c, 1), jetstream.Options{Name: "kw"})
	if err := a.CreateInvite(persistence.Invite{ID: "inv", Hash: "h", By: "SHA256:root", Uses: 1, Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	views, err := b.WatchKeyListEntries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next := func(want int) {
		t.Helper()
		select {
		case v := <-views:
			if len(v) != want {
				t.Fatalf("the watch sent %+v, want %d entries", v, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the watch sent nothing; want %d entries", want)
		}
	}
	next(0)
	e := persistence.KeyListEntry{List: persistence.ListAllow, Fingerprint: "SHA256:dora", By: "SHA256:root", At: time.Now().UTC()}
	if err := a.PutKeyListEntry(e); err != nil {
		t.Fatal(err)
	}
	next(1)
	if err := a.DeleteKeyListEntry(e.List, e.Fingerprint); err != nil {
		t.Fatal(err)
	}
	next(0)
}
