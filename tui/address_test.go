package tui

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"bivouac/i18n"
	"bivouac/table"
)

// addressRecords keeps one profile and how its player asked to be
// addressed.
type addressRecords struct {
	Records
	mu   sync.Mutex
	addr i18n.Address
	sets int
}

func (r *addressRecords) Profile(id string) (Profile, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Profile{Name: "alice", ID: id, Address: r.addr}, nil
}

func (r *addressRecords) Finished(string, int) ([]GameRecord, error) { return nil, nil }

func (r *addressRecords) SetAddress(_ table.Player, a i18n.Address) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addr = a
	r.sets++
	return nil
}

func (r *addressRecords) got() (i18n.Address, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.addr, r.sets
}

// TestTheProfileKeyCyclesTheAddress: the profile page says how the game
// addresses the player (unset at first), and a cycles and keeps the choice.
func TestTheProfileKeyCyclesTheAddress(t *testing.T) {
	a := testApp(t)
	recs := &addressRecords{}
	a.Records = recs
	s := newSession(t, a, "fp-alice", "alice")
	s.keys("p")
	if v := s.m.View(); !strings.Contains(v, "How the game addresses you: not chosen") || !strings.Contains(v, "address me as") {
		t.Fatalf("profile before a choice:\n%s", v)
	}
	for _, want := range []i18n.Address{i18n.AddressFeminine, i18n.AddressMasculine, i18n.AddressNeutral, i18n.AddressFeminine} {
		s.keys("a")
		if got, _ := recs.got(); got != want {
			t.Fatalf("after a: kept %q, want %q", got, want)
		}
	}
	if v := s.m.View(); !strings.Contains(v, "How the game addresses you: feminine") {
		t.Fatalf("profile after the choice:\n%s", v)
	}
}

// TestThePlainAddressCommand: address f|m|n keeps the choice; anything
// else says how to use it and keeps nothing; a guest is told they keep
// nothing.
func TestThePlainAddressCommand(t *testing.T) {
	a := testApp(t)
	recs := &addressRecords{}
	a.Records = recs
	var out bytes.Buffer
	a.RunPlain(PlainSession{Ctx: t.Context(), Player: table.Player{ID: "fp-alice", Name: "alice"}, Lang: i18n.English,
		In: strings.NewReader("address x\naddress m\nquit\n"), Out: &out})
	if got, n := recs.got(); got != i18n.AddressMasculine || n != 1 {
		t.Fatalf("kept %q in %d writes, want m once:\n%s", got, n, out.String())
	}
	if o := out.String(); !strings.Contains(o, "address f, address m or address n") || !strings.Contains(o, "Saved. How the game addresses you: masculine.") {
		t.Fatalf("plain output:\n%s", o)
	}

	recs = &addressRecords{}
	a.Records = recs
	out.Reset()
	a.RunPlain(PlainSession{Ctx: t.Context(), Player: table.Player{ID: "guest", Name: "guest", Guest: true}, Lang: i18n.English,
		In: strings.NewReader("address f\nquit\n"), Out: &out})
	if _, n := recs.got(); n != 0 || strings.Contains(out.String(), "Saved.") {
		t.Fatalf("a guest's choice was kept (%d writes):\n%s", n, out.String())
	}
}
