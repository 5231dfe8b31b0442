package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// RunAccess runs the contract of persistence.AccessStore (invites and the
// keys they admitted) on stores open makes, which must implement it.
func RunAccess(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(*testing.T, persistence.AccessStore)
	}{
		{"InviteRoundTrip", testInviteRoundTrip},
		{"UpdateInvite", testUpdateInvite},
		{"ConcurrentRedeemsNeverOveruse", testConcurrentRedeemsNeverOveruse},
		{"DeleteInvite", testDeleteInvite},
		{"AdmittedKeys", testAdmittedKeys},
		{"KeyListEntries", testKeyListEntries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := open(t, tickClock()).(persistence.AccessStore)
			if !ok {
				t.Fatal("the store does not keep invites (persistence.AccessStore)")
			}
			tt.fn(t, s)
		})
	}
}

var inviteDay = time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)

func invite(id string, created time.Time) persistence.Invite {
	return persistence.Invite{ID: id, Hash: "hash-of-" + id, By: "SHA256:admin", Uses: 1,
		Created: created, Expires: created.Add(24 * time.Hour)}
}

func testInviteRoundTrip(t *testing.T, s persistence.AccessStore) {
	if all, err := s.Invites(); err != nil || len(all) != 0 {
		t.Fatalf("a new store's invites = %v, %v", all, err)
	}
	if _, err := s.Invite("nope"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("unknown invite: %v", err)
	}
	later, earlier := invite("b2", inviteDay.Add(time.Hour)), invite("a1", inviteDay)
	earlier.Expires = time.Time{} // never
	for _, inv := range []persistence.Invite{later, earlier} {
		if err := s.CreateInvite(inv); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Invite("b2"); err != nil || !reflect.DeepEqual(got, later) {
		t.Fatalf("Invite = %+v, %v; want %+v", got, err, later)
	}
	all, err := s.Invites()
	if err != nil || len(all) != 2 || !reflect.DeepEqual(all[0], earlier) || all[1].ID != "b2" {
		t.Fatalf("Invites = %+v, %v; want a1 then b2", all, err)
	}
	if err := s.CreateInvite(invite("b2", inviteDay)); !errors.Is(err, persistence.ErrExists) {
		t.Fatalf("an ID taken twice: %v", err)
	}
	if err := s.CreateInvite(persistence.Invite{ID: "c3"}); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("an invite without a hash: %v", err)
	}
	if err := s.CreateInvite(persistence.Invite{Hash: "h"}); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("an invite without an ID: %v", err)
	}
}

func testUpdateInvite(t *testing.T, s persistence.AccessStore) {
	if err := s.CreateInvite(invite("a1", inviteDay)); err != nil {
		t.Fatal(err)
	}
	got, err := s.UpdateInvite("a1", func(inv *persistence.Invite) error {
		inv.Used++
		inv.Keys = append(inv.Keys, "SHA256:newcomer")
		inv.ID = "forged" // ignored
		return nil
	})
	if err != nil || got.ID != "a1" || got.Used != 1 || len(got.Keys) != 1 {
		t.Fatalf("UpdateInvite = %+v, %v", got, err)
	}
	if again, err := s.Invite("a1"); err != nil || !reflect.DeepEqual(again, got) {
		t.Fatalf("stored = %+v, %v; want %+v", again, err, got)
	}
	boom := errors.New("boom")
	if _, err := s.UpdateInvite("a1", func(inv *persistence.Invite) error { inv.Used = 99; return boom }); !errors.Is(err, boom) {
		t.Fatalf("failing update: %v", err)
	}
	if again, _ := s.Invite("a1"); again.Used != 1 {
		t.Fatalf("a failed update was stored: used %d", again.Used)
	}
	if _, err := s.UpdateInvite("nope", func(*persistence.Invite) error { return nil }); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("updating an unknown invite: %v", err)
	}
}

