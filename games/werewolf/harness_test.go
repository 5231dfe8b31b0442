package werewolf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// Seats of the spec's scenarios: P1 is seat 0.
const (
	P1 = iota
	P2
	P3
	P4
	P5
	P6
	P7
	P8
	P9
	P10
)

var letters = map[string]Role{
	"W": RoleWerewolf, "V": RoleVillager, "S": RoleSeer, "X": RoleWitch,
	"H": RoleHunter, "C": RoleCupid, "L": RoleLittleGirl, "T": RoleThief,
}

// tg drives one test game.
type tg struct {
	t   *testing.T
	g   Game
	s   *State
	all []game.Event // every event so far
	// snap, if set, runs after every applied action.
	snap func()
}

// deal builds a game from a spec like "T W V V V V V V | W V": seat i gets
// the i-th card, cards after "|" lie in the middle. Options are Custom with
// the cards present; tweak may change them.
func deal(t *testing.T, spec string, tweak func(*Options)) *tg {
	return dealNamed(t, spec, nil, tweak)
}

func dealNamed(t *testing.T, spec string, names []string, tweak func(*Options)) *tg {
	t.Helper()
	var cards []Role
	for _, f := range strings.Fields(strings.ReplaceAll(spec, "|", " ")) {
		r, ok := letters[f]
		if !ok {
			t.Fatalf("bad card %q", f)
		}
		cards = append(cards, r)
	}
	n := len(strings.Fields(strings.Split(spec, "|")[0]))
	o := DefaultOptions()
	o.Preset = PresetCustom
	for _, r := range cards {
		switch r {
		case RoleWerewolf:
			o.Wolves++
		case RoleSeer:
			o.Seer = true
		case RoleWitch:
			o.Witch = true
		case RoleHunter:
			o.Hunter = true
		case RoleCupid:
			o.Cupid = true
		case RoleLittleGirl:
			o.LittleGirl = true
		case RoleThief:
			o.Thief = true
		}
	}
	if n < 8 {
		o.SmallTable = true
	}
	if tweak != nil {
		tweak(&o)
	}
	if names == nil {
		for i := range n {
			names = append(names, fmt.Sprintf("P%d", i+1))
		}
	}
	s, evs, err := NewStateDealt(names, o, 42, cards)
	if err != nil {
		t.Fatalf("deal: %v", err)
	}
	return &tg{t: t, s: s, all: evs}
}

func (x *tg) do(seat int, a Action) []game.Event {
	x.t.Helper()
	next, evs, err := x.g.Apply(x.s, game.Seat(seat), a)
	if err != nil {
		x.t.Fatalf("%v by seat %d in %v: %v", a, seat, x.s.Phase, err)
	}
	x.s = next.(*State)
	x.all = append(x.all, evs...)
	if x.snap != nil {
		x.snap()
	}
	return evs
}

// fail checks that the action is refused with want, changing nothing.
func (x *tg) fail(seat int, a Action, want error) {
	x.t.Helper()
	before, _ := EncodeState(x.s)
	next, evs, err := x.g.Apply(x.s, game.Seat(seat), a)
	if !errors.Is(err, want) {
		x.t.Fatalf("%v by seat %d in %v: err %v, want %v", a, seat, x.s.Phase, err, want)
	}
	if len(evs) != 0 {
		x.t.Fatalf("refused action produced events: %v", evs)
	}
	after, _ := EncodeState(next.(*State))
	again, _ := EncodeState(x.s)
	if !bytes.Equal(before, after) || !bytes.Equal(before, again) {
		x.t.Fatalf("refused action changed the state")
	}
}

func (x *tg) tick() []game.Event {
	x.t.Helper()
	tm, ok := x.s.Timer()
	if !ok {
		x.t.Fatalf("no timer in %v", x.s.Phase)
	}
	return x.do(int(game.System), tm.Action.(Action))
}

// until ticks until the phase is p, collecting the events.
func (x *tg) until(p Phase) []game.Event {
	x.t.Helper()
	var evs []game.Event
	for range 100 {
		if x.s.Phase == p {
			return evs
		}
		if x.s.Over {
			x.t.Fatalf("game over (%s) before %v", x.s.Summary, p)
		}
		evs = append(evs, x.tick()...)
	}
	x.t.Fatalf("never reached %v", p)
	return nil
}

func (x *tg) view(seat int) SeatView { return x.s.View(game.Seat(seat)) }

// slay kills players directly, as a scenario's custom setup.
func (x *tg) slay(seats ...int) {
	for _, i := range seats {
		x.s.Players[i].Alive = false
		x.s.Players[i].Causes = []Cause{CauseLynched}
	}
}

func sel(t int) Action    { return Action{Kind: KindWolfSelect, Target: t} }
func ballot(t int) Action { return Action{Kind: KindBallot, Target: t} }
func kind(k Kind) Action  { return Action{Kind: k} }
func tgt(k Kind, t int) Action {
	return Action{Kind: k, Target: t}
}

// evText is an event as an English reader reads it.
func evText(e game.Event) string {
	if !e.Msg.IsZero() {
		return i18n.For(i18n.English).Msg(e.Msg)
	}
	return e.Text
}

func public(evs []game.Event) []string {
	var v []string
	for _, e := range evs {
		if e.Audience.All {
			v = append(v, evText(e))
		}
	}
	return v
}

// to lists the texts of events seat may see that are not public.
func to(evs []game.Event, seat int) []string {
	var v []string
	for _, e := range evs {
		if !e.Audience.All && e.Audience.Includes(game.Seat(seat)) {
			v = append(v, evText(e))
		}
	}
	return v
}

func contains(v []string, sub string) bool {
	for _, s := range v {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func (x *tg) causes(seat int) []Cause { return x.s.Players[seat].Causes }
