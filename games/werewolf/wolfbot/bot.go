// Package wolfbot plays The Werewolves of Millers Hollow from a seat's
// werewolf.SeatView only (it never sees the state).
//
// Levels: "easy" picks among legal actions almost at random; "normal" plays
// every role sensibly: wolves agree on one victim (each adopts the first
// selecting wolf's choice), the seer inspects unknown players and votes for
// the wolves she found, villagers vote on a public suspicion score (so they
// tend to agree), the witch saves herself and others and poisons a strong
// suspect late, the hunter shoots his top suspect, cupid links a random
// pair, the thief takes the best card.
//
// Chat: bots never return chat from Act. Bot.Chat(view, seed) gives at most
// one line per seat and phase, a catalog message; the room actor passes it
// to Game.BotLine for the seat. Simulate runs whole bot games (the `bivouac sim` command).
package wolfbot

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
)

// Levels, fastest first.
const (
	Easy   = "easy"
	Normal = "normal"
)

// Bots implements game.Bots for the werewolf game. Use one Bot per table:
// its chat memory is keyed by seat.
type Bots struct{}

var _ game.Bots = Bots{}

func (Bots) Levels() []string { return []string{Easy, Normal} }

// New makes a bot; one bot may serve several seats (it keys its memory by
// seat) and is safe for concurrent use.
func (Bots) New(level string) (game.Bot, error) { return NewBot(level) }

// NewBot is New with the concrete type (for Chat and Choose).
func NewBot(level string) (*Bot, error) {
	switch level {
	case Easy, Normal:
		return &Bot{level: level, spoke: map[game.Seat]string{}}, nil
	}
	return nil, fmt.Errorf("wolfbot: unknown level %q (want easy or normal)", level)
}

// Bot chooses actions for a seat from its view.
type Bot struct {
	level string
	mu    sync.Mutex
	spoke map[game.Seat]string // what each seat last chatted about (phase and topic)
}

// Act implements game.Bot; v must be a werewolf.SeatView (or pointer).
func (b *Bot) Act(v game.View, seed uint64) (game.Action, bool) {
	var sv werewolf.SeatView
	switch x := v.(type) {
	case werewolf.SeatView:
		sv = x
	case *werewolf.SeatView:
		if x == nil {
			return nil, false
		}
		sv = *x
	default:
		return nil, false
	}
	a, ok := b.Choose(sv, seed)
	if !ok {
		return nil, false
	}
	return a, true
}

// Choose is Act on the concrete view. It returns false when the seat has
// nothing (more) to decide now; it always returns one of v.Legal.
func (b *Bot) Choose(v werewolf.SeatView, seed uint64) (werewolf.Action, bool) {
	if len(v.Legal) == 0 || v.Over {
		return werewolf.Action{}, false
	}
	r := rand.New(rand.NewPCG(seed, uint64(v.Seat)<<32^v.PhaseSeq))
	k := newKnowledge(v)
	var a werewolf.Action
	var ok bool
	if b.level == Easy {
		a, ok = b.easy(v, k, r)
	} else {
		a, ok = b.normal(v, k, r)
	}
	if ok && !v.IsLegal(a) { // never submit an illegal action
		return werewolf.Action{}, false
	}
	return a, ok
}

// knowledge is what the seat knows or suspects of each player.
type knowledge struct {
	v       werewolf.SeatView
	wolf    map[int]bool // known werewolves
	good    map[int]bool // known non-wolves
	suspect map[int]float64
}