// Redeeming is an update that takes a use only while one is left: however
// many newcomers try at once, exactly Uses of them get in.
func testConcurrentRedeemsNeverOveruse(t *testing.T, s persistence.AccessStore) {
	inv := invite("a1", inviteDay)
	inv.Uses = 3
	if err := s.CreateInvite(inv); err != nil {
		t.Fatal(err)
	}
	usedUp := errors.New("used up")
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, err := s.UpdateInvite("a1", func(inv *persistence.Invite) error {
				if inv.Used >= inv.Uses {
					return usedUp
				}
				inv.Used++
				inv.Keys = append(inv.Keys, fmt.Sprintf("SHA256:k%d", i))
				return nil
			})
			switch {
			case err == nil:
				won.Add(1)
			case !errors.Is(err, usedUp):
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := s.Invite("a1")
	if err != nil || won.Load() != 3 || got.Used != 3 || len(got.Keys) != 3 {
		t.Fatalf("after 8 tries at a 3-use invite: %d got in, stored %+v, %v", won.Load(), got, err)
	}
}

func testDeleteInvite(t *testing.T, s persistence.AccessStore) {
	if err := s.DeleteInvite("a1"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("deleting an unknown invite: %v", err)
	}
	for _, id := range []string{"a1", "b2"} {
		if err := s.CreateInvite(invite(id, inviteDay)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteInvite("a1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Invite("a1"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("a deleted invite: %v", err)
	}
	if all, err := s.Invites(); err != nil || len(all) != 1 || all[0].ID != "b2" {
		t.Fatalf("Invites after a delete = %+v, %v", all, err)
	}
	if _, err := s.UpdateInvite("a1", func(*persistence.Invite) error { return nil }); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("updating a deleted invite: %v", err)
	}
}

func testAdmittedKeys(t *testing.T, s persistence.AccessStore) {
	if _, err := s.AdmittedKey("SHA256:zed"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("unknown key: %v", err)
	}
	zed := persistence.AdmittedKey{Fingerprint: "SHA256:zed", Invite: "a1", At: inviteDay}
	amy := persistence.AdmittedKey{Fingerprint: "SHA256:amy", Invite: "b2", At: inviteDay.Add(time.Minute)}
	for _, k := range []persistence.AdmittedKey{zed, amy, zed} { // twice: one record
		if err := s.AdmitKey(k); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.AdmittedKey("SHA256:zed"); err != nil || !reflect.DeepEqual(got, zed) {
		t.Fatalf("AdmittedKey = %+v, %v; want %+v", got, err, zed)
	}
	all, err := s.AdmittedKeys()
	if err != nil || len(all) != 2 || !reflect.DeepEqual(all[0], amy) || !reflect.DeepEqual(all[1], zed) {
		t.Fatalf("AdmittedKeys = %+v, %v; want amy then zed", all, err)
	}
	if err := s.ForgetKey("SHA256:zed"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdmittedKey("SHA256:zed"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("a forgotten key: %v", err)
	}
	if err := s.ForgetKey("SHA256:zed"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("forgetting twice: %v", err)
	}
	if err := s.AdmitKey(persistence.AdmittedKey{}); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("a key without a fingerprint: %v", err)
	}
}

// An admin's changes to the key lists are kept one per list and key, the
// latest standing, listed by list then fingerprint, and taken back.
func testKeyListEntries(t *testing.T, s persistence.AccessStore) {
	if all, err := s.KeyListEntries(); err != nil || len(all) != 0 {
		t.Fatalf("a new store's key list entries = %v, %v", all, err)
	}
	add := persistence.KeyListEntry{List: persistence.ListAllow, Fingerprint: "SHA256:bob", Key: "ssh-ed25519 AAAAbob",
		By: "SHA256:ada", ByName: "ada", At: inviteDay}
	off := persistence.KeyListEntry{List: persistence.ListAdmins, Fingerprint: "SHA256:carl", Removed: true, By: "SHA256:ada", At: inviteDay}
	for _, e := range []persistence.KeyListEntry{add, off} {
		if err := s.PutKeyListEntry(e); err != nil {
			t.Fatal(err)
		}
	}
	add.Key, add.At = "ssh-ed25519 AAAAbob2", inviteDay.Add(time.Hour) // the same key again: replaces
	if err := s.PutKeyListEntry(add); err != nil {
		t.Fatal(err)
	}
	all, err := s.KeyListEntries()
	if err != nil || !reflect.DeepEqual(all, []persistence.KeyListEntry{off, add}) {
		t.Fatalf("KeyListEntries = %+v, %v; want admins' then allow's", all, err)
	}
	if err := s.DeleteKeyListEntry(persistence.ListAllow, "SHA256:bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteKeyListEntry(persistence.ListAllow, "SHA256:bob"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("deleting it again: %v", err)
	}
	if err := s.PutKeyListEntry(persistence.KeyListEntry{List: "friends", Fingerprint: "SHA256:x"}); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("a list that is not one: %v", err)
	}
	if all, _ := s.KeyListEntries(); len(all) != 1 || all[0].Fingerprint != "SHA256:carl" {
		t.Fatalf("after the delete: %+v", all)
	}
}
