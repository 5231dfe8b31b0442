package grizzled

import "slices"

const numTileKinds = int(TileDR) + 1

// What everybody knows of a player's support tiles (PlayerView.KnownTiles).
// Each player takes one L and one R at the setup, then one tile at random
// (S2): the L and R are known to all, the third is not. A support reveals
// every placed tile and who gave it (SU-1), and the recipient keeps it
// (SU-3). So a player's tiles are always what everybody knows plus some
// whose kind nobody else knows, and a bot that samples the hidden tiles
// (Determinize) samples only those.

// knowTiles records a revealed tile t going from giver to recipient: the
// giver no longer has it (if it was one of the known ones; else it was
// one whose kind was unknown, and the known ones stay), and everybody saw
// the recipient take it.
func knowTiles(giver, recipient *player, t Tile) {
	if i := slices.Index(giver.Known, t); i >= 0 {
		giver.Known = slices.Delete(giver.Known, i, i+1)
	}
	recipient.Known = append(recipient.Known, t)
}

// forgetOneOfEach is what stays known after a player put away a tile
// nobody else saw (Absent-minded, H19): it may have been any of the known
// kinds, so one of each is no longer sure.
func forgetOneOfEach(known []Tile) []Tile {
	var seen [numTileKinds]bool
	return slices.DeleteFunc(known, func(t Tile) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		return true
	})
}

// knownHeld reports whether p's known tiles are all among the tiles p
// holds or has placed (State.Check, for every sample a bot draws: it
// allocates nothing).
func knownHeld(p *player) bool {
	have := countTiles(p.Tiles)
	if p.Placed.Valid() {
		have[p.Placed]++
	}
	return within(p.Known, have)
}

// amongTiles reports whether every tile of some is a valid tile found in
// all, as often as it comes in some.
func amongTiles(some, all []Tile) bool { return within(some, countTiles(all)) }

// countTiles counts the valid tiles of ts by kind.
func countTiles(ts []Tile) (n [numTileKinds]int) {
	for _, t := range ts {
		if t.Valid() {
			n[t]++
		}
	}
	return n
}

// within reports whether some fits in the counts have: every tile valid,
// no kind more often than have holds it.
func within(some []Tile, have [numTileKinds]int) bool {
	for _, t := range some {
		if !t.Valid() {
			return false
		}
		if have[t]--; have[t] < 0 {
			return false
		}
	}
	return true
}
