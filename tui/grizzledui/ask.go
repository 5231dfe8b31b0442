package grizzledui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bivouac/game"
	"bivouac/game/grizzled"
	"bivouac/tui/uikit"
)

// askKind is what the screen is asking the player to choose now.
type askKind int

const (
	askNone       askKind = iota // free turn (or nothing to do): keys act on the hand
	askIntensity                 // leader: cards dealt to each soldier
	askCharm                     // lucky charm: which NML card (opened with c)
	askSpeech                    // speech: which threat (opened with s)
	askAnswer                    // someone's speech: which card to discard (or pass)
	askRemoveTile                // Absent-minded: which tile leaves the game
	askPlaceTile                 // withdrawal: which tile to place face down
	askKnock                     // Merry Christmas: whose hard knock to discard
	askBenefit                   // support benefit: which hard knocks to discard
)

// modeKind is the action a player-opened chooser leads to.
func modeKind(m askKind) grizzled.ActionKind {
	switch m {
	case askCharm:
		return grizzled.ActCharm
	case askSpeech:
		return grizzled.ActSpeech
	}
	return 0
}

type choice struct {
	label string // styled
	act   grizzled.Action
}

type ask struct {
	kind    askKind
	prompt  string // styled
	confirm string // help text of enter
	choices []choice
	cancel  bool // esc closes it
}

// current works out the chooser from the mode and SeatView.Legal. Every
// choice is an action the engine listed, passed on unchanged.
func (s *Screen) current() ask {
	if !s.playing() {
		return ask{}
	}
	var a ask
	add := func(label string, act grizzled.Action) {
		a.choices = append(a.choices, choice{label: label, act: act})
	}
	switch {
	case s.mode == askCharm && s.has(grizzled.ActCharm):
		a = ask{kind: askCharm, confirm: "discard it", cancel: true}
		charm := grizzled.Threat(0)
		if me := s.me(); me >= 0 {
			charm = s.v.Players[me].Charm
		}
		a.prompt = fmt.Sprintf("Lucky charm (%s): discard one No Man's Land card showing %s.",
			s.threatTag(charm), threatName(charm))
		for _, l := range s.legalOf(grizzled.ActCharm) {
			add(s.cardLabel(l.Card), l)
		}
	case s.mode == askSpeech && s.has(grizzled.ActSpeech):
		a = ask{kind: askSpeech, confirm: "give speech", cancel: true,
			prompt: "Speech: name a threat. Every other soldier in the mission may discard one card showing it."}
		for _, l := range s.legalOf(grizzled.ActSpeech) {
			add(s.threatTag(l.Threat)+" "+threatName(l.Threat), l)
		}
	case s.has(grizzled.ActIntensity):
		a = ask{kind: askIntensity, confirm: "deal"}
		ls := s.legalOf(grizzled.ActIntensity)
		slices.SortFunc(ls, func(x, y grizzled.Action) int { return x.K - y.K })
		a.prompt = fmt.Sprintf("You lead mission %d: how many cards does each soldier get? (%d–%d)",
			s.v.Round, s.v.MinIntensity, s.v.MaxIntensity)
		for _, l := range ls {
			add(strconv.Itoa(l.K), l)
		}
	case s.has(grizzled.ActSpeechDiscard) || s.has(grizzled.ActSpeechPass):
		a = ask{kind: askAnswer, confirm: "discard it"}
		a.prompt = fmt.Sprintf("%s's speech: you may discard one card showing %s %s, or pass (x).",
			s.name(s.v.Speaker), s.threatTag(s.v.SpeechThreat), threatName(s.v.SpeechThreat))
		for _, l := range s.legalOf(grizzled.ActSpeechDiscard) {
			add(s.cardLabel(l.Card), l)
		}
	case s.has(grizzled.ActRemoveTile):
		a = ask{kind: askRemoveTile, confirm: "remove tile",
			prompt: "Absent-minded: before withdrawing, remove one of your support tiles from the game."}
		for _, l := range s.legalOf(grizzled.ActRemoveTile) {
			add(tileName(l.Tile), l)
		}
	case s.has(grizzled.ActPlaceTile):
		a = ask{kind: askPlaceTile, confirm: "place tile",
			prompt: "Withdrawing: place one support tile face down. It supports the soldier it points to."}
		for _, l := range s.legalOf(grizzled.ActPlaceTile) {
			add(tileName(l.Tile)+" → "+s.name(s.tileTarget(l.Tile)), l)
		}
	case s.has(grizzled.ActDiscardHardKnock):
		a = ask{kind: askKnock, confirm: "discard it",
			prompt: "Merry Christmas: choose a hard knock to discard, in front of any soldier."}
		for _, l := range s.legalOf(grizzled.ActDiscardHardKnock) {
			add(s.name(l.Target)+": "+s.cardLabel(l.Card), l)
		}
	case s.has(grizzled.ActBenefitDiscard) || s.has(grizzled.ActBenefitCharm) || s.has(grizzled.ActBenefitDecline):
		a = ask{kind: askBenefit, confirm: "discard"}
		var opts []string
		ls := s.legalOf(grizzled.ActBenefitDiscard)
		most := 0
		for _, l := range ls {
			most = max(most, len(l.Cards))
		}
		if len(ls) > 0 {
			opts = append(opts, fmt.Sprintf("discard up to %d of your hard knocks (enter)", most))
		}
		if s.has(grizzled.ActBenefitCharm) {
			opts = append(opts, "turn your charm back (r)")
		}
		if s.has(grizzled.ActBenefitDecline) {
			opts = append(opts, "take nothing (n)")
		}
		a.prompt = "You received the most support. Choose: " + strings.Join(opts, ", or ") + "."
		for _, l := range ls {
			var names []string
			for _, c := range l.Cards {
				names = append(names, s.cardLabel(c))
			}
			add(strings.Join(names, " + "), l)
		}
	default:
		return ask{}
	}
	return a
}

// tileTarget is the seat a tile placed by the viewer would go to (SU-2),
// Selfish included.
func (s *Screen) tileTarget(t grizzled.Tile) game.Seat {
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
func (s *Screen) name(seat game.Seat) string {
	for _, p := range s.v.Players {
		if p.Seat == seat && p.Name != "" {
			return uikit.Clean(p.Name)
		}
	}
	for _, si := range s.u.Seats {
		if si.Seat == seat && si.Name != "" {
			return uikit.Clean(si.Name)
		}
	}
	if seat < 0 {
		return "nobody"
	}
	return fmt.Sprintf("seat %d", seat+1)
}
