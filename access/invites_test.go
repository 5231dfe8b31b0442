package access

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/persistence"
)

func invitePolicy(t *testing.T) (*Policy, *clocktest.Manual) {
	t.Helper()
	store, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	clk := clocktest.New()
	p, err := New(Config{Store: store, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	p.admins = fixedKeys("SHA256:admin") // the invites' maker is an admin
	return p, clk
}

// fixedKeys is a key file holding those fingerprints.
func fixedKeys(fps ...string) *KeyFile {
	f := &KeyFile{byFP: map[string]Key{}}
	for _, fp := range fps {
		f.keys = append(f.keys, Key{Fingerprint: fp})
		f.byFP[fp] = Key{Fingerprint: fp}
	}
	return f
}

// An invite is as good as its maker: once the key that made it is no
// longer an admin's, its code admits nobody (the keys it admitted stay).
func TestInviteOfARevokedAdminAdmitsNobody(t *testing.T) {
	p, _ := invitePolicy(t)
	code, err := p.CreateInvite("SHA256:admin", 5, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Redeem("SHA256:a", code); err != nil {
		t.Fatal(err)
	}
	if keys, _ := p.Admitted(); len(keys) != 1 || keys[0].By != "SHA256:admin" || keys[0].Invite == "" {
		t.Fatalf("admitted = %+v; want who invited the key, and by which invite", keys)
	}
	p.admins = fixedKeys("SHA256:root") // SIGHUP after the admin's key was taken out
	if e := p.KeyEntry("SHA256:b", code); !e.WrongCode {
		t.Errorf("the revoked admin's invite at the door: %+v", e)
	}
	if err := p.Redeem("SHA256:b", code); !errors.Is(err, ErrInviteSpent) {
		t.Errorf("redeeming the revoked admin's invite: %v", err)
	}
	if m, _ := p.GuestEntry(code); m.Key != "access.invite_bad" {
		t.Errorf("a guest with the revoked admin's invite reads %v", m)
	}
	if known, _ := p.knownKey("SHA256:a"); !known {
		t.Error("a key the invite admitted before was forgotten")
	}
}

func TestInviteCodesAreSecretSized(t *testing.T) {
	p, _ := invitePolicy(t)
	code, err := p.CreateInvite("SHA256:admin", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := NormalizeCode(FormatCode(code)); !ok || c != code {
		t.Fatalf("code %q does not read back from %q", code, FormatCode(code))
	}
	// 13 characters of a 30-letter alphabet: 13·log2(30) ≈ 63.8 bits.
	if len(code) < 13 {
		t.Fatalf("code %q is too short to be a secret", code)
	}
	invs, _ := p.Invites()
	if len(invs) != 1 || invs[0].Uses != 1 || !invs[0].Expires.Equal(invs[0].Created.Add(DefaultTTL)) {
		t.Fatalf("defaults: %+v", invs)
	}
	if invs[0].ID == "" || len(invs[0].ID) >= len(code) {
		t.Fatalf("the listing's ID %q", invs[0].ID)
	}
}

func TestInviteLimitsAreRefusedWithAMessage(t *testing.T) {
	p, _ := invitePolicy(t)
	for _, tc := range []struct {
		uses int
		ttl  time.Duration
		want error
	}{
		{MaxInviteUses + 1, time.Hour, ErrInviteUses},
		{-1, time.Hour, ErrInviteUses},
		{1, MaxInviteTTL + time.Hour, ErrInviteTTL},
		{1, -time.Hour, ErrInviteTTL},
	} {
		if _, err := p.CreateInvite("SHA256:admin", tc.uses, tc.ttl); !errors.Is(err, tc.want) {
			t.Errorf("uses %d ttl %v: %v, want %v", tc.uses, tc.ttl, err, tc.want)
		}
	}
	if invs, _ := p.Invites(); len(invs) != 0 {
		t.Fatalf("a refused invite was stored: %+v", invs)
	}
	bare, _ := New(Config{})
	if _, err := bare.CreateInvite("SHA256:admin", 1, time.Hour); !errors.Is(err, ErrNoInvites) {
		t.Fatalf("without a store: %v", err)
	}
}

func TestRedeemSpendsOneUsePerKey(t *testing.T) {
	p, clk := invitePolicy(t)
	code, err := p.CreateInvite("SHA256:admin", 2, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if e := p.KeyEntry("SHA256:a", code); !e.ByInvite {
		t.Fatalf("a live code: %+v", e)
	}
	if err := p.Redeem("SHA256:a", code); err != nil {
		t.Fatal(err)
	}
	if err := p.Redeem("SHA256:a", code); err != nil { // the same key again: free
		t.Fatal(err)
	}
	if err := p.Redeem("SHA256:b", code); err != nil {
		t.Fatal(err)
	}
	if err := p.Redeem("SHA256:c", code); !errors.Is(err, ErrInviteSpent) {
		t.Fatalf("a third key on a two-use invite: %v", err)
	}
	if e := p.KeyEntry("SHA256:c", code); !e.WrongCode || e.Refused.IsZero() {
		t.Fatalf("a used-up code: %+v", e)
	}
	if e := p.KeyEntry("SHA256:a", ""); !e.Refused.IsZero() {
		t.Fatalf("an admitted key: %+v", e)
	}

	other, _ := p.CreateInvite("SHA256:admin", 1, time.Hour)
	clk.Advance(time.Hour)
	if err := p.Redeem("SHA256:d", other); !errors.Is(err, ErrInviteSpent) {
		t.Fatalf("an expired code: %v", err)
	}
	if err := p.Redeem("SHA256:d", "23456789ABCDE"); !errors.Is(err, ErrInviteSpent) {
		t.Fatalf("a made-up code: %v", err)
	}
}

func TestRevokedInviteAdmitsNoOne(t *testing.T) {
	p, _ := invitePolicy(t)
	code, _ := p.CreateInvite("SHA256:admin", 5, time.Hour)
	invs, _ := p.Invites()
	if err := p.Revoke(invs[0].ID); err != nil {
		t.Fatal(err)
	}
	if e := p.KeyEntry("SHA256:a", code); !e.WrongCode {
		t.Fatalf("a revoked code: %+v", e)
	}
	if err := p.Revoke(invs[0].ID); !errors.Is(err, ErrNoSuchCode) {
		t.Fatalf("revoking twice: %v", err)
	}
}

func TestForgottenKeyIsRefusedAgain(t *testing.T) {
	p, _ := invitePolicy(t)
	p.allow = &KeyFile{byFP: map[string]Key{}} // an empty allowlist
	code, _ := p.CreateInvite("SHA256:admin", 1, time.Hour)
	if err := p.Redeem("SHA256:a", code); err != nil {
		t.Fatal(err)
	}
	if keys, _ := p.Admitted(); len(keys) != 1 || keys[0].Fingerprint != "SHA256:a" {
		t.Fatalf("admitted = %+v", keys)
	}
	if e := p.KeyEntry("SHA256:a", ""); !e.Refused.IsZero() {
		t.Fatalf("an admitted key refused: %+v", e)
	}
	if err := p.Forget("SHA256:a"); err != nil {
		t.Fatal(err)
	}
	if e := p.KeyEntry("SHA256:a", ""); e.Refused.IsZero() {
		t.Fatal("a forgotten key still comes in")
	}
}
