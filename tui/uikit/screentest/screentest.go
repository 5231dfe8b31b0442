// Package screentest is the conformance suite every game's table screen
// passes, as game/gametest is for its rules: a game of the module played
// with random legal moves from its form's default table, drawn for a seat
// and for a spectator after every few moves, in every language and at
// the smallest window the session allows (80×24) and a small one (40×12),
// checking what a player would see: no line wider than the screen, no
// more lines than it has, no catalog key or template left unrendered on
// the screen, in its help bar or in plain mode's sentences, and that Q
// leaves the table whatever the screen shows (esc, which screens use to
// close a chooser, never keeps it from doing so).
package screentest

import (
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/BurntSushi/toml"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// Size is a window: the screen gets its width and its height less the
// session's help bar.
type Size struct{ W, H int }

// Sizes are the windows every screen is drawn in: the smallest the
// session serves a table in, and a small one it shows "too small" in,
// where the screen must still not spill (a resize reaches it first).
var Sizes = []Size{{80, 24}, {40, 12}}

// Snapshots is how many moments of a game each check draws.
const Snapshots = 24

// names are the seats' names: long, and in another script than the
// catalogs' English.
var names = []string{"Александра Петровна", "Zbigniew Brzęczyszcz", "Jörg-Hans Müllerssohn", "Екатерина Великая11",
	"Przemysław Wąsowicz", "Ольга Константинова", "Friedrich Weißenborn", "Małgorzata Żółkiewska"}

// Check is the suite for one game's module. Every registered game passes
// it (the registry's test runs it for each).
func Check(t *testing.T, m uikit.Module) {
	t.Helper()
	if m.Screen == nil {
		t.Fatalf("%s has no screen", m.Game.ID())
	}
	keyLeft := keyPattern(t)
	moments := play(t, m, 1)
	for _, l := range i18n.Langs {
		for _, size := range Sizes {
			t.Run(fmt.Sprintf("%s/%s/%dx%d", m.Game.ID(), l, size.W, size.H), func(t *testing.T) {
				for _, seat := range []game.Seat{0, game.Spectator} {
					checkScreen(t, m, l, size, seat, moments, keyLeft)
				}
			})
		}
	}
}

// reporter is what the checks tell what they find: a *testing.T, or the
// suite's own test, which checks that they find it.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// moment is a game's state after some moves, with what was said so far.
type moment struct {
	state  game.State
	events []game.Event
	seq    int
}

// play plays a game of m from its form's default table, with random
// legal moves (timers now and then), and keeps Snapshots moments of it,
// its end among them.
func play(t reporter, m uikit.Module, seed uint64) []moment {
	t.Helper()
	spec, err := m.BuildTable(m.FormDefaults())
	if err != nil {
		t.Fatalf("%s: the form's default table: %v", m.Game.ID(), err)
	}
	g := m.Game
	setup := game.Setup{Game: g.ID(), Names: names[:spec.Seats:spec.Seats], Options: spec.GameOptions}
	if spec.Seats > len(names) {
		for i := len(names); i < spec.Seats; i++ {
			setup.Names = append(setup.Names, fmt.Sprintf("Гость номер %d", i+1))
		}
	}
	r := rand.New(rand.NewPCG(seed, 3))
	s, evs, err := g.New(setup, seed)
	if err != nil {
		t.Fatalf("%s: new game: %v", g.ID(), err)
	}
	var all []moment
	var said []game.Event
	for seq := 0; seq < 3000; seq++ {
		said = append(said, evs...)
		all = append(all, moment{state: g.Clone(s), events: slices.Clone(said), seq: seq})
		if _, over := g.Result(s); over {
			break
		}
		tm, timed := g.Timer(s)
		var seat game.Seat
		var a game.Action
		if w := g.Waiting(s); len(w) > 0 && (!timed || r.IntN(6) > 0) {
			seat = w[r.IntN(len(w))]
			legal := g.Legal(s, seat)
			if len(legal) == 0 {
				if !timed {
					break
				}
				seat, a = game.System, tm.Action
			} else {
				a = legal[r.IntN(len(legal))]
			}
		} else if timed {
			seat, a = game.System, tm.Action
		} else {
			break
		}
		if s, evs, err = g.Apply(s, seat, a); err != nil {
			t.Fatalf("%s: a legal move refused: %v", g.ID(), err)
		}
	}
	if len(all) <= Snapshots {
		return all
	}
	var out []moment
	for i := range Snapshots - 1 {
		out = append(out, all[i*len(all)/(Snapshots-1)])
	}
	return append(out, all[len(all)-1])
}

// update is what the room would send seat at moment mo.
func update(m uikit.Module, mo moment, seat game.Seat, seats int) table.Update {
	g := m.Game
	spec, _ := m.BuildTable(m.FormDefaults()) // the title the lobby gives the table
	u := table.Update{Room: "ABCD", Game: g.ID(), Title: spec.Title, Seat: seat, Seq: mo.seq,
		View: g.View(mo.state, seat), Started: true, LogEnd: len(mo.events)}
	for i := range seats {
		u.Seats = append(u.Seats, table.SeatInfo{Seat: game.Seat(i), Name: names[i%len(names)], Connected: i%2 == 0})
	}
	for i := range mo.events {
		e := &mo.events[i]
		if e.Audience.Includes(seat) {
			u.Log = append(u.Log, e)
		}
		if e.Audience.All {
			u.Public = append(u.Public, e)
		}
	}
	if t, ok := g.Timer(mo.state); ok {
		u.Deadline = max(1, int(t.After/time.Second))
	}
	if r, over := g.Result(mo.state); over {
		u.Over, u.Result = true, &r
	}
	return u
}

// checkScreen draws every moment on a fresh screen for seat in language
// l, with a refusal and then the table closed at the end.
func checkScreen(t reporter, m uikit.Module, l i18n.Lang, size Size, seat game.Seat, moments []moment, keyLeft *regexp.Regexp) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256) // colours: widths are measured past their escapes
	th := uikit.New(r)
	th.SetLang(l)
	s := m.Screen(th)
	s.SetSize(size.W, size.H-1)
	can := uikit.AbilitiesOf(s)
	n := seatsOf(m)
	for i, mo := range moments {
		u := update(m, mo, seat, n)
		switch i {
		case len(moments) / 2:
			u.Notice = game.ErrBadAction.Msg // a move the table refused
		case len(moments) - 1:
			u.Closed = table.Restarting
		}
		s.Update(uikit.UpdateMsg{Update: &u})
		where := fmt.Sprintf("seat %d, move %d", seat, mo.seq)
		lines := strings.Split(s.View(), "\n")
		if can.Lined != nil {
			lines = can.Lined.Lines()
		}
		checkLines(t, where, size, lines, keyLeft)
		if size.W >= 80 {
			checkCuts(t, where, l, size.W, lines)
		}
		checkWords(t, where+", help bar", helpWords(s), keyLeft)
		if can.Plain != nil {
			words := append(can.Plain.Look(), can.Plain.Asked())
			for _, mv := range can.Plain.Moves() {
				words = append(words, mv.Label)
			}
			checkWords(t, where+", plain mode", words, keyLeft)
			checkCuts(t, where+", plain mode", l, 1<<20, words)
		}
		checkLeaves(t, where, s)
	}
}

