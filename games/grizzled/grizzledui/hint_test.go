package grizzledui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The moves list warns of a card that fails the mission, as the hand does.
func TestMovesWarnOfACardThatFailsTheMission(t *testing.T) {
	s := newScreen(midMission(), 100, 30)
	th := s.th
	warned := 0
	for _, m := range s.Moves() {
		a := m.Action.(grizzled.Action)
		f := s.fatal(a.Card)
		if a.Kind != grizzled.ActPlay {
			continue
		}
		want := th.T("grizzledui.fails_short", game.Text("Threats", th.And(f)))
		if got := strings.Contains(m.Label, want); got != (len(f) > 0) {
			t.Errorf("%q: warns %v, fails the mission %v", m.Label, got, len(f) > 0)
		}
		if len(f) > 0 {
			warned++
			if !strings.Contains(strings.Join(s.Hand(), "\n"), want) {
				t.Errorf("hand does not warn as moves does: %q", want)
			}
		}
	}
	if warned == 0 {
		t.Fatal("the fixture has no card that fails the mission")
	}
}

// A hint says a move in the very words of the moves list (a support tile's
// letter included), so a player, or a screen reader, can match them.
func TestHintSaysAMoveAsTheMovesListDoes(t *testing.T) {
	s := newScreen(midMission(), 100, 30)
	tile := grizzled.Action{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileR}
	line := s.adviceLine(grizzbot.Advice{Best: tile, Next: grizzled.Action{Kind: grizzled.ActWithdraw}})
	label := s.moveLabel(tile)
	if !strings.Contains(label, "(R)") || !strings.Contains(line, label+" (") {
		t.Errorf("the hint %q does not say the move as the list does: %q", line, label)
	}
	ad := grizzbot.Advice{Best: tile, Next: grizzled.Action{Kind: grizzled.ActWithdraw}, Hopeless: true,
		BestP: grizzbot.Estimate{P: 0.01}, BestS: grizzbot.Estimate{P: 0.4, Lo: 0.35, Hi: 0.45}, NextS: grizzbot.Estimate{P: 0.3}}
	if line := s.adviceLine(ad); !strings.Contains(line, "standing ≈40 ±5") || !strings.Contains(line, "≈1%") {
		t.Errorf("a hint with the game all but lost: %q", line)
	}
}

// In a lost position the hint says in one clause why its move, one that
// fails the mission too, is the one to make: in every language.
func TestAHopelessHintSaysWhy(t *testing.T) {
	want := map[i18n.Lang]string{
		i18n.English: " — the mission fails either way; it keeps more morale cards (",
		i18n.Polish:  " — misja nie uda się tak czy inaczej; ten ruch zachowuje więcej kart morale (",
		i18n.Russian: " — задание всё равно провалится; этот ход лучше сохраняет боевой дух (",
		i18n.German:  " — der Einsatz scheitert so oder so; dieser Zug bewahrt mehr Moralkarten (",
	}
	for _, lang := range i18n.Langs {
		s := newScreen(midMission(), 100, 30)
		s.th.SetLang(lang)
		ad := grizzbot.Advice{Best: grizzled.Action{Kind: grizzled.ActWithdraw}, Next: grizzled.Action{Kind: grizzled.ActWithdraw}, Hopeless: true,
			BestP: grizzbot.Estimate{P: 0.01}, BestS: grizzbot.Estimate{P: 0.4, Lo: 0.35, Hi: 0.45}, NextS: grizzbot.Estimate{P: 0.3},
			Why: grizzbot.Why{Gain: grizzbot.GainMorale, FailsAnyway: true}}
		if line := s.adviceLine(ad); !strings.Contains(line, want[lang]) {
			t.Errorf("%s: the hint %q does not say %q", lang, line, want[lang])
		}
	}
}

// A hint asked while every slot is taken waits its turn and gets the slot
// freed; only one that waits hintWait in vain says the coach is busy.
func TestAHintWaitsItsTurnBeforeSayingBusy(t *testing.T) {
	held := 0
	for len(hintSlots) < cap(hintSlots) {
		hintSlots <- struct{}{}
		held++
	}
	defer func() {
		for ; held > 0; held-- {
			<-hintSlots
		}
	}()
	got := make(chan bool)
	go func() { got <- takeHintSlot() }()
	<-hintSlots // another table's hint ends
	held--
	if !<-got {
		t.Fatal("a hint that waited for a slot freed was told the coach is busy")
	}
	held++ // it holds the slot now
	old := hintWait
	hintWait = 10 * time.Millisecond
	defer func() { hintWait = old }()
	if takeHintSlot() {
		t.Fatal("a hint got a slot though all were taken")
	}
}

// A hint names a support tile's soldier as the moves list does, from the
// asking seat: not from the first seat's place at the table.
func TestAHintPlacesATileFromTheAskingSeat(t *testing.T) {
	u := tilePlacement()
	v := u.View.(grizzled.SeatView)
	tile := grizzled.Action{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileR}
	v.Legal = []grizzled.Action{tile} // one move: the hint names it without a search
	v.Players[0].Withdrawn, v.Players[2].Withdrawn = false, true
	s := newScreen(update(2, v), 100, 30)
	want := s.coachLabel(tile)
	got, _ := s.Hint()().(uikit.HintMsg)
	if !strings.Contains(string(got), want) {
		t.Errorf("the hint %q does not place the tile as the moves list does: %q", got, want)
	}
}

