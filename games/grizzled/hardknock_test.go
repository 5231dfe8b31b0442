package grizzled

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// TestHardKnocks has one row per hard knock (H01..H19) and Merry Christmas
// (§5.2): the card is played from seat 0's hand, then its effect is checked.
func TestHardKnocks(t *testing.T) {
	failsWith := func(nml ...CardID) func(*testing.T, *State) {
		return func(t *testing.T, s *State) {
			if s.last == nil || s.last.Success {
				t.Fatalf("with NML %v the mission should fail", nml)
			}
		}
	}
	rows := []struct {
		card  CardID
		f     fixture
		check func(*testing.T, *State)
	}{
		{PhobiaShell, fixture{nml: []CardID{tc(1), tc(2)}}, failsWith(tc(1), tc(2))},
		{PhobiaWhistle, fixture{nml: []CardID{tc(5), tc(6)}}, failsWith(tc(5), tc(6))},
		{PhobiaMask, fixture{nml: []CardID{tc(8), tc(9)}}, failsWith(tc(8), tc(9))},
		{TraumaNight, fixture{nml: []CardID{tc(1), tc(5)}}, failsWith(tc(1), tc(5))},
		{TraumaSnow, fixture{nml: []CardID{tc(11), tc(14)}}, failsWith(tc(11), tc(14))},
		{TraumaRain, fixture{nml: []CardID{tc(21), tc(24)}}, failsWith(tc(21), tc(24))},
		{Wounded, fixture{}, func(t *testing.T, s *State) {
			if s.View(game.Spectator).Players[0].Weight != 2 {
				t.Fatal("Wounded weighs 2")
			}
		}},
		{Mute, fixture{tokens: map[int]int{0: 1}, hands: map[int][]CardID{1: {tc(11)}, 2: {tc(12)}, 3: {tc(13)}}}, func(t *testing.T, s *State) {
			if _, err := s.Say(0, "hi"); err == nil {
				t.Fatal("chat allowed")
			}
			do(t, s, 1, play(tc(11)))
			do(t, s, 2, withdraw)
			do(t, s, 3, withdraw)
			if hasLegal(s, 0, kindIs(ActSpeech)) {
				t.Fatal("speech offered")
			}
		}},
		{Tyrannical, fixture{leader: 1, turnOf0: true}, func(t *testing.T, s *State) {
			if s.leader != 0 {
				t.Fatal("the owner takes the leader token at once")
			}
		}},
		{Demoralized, fixture{trials: []CardID{tc(1)}}, func(t *testing.T, s *State) {
			before := len(s.morale)
			withdrawAll(t, s)
			if before-len(s.morale) != 4 {
				t.Fatalf("moved %d, want 4", before-len(s.morale))
			}
		}},
		{Fragile, fixture{hands: map[int][]CardID{1: {tc(11)}, 2: nil}}, func(t *testing.T, s *State) {
			refused(t, s, 1, withdraw, ErrCannotWithdraw)
		}},
		{Fearful, fixture{nml: []CardID{tc(1), tc(2)}, hands: map[int][]CardID{1: {tc(24)}, 2: {tc(18)}, 3: {tc(36)}}}, func(t *testing.T, s *State) {
			do(t, s, 1, play(tc(24)))
			do(t, s, 2, play(tc(18)))
			do(t, s, 3, play(tc(36)))
			if l := s.Legal(0); len(l) != 1 || l[0].Kind != ActWithdraw {
				t.Fatalf("legal %v", l)
			}
		}},
		{Panicked, fixture{tiles: map[int][]Tile{0: {TileL, TileR}}}, func(t *testing.T, s *State) {
			withdrawAll(t, s) // no decision is asked of seat 0
			if len(s.last.Tiles) != 1 {
				t.Fatal("one tile placed at random")
			}
		}},
		{Frenzied, fixture{trials: []CardID{tc(1), tc(2), tc(3), tc(4), tc(5), tc(6), tc(7), tc(8), tc(9)}}, func(t *testing.T, s *State) {
			withdrawAll(t, s)
			before := len(s.players[0].Hand)
			do(t, s, s.leader, intensity(1))
			if got := len(s.players[0].Hand) - before; got != 3 {
				t.Fatalf("Frenzied owner got %d cards, want 1+2", got)
			}
		}},
		{Selfish, fixture{tiles: map[int][]Tile{0: {TileL}}, trials: []CardID{tc(1)}}, func(t *testing.T, s *State) {
			withdrawAll(t, s)
			if s.last.Tiles[0].To != 0 || s.last.Beneficiary != 0 {
				t.Fatalf("%+v", s.last)
			}
		}},
		{Hardheaded, fixture{hands: map[int][]CardID{0: {tc(1), tc(2)}}}, func(t *testing.T, s *State) {
			do(t, s, 1, withdraw)
			do(t, s, 2, withdraw)
			do(t, s, 3, withdraw)
			refused(t, s, 0, withdraw, ErrCannotWithdraw) // 3 cards
			do(t, s, 0, play(tc(2)))
			refused(t, s, 0, withdraw, ErrCannotWithdraw) // 2 cards
			do(t, s, 0, play(tc(1)))
			do(t, s, 0, withdraw) // 1 card
		}},
		{Prideful, fixture{hands: map[int][]CardID{0: {tc(1)}}}, func(t *testing.T, s *State) {
			do(t, s, 1, withdraw)
			_, allowed, _ := s.TurnStatus(0)
			if allowed {
				t.Fatal("others still in the mission")
			}
			do(t, s, 2, withdraw)
			do(t, s, 3, withdraw)
			do(t, s, 0, withdraw)
		}},
		{Clumsy, fixture{trials: []CardID{tc(5), tc(6)}}, func(t *testing.T, s *State) {
			do(t, s, 1, withdraw)
			do(t, s, 2, withdraw)
			do(t, s, 3, withdraw)
			do(t, s, 0, withdraw)
			if !slices.Contains(s.removed, tc(5)) {
				t.Fatal("Clumsy draws and plays the top card on withdrawing")
			}
		}},
		{AbsentMinded, fixture{tiles: map[int][]Tile{0: {TileL, TileR}}, hands: map[int][]CardID{1: {tc(2)}}}, func(t *testing.T, s *State) {
			do(t, s, 1, play(tc(2)))
			do(t, s, 2, withdraw)
			do(t, s, 3, withdraw)
			do(t, s, 0, withdraw)
			do(t, s, 0, removeT(TileR))
			if s.players[0].Placed != TileL {
				t.Fatal("the other tile is placed")
			}
		}},
		{MerryChristmas, fixture{knocks: map[int][]CardID{2: {Wounded}}}, func(t *testing.T, s *State) {
			if s.players[2].owns(Wounded) {
				t.Fatal("the only hard knock in play is discarded")
			}
		}},
	}
	for _, r := range rows {
		t.Run(r.card.Code()+"_"+r.card.Key(), func(t *testing.T) {
			f := r.f
			if f.hands == nil {
				f.hands = map[int][]CardID{}
			}
			f.hands[0] = append([]CardID{r.card}, f.hands[0]...)
			f.hands[0] = append(f.hands[0], tc(39))
			s := build(t, f)
			do(t, s, 0, play(r.card))
			if r.card.IsHardKnock() && !s.players[0].owns(r.card) {
				t.Fatal("the hard knock goes in front of its player")
			}
			r.check(t, s)
		})
	}
}

