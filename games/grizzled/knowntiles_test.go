package grizzled

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// TestKnownTilesFollowThePublicRecord plays random games and checks, step
// by step, that the tiles a view says everybody knows come from the public
// record alone: the setup's L and R, then each support's reveal (the giver
// loses a known tile of that kind if it had one, the recipient gains it),
// or an Absent-minded withdrawal (the withdrawer's count of tiles drops
// with nothing revealed). Nothing else may change them, and they are the
// same in every view, a spectator's included.
func TestKnownTilesFollowThePublicRecord(t *testing.T) {
	reveals, removals := 0, 0
	for i := range 60 {
		humans := 2 + i%4
		o := Options{Variant: Veteran, Leader: game.NoSeat}
		var before SeatView
		first := true
		randomGame(t, humans, o, uint64(900+i), false, func(s *State) {
			v := s.View(game.Spectator)
			for seat := range s.humans {
				sv := s.View(game.Seat(seat))
				for p := range sv.Players {
					if !slices.Equal(sv.Players[p].KnownTiles, v.Players[p].KnownTiles) {
						t.Fatalf("seat %d sees other known tiles than a spectator", seat)
					}
				}
			}
			if first {
				first = false
				before = v
				return
			}
			defer func() { before = v }()
			want := make([][]Tile, len(v.Players))
			for p := range before.Players {
				want[p] = slices.Clone(before.Players[p].KnownTiles)
			}
			newReveal := v.LastSupport != nil && (before.LastSupport == nil || v.LastSupport.Round != before.LastSupport.Round)
			if newReveal {
				for _, st := range v.LastSupport.Tiles {
					if j := slices.Index(want[st.From], st.Tile); j >= 0 {
						want[st.From] = slices.Delete(want[st.From], j, j+1)
					}
					want[st.To] = append(want[st.To], st.Tile)
				}
				if len(v.LastSupport.Tiles) > 0 {
					reveals++
				}
			}
			for p := range v.Players {
				got := v.Players[p].KnownTiles
				if slices.Equal(got, want[p]) {
					continue
				}
				// Absent-minded put one away: the only other change allowed,
				// and only ever a loss.
				removed := v.Players[p].Tiles+b2i(v.Players[p].PlacedTile) < before.Players[p].Tiles+b2i(before.Players[p].PlacedTile)
				if !newReveal && removed && slices.Contains(v.Players[p].HardKnocks, AbsentMinded) && amongTiles(got, want[p]) {
					removals++
					continue
				}
				t.Fatalf("seed %d, seq %d: %s's known tiles %v, want %v from the public record", 900+i, s.seq, v.Players[p].Name, got, want[p])
			}
		})
	}
	if reveals == 0 {
		t.Fatal("no reveal of a tile was checked")
	}
	t.Logf("%d reveals and %d Absent-minded removals checked", reveals, removals)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestKnownTilesAtTheSetup: every player takes one L and one R (S2), which
// everybody knows, so every sample of another player's tiles holds them;
// only the third tile is drawn. Sampling all three from what the viewer
// cannot see would give some players no R at all.
func TestKnownTilesAtTheSetup(t *testing.T) {
	for humans := 2; humans <= 5; humans++ {
		s := newTestGame(t, humans, Options{Variant: Standard, Leader: game.NoSeat}, uint64(humans))
		v := s.View(0)
		for p := range v.Players {
			if !slices.Equal(v.Players[p].KnownTiles, []Tile{TileL, TileR}) {
				t.Fatalf("%d players: %s's known tiles %v, want [L R]", humans, v.Players[p].Name, v.Players[p].KnownTiles)
			}
		}
		for seed := range uint64(200) {
			d := Determinize(v, seed)
			if d == nil {
				t.Fatal("nil")
			}
			for p := 1; p < len(v.Players); p++ {
				ts := d.players[p].Tiles
				if len(ts) != 3 || !slices.Contains(ts, TileL) || !slices.Contains(ts, TileR) {
					t.Fatalf("%d players, seed %d: %s sampled with %v", humans, seed, v.Players[p].Name, ts)
				}
			}
		}
	}
}
