package tui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// genderRecords keeps one profile and how its player asked to be
// addressed.
type genderRecords struct {
	profRecords
	mu   sync.Mutex
	g    game.Gender
	sets int
}

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

// The profile page says how the game addresses the player (not chosen at
// first); a cycles the choice, keeps it, and the session's player carries
// it to the tables it sits at.
func TestTheProfileKeyCyclesTheAddress(t *testing.T) {
	a := testApp(t)
	recs := &genderRecords{}
	a.Records = recs
	s := newSession(t, a, "fp-alice", "alice")
	s.keys("p")
	if v := s.m.View(); !strings.Contains(v, "How the game addresses you: not chosen (gender-free wording). a: change") {
		t.Fatalf("profile before a choice:\n%s", v)
	}
	for _, want := range []game.Gender{game.Feminine, game.Masculine, game.Neutral, game.Feminine} {
		s.keys("a")
		if got, _ := recs.got(); got != want || s.m.sess.Player.Gender != want {
			t.Fatalf("after a: kept %d, session %d; want %d", got, s.m.sess.Player.Gender, want)
		}
	}
	if v := s.m.View(); !strings.Contains(v, "How the game addresses you: feminine") {
		t.Fatalf("profile after the choice:\n%s", v)
	}
}

// A script pressing a keeps writing the profile only at the pace of list
// changes, and is told so.
func TestAddressChangesArePaced(t *testing.T) {
	a := testApp(t)
	recs := &genderRecords{}
	a.Records = recs
	s := newSession(t, a, "fp-alice", "alice")
	s.keys("p")
	for range changeBurst + 3 {
		s.keys("a")
	}
	if _, n := recs.got(); n != changeBurst {
		t.Fatalf("%d writes for %d presses, want %d", n, changeBurst+3, changeBurst)
	}
	if v := s.m.View(); !strings.Contains(v, "not so fast") {
		t.Fatalf("the refusal is not said:\n%s", v)
	}
}

// A key with no profile yet still opens the profile page, to say how
// the game should address it (the choice makes the profile).
func TestANewKeyOpensItsProfileToChoose(t *testing.T) {
	a := testApp(t)
	recs := &genderRecords{}
	a.Records = noProfile{recs}
	s := newSession(t, a, "fp-new", "newbie")
	s.keys("p")
	if v := s.m.View(); !strings.Contains(v, "no profile yet") || !strings.Contains(v, "How the game addresses you: not chosen") {
		t.Fatalf("a new key's profile:\n%s", v)
	}
	s.keys("a")
	if g, n := recs.got(); g != game.Feminine || n != 1 {
		t.Fatalf("kept %d in %d writes, want feminine once", g, n)
	}
}

// noProfile is genderRecords for a key the store has never kept.
type noProfile struct{ *genderRecords }

func (noProfile) Profile(string) (Profile, error) { return Profile{}, errors.New("player not found") }

// statRecords is a profile with one game's record (the coin, named as
// Werewolves) and one lost game.
type statRecords struct{ profRecords }

func (statRecords) Profile(id string) (Profile, error) {
	return Profile{ID: id, Name: "Ярослава Святославна", Stats: []StatLine{{Game: "coin", Players: 8, Played: 1}}}, nil
}

func (statRecords) Finished(string, int) ([]GameRecord, error) {
	return []GameRecord{{Code: "92EX", Game: "coin", Title: game.M("werewolf.title")}}, nil
}

// At 80 columns the profile's columns are as wide as their words: the
// Russian page cut the game's name at 22 cells ("Оборотни из деревни М…"),
// showed "-" for a game without variants, and cut "поражение" at 6.
func TestTheProfileKeepsItsWordsWhole(t *testing.T) {
	a := testApp(t)
	a.Games[0].TitleKey = "werewolf.title" // the longest game name there is
	a.Records = statRecords{}
	s := newSessionIn(t, a, "fp-ya", "Ярослава Святославна", i18n.Russian)
	s.keys("p")
	v := s.m.View()
	for _, want := range []string{"  Оборотни из деревни Миллерс Холлоу 8 игроков", "92EX  поражение  Оборотни из деревни Миллерс Холлоу"} {
		if !strings.Contains(v, want) {
			t.Errorf("the profile lacks %q:\n%s", want, v)
		}
	}
}