// checkCuts fails on a word cut short (CutWords) that is no part of a
// seat's name: at 80 columns every word fits, in every language.
func checkCuts(t reporter, where string, l i18n.Lang, width int, lines []string) {
	t.Helper()
	for _, c := range CatalogWords(t, l).CutWords(lines, width, append(slices.Clone(names), "ABCD", "Гость номер")) {
		t.Errorf("%s: a word cut: %s", where, c)
	}
}

// seatsOf is how many seats the game has: the form's default table's.
func seatsOf(m uikit.Module) int {
	spec, _ := m.BuildTable(m.FormDefaults())
	return spec.Seats
}

// checkLines fails on a line wider than the screen, more lines than it
// has, or words left as keys.
func checkLines(t reporter, where string, size Size, lines []string, keyLeft *regexp.Regexp) {
	t.Helper()
	if len(lines) > size.H-1 {
		t.Errorf("%s: %d lines on a screen of %d", where, len(lines), size.H-1)
	}
	for i, line := range lines {
		if w := ansi.StringWidth(line); w > size.W {
			t.Errorf("%s: line %d is %d columns wide on a screen of %d: %q", where, i+1, w, size.W, ansi.Strip(line))
		}
	}
	checkWords(t, where, lines, keyLeft)
}

// Unrendered are the catalog keys, placeholders and templates' "<no
// value>" left in lines, each with its line.
func Unrendered(t reporter, lines []string) []string {
	t.Helper()
	keyLeft := keyPattern(t)
	var out []string
	for _, w := range lines {
		plain := ansi.Strip(w)
		if k := keyLeft.FindString(plain); k != "" || strings.Contains(plain, "{{") || strings.Contains(plain, "<no value>") {
			out = append(out, fmt.Sprintf("%q in %q", k, plain))
		}
	}
	return out
}

// checkWords fails on a catalog key, a placeholder or a template's
// "<no value>" left in what a player reads.
func checkWords(t reporter, where string, words []string, keyLeft *regexp.Regexp) {
	t.Helper()
	for _, w := range words {
		plain := ansi.Strip(w)
		if k := keyLeft.FindString(plain); k != "" || strings.Contains(plain, "{{") || strings.Contains(plain, "<no value>") {
			t.Errorf("%s: unrendered words (%q) in %q", where, k, plain)
		}
	}
}

// helpWords are the help bar's keys and what each does.
func helpWords(s uikit.Screen) []string {
	var out []string
	for _, group := range s.Keys().FullHelp() {
		for _, b := range group {
			out = append(out, b.Help().Key, b.Help().Desc)
		}
	}
	return out
}

// checkLeaves checks that Q leaves the table, also after esc: a copy of
// the screen's state is not to be had, so the keys go to the screen
// itself, which the next Update resets.
func checkLeaves(t reporter, where string, s uikit.Screen) {
	t.Helper()
	s.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if !leaves(s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'Q'}})) {
		t.Errorf("%s: Q does not leave the table", where)
	}
}

// leaves reports whether cmd, run with what it batches, asks to leave.
func leaves(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case uikit.LeaveMsg:
		return true
	case tea.BatchMsg:
		return slices.ContainsFunc(msg, leaves)
	}
	return false
}

// keyPattern matches a catalog key left unrendered: a namespace, a dot
// and a name.
func keyPattern(t reporter) *regexp.Regexp {
	return regexp.MustCompile(`\b(` + strings.Join(namespaces(t), "|") + `)\.[a-z0-9_]+`)
}

// namespaces are the first parts of every catalog key, in English: a
// word made of one and a dot is a key left unrendered.
func namespaces(t reporter) []string {
	t.Helper()
	var out []string
	for _, c := range i18n.Catalogs() {
		b, err := fs.ReadFile(c.Files, string(i18n.English)+".toml")
		if err != nil {
			t.Fatalf("catalog %q: %v", c.Name, err)
		}
		var top map[string]any
		if err := toml.Unmarshal(b, &top); err != nil {
			t.Fatalf("catalog %q: %v", c.Name, err)
		}
		for ns := range top {
			if !slices.Contains(out, ns) {
				out = append(out, regexp.QuoteMeta(ns))
			}
		}
	}
	slices.Sort(out)
	return out
}
