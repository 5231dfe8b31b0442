package plain

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// narratorScreen asks what the night's narrator says, with no moves (a
// sleeping villager's screen).
type narratorScreen struct {
	coinScreen
	asked string
}

func (s *narratorScreen) Look() []string      { return []string{s.asked} }
func (s *narratorScreen) Hand() []string      { return nil }
func (s *narratorScreen) Table() []string     { return nil }
func (s *narratorScreen) Asked() string       { return s.asked }
func (s *narratorScreen) Moves() []uikit.Move { return nil }

// atTable is a plain session at room, in English, and what it says.
func atTable(t *testing.T, room table.RoomHandle) (*plain, *bytes.Buffer) {
	out := &bytes.Buffer{}
	a := testApp(t)
	return &plain{app: a, th: a.Theme(nil, i18n.English, false), ed: newLineEditor(out, false), room: room}, out
}

// namedRoom is a room known by its code only: onUpdate asks no more.
type namedRoom struct {
	table.RoomHandle
	code string
}

func (r namedRoom) Code() string { return r.code }

// A screen reader hears each narration once, whichever comes first to the
// session: the view that asks it, or the log line that says it. A sleeping
// player heard "The Seer wakes." twice when the view came first.
func TestANarrationIsSaidOnceWhicheverComesFirst(t *testing.T) {
	narration := game.Event{Kind: game.Narration, From: -1, Msg: game.Raw("The Seer wakes.")}
	for _, viewFirst := range []bool{true, false} {
		p, out := atTable(t, namedRoom{code: "K7QX"})
		screen := &narratorScreen{}
		p.setScreen(screen)
		asked := table.Update{Room: "K7QX", Started: true}
		logged := table.Update{Room: "K7QX", Started: true, Log: game.Refs([]game.Event{narration}), LogEnd: 1}
		if viewFirst {
			screen.asked = "The Seer wakes."
			p.onUpdate(asked)
			p.onUpdate(logged)
		} else {
			p.onUpdate(logged)
			screen.asked = "The Seer wakes."
			p.onUpdate(logged)
		}
		if n := strings.Count(out.String(), "The Seer wakes."); n != 1 {
			t.Errorf("view first %v: the narration was said %d times:\n%s", viewFirst, n, out.String())
		}
		// The next night's narration, the same words, is said again.
		out.Reset()
		screen.asked = "The village wakes."
		p.onUpdate(logged)
		screen.asked = "The Seer wakes."
		logged.Log, logged.LogEnd = game.Refs([]game.Event{narration, narration}), 2
		p.onUpdate(logged)
		if n := strings.Count(out.String(), "The Seer wakes."); n != 1 {
			t.Errorf("view first %v: the next night's narration was said %d times:\n%s", viewFirst, n, out.String())
		}
	}
}

// The line that ends a game opens a long batch (every card, then the
// night log): the view's narration of it, asked after the batch, is not
// said again however many lines came between.
func TestAPhaseLineIsSaidOnceAfterALongBatch(t *testing.T) {
	p, out := atTable(t, namedRoom{code: "K7QX"})
	screen := &narratorScreen{}
	p.setScreen(screen)
	end := "The village wins: every werewolf is dead."
	evs := []game.Event{{Kind: game.Narration, From: -1, Msg: game.Raw(end)}}
	for i := range 12 {
		evs = append(evs, game.Event{Kind: game.Narration, From: -1, Msg: game.Raw(fmt.Sprintf("Night %d: the werewolves had no victim.", i+1))})
	}
	screen.asked = end
	p.onUpdate(table.Update{Room: "K7QX", Started: true, Log: game.Refs(evs), LogEnd: len(evs)})
	if n := strings.Count(out.String(), end); n != 1 {
		t.Errorf("the game's end was said %d times:\n%s", n, out.String())
	}
}

// seerScreen asks the seer to choose, with moves.
type seerScreen struct{ narratorScreen }

func (s *seerScreen) Moves() []uikit.Move {
	if s.asked == "" {
		return nil
	}
	return []uikit.Move{{Label: "See Bob", Commands: []string{"see 2"}}}
}

// A player called to act by a log line hears the call once, whichever
// comes first, the line or the view asking it with moves: then only the
// hint that moves lists them.
func TestACallToActIsSaidOnceWithItsMoves(t *testing.T) {
	call := "Choose a player whose card you want to see."
	line := game.Event{Kind: game.Narration, From: -1, Msg: game.Raw(call)}
	for _, viewFirst := range []bool{true, false} {
		p, out := atTable(t, namedRoom{code: "K7QX"})
		screen := &seerScreen{}
		p.setScreen(screen)
		logged := table.Update{Room: "K7QX", Started: true, Log: game.Refs([]game.Event{line}), LogEnd: 1}
		if viewFirst {
			screen.asked = call
			p.onUpdate(table.Update{Room: "K7QX", Started: true})
			p.onUpdate(logged)
		} else {
			screen.asked = call
			p.onUpdate(logged)
		}
		if n := strings.Count(out.String(), call); n != 1 || !strings.Contains(out.String(), p.th.T("plain.moves_hint")) {
			t.Errorf("view first %v: the call was said %d times, or without the hint:\n%s", viewFirst, n, out.String())
		}
	}
}

// leftRoom is a room a session can leave.
type leftRoom struct{ namedRoom }

func (leftRoom) Detach(*table.Mailbox) error { return nil }

// A player who leaves a finished game and sits at another table hears
// nothing more of the old game: its screen, and what that screen could
// say, go with it. Seen in Polish: after "leave" and an invitation's
// "accept", the new table's first update said the old werewolf game's
// "Wygrywają wilkołaki…" again.
func TestTheOldTablesScreenIsGoneAfterLeaving(t *testing.T) {
	p, out := atTable(t, leftRoom{namedRoom{code: "K7QX"}})
	end := "The werewolves win: they devoured the village."
	p.setScreen(&narratorScreen{asked: end})
	p.leaveTable()
	p.room, p.started = namedRoom{code: "B2CD"}, true // the next table, not started yet
	out.Reset()
	p.onUpdate(table.Update{Room: "B2CD"})
	if strings.Contains(out.String(), end) {
		t.Errorf("the old game's line was said at the new table:\n%s", out.String())
	}
}

// What is asked is said without a first sentence the log has just said:
// the witch heard "Tonight's victim: Bob." and then "Tonight's victim:
// Bob. Use a potion, or pass."
func TestWhatIsAskedSkipsTheSentenceJustSaid(t *testing.T) {
	p, out := atTable(t, namedRoom{code: "K7QX"})
	screen := &seerScreen{}
	p.setScreen(screen)
	victim := "Tonight's victim: Bob."
	screen.asked = victim + " Use a potion, or pass."
	p.onUpdate(table.Update{Room: "K7QX", Started: true, LogEnd: 1,
		Log: game.Refs([]game.Event{{Kind: game.Narration, From: -1, Msg: game.Raw(victim)}})})
	if n := strings.Count(out.String(), victim); n != 1 || !strings.Contains(out.String(), "Use a potion, or pass. "+p.th.T("plain.moves_hint")) {
		t.Errorf("the victim was said %d times, or the question without its hint:\n%s", n, out.String())
	}
}