func newKnowledge(v werewolf.SeatView) *knowledge {
	k := &knowledge{v: v, wolf: map[int]bool{}, good: map[int]bool{}, suspect: map[int]float64{}}
	for _, w := range v.Wolves {
		k.wolf[int(w)] = true
	}
	for _, p := range v.Players {
		if p.Card == werewolf.RoleWerewolf {
			k.wolf[int(p.Seat)] = true
		} else if p.Card != werewolf.RoleUnknown {
			k.good[int(p.Seat)] = true
		}
	}
	for _, vi := range v.Visions {
		if vi.Card == werewolf.RoleWerewolf {
			k.wolf[int(vi.Target)] = true
		} else {
			k.good[int(vi.Target)] = true
		}
	}
	if v.Card != werewolf.RoleWerewolf && v.Seat >= 0 {
		k.good[int(v.Seat)] = true
	}
	// Public suspicion from revealed votes: backing a lynch that killed a
	// villager is suspicious; backing one that killed a wolf is trusted;
	// opposing the lynch of a wolf is suspicious.
	for _, rec := range v.Votes {
		if rec.Kind != werewolf.PhaseVote || rec.Result < 0 {
			continue
		}
		res := v.Players[rec.Result]
		if res.Alive {
			continue
		}
		wasWolf := res.Card == werewolf.RoleWerewolf
		for _, bl := range rec.Ballots {
			switch {
			case bl.Target == rec.Result && wasWolf:
				k.suspect[int(bl.Voter)] -= 1.5
			case bl.Target == rec.Result:
				k.suspect[int(bl.Voter)] += 1
			case wasWolf && bl.Target >= 0:
				k.suspect[int(bl.Voter)] += 1
			}
		}
	}
	return k
}

