package grizzbot

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// view is a 4-seat mid-game view for seat 0 with hand and legal actions
// filled in by each case.
func view(phase g.Phase) *g.SeatView {
	v := &g.SeatView{
		Seat: 0, Phase: phase, Round: 2, Options: g.Options{Variant: g.Standard},
		Trials: 15, Morale: 20, Speaker: -1, NML: []g.CardID{}, Removed: []g.CardID{},
		MinIntensity: 1, MaxIntensity: 4,
	}
	for i := range 4 {
		v.Players = append(v.Players, g.PlayerView{Seat: game.Seat(i), CharmAvailable: true, HandSize: 2, HardKnocks: []g.CardID{}})
	}
	return v
}

func withPlays(v *g.SeatView, hand ...g.CardID) {
	v.Hand = hand
	v.Players[0].HandSize = len(hand)
	for _, c := range hand {
		v.Legal = append(v.Legal, g.Action{Kind: g.ActPlay, Card: c})
	}
}

func TestPolicyChoices(t *testing.T) {
	tests := []struct {
		name string
		v    func() *g.SeatView
		want g.Action
	}{
		{"plays the card that makes no third threat", func() *g.SeatView {
			v := view(g.PhaseTurn)
			v.NML = []g.CardID{5, 31} // Night+Whistle, Night+Snow: Night 2
			v.Counts = [g.NumThreats]int{g.Night: 2, g.Snow: 1, g.Whistle: 1}
			withPlays(v, 1, 27) // Night+Shell would fail; Rain+Mask is safe
			v.Legal = append(v.Legal, g.Action{Kind: g.ActWithdraw})
			return v
		}, g.Action{Kind: g.ActPlay, Card: 27}},
		{"withdraws when nothing is safe", func() *g.SeatView {
			v := view(g.PhaseTurn)
			v.NML = []g.CardID{5, 31}
			v.Counts = [g.NumThreats]int{g.Night: 2, g.Snow: 1, g.Whistle: 1}
			withPlays(v, 1, 8) // both show Night
			v.Legal = append(v.Legal, g.Action{Kind: g.ActWithdraw})
			return v
		}, g.Action{Kind: g.ActWithdraw}},
		{"uses the charm when it makes a card playable", func() *g.SeatView {
			v := view(g.PhaseTurn)
			v.NML = []g.CardID{5, 31}
			v.Counts = [g.NumThreats]int{g.Night: 2, g.Snow: 1, g.Whistle: 1}
			v.Players[0].Charm = g.Night
			withPlays(v, 1)
			v.Legal = append(v.Legal, g.Action{Kind: g.ActCharm, Card: 5}, g.Action{Kind: g.ActCharm, Card: 31}, g.Action{Kind: g.ActWithdraw})
			return v
		}, g.Action{Kind: g.ActCharm, Card: 5}},
		{"never plays a trap card likely to fail", func() *g.SeatView {
			v := view(g.PhaseTurn)
			v.NML = []g.CardID{1, 11, 14, 24} // Night, Snow 2, Rain, Shell 2, Whistle 2
			v.Counts = [g.NumThreats]int{g.Night: 1, g.Snow: 2, g.Rain: 1, g.Shell: 2, g.Whistle: 2}
			withPlays(v, 10) // Night+Mask with a trap: most draws make a third threat
			v.Legal = append(v.Legal, g.Action{Kind: g.ActWithdraw})
			return v
		}, g.Action{Kind: g.ActWithdraw}},
		{"answers a speech with its Trauma", func() *g.SeatView {
			v := view(g.PhaseSpeech)
			v.Speaker, v.SpeechThreat = 2, g.Snow
			v.Hand = []g.CardID{14, g.TraumaSnow}
			v.Legal = []g.Action{{Kind: g.ActSpeechDiscard, Card: 14}, {Kind: g.ActSpeechDiscard, Card: g.TraumaSnow}, {Kind: g.ActSpeechPass}}
			return v
		}, g.Action{Kind: g.ActSpeechDiscard, Card: g.TraumaSnow}},
		{"supports the most hurt teammate", func() *g.SeatView {
			v := view(g.PhaseDecision)
			v.Decision = g.DecidePlaceTile
			v.Players[1].HardKnocks, v.Players[1].Weight = []g.CardID{g.Wounded, g.Mute}, 3
			v.Players[3].HardKnocks, v.Players[3].Weight = []g.CardID{g.Mute}, 1
			v.MyTiles = []g.Tile{g.TileL, g.TileR}
			v.Legal = []g.Action{{Kind: g.ActPlaceTile, Tile: g.TileL}, {Kind: g.ActPlaceTile, Tile: g.TileR}}
			return v
		}, g.Action{Kind: g.ActPlaceTile, Tile: g.TileL}},
		{"Absent-minded gives up the tile aimed at the least hurt", func() *g.SeatView {
			v := view(g.PhaseDecision)
			v.Decision = g.DecideRemoveTile
			v.Players[3].HardKnocks, v.Players[3].Weight = []g.CardID{g.Wounded}, 2
			v.MyTiles = []g.Tile{g.TileL, g.TileR}
			v.Legal = []g.Action{{Kind: g.ActRemoveTile, Tile: g.TileL}, {Kind: g.ActRemoveTile, Tile: g.TileR}}
			return v
		}, g.Action{Kind: g.ActRemoveTile, Tile: g.TileL}},
		{"Merry Christmas saves the heaviest soldier", func() *g.SeatView {
			v := view(g.PhaseDecision)
			v.Decision = g.DecideHardKnock
			v.Players[1].HardKnocks, v.Players[1].Weight = []g.CardID{g.Mute}, 1
			v.Players[2].HardKnocks, v.Players[2].Weight = []g.CardID{g.Wounded, g.Selfish}, 3
			v.Legal = []g.Action{
				{Kind: g.ActDiscardHardKnock, Card: g.Mute, Target: 1},
				{Kind: g.ActDiscardHardKnock, Card: g.Wounded, Target: 2},
				{Kind: g.ActDiscardHardKnock, Card: g.Selfish, Target: 2},
			}
			return v
		}, g.Action{Kind: g.ActDiscardHardKnock, Card: g.Wounded, Target: 2}},
		{"a benefit sheds the most weight", func() *g.SeatView {
			v := view(g.PhaseBenefit)
			v.Players[0].HardKnocks, v.Players[0].Weight = []g.CardID{g.Mute, g.Wounded, g.Panicked}, 4
			v.Players[0].CharmAvailable = false
			ks := v.Players[0].HardKnocks
			for i := range ks {
				v.Legal = append(v.Legal, g.Action{Kind: g.ActBenefitDiscard, Cards: []g.CardID{ks[i]}})
				for _, b := range ks[i+1:] {
					v.Legal = append(v.Legal, g.Action{Kind: g.ActBenefitDiscard, Cards: []g.CardID{ks[i], b}})
				}
			}
			v.Legal = append(v.Legal, g.Action{Kind: g.ActBenefitCharm}, g.Action{Kind: g.ActBenefitDecline})
			return v
		}, g.Action{Kind: g.ActBenefitDiscard, Cards: []g.CardID{g.Wounded, g.Panicked}}},
		{"a benefit restores the charm when nothing hurts", func() *g.SeatView {
			v := view(g.PhaseBenefit)
			v.Players[0].CharmAvailable = false
			v.Legal = []g.Action{{Kind: g.ActBenefitCharm}, {Kind: g.ActBenefitDecline}}
			return v
		}, g.Action{Kind: g.ActBenefitCharm}},
		{"intensity from the cards already held", func() *g.SeatView {
			v := view(g.PhaseIntensity)
			for i := range v.Players {
				v.Players[i].HandSize = 0
			}
			for k := 1; k <= 4; k++ {
				v.Legal = append(v.Legal, g.Action{Kind: g.ActIntensity, K: k})
			}
			return v
		}, g.Action{Kind: g.ActIntensity, K: 2}},
		{"intensity drops when hands are full", func() *g.SeatView {
			v := view(g.PhaseIntensity)
			for i := range v.Players {
				v.Players[i].HandSize = 2
			}
			for k := 1; k <= 4; k++ {
				v.Legal = append(v.Legal, g.Action{Kind: g.ActIntensity, K: k})
			}
			return v
		}, g.Action{Kind: g.ActIntensity, K: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(5) {
				a, ok := NewEasy().Act(*tt.v(), seed)
				if !ok {
					t.Fatal("no action")
				}
				if got := a.(g.Action); !sameAction(got, tt.want) {
					t.Fatalf("seed %d: chose %s, want %s", seed, got.String(), tt.want.String())
				}
			}
		})
	}
}

