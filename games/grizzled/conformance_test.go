package grizzled

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
)

// TestConformance runs the suite every game passes (game/gametest).
func TestConformance(t *testing.T) {
	var setups []game.Setup
	for humans := 2; humans <= 5; humans++ {
		for _, v := range []Variant{Beginner, Standard, Veteran} {
			opts, _ := json.Marshal(Options{Variant: v, Leader: game.NoSeat})
			setups = append(setups, game.Setup{Game: "grizzled", Names: testNames[:humans], Options: opts})
		}
	}
	gametest.Run(t, gametest.Config{
		Game:     Game{},
		Setups:   setups,
		Games:    6,
		Snapshot: func(s game.State) ([]byte, error) { return EncodeState(s.(*State)) },
		Conceal:  conceal,
		Junk:     func(r *rand.Rand) game.Action { return junkAction(r) },
	})
}

// conceal changes what seat may not know: the order of the trials pile, a
// card or tile in two other soldiers' hands, the face-down tiles out of the
// game, the RNG's future.
func conceal(st game.State, seat game.Seat, r *rand.Rand) (game.State, bool) {
	s := st.(*State).Clone()
	switch r.IntN(4) {
	case 0:
		s.rng = *rand.NewPCG(r.Uint64(), r.Uint64())
		return s, true
	case 1:
		if len(s.trials) < 2 {
			return nil, false
		}
		i, j := r.IntN(len(s.trials)), r.IntN(len(s.trials))
		if s.trials[i] == s.trials[j] {
			return nil, false
		}
		s.trials[i], s.trials[j] = s.trials[j], s.trials[i]
		return s, true
	case 2:
		a, b := r.IntN(len(s.players)), r.IntN(len(s.players))
		if a == b || game.Seat(a) == seat || game.Seat(b) == seat {
			return nil, false
		}
		pa, pb := &s.players[a], &s.players[b]
		if len(pa.Hand) == 0 || len(pb.Hand) == 0 || pa.Chaplain || pb.Chaplain {
			return nil, false
		}
		i, j := r.IntN(len(pa.Hand)), r.IntN(len(pb.Hand))
		if pa.Hand[i] == pb.Hand[j] || pa.Answer == pa.Hand[i] || pb.Answer == pb.Hand[j] {
			return nil, false // a speech answer already chosen stays with its card
		}
		pa.Hand[i], pb.Hand[j] = pb.Hand[j], pa.Hand[i]
		return s, true
	default:
		a, b := r.IntN(len(s.players)), r.IntN(len(s.players))
		if a == b || game.Seat(a) == seat || game.Seat(b) == seat {
			return nil, false
		}
		pa, pb := &s.players[a], &s.players[b]
		if len(pa.Tiles) == 0 || len(pb.Tiles) == 0 || pa.Chaplain || pb.Chaplain {
			return nil, false
		}
		i, j := r.IntN(len(pa.Tiles)), r.IntN(len(pb.Tiles))
		if pa.Tiles[i] == pb.Tiles[j] {
			return nil, false
		}
		pa.Tiles[i], pb.Tiles[j] = pb.Tiles[j], pa.Tiles[i]
		return s, true
	}
}

// junkAction is any action of the game's type, most of them illegal.
func junkAction(r *rand.Rand) Action {
	a := Action{
		Kind:   ActionKind(r.IntN(16)),
		K:      r.IntN(8) - 2,
		Card:   CardID(r.IntN(70) - 2),
		Threat: Threat(r.IntN(8)),
		Tile:   Tile(r.IntN(8)),
		Target: game.Seat(r.IntN(8) - 2),
	}
	for range r.IntN(3) {
		a.Cards = append(a.Cards, CardID(r.IntN(70)-2))
	}
	return a
}
