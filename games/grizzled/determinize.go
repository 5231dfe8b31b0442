package grizzled

import (
	"math/rand/v2"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// Determinize builds a full State consistent with what v shows, for bots
// that search (e.g. information-set Monte Carlo). Everything v does not show
// is sampled uniformly from what is unseen, using seed:
//   - other players' hands, the trials pile and the morale reserve (sizes as
//     in v) from the cards that are in no hand of the viewer, not in NML, not
//     in front of anyone and not removed;
//   - other players' tiles and every face-down placed tile the viewer does
//     not know: each player's known tiles (PlayerView.KnownTiles) are
//     theirs, the rest are drawn from the tiles neither the viewer nor
//     anyone's known tiles account for, and a placed tile is one of the
//     player's tiles picked at random;
//   - the RNG of the returned state (seeded from seed).
//
// During a speech the sampled hands agree with who was asked: every other
// eligible seat holds a card showing the named threat and every other seat
// still in the mission holds none (cards are swapped with the piles to make
// it so). Limit: seats that have already answered are taken to have
// passed.
// A spectator's view is determinized too (every hand is unseen).
//
// The result is an ordinary State: Step, Legal, Waiting and Over play it
// forward. It is nil if v is not a view of a consistent game (for example
// a zero SeatView).
func Determinize(v SeatView, seed uint64) *State {
	n := len(v.Players)
	if n < 3 || n > 5 {
		return nil
	}
	s := shellOf(v, seed)
	me := int(v.Seat)
	if me < 0 || me >= n || v.Players[me].Chaplain {
		me = -1
	}
	var seen [NumCards + 1]bool // cards the view shows somewhere
	for _, c := range v.NML {
		seen[c] = true
	}
	for _, c := range v.Removed {
		seen[c] = true
	}
	s.copyPlayers(v, &seen)
	if !s.setOwed(v) {
		return nil
	}
	s.startTrials = v.Options.StartingTrials
	if me >= 0 {
		s.players[me].Hand = slices.Clone(v.Hand)
		for _, c := range v.Hand {
			seen[c] = true
		}
	}
	s.dealUnseenCards(v, me, &seen)
	s.dealUnseenTiles(v, me)
	if s.startTrials == 0 {
		s.startTrials = 25
	}
	if s.humans == 2 {
		s.players[2].Withdrawn = true
	}
	if s.Check() != nil {
		return nil // not a view of a real game
	}
	return s
}

// shellOf is the state of the table v shows, without players, cards or
// tiles, its RNG seeded from seed.
func shellOf(v SeatView, seed uint64) *State {
	s := &State{
		opts:         v.Options,
		traps:        v.Options.Variant != Beginner,
		players:      make([]player, len(v.Players)),
		supply:       v.SpeechSupply,
		leader:       int(v.Leader),
		active:       int(v.Active),
		round:        v.Round,
		phase:        v.Phase,
		failed:       v.Failed,
		seq:          v.Seq,
		speaker:      -1,
		decider:      -1,
		beneficiary:  -1,
		nml:          slices.Clone(v.NML),
		removed:      slices.Clone(v.Removed),
		rng:          *rand.NewPCG(seed, seed^0x5851f42d4c957f2d),
		won:          v.Won,
		loss:         v.LossReason,
		speechThreat: v.SpeechThreat,
	}
	if v.Phase == PhaseSpeech {
		s.speaker = int(v.Speaker)
		s.speechOpened = v.Seq
	}
	if v.LastSupport != nil {
		l := *v.LastSupport
		l.Tiles = slices.Clone(v.LastSupport.Tiles)
		s.last = &l
	}
	return s
}

// copyPlayers fills in what v shows of every player (all but hands and
// tiles) and marks their hard knocks seen.
func (s *State) copyPlayers(v SeatView, seen *[NumCards + 1]bool) {
	for i, pv := range v.Players {
		p := &s.players[i]
		p.Name, p.Chaplain = pv.Name, pv.Chaplain
		for ci, c := range Characters {
			if c.Name == pv.Character {
				p.Character = ci
			}
		}
		p.CharmUsed = !pv.CharmAvailable
		p.Knocks = slices.Clone(pv.HardKnocks)
		p.Arrival = slices.Clone(pv.Arrivals)
		if len(p.Arrival) != len(p.Knocks) {
			p.Arrival = make([]uint32, len(p.Knocks))
			for j := range p.Arrival {
				s.stamp++
				p.Arrival[j] = s.stamp
			}
		}
		for _, a := range p.Arrival {
			s.stamp = max(s.stamp, a)
		}
		for _, c := range p.Knocks {
			seen[c] = true
		}
		p.Tokens = pv.SpeechTokens
		p.Withdrawn = pv.Withdrawn
		if !pv.Chaplain {
			s.humans++
		}
		for _, e := range v.Eligible {
			if int(e) == i {
				p.Eligible = true
				p.Answered = pv.Answered
			}
		}
	}
}

// setOwed names the seat that owes a decision or a benefit's choice: the
// one v waits on. It reports false when v, in such a phase, waits on
// nobody (not a view View made).
func (s *State) setOwed(v SeatView) bool {
	if v.Phase != PhaseDecision && v.Phase != PhaseBenefit {
		return true
	}
	if len(v.Waiting) == 0 || v.Waiting[0] < 0 || int(v.Waiting[0]) >= len(v.Players) {
		return false
	}
	if v.Phase == PhaseDecision {
		s.decision, s.decider = v.Decision, int(v.Waiting[0])
	} else {
		s.beneficiary = int(v.Waiting[0])
	}
	return true
}

// dealUnseenCards shuffles the cards v does not show and deals them to the
// other players' hands, the trials and the morale reserve, in the sizes v
// shows.
func (s *State) dealUnseenCards(v SeatView, me int, seen *[NumCards + 1]bool) {
	var unseen []CardID
	for c := FirstThreat; c <= MerryChristmas; c++ {
		if !seen[c] {
			unseen = append(unseen, c)
		}
	}
	shuffle(s, unseen)
	take := func(k int) []CardID {
		k = min(k, len(unseen))
		out := slices.Clone(unseen[:k])
		unseen = unseen[k:]
		return out
	}
	for i, pv := range v.Players {
		if i != me {
			s.players[i].Hand = take(pv.HandSize)
		}
	}
	s.trials = take(v.Trials)
	s.morale = take(v.Morale)
	if len(unseen) > 0 {
		s.morale = append(s.morale, unseen...) // inconsistent view: keep every card somewhere
	}
}

// dealUnseenTiles gives the viewer their own tiles, every player their
// known ones, and draws the rest (and each face-down placed tile) from the
// tiles nobody's knowledge accounts for; what is left goes to the box.
func (s *State) dealUnseenTiles(v SeatView, me int) {
	pool, box := tileSet(len(v.Players))
	s.box = box
	drop := func(t Tile) {
		if i := slices.Index(pool, t); i >= 0 {
			pool = slices.Delete(pool, i, i+1)
		}
	}
	if me >= 0 {
		s.players[me].Tiles = slices.Clone(v.MyTiles)
		for _, t := range v.MyTiles {
			drop(t)
		}
		if v.PlacedTile != NoTile {
			s.players[me].Placed = v.PlacedTile
			drop(v.PlacedTile)
		}
	}
	// Everybody's known tiles are where everybody knows them to be; only
	// the rest is drawn.
	for i, pv := range v.Players {
		s.players[i].Known = slices.Clone(pv.KnownTiles)
		if i != me {
			for _, t := range pv.KnownTiles {
				drop(t)
			}
		}
	}
	shuffle(s, pool)
	takeTile := func() Tile {
		if len(pool) == 0 {
			return TileL
		}
		t := pool[len(pool)-1]
		pool = pool[:len(pool)-1]
		return t
	}
	for i, pv := range v.Players {
		p := &s.players[i]
		if i == me {
			if pv.PlacedTile && p.Placed == NoTile { // Panicked: placed, not shown
				p.Placed, p.Hidden = takeTile(), true
			}
			continue
		}
		// The known tiles and the drawn ones, then the placed tile (if
		// any) picked among them at random.
		all := slices.Clone(pv.KnownTiles)
		placed := 0
		if pv.PlacedTile {
			placed = 1
		}
		for len(all) < pv.Tiles+placed {
			all = append(all, takeTile())
		}
		if pv.PlacedTile {
			j := s.intn(len(all))
			p.Placed, p.Hidden = all[j], p.Chaplain || p.owns(Panicked)
			all = slices.Delete(all, j, j+1)
		}
		p.Tiles = all
	}
	s.box = append(s.box, pool...)
}

// Seat-indexed accessors for bots that play a State forward.

// Hand is a copy of seat's hand.
func (s *State) Hand(seat game.Seat) []CardID {
	if int(seat) < 0 || int(seat) >= len(s.players) {
		return nil
	}
	return slices.Clone(s.players[seat].Hand)
}

// HandSize is the number of cards in seat's hand.
func (s *State) HandSize(seat game.Seat) int {
	if int(seat) < 0 || int(seat) >= len(s.players) {
		return 0
	}
	return len(s.players[seat].Hand)
}

// TrialsLeft and MoraleLeft are the pile sizes.
func (s *State) TrialsLeft() int { return len(s.trials) }
func (s *State) MoraleLeft() int { return len(s.morale) }

// Failed reports whether the current mission has failed (F-2).
func (s *State) Failed() bool { return s.failed }

// Weight is seat's hard-knock weight (L-1).
func (s *State) Weight(seat game.Seat) int {
	if int(seat) < 0 || int(seat) >= len(s.players) {
		return 0
	}
	return s.players[seat].weight()
}
