package friends

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/persistence"
)

type world struct {
	t       *testing.T
	store   persistence.Store
	s       *Service
	now     time.Time
	board   *notice.Board
	changed []string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := &world{t: t, store: st, now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
	w.s = New(st, func() time.Time { return w.now })
	w.board = notice.NewBoard(func() time.Time { return w.now })
	w.s.Notices = w.board
	w.s.Changed = func(ids ...string) { w.changed = append(w.changed, ids...) }
	for _, n := range []string{"anna", "bob", "carol", "mal"} {
		if _, err := st.Seen("SHA256:"+n, n); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func p(name string) Person { return Person{ID: "SHA256:" + name, Name: name} }

func (w *world) lists(name string) Lists {
	w.t.Helper()
	l, err := w.s.Of("SHA256:" + name)
	if err != nil {
		w.t.Fatal(err)
	}
	return l
}

func ids(rs []persistence.Relation) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return out
}

// anna asks bob; bob gets a notice he can answer with one key; his answer
// makes them friends on both sides; asking again changes nothing.
func TestAskAndAccept(t *testing.T) {
	w := newWorld(t)
	bobBox := w.board.Open("SHA256:bob")
	if got, err := w.s.Ask(p("anna"), p("bob")); err != nil || got != Asked {
		t.Fatalf("anna asks bob: %v %v", got, err)
	}
	if a, b := w.lists("anna"), w.lists("bob"); len(a.Asked) != 1 || len(b.Askers) != 1 || len(a.Friends)+len(b.Friends) != 0 {
		t.Fatalf("after the request: anna %+v, bob %+v", a, b)
	}
	ns := bobBox.Take()
	if len(ns) != 1 || ns[0].Act != (notice.Act{Verb: notice.VerbFriend, Arg: "SHA256:anna"}) || ns[0].From != "SHA256:anna" {
		t.Fatalf("bob's notice %+v", ns)
	}
	if got, _ := w.s.Ask(p("anna"), p("bob")); got != AlreadyAsked {
		t.Fatalf("asking twice: %v", got)
	}
	if err := w.s.Accept(p("bob"), p("anna")); err != nil {
		t.Fatal(err)
	}
	a, b := w.lists("anna"), w.lists("bob")
	if len(a.Friends) != 1 || a.Friends[0].ID != "SHA256:bob" || len(b.Friends) != 1 || len(a.Asked)+len(b.Askers) != 0 {
		t.Fatalf("after the answer: anna %+v, bob %+v", a, b)
	}
	if got, _ := w.s.Ask(p("bob"), p("anna")); got != AlreadyFriends {
		t.Fatalf("asking a friend: %v", got)
	}
	if len(w.changed) == 0 {
		t.Error("presence was not told of the change")
	}
}

// Two who ask each other are friends at the second request.
func TestCrossedRequestsMakeFriends(t *testing.T) {
	w := newWorld(t)
	w.s.Ask(p("anna"), p("bob"))
	if got, err := w.s.Ask(p("bob"), p("anna")); err != nil || got != Befriended {
		t.Fatalf("bob asks anna back: %v %v", got, err)
	}
	if a := w.lists("anna"); len(a.Friends) != 1 {
		t.Fatalf("anna %+v", a)
	}
}

// A request to someone who blocks or ignores the asker is taken as made
// and goes nowhere; blocking a friend ends the friendship on both sides
// and every request between them; a player cannot befriend whom they
// block, nor themselves, nor a guest; and a guest cannot ask at all.
func TestBlocksAndRefusals(t *testing.T) {
	w := newWorld(t)
	if _, err := w.store.UpdatePlayer("SHA256:carol", func(pr *persistence.Profile) error {
		return persistence.AddRelation(&pr.Blocked, persistence.Relation{ID: "SHA256:mal", Name: "mal"})
	}); err != nil {
		t.Fatal(err)
	}
	box := w.board.Open("SHA256:carol")
	if got, err := w.s.Ask(p("mal"), p("carol")); err != nil || got != Asked {
		t.Fatalf("mal asks carol, who blocks him: %v %v; want it taken as made", got, err)
	}
	if c := w.lists("carol"); len(c.Askers) != 0 || len(box.Take()) != 0 {
		t.Fatalf("carol got mal's request: %+v", c)
	}
	if _, err := w.s.Ask(p("carol"), p("mal")); !errors.Is(err, ErrYouBlock) {
		t.Fatalf("carol asks mal, whom she blocks: %v", err)
	}
	w.s.Ask(p("anna"), p("bob"))
	w.s.Accept(p("bob"), p("anna"))
	w.s.Ask(p("carol"), p("anna"))
	if err := w.s.Block("SHA256:anna", "SHA256:bob"); err != nil {
		t.Fatal(err)
	}
	if a, b := w.lists("anna"), w.lists("bob"); len(a.Friends)+len(b.Friends) != 0 {
		t.Fatalf("after anna blocked bob: anna %+v, bob %+v", a, b)
	}
	if err := w.s.Block("SHA256:anna", "SHA256:carol"); err != nil {
		t.Fatal(err)
	}
	if a, c := w.lists("anna"), w.lists("carol"); len(a.Askers)+len(c.Asked) != 0 {
		t.Fatalf("carol's request survived anna's block: anna %+v, carol %+v", a, c)
	}
	for _, tc := range []struct {
		me, other Person
		want      error
	}{
		{p("anna"), p("anna"), ErrNotYou},
		{p("anna"), Person{ID: "guest:x", Name: "g"}, ErrNoProfile},
		{Person{ID: "guest:x", Name: "g"}, p("anna"), ErrGuest},
		{p("anna"), p("nobody"), ErrNoProfile},
	} {
		if _, err := w.s.Ask(tc.me, tc.other); !errors.Is(err, tc.want) {
			t.Errorf("%s asks %s: %v, want %v", tc.me.Name, tc.other.Name, err, tc.want)
		}
	}
}

// Requests are paced (a burst, then one every AskEvery) and bounded: at
// most MaxAsked wait at once, and one lapses after AskLife.
func TestPaceBoundsAndLapse(t *testing.T) {
	w := newWorld(t)
	for i := range MaxAsked + 1 {
		if _, err := w.store.Seen("SHA256:x"+string(rune('a'+i)), "x"); err != nil {
			t.Fatal(err)
		}
	}
	asked := 0
	var err error
	for i := range AskBurst + 1 {
		if _, err = w.s.Ask(p("anna"), Person{ID: "SHA256:x" + string(rune('a'+i)), Name: "x"}); err != nil {
			break
		}
		asked++
	}
	if asked != AskBurst || err == nil {
		t.Fatalf("made %d requests at once (%v); want %d then a refusal", asked, err, AskBurst)
	}
	w.now = w.now.Add(AskEvery)
	if _, err := w.s.Ask(p("anna"), Person{ID: "SHA256:x" + string(rune('a'+asked)), Name: "x"}); err != nil {
		t.Fatalf("after AskEvery: %v", err)
	}
	asked++
	for asked < MaxAsked {
		w.now = w.now.Add(AskEvery)
		if _, err := w.s.Ask(p("anna"), Person{ID: "SHA256:x" + string(rune('a'+asked)), Name: "x"}); err != nil {
			t.Fatal(err)
		}
		asked++
	}
	w.now = w.now.Add(AskEvery)
	if _, err := w.s.Ask(p("anna"), Person{ID: "SHA256:x" + string(rune('a'+asked)), Name: "x"}); err == nil {
		t.Fatalf("request %d went out; at most %d wait", asked+1, MaxAsked)
	}
	w.now = w.now.Add(AskLife)
	if l := w.lists("anna"); len(l.Asked) != 0 {
		t.Fatalf("after AskLife anna's requests still wait: %v", ids(l.Asked))
	}
	if err := w.s.Accept(Person{ID: "SHA256:xa", Name: "x"}, p("anna")); !errors.Is(err, ErrNoRequest) {
		t.Fatalf("answering a lapsed request: %v", err)
	}
}

// Ending a friendship, declining and taking back a request.
func TestRemoveAndDecline(t *testing.T) {
	w := newWorld(t)
	w.s.Ask(p("anna"), p("bob"))
	if err := w.s.Decline("SHA256:bob", "SHA256:anna"); err != nil {
		t.Fatal(err)
	}
	if a, b := w.lists("anna"), w.lists("bob"); len(a.Asked)+len(b.Askers) != 0 {
		t.Fatalf("after the decline: %+v %+v", a, b)
	}
	if err := w.s.Decline("SHA256:bob", "SHA256:anna"); !errors.Is(err, ErrNoRequest) {
		t.Fatalf("declining twice: %v", err)
	}
	w.s.Ask(p("anna"), p("bob"))
	w.s.Accept(p("bob"), p("anna"))
	if err := w.s.Remove("SHA256:bob", "SHA256:anna"); err != nil {
		t.Fatal(err)
	}
	if a, b := w.lists("anna"), w.lists("bob"); len(a.Friends)+len(b.Friends) != 0 {
		t.Fatalf("after bob ended it: %+v %+v", a, b)
	}
	if err := w.s.Remove("SHA256:bob", "SHA256:anna"); !errors.Is(err, ErrNotFriends) {
		t.Fatalf("ending it twice: %v", err)
	}
}

// An answer that stopped half way (the asker's side written, then a
// crash) is completed by answering again; the half-made friendship is
// not one (the answerer does not list the asker).
func TestAHalfMadeFriendshipCompletes(t *testing.T) {
	w := newWorld(t)
	w.s.Ask(p("anna"), p("bob"))
	// The first write of bob's answer, alone: anna lists bob.
	if _, err := w.store.UpdatePlayer("SHA256:anna", func(pr *persistence.Profile) error {
		persistence.RemoveRelation(&pr.Asked, "SHA256:bob")
		return persistence.AddRelation(&pr.Friends, persistence.Relation{ID: "SHA256:bob", Name: "bob"})
	}); err != nil {
		t.Fatal(err)
	}
	if b := w.lists("bob"); len(b.Friends) != 0 || len(b.Askers) != 1 {
		t.Fatalf("bob after the half answer: %+v", b)
	}
	if err := w.s.Accept(p("bob"), p("anna")); err != nil {
		t.Fatalf("answering again: %v", err)
	}
	if a, b := w.lists("anna"), w.lists("bob"); len(a.Friends) != 1 || len(b.Friends) != 1 || len(b.Askers) != 0 {
		t.Fatalf("after answering again: %+v %+v", a, b)
	}
}
