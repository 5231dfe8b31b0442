package jetstream_test

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/jetstream"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"

	gossh "golang.org/x/crypto/ssh"
)

// The access contract on two nodes: each test's store is reached through
// node 1 or 2 in turn.
func TestAccessContract(t *testing.T) {
	c := natstest.Start(t, 2, nil)
	var n atomic.Int32
	storetest.RunAccess(t, func(t *testing.T, clock func() time.Time) persistence.Store {
		i := int(n.Add(1))
		return open(t, connect(t, c, i), jetstream.Options{Name: fmt.Sprintf("a%d", i), Replicas: 1, Clock: clock})
	})
}

// In a cluster, an invite made on one node admits a key on another, and
// the key is then let in on every node: each reads the same bucket.
func TestInviteAcrossNodes(t *testing.T) {
	c := natstest.Start(t, 2, nil)
	a := open(t, connect(t, c, 0), jetstream.Options{Name: "inv"})
	b := open(t, connect(t, c, 1), jetstream.Options{Name: "inv"})
	admins, admin := adminsFile(t)
	onA, err := access.New(access.Config{Store: a, AllowFile: emptyFile(t), AdminsFile: admins})
	if err != nil {
		t.Fatal(err)
	}
	onB, err := access.New(access.Config{Store: b, AllowFile: emptyFile(t), AdminsFile: admins})
	if err != nil {
		t.Fatal(err)
	}
	code, err := onA.CreateInvite(admin, 1, time.Hour) // an invite is as good as its maker's rights
	if err != nil {
		t.Fatal(err)
	}
	if e := onB.KeyEntry("SHA256:new", code); !e.ByInvite {
		t.Fatalf("node B does not see node A's invite: %+v", e)
	}
	if err := onB.Redeem("SHA256:new", code); err != nil {
		t.Fatal(err)
	}
	if e := onA.KeyEntry("SHA256:new", ""); !e.Refused.IsZero() {
		t.Fatalf("node A refuses the key node B admitted: %+v", e)
	}
	if err := onA.Redeem("SHA256:other", code); !errors.Is(err, access.ErrInviteSpent) {
		t.Fatalf("node A let a spent invite be used again: %v", err)
	}
}

// adminsFile is an admins file of one new key, and that key's fingerprint.
func adminsFile(t *testing.T) (string, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "admins")
	if err := os.WriteFile(path, gossh.MarshalAuthorizedKey(pk), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, gossh.FingerprintSHA256(pk)
}

func emptyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "allow")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
