package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/games/werewolf/werewolfui"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// wolfTable is a real Werewolves game (starter deal: Ann villager, Bob
// wolf, Cid seer, Eve wolf, the rest villagers) with each seat's log kept
// as the room keeps it, for drawing one seat's screen.
type wolfTable struct {
	t    *testing.T
	g    werewolf.Game
	st   game.State
	logs map[game.Seat][]game.Event
}

var wolfNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"}

func newWolfTable(t *testing.T) *wolfTable {
	W, V, S := werewolf.RoleWerewolf, werewolf.RoleVillager, werewolf.RoleSeer
	st, evs, err := werewolf.NewStateDealt(wolfNames, werewolf.DefaultOptions(), 7, []werewolf.Role{V, W, S, V, W, V, V, V})
	if err != nil {
		t.Fatal(err)
	}
	w := &wolfTable{t: t, st: st, logs: map[game.Seat][]game.Event{}}
	w.record(evs)
	return w
}

func (w *wolfTable) record(evs []game.Event) {
	for _, e := range evs {
		for s := range game.Seat(len(wolfNames)) {
			if e.Audience.Includes(s) {
				w.logs[s] = append(w.logs[s], e)
			}
		}
		if e.Audience.All {
			w.logs[game.Spectator] = append(w.logs[game.Spectator], e)
		}
	}
}

func (w *wolfTable) do(seat game.Seat, a game.Action) {
	w.t.Helper()
	st, evs, err := w.g.Apply(w.st, seat, a)
	if err != nil {
		w.t.Fatalf("seat %d %v: %v", seat, a, err)
	}
	w.st = st
	w.record(evs)
}

func (w *wolfTable) say(seat game.Seat, text string) {
	w.t.Helper()
	if a, ok := w.g.ChatAction(w.st, seat, text); ok {
		w.do(seat, a)
		return
	}
	evs, err := w.g.Say(w.st, seat, text)
	if err != nil {
		w.t.Fatalf("seat %d says %q: %v", seat, text, err)
	}
	w.record(evs)
}

func (w *wolfTable) until(p werewolf.Phase) {
	w.t.Helper()
	for i := 0; w.st.(*werewolf.State).Phase != p; i++ {
		if i > 40 {
			w.t.Fatalf("never reached %v", p)
		}
		w.do(game.System, werewolf.Action{Kind: werewolf.KindTick, Seq: w.st.(*werewolf.State).PhaseSeq})
	}
}

// update is seat's Update; every seat is held by a person with a key.
func (w *wolfTable) update(seat game.Seat) table.Update {
	seats := make([]table.SeatInfo, len(wolfNames))
	for i, n := range wolfNames {
		seats[i] = table.SeatInfo{Seat: game.Seat(i), ID: "fp-" + strings.ToLower(n), Name: n, Connected: true}
	}
	return table.Update{Room: "W0LF", Game: werewolf.ID, Seat: seat, View: w.g.View(w.st, seat),
		Log: game.Refs(slices.Clone(w.logs[seat])), Public: game.Refs(slices.Clone(w.logs[game.Spectator])),
		Seats: seats, Started: true}
}

// screenOf draws u as a session that ignores the players in ignored does:
// the same path as tablePage.update and plain mode.
func screenOf(u table.Update, ignored ...string) (*werewolfui.Screen, table.Update) {
	var l SessionLists
	for _, id := range ignored {
		l.Ignored = append(l.Ignored, Person{ID: id})
	}
	muted := l.MutedSeats(&u)
	s := werewolfui.New(uikit.New(nil))
	s.SetSize(120, 60)
	s.Mute(muted)
	u = WithoutMuted(u, muted)
	s.SetUpdate(u)
	return s, u
}

// TestIgnoringHidesOnlyChatInWerewolves: Ann ignores Bob. Bob's day chat
// leaves her screen, but his vote and his lynching, which the rules make
// public, stay; what the others said stays.
func TestIgnoringHidesOnlyChatInWerewolves(t *testing.T) {
	w := newWolfTable(t)
	w.until(werewolf.PhaseWolves)
	w.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	w.do(4, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	w.until(werewolf.PhaseDiscussion)
	w.say(2, "Bob is a werewolf")
	w.say(1, "Cid is lying to you all")
	for _, s := range []game.Seat{0, 1, 2, 4, 5, 6, 7} {
		w.do(s, werewolf.Action{Kind: werewolf.KindReady, On: true})
	}
	w.do(1, werewolf.Action{Kind: werewolf.KindBallot, Target: 2})
	for _, s := range []game.Seat{0, 2, 4, 5, 6, 7} {
		w.do(s, werewolf.Action{Kind: werewolf.KindBallot, Target: 1})
	}
	raw := w.update(0)
	seen, _ := screenOf(raw)
	muted, u := screenOf(raw, "fp-bob")
	if v := seen.View(); !strings.Contains(v, "Cid is lying") {
		t.Fatalf("without ignoring, Bob's line is not on the screen:\n%s", v)
	}
	v := muted.View()
	if strings.Contains(v, "Cid is lying") {
		t.Fatalf("Bob's chat is drawn for Ann, who ignores him:\n%s", v)
	}
	if !strings.Contains(v, "Bob is a werewolf") {
		t.Fatalf("Cid's chat went with Bob's:\n%s", v)
	}
	// Every event but Bob's chat line is still in her log: his ballot and
	// his death among them, and drawn.
	pr := i18n.For(i18n.English)
	var kept, public int
	for _, e := range raw.Log {
		if e.Kind == game.Chat && e.From == 1 {
			continue
		}
		kept++
		if e.Kind == game.Narration && slices.ContainsFunc(e.Msg.Args, func(a game.Arg) bool { return a.Str == "Bob" }) {
			public++
			if !slices.Contains(u.Log, e) {
				t.Fatalf("a public line about Bob went: %s", pr.Event(e))
			}
		}
	}
	if len(u.Log) != kept || public == 0 {
		t.Fatalf("log kept %d of %d events (%d public lines about Bob)", len(u.Log), kept, public)
	}
	if !strings.Contains(v, "Bob") {
		t.Fatalf("Bob's vote and death are not drawn:\n%s", v)
	}
}

// TestIgnoringHidesAWolfsLinesInThePack: Eve, Bob's fellow wolf, ignores
// him: his line in the pack channel leaves her log and the whole-channel
// view (P), while his choice of victim stays.
func TestIgnoringHidesAWolfsLinesInThePack(t *testing.T) {
	w := newWolfTable(t)
	w.until(werewolf.PhaseWolves)
	w.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	w.say(1, "Dee talks too much")
	w.say(4, "agreed, Dee it is")
	raw := w.update(4)
	for _, packView := range []bool{false, true} {
		s, _ := screenOf(raw, "fp-bob")
		if packView {
			s.Update(keyRunes("P"))
		}
		v := s.View()
		if strings.Contains(v, "Dee talks too much") || !strings.Contains(v, "agreed, Dee it is") {
			t.Fatalf("pack view %v: Bob's line drawn, or Eve's own gone:\n%s", packView, v)
		}
		if !packView && !strings.Contains(v, "Dee") {
			t.Fatalf("Bob's choice of victim is gone:\n%s", v)
		}
	}
}

func keyRunes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