func TestUnknownDecisionGetsALegalAction(t *testing.T) {
	v := view(g.Phase(200))
	v.Legal = []g.Action{{Kind: g.ActionKind(99)}, {Kind: g.ActionKind(98)}}
	for _, b := range []game.Bot{NewEasy(), NewStrong(StrongConfig{Samples: 2})} {
		a, ok := b.Act(v, 1) // a pointer works as well as a value
		if !ok || a.(g.Action).Kind != 99 && a.(g.Action).Kind != 98 {
			t.Errorf("%T: %v, %v", b, a, ok)
		}
	}
}

func TestNotMyView(t *testing.T) {
	for _, b := range []game.Bot{NewEasy(), NewStrong(DefaultStrong)} {
		if a, ok := b.Act("not a view", 1); ok {
			t.Errorf("%T acted on a string: %v", b, a)
		}
		if a, ok := b.Act(view(g.PhaseTurn), 1); ok { // no legal actions
			t.Errorf("%T acted with nothing legal: %v", b, a)
		}
		var nilView *g.SeatView
		if _, ok := b.Act(nilView, 1); ok {
			t.Errorf("%T acted on a nil view", b)
		}
	}
}

func TestBotsLevels(t *testing.T) {
	bs := Bots{}
	if got := bs.Levels(); len(got) != 2 || got[0] != LevelEasy || got[1] != LevelStrong {
		t.Fatalf("Levels() = %v", got)
	}
	for _, l := range bs.Levels() {
		if b, err := bs.New(l); err != nil || b == nil {
			t.Errorf("New(%q) = %v, %v", l, b, err)
		}
	}
	if _, err := bs.New("grandmaster"); err == nil {
		t.Error("New accepted an unknown level")
	}
}
