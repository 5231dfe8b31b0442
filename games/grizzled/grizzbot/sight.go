package grizzbot

import (
	"math/bits"

	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// Card facts the policy reads in its inner loops, as small tables.
var (
	cardMask   [g.NumCards + 1]uint8 // bit t set when the card shows threat t (Phobia/Trauma: their one threat)
	cardTrap   [g.NumCards + 1]bool
	cardWeight [g.NumCards + 1]int
	cardIcons  [g.NumCards + 1]int
)

func init() {
	for c := g.FirstThreat; c <= g.MerryChristmas; c++ {
		for t := range g.Threat(g.NumThreats) {
			if c.HasThreat(t) {
				cardMask[c] |= 1 << t
				cardIcons[c]++
			}
		}
		cardTrap[c] = c.Trap()
		cardWeight[c] = c.Weight()
	}
}

func isPhobia(c g.CardID) bool { return c >= g.PhobiaShell && c <= g.TraumaRain }

// sight is what the policy derives from a view: active counts, who is
// still in the mission, and (computed on first use) which cards it has not
// seen, which may lie in other hands or on the piles.
type sight struct {
	v      *g.SeatView
	me     int
	traps  bool
	counts [g.NumThreats]int

	knocks int               // hard knocks in play
	hand   [g.NumThreats]int // own cards showing each threat

	unseenDone bool
	hist       [64]int // unseen cards by threat mask
	unseen     int
	unseenT    [g.NumThreats]int // unseen cards showing each threat
}

func newSight(v *g.SeatView) (s sight) {
	s.v, s.me, s.traps, s.counts = v, int(v.Seat), v.Options.Variant != g.Beginner, v.Counts
	for _, c := range v.Hand {
		for m := cardMask[c]; m != 0; m &= m - 1 {
			s.hand[bits.TrailingZeros8(m)]++
		}
	}
	for i := range v.Players {
		s.knocks += len(v.Players[i].HardKnocks)
	}
	return s
}

// countUnseen fills the unseen-card statistics once.
func (s *sight) countUnseen() {
	if s.unseenDone {
		return
	}
	s.unseenDone = true
	v := s.v
	var seen [g.NumCards + 1]bool
	for _, c := range v.Hand {
		seen[c] = true
	}
	for _, c := range v.NML {
		seen[c] = true
	}
	for _, c := range v.Removed {
		seen[c] = true
	}
	for i := range v.Players {
		for _, c := range v.Players[i].HardKnocks {
			seen[c] = true
		}
	}
	for c := g.FirstThreat; c <= g.MerryChristmas; c++ {
		if seen[c] {
			continue
		}
		s.unseen++
		m := cardMask[c]
		s.hist[m]++
		for ; m != 0; m &= m - 1 {
			s.unseenT[bits.TrailingZeros8(m)]++
		}
	}
}

// after is the count vector once card c lies in No Man's Land or, for a
// Phobia or Trauma, in front of a player still in the mission.
func (s *sight) after(c g.CardID) [g.NumThreats]int {
	a := s.counts
	m := cardMask[c]
	for t := range a {
		if m&(1<<t) != 0 {
			a[t]++
		}
	}
	return a
}

func dangerMask(a *[g.NumThreats]int) uint8 {
	var d uint8
	for t, n := range a {
		if n >= 2 {
			d |= 1 << t
		}
	}
	return d
}

func fails(a *[g.NumThreats]int) bool {
	for _, n := range a {
		if n >= 3 {
			return true
		}
	}
	return false
}

// playRisk is the chance that playing c from hand fails the mission: 1 if
// it makes a third threat itself, else the chance that its trap draws a
// card that does (the draw is taken as uniform over the unseen cards).
func (s *sight) playRisk(c g.CardID) float64 {
	a := s.after(c)
	if fails(&a) {
		return 1
	}
	if !cardTrap[c] || !s.traps || s.v.Trials == 0 {
		return 0
	}
	d := dangerMask(&a)
	if d == 0 {
		return 0
	}
	if s.countUnseen(); s.unseen == 0 {
		return 0
	}
	bad := 0
	for m, n := range s.hist {
		if uint8(m)&d != 0 {
			bad += n
		}
	}
	return float64(bad) / float64(s.unseen)
}

// holdChance is the chance that a hidden hand of h cards holds at least one
// card showing t.
func (s *sight) holdChance(t g.Threat, h int) float64 {
	if h <= 0 {
		return 0
	}
	if s.countUnseen(); s.unseen == 0 {
		return 0
	}
	miss := 1.0
	u, k := s.unseen, s.unseenT[t]
	for i := 0; i < h && u > 0; i++ {
		miss *= float64(u-k) / float64(u)
		u--
	}
	return 1 - miss
}

// speechGain is the expected number of cards a speech naming t discards.
func (s *sight) speechGain(t g.Threat) float64 {
	e := 0.0
	for i := range s.v.Players {
		p := &s.v.Players[i]
		if i == s.me || p.Chaplain || p.Withdrawn {
			continue
		}
		e += s.holdChance(t, p.HandSize)
	}
	return e
}
