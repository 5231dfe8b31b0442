package server

import (
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// An address may bring DefaultNewKeysPerHour keys the server has never
// seen in an hour: the next is refused until the oldest is an hour old.
// A key comes back as often as it likes, and other addresses have their
// own count.
func TestNewKeysAreCappedPerAddressPerHour(t *testing.T) {
	t.Parallel()
	clk := clocktest.New()
	n := newNewKeys(0, clk)
	for i := range DefaultNewKeysPerHour {
		if ok, _ := n.admit("198.51.100.7", fmt.Sprint("fp-", i)); !ok {
			t.Fatalf("new key %d refused", i+1)
		}
		clk.Advance(time.Minute)
	}
	if ok, _ := n.admit("198.51.100.7", "fp-3"); !ok {
		t.Fatal("a key already counted was refused on coming back")
	}
	ok, log := n.admit("198.51.100.7", "fp-21st")
	if ok || !log {
		t.Fatalf("the 21st new key in an hour: admitted %v, logged %v; want refused and logged", ok, log)
	}
	if ok, log := n.admit("198.51.100.7", "fp-22nd"); ok || log {
		t.Fatalf("the 22nd: admitted %v, logged %v; want refused, not logged again", ok, log)
	}
	if ok, _ := n.admit("203.0.113.9", "fp-elsewhere"); !ok {
		t.Fatal("another address was refused")
	}
	clk.Advance(newKeysWindow - DefaultNewKeysPerHour*time.Minute) // the first key is an hour old
	if ok, _ := n.admit("198.51.100.7", "fp-21st"); !ok {
		t.Fatal("still refused once the oldest new key was an hour old")
	}
	if ok, _ := n.admit("198.51.100.7", "fp-next"); ok {
		t.Fatal("two keys came in for the one that aged out")
	}
	if ok, _ := newNewKeys(-1, clk).admit("198.51.100.7", "fp-x"); !ok {
		t.Fatal("no limit (-1) refused a key")
	}
}

// IPv6 addresses of one /64 count as one address.
func TestNewKeysOfOneIPv6Slash64CountTogether(t *testing.T) {
	t.Parallel()
	s := &Server{newKeys: newNewKeys(2, clocktest.New())}
	for i, addr := range []string{"2001:db8::1", "2001:db8::2", "2001:db8::ffff"} {
		ok, _ := s.newKeys.admit(sshserver.AddressGroup(addr), fmt.Sprint("fp-", i))
		if want := i < 2; ok != want {
			t.Fatalf("key %d from %s: admitted %v, want %v", i+1, addr, ok, want)
		}
	}
}

func countProfiles(t *testing.T, store persistence.Store) int {
	t.Helper()
	n := 0
	if err := store.EachPlayer(func(persistence.Profile) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

// Fifty fresh keys that look at the lobby and leave store nothing (each
// made a stored profile before); the first that takes a seat stores one,
// under the name it plays as.
func TestKeysThatOnlyLookStoreNoProfile(t *testing.T) {
	t.Parallel()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), NewKeysPerHour: -1})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	for i := range 50 {
		c := sshtest.Dial(t, addr, sshtest.WithUser(fmt.Sprint("looker", i)))
		c.ExpectScreen(t, fmt.Sprint("looker", i), 5*time.Second)
		c.Close()
	}
	if n := countProfiles(t, srv.store); n != 0 {
		t.Fatalf("%d profiles stored for keys that only looked", n)
	}
	sitter := sshtest.Dial(t, addr, sshtest.WithUser("sitter"))
	sitter.ExpectScreen(t, `sitter`, 5*time.Second)
	sitter.Type("n")
	sitter.ExpectScreen(t, `New table`, 5*time.Second)
	sitter.Type("\r")
	sitter.ExpectScreen(t, `Table [A-Z0-9]{4}`, 5*time.Second)
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if n := countProfiles(t, srv.store); n != 1 {
			return fmt.Errorf("%d profiles stored after a seat was taken, want 1", n)
		}
		return nil
	})
	prof, err := srv.store.Player(sshtest.Fingerprint(sitter.Signer))
	if err != nil || prof.Name != "sitter" || prof.LastSeen.IsZero() {
		t.Fatalf("the sitter's profile: %+v, %v", prof, err)
	}
}

// Over SSH: the 21st fresh key from one address in an hour is told why,
// in words, and nothing starts; a key the server knows still comes in.
func TestThe21stNewKeyFromOneAddressIsRefused(t *testing.T) {
	t.Parallel()
	clk := clocktest.New()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	first := sshtest.NewKey(t)
	for i := range DefaultNewKeysPerHour {
		key := sshtest.NewKey(t)
		if i == 0 {
			key = first
		}
		c := sshtest.Dial(t, addr, sshtest.WithUser(fmt.Sprint("p", i)), sshtest.WithKey(key))
		c.ExpectScreen(t, fmt.Sprint("p", i), 5*time.Second)
		c.Close()
	}
	late := sshtest.Dial(t, addr, sshtest.WithUser("late"))
	late.Expect(t, `Too many new keys have come from your address this hour \(the limit is 20\)`, 5*time.Second)
	if code := late.Wait(t, 5*time.Second); code == 0 {
		t.Fatal("the refused session ended with status 0")
	}
	again := sshtest.Dial(t, addr, sshtest.WithUser("p0"), sshtest.WithKey(first)) // counted already
	again.ExpectScreen(t, `p0`, 5*time.Second)
	clk.Advance(newKeysWindow)
	later := sshtest.Dial(t, addr, sshtest.WithUser("later"))
	later.ExpectScreen(t, `later`, 5*time.Second)
}
