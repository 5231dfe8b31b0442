package grizzledui

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/i18n"
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
		i18n.Russian: " — задание провалится в любом случае; этот ход сохраняет больше карт боевого духа (",
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