// score is the public-plus-private suspicion of seat i; higher is more
// suspicious. Ties break by a hash of the day and seat that every bot
// computes alike, so villagers without private knowledge agree.
func (k *knowledge) score(i int) float64 {
	s := k.suspect[i]
	if k.wolf[i] {
		s += 100
	}
	if k.good[i] {
		s -= 100
	}
	if p := k.v.Players[i]; p.Sheriff {
		s -= 0.5
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", k.v.Day, i)
	return s + float64(h.Sum64()%1000)/2000
}

// targets of kind in v.Legal.
func targets(v werewolf.SeatView, kind werewolf.Kind) []int {
	var t []int
	for _, a := range v.Legal {
		if a.Kind == kind {
			t = append(t, a.Target)
		}
	}
	return t
}

// most returns the target with the highest (or lowest) score.
func (k *knowledge) most(ts []int, highest bool) int {
	if len(ts) == 0 {
		return -1
	}
	best := ts[0]
	for _, t := range ts[1:] {
		if (highest && k.score(t) > k.score(best)) || (!highest && k.score(t) < k.score(best)) {
			best = t
		}
	}
	return best
}

func pick[T any](r *rand.Rand, v []T) T { return v[r.IntN(len(v))] }

func act(kind werewolf.Kind, target int) werewolf.Action {
	return werewolf.Action{Kind: kind, Target: target}
}

func has(v werewolf.SeatView, kind werewolf.Kind) bool {
	return slices.ContainsFunc(v.Legal, func(a werewolf.Action) bool { return a.Kind == kind })
}

// decided reports whether the seat already settled the current question
// (then the bot returns false and lets the phase run).
func decided(v werewolf.SeatView) bool {
	switch v.Phase {
	case werewolf.PhaseDiscussion:
		return v.Ready
	case werewolf.PhaseSheriffCampaign:
		return v.Ready
	case werewolf.PhaseSheriffVote, werewolf.PhaseSheriffRunoff, werewolf.PhaseVote:
		return v.MyBallot != werewolf.NoBallot
	}
	return false
}

func (b *Bot) easy(v werewolf.SeatView, k *knowledge, r *rand.Rand) (werewolf.Action, bool) {
	if decided(v) {
		return werewolf.Action{}, false
	}
	switch v.Phase {
	case werewolf.PhaseWolves:
		if v.Card == werewolf.RoleWerewolf {
			return b.wolfPick(v, k, r, true)
		}
	case werewolf.PhaseSheriffCampaign:
		if has(v, werewolf.KindStand) && !v.Players[v.Seat].Candidate && r.IntN(4) == 0 {
			return werewolf.Action{Kind: werewolf.KindStand, On: true}, true
		}
		return werewolf.Action{Kind: werewolf.KindReady, On: true}, true
	case werewolf.PhaseDiscussion:
		return werewolf.Action{Kind: werewolf.KindReady, On: true}, true
	case werewolf.PhaseWitch:
		if r.IntN(3) == 0 {
			return pick(r, v.Legal), true
		}
		return werewolf.Action{Kind: werewolf.KindWitchDone}, true
	}
	// Prefer anything but withdrawing, abstaining or un-readying.
	var good []werewolf.Action
	for _, a := range v.Legal {
		switch {
		case a.Kind == werewolf.KindWolfClear, a.Kind == werewolf.KindAbstain,
			(a.Kind == werewolf.KindReady || a.Kind == werewolf.KindStand) && !a.On:
			continue
		}
		good = append(good, a)
	}
	if len(good) == 0 {
		good = v.Legal
	}
	return pick(r, good), true
}

// wolfPick: adopt the first selecting wolf's target, else choose one.
func (b *Bot) wolfPick(v werewolf.SeatView, k *knowledge, r *rand.Rand, random bool) (werewolf.Action, bool) {
	lead, mine := -1, -1
	for _, c := range v.Choices {
		if c.Target >= 0 && lead < 0 {
			lead = int(c.Target)
		}
		if c.Wolf == v.Seat {
			mine = int(c.Target)
		}
	}
	if lead >= 0 {
		if mine == lead {
			return werewolf.Action{}, false
		}
		return act(werewolf.KindWolfSelect, lead), true
	}
	if mine >= 0 {
		return werewolf.Action{}, false
	}
	ts := targets(v, werewolf.KindWolfSelect)
	ts = slices.DeleteFunc(ts, func(t int) bool { return t == int(v.Partner) })
	if len(ts) == 0 {
		return werewolf.Action{}, false
	}
	if random {
		return act(werewolf.KindWolfSelect, pick(r, ts)), true
	}
	// The most trusted villager is the most dangerous; the sheriff too.
	sort.Slice(ts, func(i, j int) bool { return k.score(ts[i]) < k.score(ts[j]) })
	n := min(len(ts), 3)
	return act(werewolf.KindWolfSelect, ts[r.IntN(n)]), true
}

// consensus is the lynch target a village bot picks from public information.
func (k *knowledge) consensus(ts []int) int { return k.most(ts, true) }

// normal is the "normal" level: each phase's choice made from what the
// seat knows and suspects.
func (b *Bot) normal(v werewolf.SeatView, k *knowledge, r *rand.Rand) (werewolf.Action, bool) {
	if decided(v) {
		return werewolf.Action{}, false
	}
	wolf := v.Card == werewolf.RoleWerewolf
	switch v.Phase {
	case werewolf.PhaseThief:
		return thiefChoice(v, r), true
	case werewolf.PhaseCupid:
		return pick(r, v.Legal), true
	case werewolf.PhaseSeer:
		return k.seerChoice(v), true
	case werewolf.PhaseWolves:
		if wolf {
			return b.wolfPick(v, k, r, false)
		}
		if v.Card == werewolf.RoleLittleGirl {
			return werewolf.Action{Kind: werewolf.KindPeek, On: v.Night <= 2 && r.IntN(2) == 0}, true
		}
	case werewolf.PhaseWitch:
		return k.witchChoice(v, r), true
	case werewolf.PhaseHunterShot:
		ts := targets(v, werewolf.KindHunterShoot)
		ts = slices.DeleteFunc(ts, func(t int) bool { return t == int(v.Partner) || (wolf && k.wolf[t]) })
		if len(ts) == 0 {
			return werewolf.Action{Kind: werewolf.KindHunterHold}, true
		}
		return act(werewolf.KindHunterShoot, k.most(ts, true)), true
	case werewolf.PhaseSheriffSuccession:
		return k.packFirst(v, werewolf.KindSuccessor, wolf), true
	case werewolf.PhaseSheriffCampaign:
		if !v.Players[v.Seat].Candidate && r.IntN(4) == 0 {
			return werewolf.Action{Kind: werewolf.KindStand, On: true}, true
		}
		return werewolf.Action{Kind: werewolf.KindReady, On: true}, true
	case werewolf.PhaseSheriffVote, werewolf.PhaseSheriffRunoff:
		if len(targets(v, werewolf.KindBallot)) == 0 {
			return werewolf.Action{Kind: werewolf.KindAbstain}, true
		}
		return k.packFirst(v, werewolf.KindBallot, wolf), true
	case werewolf.PhaseDiscussion:
		return werewolf.Action{Kind: werewolf.KindReady, On: true}, true
	case werewolf.PhaseVote:
		return k.lynchBallot(v, wolf, r), true
	case werewolf.PhaseSheriffTiebreak:
		ts := targets(v, werewolf.KindTiebreak)
		if wolf {
			if others := k.notWolves(ts); len(others) > 0 {
				ts = others
			}
		}
		return act(werewolf.KindTiebreak, k.most(ts, true)), true
	}
	return werewolf.Action{}, false
}

// thiefChoice takes the best card the thief saw (a werewolf half the time
// on a tie), else keeps his own when he may.
func thiefChoice(v werewolf.SeatView, r *rand.Rand) werewolf.Action {
	best, bestRank := -1, rank(werewolf.RoleThief)
	for slot, c := range v.ThiefSaw {
		if rk := rank(c); rk > bestRank || (rk == bestRank && c == werewolf.RoleWerewolf && r.IntN(2) == 0) {
			best, bestRank = slot, rk
		}
	}
	if best >= 0 {
		return act(werewolf.KindThiefTake, best)
	}
	if has(v, werewolf.KindThiefKeep) {
		return werewolf.Action{Kind: werewolf.KindThiefKeep}
	}
	return act(werewolf.KindThiefTake, 0)
}

// seerChoice looks first at the most suspicious player the seer knows
// nothing of.
func (k *knowledge) seerChoice(v werewolf.SeatView) werewolf.Action {
	ts := targets(v, werewolf.KindSeerInspect)
	var unknown []int
	for _, t := range ts {
		if !k.wolf[t] && !k.good[t] {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) == 0 {
		unknown = ts
	}
	return act(werewolf.KindSeerInspect, k.most(unknown, true))
}

// witchChoice mostly heals (always herself), poisons a known wolf (or, at
// a small table, a suspect half the time), else is done.
func (k *knowledge) witchChoice(v werewolf.SeatView, r *rand.Rand) werewolf.Action {
	if has(v, werewolf.KindWitchHeal) && (v.Victim == v.Seat || r.IntN(10) < 7) {
		return werewolf.Action{Kind: werewolf.KindWitchHeal}
	}
	if ts := targets(v, werewolf.KindWitchPoison); len(ts) > 0 {
		ts = slices.DeleteFunc(ts, func(t int) bool { return t == int(v.Seat) || t == int(v.Partner) })
		if t := k.most(ts, true); t >= 0 && (k.wolf[t] || (v.Voters <= 6 && r.IntN(2) == 0)) {
			return act(werewolf.KindWitchPoison, t)
		}
	}
	return werewolf.Action{Kind: werewolf.KindWitchDone}
}

// packFirst names a fellow wolf when a wolf can, else the least suspect
// target (a sheriff's successor, a sheriff ballot).
func (k *knowledge) packFirst(v werewolf.SeatView, kind werewolf.Kind, wolf bool) werewolf.Action {
	ts := targets(v, kind)
	if wolf {
		for _, t := range ts {
			if k.wolf[t] {
				return act(kind, t)
			}
		}
	}
	return act(kind, k.most(ts, false))
}

// lynchBallot follows the village's pick. A wolf blends in: when the pick
// is a fellow wolf, he sometimes votes with the village anyway (the
// rulebook's bluff), else for the village's pick among the others.
func (k *knowledge) lynchBallot(v werewolf.SeatView, wolf bool, r *rand.Rand) werewolf.Action {
	ts := targets(v, werewolf.KindBallot)
	if len(ts) == 0 {
		return werewolf.Action{Kind: werewolf.KindAbstain}
	}
	if !wolf {
		return act(werewolf.KindBallot, k.consensus(ts))
	}
	if c := k.consensus(ts); !k.wolf[c] || r.IntN(2) == 0 {
		return act(werewolf.KindBallot, c)
	}
	if others := k.notWolves(ts); len(others) > 0 {
		return act(werewolf.KindBallot, k.consensus(others))
	}
	return act(werewolf.KindBallot, k.consensus(ts))
}

// notWolves is ts without the players known to be werewolves.
func (k *knowledge) notWolves(ts []int) []int {
	var others []int
	for _, t := range ts {
		if !k.wolf[t] {
			others = append(others, t)
		}
	}
	return others
}

// rank orders cards for a thief who chooses freely.
func rank(r werewolf.Role) int {
	switch r {
	case werewolf.RoleSeer:
		return 5
	case werewolf.RoleWitch:
		return 4
	case werewolf.RoleWerewolf:
		return 3
	case werewolf.RoleHunter:
		return 2
	case werewolf.RoleLittleGirl:
		return 1
	}
	return 0 // thief, villager, cupid: keep
}

// Talk is Chat for the room actor (game.Talker): it gets the view as
// game.View.
func (b *Bot) Talk(v game.View, seed uint64) (game.Msg, bool) {
	sv, ok := v.(werewolf.SeatView)
	if !ok {
		return game.Msg{}, false
	}
	return b.Chat(sv, seed)
}

// The lines a bot says, by catalog key.
const (
	lineEat     = werewolf.BotLinePrefix + "eat"     // Player: the pack's choice
	lineWhom    = werewolf.BotLinePrefix + "whom"    // no choice yet
	lineSeer    = werewolf.BotLinePrefix + "seer"    // Player: a werewolf the seer saw
	lineSuspect = werewolf.BotLinePrefix + "suspect" // Player
	lineQuiet   = werewolf.BotLinePrefix + "quiet"   // Player
	lineVote    = werewolf.BotLinePrefix + "vote"    // Player
)

// Chat returns at most one line per seat and phase (a wolf may speak again
// when the pack's choice changes); pass it to Game.BotLine. A line is a
// catalog message (werewolf.BotLinePrefix) with the players' names as
// arguments, so each viewer reads it in their own language. The bot
// remembers what each seat said, so calling Chat again with the same view
// is silent. Easy bots stay silent.
func (b *Bot) Chat(v werewolf.SeatView, seed uint64) (game.Msg, bool) {
	if b.level == Easy || v.Seat < 0 || v.Over {
		return game.Msg{}, false
	}
	// A topic is the phase, plus for wolves the victim they lean to: a wolf
	// speaks again when the pack's choice changes.
	topic := fmt.Sprint(v.PhaseSeq)
	for _, c := range v.Choices {
		if c.Target >= 0 {
			topic += fmt.Sprintf("/%d", c.Target)
			break
		}
	}
	b.mu.Lock()
	if b.spoke[v.Seat] == topic {
		b.mu.Unlock()
		return game.Msg{}, false
	}
	b.spoke[v.Seat] = topic
	b.mu.Unlock()
	k := newKnowledge(v)
	r := rand.New(rand.NewPCG(seed, v.PhaseSeq))
	name := func(seat int) game.Arg { return game.Text("Player", v.Players[seat].Name) }
	switch {
	case v.Phase == werewolf.PhaseWolves && v.Alive && v.Card == werewolf.RoleWerewolf:
		for _, c := range v.Choices {
			if c.Target >= 0 {
				return game.M(lineEat, name(int(c.Target))), true
			}
		}
		return game.M(lineWhom), true
	case v.Phase == werewolf.PhaseDiscussion && v.Alive:
		if v.Card == werewolf.RoleSeer {
			for _, vi := range v.Visions {
				if vi.Card == werewolf.RoleWerewolf && v.Players[vi.Target].Alive {
					return game.M(lineSeer, name(int(vi.Target))), true
				}
			}
		}
		var ts []int
		for _, p := range v.Players {
			if p.Alive && p.Seat != v.Seat && !(v.Card == werewolf.RoleWerewolf && k.wolf[int(p.Seat)]) {
				ts = append(ts, int(p.Seat))
			}
		}
		if len(ts) == 0 {
			return game.Msg{}, false
		}
		lines := []string{lineSuspect, lineQuiet, lineVote}
		return game.M(pick(r, lines), name(k.consensus(ts))), true
	}
	return game.Msg{}, false
}
