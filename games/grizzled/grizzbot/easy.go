package grizzbot

import (
	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// params tunes the rule-based policy. The defaults were chosen by
// simulation: thousands of bot games per setting, kept when the win rate
// rose beyond the noise.
type params struct {
	trapRisk   float64    // a trap card with at most this chance of failing counts as safe
	speechSafe float64    // expected discards that justify a speech when a safe play exists
	speechLow  float64    // ... when nothing safe can be played
	knockMax   int        // play a hard knock from hand only while own weight stays at most this
	knockRel   int        // ... and own weight is at most the lightest teammate's plus this
	knockBias  float64    // added to the cost of playing a hard knock from hand
	mcHold     bool       // keep Merry Christmas while no hard knock is in play
	closeCost  float64    // cost of bringing a threat to 2
	openCost   float64    // cost of bringing a threat to 1
	needCost   float64    // extra cost per own remaining card sharing the threat
	charmUnblk int        // use the charm when it makes at least this many own cards playable
	charmEager bool       // use the charm on a threat at 2 even when a safe card exists
	kHand      [3]float64 // intensity 3, 2, 1 below these mean hand sizes (if kTarget is 0)
	kTarget    [6]float64 // by number of humans: aim for this many cards in all hands after the deal
	kMorale    float64    // extra cards aimed at per card to clear beyond the morale reserve
	kLate      int        // trials left at or below which the leader deals everything
}

var defaultParams = params{
	trapRisk:   0.12,
	speechSafe: 1.0,
	speechLow:  0.6,
	knockMax:   3,
	knockRel:   9,
	mcHold:     true,
	closeCost:  1.0,
	openCost:   0.4,
	needCost:   0.3,
	charmUnblk: 1,
	kHand:      [3]float64{0.25, 1, 2},
	kTarget:    [6]float64{2: 6, 3: 6.5, 4: 8, 5: 9},
	kLate:      8,
}

// tableParams is the policy for each number of soldiers at the table (2
// to 5): defaultParams, changed where a coordinate search on 10,000 paired
// standard deals at that size found a change that won clearly more. The
// strong level plays its playouts with it too.
var tableParams = [6]params{2: at2, 3: defaultParams, 4: defaultParams, 5: at5}

// at2 makes speeches more readily: with two soldiers a speech token goes
// back to the supply (§6.4). Easy wins 21% → 27%.
var at2 = func() params {
	p := defaultParams
	p.speechSafe = 0.7
	return p
}()

// at5 uses the charm as soon as a threat is at 2, plays hard knocks from
// hand more readily, speaks when nothing safe is left, aims at fewer cards
// in hand and deals the whole pile from 10 trials left. Easy wins 6.6% →
// 12.5%.
var at5 = func() params {
	p := defaultParams
	p.speechLow, p.knockBias, p.charmEager, p.kLate = 0.9, -0.5, true, 10
	p.kTarget[5] = 7
	return p
}()

// paramsFor is the policy for a table of n soldiers.
func paramsFor(n int) *params { return &tableParams[min(max(n, 2), 5)] }

// soldiers is the number of soldiers at v's table (the chaplain is not one).
func soldiers(v *g.SeatView) int {
	n := 0
	for i := range v.Players {
		if !v.Players[i].Chaplain {
			n++
		}
	}
	return n
}

// rng is a small deterministic generator for tie-breaks (splitmix64).
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// jitter is a tiny tie-breaking noise in [0, 1e-6).
func (r *rng) jitter() float64 { return float64(r.next()>>11) / (1 << 53) * 1e-6 }

// choose returns the index in v.Legal of the action the rule-based policy
// takes, or -1 when v.Legal is empty.
func choose(v *g.SeatView, seed uint64, p *params) int {
	if len(v.Legal) == 0 {
		return -1
	}
	if len(v.Legal) == 1 {
		return 0
	}
	r := rng(seed)
	s := newSight(v)
	i := -1
	switch v.Phase {
	case g.PhaseIntensity:
		i = chooseIntensity(&s, p)
	case g.PhaseTurn:
		i = chooseTurn(&s, p, &r)
	case g.PhaseSpeech:
		i = chooseSpeechAnswer(&s, &r)
	case g.PhaseDecision, g.PhaseBenefit:
		i = bestBy(v.Legal, &r, func(a g.Action) float64 { return s.decisionScore(a) })
	}
	if i < 0 || i >= len(v.Legal) {
		return 0 // a decision this policy does not know: any legal action
	}
	return i
}

// bestBy is the index of the highest-scoring action (ties broken by r).
func bestBy(as []g.Action, r *rng, score func(g.Action) float64) int {
	best, bi := 0.0, -1
	for i, a := range as {
		x := score(a) + r.jitter()
		if bi < 0 || x > best {
			best, bi = x, i
		}
	}
	return bi
}

func indexOf(as []g.Action, kind g.ActionKind) int {
	for i, a := range as {
		if a.Kind == kind {
			return i
		}
	}
	return -1
}

// ---- intensity ----

func chooseIntensity(s *sight, p *params) int {
	v := s.v
	humans, held := 0, 0
	for i := range v.Players {
		if !v.Players[i].Chaplain {
			humans++
			held += v.Players[i].HandSize
		}
	}
	avg := float64(held) / float64(max(humans, 1))
	k := 1
	switch {
	case avg < p.kHand[0]:
		k = 3
	case avg < p.kHand[1]:
		k = 2
	}
	if humans < len(p.kTarget) && p.kTarget[humans] > 0 {
		target := p.kTarget[humans] + p.kMorale*float64(max(0, v.Trials+held-v.Morale))
		k = int((target-float64(held))/float64(max(humans, 1)) + 0.5)
		k = max(k, 1)
	}
	if v.Trials <= p.kLate {
		k = v.MaxIntensity
	}
	k = max(k, v.MinIntensity)
	k = min(k, max(v.MaxIntensity, v.MinIntensity))
	for i, a := range v.Legal {
		if a.Kind == g.ActIntensity && a.K == k {
			return i
		}
	}
	// Not offered: the nearest offered value.
	bi, bd := -1, 0
	for i, a := range v.Legal {
		if a.Kind != g.ActIntensity {
			continue
		}
		d := a.K - k
		if d < 0 {
			d = -d
		}
		if bi < 0 || d < bd {
			bi, bd = i, d
		}
	}
	return bi
}

// ---- turn ----

// dangerOf is how dangerous a hard-knock weight is for the L-1 check.
func dangerOf(w int) float64 {
	switch {
	case w <= 0:
		return 0
	case w == 1:
		return 1
	case w == 2:
		return 2.5
	case w == 3:
		return 6
	}
	return 20 + float64(w)
}

// harm is how much a hard knock hurts beyond its weight while in play.
func harm(c g.CardID) float64 {
	switch c {
	case g.PhobiaShell, g.PhobiaWhistle, g.PhobiaMask, g.TraumaNight, g.TraumaSnow, g.TraumaRain:
		return 0.6
	case g.Demoralized, g.Frenzied:
		return 1.0
	case g.Fragile:
		return 0.8
	case g.Hardheaded, g.Prideful, g.Clumsy:
		return 0.6
	case g.Fearful:
		return 0.5
	case g.AbsentMinded:
		return 0.4
	case g.Tyrannical, g.Panicked, g.Selfish:
		return 0.3
	case g.Mute:
		return 0.2
	}
	return 0
}

// playCost is the cost of playing c when it is safe (lower is better).
func (s *sight) playCost(c g.CardID, p *params) float64 {
	me := &s.v.Players[s.me]
	switch {
	case c == g.MerryChristmas:
		if s.knocks > 0 {
			return -2
		}
		return 1.5
	case c.IsHardKnock():
		w := me.Weight + cardWeight[c]
		cost := 1.2 + p.knockBias + dangerOf(w) - dangerOf(me.Weight) + harm(c)
		if isPhobia(c) {
			cost += s.threatCost(c, p)
		}
		return cost
	}
	return s.threatCost(c, p)
}

func (s *sight) threatCost(c g.CardID, p *params) float64 {
	a := s.after(c)
	m := cardMask[c]
	cost := 0.0
	for t := range a {
		if m&(1<<t) == 0 {
			continue
		}
		own := float64(s.hand[t] - 1) // the other cards of mine sharing t
		if a[t] >= 2 {
			cost += p.closeCost + p.needCost*own
		} else {
			cost += p.openCost + p.needCost*own*0.5
		}
	}
	return cost
}

// knockOK reports whether playing hard knock c from hand is acceptable now.
func (s *sight) knockOK(c g.CardID, p *params) bool {
	w := s.v.Players[s.me].Weight
	if w+cardWeight[c] > p.knockMax {
		return false
	}
	lightest := 99
	for i := range s.v.Players {
		q := &s.v.Players[i]
		if i != s.me && !q.Chaplain {
			lightest = min(lightest, q.Weight)
		}
	}
	return w <= lightest+p.knockRel
}

func chooseTurn(s *sight, p *params, r *rng) int {
	v := s.v
	legal := v.Legal
	if v.MustWithdraw {
		if i := indexOf(legal, g.ActWithdraw); i >= 0 {
			return i
		}
	}
	// The safest, cheapest card to play.
	safeI, safeCost := -1, 0.0
	minRiskI, minRisk, minRiskCost := -1, 2.0, 0.0
	for i, a := range legal {
		if a.Kind != g.ActPlay {
			continue
		}
		risk := s.playRisk(a.Card)
		cost := s.playCost(a.Card, p) + r.jitter()
		if risk < minRisk || (risk == minRisk && cost < minRiskCost) {
			minRiskI, minRisk, minRiskCost = i, risk, cost
		}
		ok := risk == 0 || (risk <= p.trapRisk && risk < 1)
		if a.Card.IsHardKnock() && !s.knockOK(a.Card, p) {
			ok = false
		}
		if a.Card == g.MerryChristmas && s.knocks == 0 && p.mcHold && len(v.Hand) > 1 {
			ok = false
		}
		if ok && (safeI < 0 || cost < safeCost) {
			safeI, safeCost = i, cost
		}
	}
	// The best speech.
	speechI, speechGain := -1, 0.0
	for i, a := range legal {
		if a.Kind != g.ActSpeech {
			continue
		}
		gain := s.speechGain(a.Threat)
		if s.counts[a.Threat] >= 2 {
			gain *= 1.2 // those cards could not be played anyway
		}
		gain += r.jitter()
		if speechI < 0 || gain > speechGain {
			speechI, speechGain = i, gain
		}
	}
	if speechI >= 0 && speechGain >= p.speechSafe {
		return speechI
	}
	if p.charmEager {
		if i := s.anyCharm(); i >= 0 && legal[i].Kind == g.ActCharm {
			m := cardMask[legal[i].Card]
			for t, n := range s.counts {
				if m&(1<<t) != 0 && n >= 2 {
					return i
				}
			}
		}
	}
	if safeI >= 0 {
		return safeI
	}
	// Nothing safe to play.
	if speechI >= 0 && speechGain >= p.speechLow {
		return speechI
	}
	charmI := s.bestCharm(p)
	if charmI >= 0 {
		return charmI
	}
	if i := indexOf(legal, g.ActWithdraw); i >= 0 {
		return i
	}
	// Cannot withdraw either: anything that adds no threat, else the least risky card.
	if i := s.anyCharm(); i >= 0 {
		return i
	}
	if speechI >= 0 {
		return speechI
	}
	if minRiskI >= 0 {
		return minRiskI
	}
	return 0
}

// bestCharm is the charm use that makes the most of own cards playable
// again, if it reaches p.charmUnblk; else -1.
func (s *sight) bestCharm(p *params) int {
	bi, bn := -1, 0
	for i, a := range s.v.Legal {
		if a.Kind != g.ActCharm {
			continue
		}
		saved := s.counts
		m := cardMask[a.Card]
		for t := range s.counts {
			if m&(1<<t) != 0 {
				s.counts[t]--
			}
		}
		n := 0
		for _, c := range s.v.Hand {
			if s.playRisk(c) <= p.trapRisk {
				n++
			}
		}
		s.counts = saved
		if n > bn {
			bi, bn = i, n
		}
	}
	if bn >= p.charmUnblk {
		return bi
	}
	return -1
}

// anyCharm is the charm use that lowers the highest counts most, or -1.
func (s *sight) anyCharm() int {
	bi, bv := -1, -1
	for i, a := range s.v.Legal {
		if a.Kind != g.ActCharm {
			continue
		}
		x := 0
		m := cardMask[a.Card]
		for t, n := range s.counts {
			if m&(1<<t) != 0 {
				x += n * n
			}
		}
		if x > bv {
			bi, bv = i, x
		}
	}
	return bi
}

// ---- speech answer ----

func chooseSpeechAnswer(s *sight, r *rng) int {
	return bestBy(s.v.Legal, r, func(a g.Action) float64 {
		if a.Kind != g.ActSpeechDiscard {
			return 0 // pass
		}
		c := a.Card
		x := 1.0 // a discarded card leaves the game: always worth it
		if c.IsHardKnock() {
			x += 10 // a Phobia or Trauma would otherwise cost weight
		}
		aft := s.after(c)
		if fails(&aft) {
			x += 3 // unplayable now
		}
		if cardTrap[c] {
			x += 1.5
		}
		x += 0.5 * float64(cardIcons[c])
		return x
	})
}

// ---- decisions and benefits ----

// need is how much seat i would gain from being the beneficiary.
func (s *sight) need(i int) float64 {
	p := &s.v.Players[i]
	if p.Chaplain {
		return -1
	}
	x := dangerOf(p.Weight)
	for _, c := range p.HardKnocks {
		x += 0.3 * harm(c)
	}
	if !p.CharmAvailable {
		x += 0.8
	}
	return x
}

func (s *sight) recipient(t g.Tile) int {
	n := len(s.v.Players)
	if n == 0 {
		return -1
	}
	if s.me >= 0 && s.me < n {
		for _, c := range s.v.Players[s.me].HardKnocks {
			if c == g.Selfish {
				return s.me
			}
		}
	}
	return ((s.me+t.Offset())%n + n) % n
}

func (s *sight) tileCopies(t g.Tile) int {
	n := 0
	for _, x := range s.v.MyTiles {
		if x == t {
			n++
		}
	}
	return n
}

func (s *sight) decisionScore(a g.Action) float64 {
	switch a.Kind {
	case g.ActPlaceTile:
		to := s.recipient(a.Tile)
		if to < 0 {
			return 0
		}
		return 10*s.need(to) + 0.1*float64(s.tileCopies(a.Tile))
	case g.ActRemoveTile: // Absent-minded: lose the tile whose recipient needs least
		to := s.recipient(a.Tile)
		if to < 0 {
			return 0
		}
		return -10*s.need(to) + 0.1*float64(s.tileCopies(a.Tile))
	case g.ActDiscardHardKnock:
		return s.knockRelief(int(a.Target), a.Card)
	case g.ActBenefitDiscard:
		x := 0.0
		w := s.v.Players[s.me].Weight
		for _, c := range a.Cards {
			x += harm(c) + dangerOf(w) - dangerOf(w-cardWeight[c])
			w -= cardWeight[c]
			if isPhobia(c) {
				x += 0.3
			}
		}
		return x
	case g.ActBenefitCharm:
		return 1.2
	case g.ActBenefitDecline:
		return 0
	}
	return 0
}

// knockRelief is how much discarding knock c in front of seat t helps.
func (s *sight) knockRelief(t int, c g.CardID) float64 {
	if t < 0 || t >= len(s.v.Players) {
		return 0
	}
	p := &s.v.Players[t]
	x := dangerOf(p.Weight) - dangerOf(p.Weight-cardWeight[c]) + harm(c)
	if isPhobia(c) && !p.Withdrawn {
		// It counts now: relief grows with the count of its threat.
		for th := range s.counts {
			if cardMask[c]&(1<<th) != 0 && s.counts[th] >= 2 {
				x += 2
			}
		}
	}
	return x
}

// Easy is the rule-based bot ("easy").
type Easy struct{}

// NewEasy returns the rule-based bot.
func NewEasy() *Easy { return &Easy{} }

// Act implements game.Bot. v must be a grizzled.SeatView (or a pointer
// to one); the result is always one of v.Legal.
func (e *Easy) Act(v game.View, seed uint64) (game.Action, bool) {
	switch x := v.(type) {
	case g.SeatView:
		return e.act(&x, seed)
	case *g.SeatView:
		if x != nil {
			return e.act(x, seed)
		}
	}
	return nil, false
}

func (e *Easy) act(v *g.SeatView, seed uint64) (game.Action, bool) {
	if len(v.Legal) == 0 {
		return nil, false
	}
	return v.Legal[keepInTheGame(v, choose(v, seed, paramsFor(soldiers(v))))], true
}

// keepInTheGame returns i, unless v.Legal[i] loses the game on the spot
// (g.SeatView.LosesAtOnce) while another legal action does not: then the
// best of those by the rule-based scores. A search that scores a lost game
// by the progress made can rate it above a game that goes on; no bot may
// throw a game that can go on.
func keepInTheGame(v *g.SeatView, i int) int {
	if i < 0 || i >= len(v.Legal) || !v.LosesAtOnce(v.Legal[i]) {
		return i
	}
	s := newSight(v)
	best, bestScore := i, 0.0
	for j, a := range v.Legal {
		if v.LosesAtOnce(a) {
			continue
		}
		if x := s.decisionScore(a); best == i || x > bestScore {
			best, bestScore = j, x
		}
	}
	return best
}
