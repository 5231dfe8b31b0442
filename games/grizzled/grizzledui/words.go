package grizzledui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// words are one seat's view of the table put into a reader's language:
// seats, cards, threats, tiles and moves by name. The screen draws with
// them, plain mode speaks with them, and the coach's hints and reviews
// name moves with them without a screen of their own.
type words struct {
	th *uikit.Theme
	u  table.Update      // whose words (u.Seat) and the seats' names
	v  grizzled.SeatView // the table as that seat sees it
}

// me is the index of the viewer in Players, or -1.
func (s *words) me() int {
	for i, p := range s.v.Players {
		if p.Seat == s.u.Seat {
			return i
		}
	}
	if i := int(s.u.Seat); i >= 0 && i < len(s.v.Players) {
		return i
	}
	return -1
}

// tileTarget is the seat a tile placed by the viewer would go to (SU-2),
// Selfish included.
func (s *words) tileTarget(t grizzled.Tile) game.Seat {
	me := s.me()
	n := len(s.v.Players)
	if me < 0 || n == 0 {
		return game.Spectator
	}
	if slices.Contains(s.v.Players[me].HardKnocks, grizzled.Selfish) {
		return s.v.Players[me].Seat
	}
	return s.v.Players[((me+t.Offset())%n+n)%n].Seat
}

// name is a seat's display name.
func (s *words) name(seat game.Seat) string {
	for _, p := range s.v.Players {
		if p.Seat == seat && p.Chaplain {
			return s.th.T("grizzled.chaplain") // in the reader's language
		}
		if p.Seat == seat && p.Name != "" {
			return s.th.Name(uikit.Clean(p.Name))
		}
	}
	for _, si := range s.u.Seats {
		if si.Seat == seat && si.Name != "" {
			return s.th.Name(uikit.Clean(si.Name))
		}
	}
	if seat < 0 {
		return s.th.T("ui.nobody")
	}
	return s.th.T("ui.seat_n", game.Num("N", int(seat)+1))
}

// fatal lists the threats that playing card id now would bring to 3.
func (s *words) fatal(id grizzled.CardID) []string {
	mask := s.fatalMask(id)
	if mask == 0 {
		return nil
	}
	var out []string
	for _, t := range s.card(id).threats {
		if mask&(1<<t) != 0 {
			out = append(out, s.threatName(t))
		}
	}
	return out
}

// fatalMask is fatal's threats as bits (1<<t): what a drawing of the card
// is kept by, without naming them.
func (s *words) fatalMask(id grizzled.CardID) uint {
	if s.v.Phase != grizzled.PhaseTurn || s.v.Failed {
		return 0
	}
	var mask uint
	for _, t := range s.card(id).threats {
		if s.v.Counts[t]+1 >= 3 {
			mask |= 1 << t
		}
	}
	return mask
}

func (s *words) names(seats []game.Seat) string {
	if len(seats) == 0 {
		return s.th.T("ui.nobody")
	}
	n := make([]string, len(seats))
	for i, seat := range seats {
		n[i] = s.name(seat)
	}
	return s.th.And(n)
}

// moveLabel is an action in words, as the moves list and the coach say it.
func (s *words) moveLabel(a grizzled.Action) string {
	th := s.th
	key := func(k string) string { return th.T("grizzledui.key." + k) }
	switch a.Kind {
	case grizzled.ActIntensity:
		return th.T("grizzledui.cards_each") + " " + strconv.Itoa(a.K)
	case grizzled.ActPlay:
		c := s.card(a.Card)
		return key("play") + ": " + c.code + " " + c.name
	case grizzled.ActCharm:
		c := s.card(a.Card)
		return key("charm") + ": " + c.code + " " + c.name
	case grizzled.ActSpeech:
		return key("speech") + ": " + s.threatName(a.Threat)
	case grizzled.ActSpeechDiscard:
		c := s.card(a.Card)
		return th.T("grizzledui.confirm.discard") + ": " + c.code + " " + c.name
	case grizzled.ActSpeechPass:
		return key("pass")
	case grizzled.ActWithdraw:
		return key("withdraw")
	case grizzled.ActRemoveTile, grizzled.ActPlaceTile:
		verb := "grizzledui.confirm.place_tile"
		if a.Kind == grizzled.ActRemoveTile {
			verb = "grizzledui.confirm.remove_tile"
		}
		label := th.T(verb) + ": " + th.T(a.Tile.Key()) + " (" + s.tileName(a.Tile) + ")"
		if to := s.tileTarget(a.Tile); a.Kind == grizzled.ActPlaceTile && to >= 0 {
			label += " → " + s.name(to)
		}
		return label
	case grizzled.ActDiscardHardKnock:
		return th.T("grizzledui.confirm.discard") + ": " + s.name(a.Target) + ", " + s.card(a.Card).name
	case grizzled.ActBenefitDiscard:
		names := make([]string, len(a.Cards))
		for i, c := range a.Cards {
			names[i] = s.card(c).name
		}
		return th.T("grizzledui.confirm.discard_knocks") + ": " + strings.Join(names, " + ")
	case grizzled.ActBenefitCharm:
		return th.T("grizzledui.benefit.charm")
	case grizzled.ActBenefitDecline:
		return th.T("grizzledui.benefit.decline")
	}
	return th.T("grizzledui.moves.unnamed") // not a seat's move (the clock's)
}

// keyMark is a key named in brackets after a label: "take nothing (n)".
var keyMark = regexp.MustCompile(` \((\p{L}|enter)\)`)

// coachLabel is an action in words without its key, as the coach says it
// (in a review or a hint the key means nothing). A support tile's letter
// is its name, not a key: the coach says "place tile: right (R) → ann"
// as the moves list does, so a player finds the move the coach names.
func (s *words) coachLabel(a grizzled.Action) string {
	if a.Kind == grizzled.ActPlaceTile || a.Kind == grizzled.ActRemoveTile {
		return s.moveLabel(a)
	}
	return keyMark.ReplaceAllString(s.moveLabel(a), "")
}
