package plain

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// genderRecords keeps one profile and how its player asked to be
// addressed.
type genderRecords struct {
	tui.Records
	mu   sync.Mutex
	g    game.Gender
	sets int
}

func (*genderRecords) Profile(id string) (tui.Profile, error) {
	return tui.Profile{ID: id, Name: "Александра Валерьевн"}, nil
}

func (*genderRecords) Finished(string, int) ([]tui.GameRecord, error) { return nil, nil }
func (*genderRecords) Campaigns(string) ([]tui.Campaign, error)       { return nil, nil }

func (r *genderRecords) SetGender(_ table.Player, g game.Gender) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.g = g
	r.sets++
	return nil
}

func (r *genderRecords) got() (game.Gender, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.g, r.sets
}

// Plain mode's address f|m|n keeps the choice; anything else says the
// choice and how to change it, keeping nothing. A guest's choice lasts the
// session and is kept nowhere.
func TestThePlainAddressCommand(t *testing.T) {
	a := testApp(t)
	recs := &genderRecords{}
	a.Records = recs
	var out bytes.Buffer
	Run(a, Session{Ctx: t.Context(), Player: table.Player{ID: "fp-alice", Name: "alice"}, Lang: i18n.English,
		In: strings.NewReader("address x\naddress m\nprofile\nquit\n"), Out: &out})
	if got, n := recs.got(); got != game.Masculine || n != 1 {
		t.Fatalf("kept %d in %d writes, want masculine once:\n%s", got, n, out.String())
	}
	o := out.String()
	for _, want := range []string{"How the game addresses you: not chosen", "address f, address m or address n",
		"Saved. How the game addresses you: masculine.", "How the game addresses you: masculine. address f"} {
		if !strings.Contains(o, want) {
			t.Fatalf("plain output lacks %q:\n%s", want, o)
		}
	}

	recs = &genderRecords{}
	a.Records = recs
	out.Reset()
	Run(a, Session{Ctx: t.Context(), Player: table.Player{ID: "guest", Name: "guest", Guest: true}, Lang: i18n.English,
		In: strings.NewReader("address f\nquit\n"), Out: &out})
	if _, n := recs.got(); n != 0 || !strings.Contains(out.String(), "in this session: feminine") {
		t.Fatalf("a guest's choice (%d writes):\n%s", n, out.String())
	}
}

// The profile's commands work at a table too: "address f" typed there
// answered that there was nothing to do (issue 42 item 5).
func TestProfileCommandsWorkAtATable(t *testing.T) {
	a := testApp(t)
	recs := &genderRecords{}
	a.Records = recs
	alice := start(t, a, "fp-alice", "alice")
	alice.do("new coin 2", "Table")
	alice.do("address f", "Saved. How the game addresses you: feminine.")
	alice.do("profile", "How the game addresses you: feminine.")
	if got, n := recs.got(); got != game.Feminine || n != 1 {
		t.Fatalf("kept %v in %d writes, want feminine once", got, n)
	}
}
