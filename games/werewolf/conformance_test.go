package werewolf

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/gametest"
)

// TestConformance runs the suite every game passes (game/gametest).
func TestConformance(t *testing.T) {
	names := []string{"Ada", "Bo", "Cyd", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivo",
		"Jo", "Kim", "Lu", "Mo", "Ned", "Oz", "Pia", "Quin", "Rex"}
	classic := ClassicOptions()
	fast := ClassicOptions()
	fast.NightTiming = TimingFast
	fast.DeadSeeAll = false
	fast.RevealNightCause = false
	small := DefaultOptions()
	small.SmallTable = true
	setups := []game.Setup{
		{Game: ID, Names: names[:8], Options: DefaultOptions().Encode()},
		{Game: ID, Names: names[:10], Options: classic.Encode()},
		{Game: ID, Names: names[:12], Options: fast.Encode()},
		{Game: ID, Names: names[:18], Options: classic.Encode()},
		{Game: ID, Names: names[:5], Options: small.Encode()},
	}
	gametest.Run(t, gametest.Config{
		Game:     Game{},
		Setups:   setups,
		Games:    2,
		Snapshot: func(s game.State) ([]byte, error) { return EncodeState(s.(*State)) },
		Conceal:  conceal,
		Junk:     junkAction,
	})
}

// conceal changes what seat may not know: the RNG's future, or the cards
// of two other living players the seat has no knowledge of (with all that
// goes with a card: a wolf's pick, the seer's visions, the little girl's
// glimpses).
func conceal(st game.State, seat game.Seat, r *rand.Rand) (game.State, bool) {
	s := st.(*State).Clone()
	if r.IntN(3) == 0 {
		s.RNG.pcg = *rand.NewPCG(r.Uint64(), r.Uint64())
		return s, true
	}
	me := int(seat)
	if s.valid(me) && s.watcher(me) {
		return nil, false // a dead watcher may see every card
	}
	a, b := r.IntN(len(s.Players)), r.IntN(len(s.Players))
	if a == b || a == me || b == me || !s.unknownTo(me, a) || !s.unknownTo(me, b) {
		return nil, false
	}
	pa, pb := &s.Players[a], &s.Players[b]
	if pa.Card == pb.Card {
		return nil, false
	}
	pa.Card, pb.Card = pb.Card, pa.Card
	pa.Original, pb.Original = pb.Original, pa.Original
	pa.Team, pb.Team = pb.Team, pa.Team
	pa.WolfSel, pb.WolfSel = pb.WolfSel, pa.WolfSel
	pa.WolfDone, pb.WolfDone = pb.WolfDone, pa.WolfDone
	pa.KnowsWolves, pb.KnowsWolves = pb.KnowsWolves, pa.KnowsWolves
	pa.Visions, pb.Visions = pb.Visions, pa.Visions
	pa.Relayed, pb.Relayed = pb.Relayed, pa.Relayed
	pa.PeekSet, pb.PeekSet = pb.PeekSet, pa.PeekSet
	for _, seat := range []*int{&s.ThiefSeat, &s.Cupid} {
		switch *seat {
		case a:
			*seat = b
		case b:
			*seat = a
		}
	}
	return s, true
}

// unknownTo reports whether seat me (or a spectator, -1) has no way to know
// player i's card: i is alive, not a lover of me or linked by me, not in
// me's visions, and neither of them a werewolf when me knows the pack or
// is the little girl (whose glimpses follow the wolves' picks).
func (s *State) unknownTo(me, i int) bool {
	q := &s.Players[i]
	if !q.Alive || s.Over {
		return false
	}
	if s.Linked && slices.Contains(s.Lovers[:], i) {
		return false // the couple and cupid know; keep the bond where it is
	}
	if !s.valid(me) {
		return true
	}
	p := &s.Players[me]
	for _, v := range p.Visions {
		if int(v.Target) == i {
			return false
		}
	}
	if p.Card == RoleWerewolf || p.Card == RoleLittleGirl {
		return q.Card != RoleWerewolf
	}
	return true
}

// junkAction is any action of the game's type, most of them illegal. Chat
// (KindSay) is left out: it is a channel of its own, refused or accepted by
// Say's rules, not by Legal.
func junkAction(r *rand.Rand) game.Action {
	kinds := []Kind{KindTick, KindAbandon, KindThiefTake, KindThiefKeep, KindCupidLink,
		KindSeerInspect, KindWolfSelect, KindWolfClear, KindWolfDone, KindPeek, KindWitchHeal,
		KindWitchPoison, KindWitchDone, KindHunterShoot, KindHunterHold, KindSuccessor,
		KindStand, KindReady, KindBallot, KindAbstain, KindTiebreak, "bogus"}
	// Only the fields the kind reads are set, so that two actions that mean
	// the same thing are equal (the suite compares actions by encoding).
	a := Action{Kind: kinds[r.IntN(len(kinds))]}
	switch a.Kind {
	case KindThiefTake, KindSeerInspect, KindWolfSelect, KindWitchPoison, KindHunterShoot,
		KindSuccessor, KindBallot, KindTiebreak, "bogus":
		a.Target = r.IntN(22) - 3
	case KindCupidLink:
		a.Target, a.Second = r.IntN(22)-3, r.IntN(22)-3
	case KindPeek, KindStand, KindReady:
		a.On = r.IntN(2) == 0
	case KindTick:
		a.Seq = uint64(r.IntN(4))
	}
	return a
}