func TestCardTable(t *testing.T) {
	var icons [NumThreats]int
	traps := 0
	weight := 0
	trapIcons := [NumThreats]int{}
	for c := CardID(1); c <= MerryChristmas; c++ {
		for _, th := range c.Threats() {
			icons[th]++
			if c.Trap() {
				trapIcons[th]++
			}
		}
		if c.Trap() {
			traps++
		}
		weight += c.Weight()
	}
	for th, n := range icons {
		if n != 15 || trapIcons[th] != 3 {
			t.Errorf("%s: %d icons (want 15), %d on traps (want 3)", Threat(th), n, trapIcons[th])
		}
	}
	if traps != 9 || weight != 20 {
		t.Errorf("traps %d weight %d", traps, weight)
	}
	for _, c := range []struct {
		id              CardID
		code, name, str string
		kind            Kind
	}{
		{tc(4), "T04", "T04 Night+Shell", "T04 night+shell", KindThreat},
		{Wounded, "H07", "H07 Wounded", "H07 WOUNDED", KindHardKnock},
		{MerryChristmas, "MC", "MC Merry Christmas", "MC MERRYCHRISTMAS", KindMerryChristmas},
		{tc(39), "T39", "T39 Night+Snow+Rain+Shell+Whistle+Gas Mask", "T39 night+snow+rain+shell+whistle+mask", KindThreat},
	} {
		en := i18n.For(i18n.English)
		if c.id.Code() != c.code || en.Msg(c.id.Msg()) != c.name || c.id.String() != c.str || c.id.Kind() != c.kind {
			t.Errorf("%d: %q %q %q", c.id, c.id.Code(), en.Msg(c.id.Msg()), c.id.String())
		}
	}
	for c := FirstHardKnock; c <= MerryChristmas; c++ {
		if c.TextKey() == "" || c.NameKey() == "" || c.Key() == "" {
			t.Errorf("%s has no text", c)
		}
	}
	if TileDL.String() != "DL" || Mask.String() != "mask" {
		t.Error("names")
	}
}