// longestHints are, per kind of decision, the longest hints the coach can
// give in s's language with the game all but lost: the moves of the four
// widest labels that can be open at once (the best and the next best,
// never the same card), each reason, with the mission failing either way
// or not, the widest figures. Where the lines break depends on the words,
// so each is a candidate, not only the longest.
func longestHints(s *Screen) map[string][]string {
	groups := map[string][]grizzled.Action{}
	for c := grizzled.FirstThreat; c <= grizzled.MerryChristmas; c++ {
		groups["turn"] = append(groups["turn"], grizzled.Action{Kind: grizzled.ActPlay, Card: c}, grizzled.Action{Kind: grizzled.ActCharm, Card: c})
		groups["speech"] = append(groups["speech"], grizzled.Action{Kind: grizzled.ActSpeechDiscard, Card: c})
		if c.IsHardKnock() {
			groups["merry christmas"] = append(groups["merry christmas"], grizzled.Action{Kind: grizzled.ActDiscardHardKnock, Card: c, Target: 1})
			for d := c + 1; d < grizzled.MerryChristmas; d++ {
				groups["benefit"] = append(groups["benefit"], grizzled.Action{Kind: grizzled.ActBenefitDiscard, Cards: []grizzled.CardID{c, d}})
			}
		}
	}
	for th := range grizzled.Threat(grizzled.NumThreats) {
		groups["turn"] = append(groups["turn"], grizzled.Action{Kind: grizzled.ActSpeech, Threat: th})
	}
	for _, tl := range []grizzled.Tile{grizzled.TileL, grizzled.TileR, grizzled.TileDL, grizzled.TileDR} {
		groups["tile"] = append(groups["tile"], grizzled.Action{Kind: grizzled.ActPlaceTile, Tile: tl})
		groups["absent-minded"] = append(groups["absent-minded"], grizzled.Action{Kind: grizzled.ActRemoveTile, Tile: tl})
	}
	hints := map[string][]string{}
	for g, acts := range groups {
		slices.SortStableFunc(acts, func(a, b grizzled.Action) int {
			return uikit.Width(s.coachLabel(b)) - uikit.Width(s.coachLabel(a))
		})
		wide := acts[:min(4, len(acts))]
		for _, a := range wide {
			for _, b := range wide {
				if s.coachLabel(a) == s.coachLabel(b) || a.Card != 0 && a.Card == b.Card {
					continue
				}
				for gain := grizzbot.GainThreat; gain <= grizzbot.GainOdds; gain++ {
					for _, either := range []bool{false, true} {
						ad := grizzbot.Advice{Best: a, Next: b, Hopeless: true, BestP: grizzbot.Estimate{P: 0.02},
							BestS: grizzbot.Estimate{P: 1, Lo: 0.5, Hi: 1}, NextS: grizzbot.Estimate{P: 1},
							Why: grizzbot.Why{Gain: gain, FailsAnyway: either}}
						hints[g] = append(hints[g], s.adviceLine(ad))
					}
				}
			}
		}
	}
	return hints
}

// The longest hints of every language (a tile to a 20-letter name, the
// next best the same; a card of six threats beside one of three) are read
// whole at 80×24, on the lines a table's notice may take, with the table's
// question still on screen: the longest Russian and German ones needed
// five lines of three and lost the next best's standing.
func TestTheLongestHintIsReadWholeAt80x24(t *testing.T) {
	const w, h = 80, 23 // 80×24 less the session's help bar
	for _, name := range []string{"Александра-Вяземская", "Александрапетровская"} {
		u := tilePlacement()
		v := u.View.(grizzled.SeatView)
		five := append(v.Players, v.Players[3])
		five[4].Seat = 4
		for i := range five {
			five[i].Name = name
		}
		v.Players = five
		u.View = v
		u.Seats = append(u.Seats, table.SeatInfo{Seat: 4})
		for i := range u.Seats {
			u.Seats[i].Name = name
		}
		for _, lang := range i18n.Langs {
			th := asciiTheme()
			th.SetLang(lang)
			s := New(th)
			s.SetSize(w, h)
			s.SetUpdate(u)
			for g, hints := range longestHints(s) {
				var worst []string
				for _, hint := range hints {
					notice := uikit.NoticeLines(s.th, hint, w, uikit.NoticeRows(h))
					if !readWhole(notice, hint) {
						t.Fatalf("%s, %s: the hint of %d characters is not read whole:\n%s", lang, g, uikit.Width(hint), strings.Join(notice, "\n"))
					}
					if len(notice) > len(worst) {
						worst = notice
					}
				}
				t.Logf("%s, %s, %s: %d lines", name, lang, g, len(worst))
				s.SetNotice(strings.Join(worst, "\n"))
				lines := s.Lines()
				for _, l := range lines {
					if uikit.Width(l) > w {
						t.Fatalf("%s, %s: a line of %d cells: %q", lang, g, uikit.Width(l), l)
					}
				}
				screen := strings.Join(lines, "\n")
				ask, _, _ := strings.Cut(s.th.T("grizzledui.ask.place_tile"), ":")
				if len(lines) != h || !strings.Contains(screen, ask+":") || !readWhole(lines, strings.Join(worst, "")) {
					t.Errorf("%s, %s: the table's question or the hint is gone:\n%s", lang, g, screen)
				}
			}
		}
	}
}

// readWhole reports whether lines say text whole, wherever they break.
func readWhole(lines []string, text string) bool {
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	return strings.Contains(squeeze(strings.Join(lines, "")), squeeze(text))
}
