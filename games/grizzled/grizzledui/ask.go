package grizzledui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
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
	if s.drawing {
		return s.drawnAsk
	}
	return s.askNow()
}

// asked is askNow's last answer with what it was worked out from: the
// Update (SetUpdate numbers them), the open chooser, the theme and whether
// an action awaits its answer. A frame asked three times (the Update's
// sync, the help bar's, the body's), each time building the choices and
// their labels again: 2% of the server's CPU and 3% of the bytes it
// allocated while tables played. The choices are shared: read only.
type asked struct {
	update  uint64
	mode    askKind
	th      *uikit.Theme
	waiting bool
	ok      bool
	a       ask
}

// askNow is current's answer, worked out again only when what it comes
// from changed (see asked).
func (s *Screen) askNow() ask {
	if len(s.v.Legal) == 0 { // the seats not asked anything, most of them: askFresh's large frame grew their stacks
		return ask{}
	}
	m := &s.asked
	waiting := s.waiting()
	if !m.ok || m.update != s.updates || m.mode != s.mode || m.th != s.th || m.waiting != waiting {
		*m = asked{update: s.updates, mode: s.mode, th: s.th, waiting: waiting, ok: true, a: s.askFresh()}
	}
	return m.a
}

// askFresh works out current's answer from the view and the open chooser.
//
// Each chooser is worked out by a method of its own: as one function the
// frame of them all (its catalog arguments) was 2 KB, which the program
// goroutines' stacks, shrunk by each collection, grew back for at every
// Update (runtime.newstack under askFresh, 2.3% of the server's CPU while
// 2,000 players played).
func (s *Screen) askFresh() ask {
	if !s.playing() {
		return ask{}
	}
	switch {
	case s.mode == askCharm && s.has(grizzled.ActCharm):
		return s.askCharmNow()
	case s.mode == askSpeech && s.has(grizzled.ActSpeech):
		return s.askSpeechNow()
	case s.has(grizzled.ActIntensity):
		return s.askIntensityNow()
	case s.has(grizzled.ActSpeechDiscard) || s.has(grizzled.ActSpeechPass):
		return s.askAnswerNow()
	case s.has(grizzled.ActRemoveTile):
		return s.askRemoveTileNow()
	case s.has(grizzled.ActPlaceTile):
		return s.askPlaceTileNow()
	case s.has(grizzled.ActDiscardHardKnock):
		return s.askKnockNow()
	case s.has(grizzled.ActBenefitDiscard) || s.has(grizzled.ActBenefitCharm) || s.has(grizzled.ActBenefitDecline):
		return s.askBenefitNow()
	}
	return ask{}
}

// add appends a choice.
func (a *ask) add(label string, act grizzled.Action) {
	a.choices = append(a.choices, choice{label: label, act: act})
}

func (s *Screen) askCharmNow() ask {
	th := s.th
	a := ask{kind: askCharm, confirm: th.T("grizzledui.confirm.discard"), cancel: true}
	charm := grizzled.Threat(0)
	if me := s.me(); me >= 0 {
		charm = s.v.Players[me].Charm
	}
	a.prompt = th.T("grizzledui.ask.charm", game.Text("Mark", s.threatTag(charm)), game.Text("Threat", s.threatName(charm)))
	return s.askList(a, grizzled.ActCharm, s.cardLabelOf)
}

func (s *Screen) askSpeechNow() ask {
	return s.askList(ask{kind: askSpeech, confirm: s.th.T("grizzledui.confirm.speech"), cancel: true,
		prompt: s.th.T("grizzledui.ask.speech")}, grizzled.ActSpeech,
		func(l grizzled.Action) string { return s.threatTag(l.Threat) + " " + s.threatName(l.Threat) })
}

// askList is a with a choice added for each legal action of kind, under
// its label.
func (s *Screen) askList(a ask, kind grizzled.ActionKind, label func(grizzled.Action) string) ask {
	for _, l := range s.legalOf(kind) {
		a.add(label(l), l)
	}
	return a
}

func (s *Screen) askIntensityNow() ask {
	th := s.th
	a := ask{kind: askIntensity, confirm: th.T("grizzledui.confirm.deal")}
	ls := s.legalOf(grizzled.ActIntensity)
	slices.SortFunc(ls, func(x, y grizzled.Action) int { return x.K - y.K })
	a.prompt = th.T("grizzledui.ask.intensity", game.Num("Mission", s.v.Round),
		game.Num("Lo", s.v.MinIntensity), game.Num("Hi", s.v.MaxIntensity))
	for _, l := range ls {
		a.add(strconv.Itoa(l.K), l)
	}
	return a
}

func (s *Screen) askAnswerNow() ask {
	th := s.th
	a := ask{kind: askAnswer, confirm: th.T("grizzledui.confirm.discard")}
	a.prompt = th.T("grizzledui.ask.answer", game.Text("Player", s.name(s.v.Speaker)),
		game.Text("Mark", s.threatTag(s.v.SpeechThreat)), game.Text("Threat", s.threatName(s.v.SpeechThreat)))
	return s.askList(a, grizzled.ActSpeechDiscard, s.cardLabelOf)
}

// cardLabelOf is the label of an action's card.
func (s *Screen) cardLabelOf(l grizzled.Action) string { return s.cardLabel(l.Card) }

func (s *Screen) askRemoveTileNow() ask {
	return s.askList(ask{kind: askRemoveTile, confirm: s.th.T("grizzledui.confirm.remove_tile"),
		prompt: s.th.T("grizzledui.ask.remove_tile")}, grizzled.ActRemoveTile,
		func(l grizzled.Action) string { return s.tileName(l.Tile) })
}

func (s *Screen) askPlaceTileNow() ask {
	return s.askList(ask{kind: askPlaceTile, confirm: s.th.T("grizzledui.confirm.place_tile"),
		prompt: s.th.T("grizzledui.ask.place_tile")}, grizzled.ActPlaceTile,
		func(l grizzled.Action) string { return s.tileName(l.Tile) + " → " + s.name(s.tileTarget(l.Tile)) })
}

func (s *Screen) askKnockNow() ask {
	return s.askList(ask{kind: askKnock, confirm: s.th.T("grizzledui.confirm.discard"),
		prompt: s.th.T("grizzledui.ask.mc")}, grizzled.ActDiscardHardKnock,
		func(l grizzled.Action) string { return s.name(l.Target) + ": " + s.cardLabel(l.Card) })
}

func (s *Screen) askBenefitNow() ask {
	th := s.th
	a := ask{kind: askBenefit, confirm: th.T("grizzledui.confirm.discard_knocks")}
	var opts []string
	ls := s.legalOf(grizzled.ActBenefitDiscard)
	most := 0
	for _, l := range ls {
		most = max(most, len(l.Cards))
	}
	if len(ls) > 0 {
		opts = append(opts, th.T("grizzledui.benefit.discard", game.Count(most)))
	}
	if s.has(grizzled.ActBenefitCharm) {
		opts = append(opts, th.T("grizzledui.benefit.charm"))
	}
	if s.has(grizzled.ActBenefitDecline) {
		opts = append(opts, th.T("grizzledui.benefit.decline"))
	}
	a.prompt = th.T("grizzledui.ask.benefit", game.Text("Options", th.Or(opts)))
	for _, l := range ls {
		var names []string
		for _, c := range l.Cards {
			names = append(names, s.cardLabel(c))
		}
		a.add(strings.Join(names, " + "), l)
	}
	return a
}
