package grizzled

// Why this file is long: it is the whole of a mission as the rules run it
// (§3.2–§3.9): the four actions, traps, failure and success, support, the
// checks after it, the morale drop and the leader change, in rule order.
// Split, a reader would jump between files to follow one turn.

import (
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// ActTimeout closes a speech response window: every seat that has not
// answered passes (A3). Only game.System submits it, when Timer fires.
const ActTimeout = ActBenefitDecline + 1

// SpeechTimeout is how long the speech response window stays open.
const SpeechTimeout = 45 * time.Second

// ---- events ----

func (s *State) pub(key string, args ...game.Arg) {
	s.out = append(s.out, game.Event{Audience: game.Everyone(), Kind: game.Narration, From: -1, Msg: game.M(key, args...)})
}

// pubAs is pub for an event code matches by its type.
func (s *State) pubAs(t game.EventType, key string, args ...game.Arg) {
	s.pub(key, args...)
	s.out[len(s.out)-1].Type = t
}

func (s *State) priv(seat int, key string, args ...game.Arg) {
	s.out = append(s.out, game.Event{Audience: game.Only(game.Seat(seat)), Kind: game.Private, From: -1, Msg: game.M(key, args...)})
}

func (s *State) flush() []game.Event {
	out := s.out
	s.out, s.loud = nil, false
	return out
}

func (s *State) name(i int) string { return s.players[i].Name }

// who is seat i's name as the argument Player.
func (s *State) who(i int) game.Arg { return named(s.name(i)) }

// named is a player's name as the argument Player; the 2-player game's
// chaplain is named in the reader's language.
func named(name string) game.Arg { return nameArg("Player", name) }

func nameArg(arg, name string) game.Arg {
	if name == ChaplainName {
		return game.Term(arg, "grizzled.chaplain")
	}
	return game.Text(arg, name)
}

func cardArg(c CardID) game.Arg { return game.Sub("Card", c.Msg()) }

func cardsArg(cs []CardID) game.Arg {
	ms := make([]game.Msg, len(cs))
	for i, c := range cs {
		ms[i] = c.Msg()
	}
	return game.List("Cards", ms...)
}

func tilesArg(ts []Tile) game.Arg {
	ms := make([]game.Msg, len(ts))
	for i, t := range ts {
		ms[i] = game.M(t.Key())
	}
	return game.List("Tiles", ms...)
}

func threatArg(t Threat) game.Arg { return game.Term("Threat", t.Key()) }

func refuse(sentinel error, key string, args ...game.Arg) error {
	return game.Refuse(sentinel, game.M(key, args...))
}

// ---- entry points ----

// Apply performs one action by seat and returns what happened, in words.
// On error the state is unchanged and there are no events; on success s is
// updated in place.
func (s *State) Apply(seat game.Seat, a Action) ([]game.Event, error) {
	s.loud, s.out = true, make([]game.Event, 0, 4)
	if err := s.step(seat, a); err != nil {
		s.loud, s.out = false, nil
		return nil, err
	}
	return s.flush(), nil
}

// Step is Apply without events: the fast path for bots and simulations.
func (s *State) Step(seat game.Seat, a Action) error {
	s.loud, s.out = false, nil
	return s.step(seat, a)
}

// CheckSeq returns ErrStale unless seq is the number of actions applied so
// far (a key pressed on view N must not apply to state N+1).
func (s *State) CheckSeq(seq int) error {
	if seq != s.seq {
		return refuse(ErrStale, "grizzled.err.stale", game.Num("Seen", seq), game.Num("Now", s.seq))
	}
	return nil
}

func (s *State) step(seat game.Seat, a Action) error {
	if s.phase == PhaseOver {
		return ErrGameOver
	}
	if a.Kind < ActIntensity || a.Kind > ActTimeout {
		return refuse(ErrBadAction, "grizzled.err.unknown_action", game.Num("Kind", int(a.Kind)))
	}
	if a.Kind == ActTimeout {
		if seat != game.System {
			return refuse(ErrNotAPlayerAction, "grizzled.err.timer_only")
		}
		if s.phase != PhaseSpeech {
			return refuse(ErrWrongPhase, "grizzled.err.no_speech")
		}
		s.closeSpeech(true)
		s.seq++
		return nil
	}
	if seat < 0 || int(seat) >= len(s.players) {
		return refuse(ErrNotYourTurn, "grizzled.err.not_playing")
	}
	p := int(seat)
	var err error
	switch s.phase {
	case PhaseIntensity:
		err = s.doIntensity(p, a)
	case PhaseTurn:
		err = s.doTurn(p, a)
	case PhaseSpeech:
		err = s.doSpeechAnswer(p, a)
	case PhaseDecision:
		err = s.doDecision(p, a)
	case PhaseBenefit:
		err = s.doBenefit(p, a)
	default:
		err = refuse(ErrWrongPhase, "grizzled.err.nothing_waited")
	}
	if err == nil {
		s.seq++
	}
	return err
}

func (s *State) wrongKind(p int) error {
	switch s.phase {
	case PhaseIntensity:
		return refuse(ErrWrongPhase, "grizzled.err.choose_intensity")
	case PhaseTurn:
		return refuse(ErrWrongPhase, "grizzled.err.your_turn")
	case PhaseSpeech:
		return refuse(ErrWrongPhase, "grizzled.err.answer_speech", threatArg(s.speechThreat))
	case PhaseDecision:
		switch s.decision {
		case DecideRemoveTile:
			return refuse(ErrWrongPhase, "grizzled.err.choose_remove_tile")
		case DecidePlaceTile:
			return refuse(ErrWrongPhase, "grizzled.err.choose_place_tile")
		case DecideHardKnock:
			return refuse(ErrWrongPhase, "grizzled.err.choose_mc")
		}
	case PhaseBenefit:
		return refuse(ErrWrongPhase, "grizzled.err.choose_benefit")
	}
	return refuse(ErrWrongPhase, "grizzled.err.wrong_phase")
}

func (s *State) notYou(p int) error {
	w := s.Waiting()
	if len(w) == 0 {
		return refuse(ErrNotYourTurn, "game.err.not_your_turn")
	}
	names := make([]game.Msg, len(w))
	for i, x := range w {
		names[i] = game.M("list.item", s.who(int(x)))
	}
	return refuse(ErrNotYourTurn, "grizzled.err.waiting_for", game.List("Players", names...))
}

// ---- P2..P6: intensity, deal, start of mission ----

// MinIntensity is the smallest legal k now (P2): 3 in the first mission, else 1.
func (s *State) MinIntensity() int {
	if s.round == 1 {
		return 3
	}
	return 1
}

// MaxIntensity is the largest k offered (§8 item 8): any larger k deals the
// same cards. Apply accepts larger values too.
func (s *State) MaxIntensity() int {
	m := (len(s.trials) + s.humans - 1) / max(s.humans, 1)
	return max(m, s.MinIntensity())
}

func (s *State) doIntensity(p int, a Action) error {
	if p != s.leader {
		return s.notYou(p)
	}
	if a.Kind != ActIntensity {
		return s.wrongKind(p)
	}
	if lo := s.MinIntensity(); a.K < lo {
		if s.round == 1 {
			return refuse(ErrIntensityTooLow, "grizzled.err.first_intensity", game.Num("Min", lo)) // P2
		}
		return refuse(ErrIntensityTooLow, "grizzled.err.intensity", game.Num("Min", lo)) // P2
	}
	s.startMission(a.K)
	return nil
}

func (s *State) draw() CardID {
	n := len(s.trials)
	if n == 0 {
		return NoCard
	}
	c := s.trials[n-1]
	s.trials = s.trials[:n-1]
	return c
}

func (s *State) nextHuman(i int) int {
	n := len(s.players)
	for {
		i = (i + 1) % n
		if !s.players[i].Chaplain {
			return i
		}
	}
}

func (s *State) startMission(k int) {
	if s.loud {
		s.pub("grizzled.intensity_set", s.who(s.leader), game.Num("K", k))
	}
	// P3: deal k rounds clockwise from the leader, skipping the chaplain.
	var before [5]int
	for i := range s.players {
		before[i] = len(s.players[i].Hand)
	}
	empty := false
	for r := 0; r < k && !empty; r++ {
		i := s.leader
		for range s.humans {
			c := s.draw()
			if c == NoCard {
				empty = true
				break
			}
			s.players[i].Hand = append(s.players[i].Hand, c)
			i = s.nextHuman(i)
		}
	}
	if s.loud {
		var dealt []game.Msg
		for i := range s.players {
			p := &s.players[i]
			if p.Chaplain {
				continue
			}
			got := p.Hand[before[i]:]
			dealt = append(dealt, game.M("grizzled.dealt_one", named(p.Name), game.Count(len(got))))
			if len(got) > 0 {
				s.priv(i, "grizzled.you_are_dealt", cardsArg(got))
			} else {
				s.priv(i, "grizzled.you_are_dealt_none")
			}
		}
		key := "grizzled.dealt"
		if empty {
			key = "grizzled.dealt_ran_out"
		}
		s.pub(key, game.List("Hands", dealt...), game.Count(len(s.trials)))
	}
	// P4: Frenzied draws 2 more (G-7: what is left).
	if f := s.ownerOf(Frenzied); f >= 0 {
		var got []CardID
		for range 2 {
			c := s.draw()
			if c == NoCard {
				break
			}
			s.players[f].Hand = append(s.players[f].Hand, c)
			got = append(got, c)
		}
		switch {
		case !s.loud:
		case len(got) == 0: // "draws 0 more cards" said nothing true
			s.pub("grizzled.frenzied_empty", s.who(f))
		default:
			s.pub("grizzled.frenzied_draws", s.who(f), game.Count(len(got)))
			s.priv(f, "grizzled.frenzied_you_draw", cardsArg(got))
		}
	}
	// P5: the chaplain places a random tile and counts as withdrawn.
	if s.humans == 2 {
		c := &s.players[2]
		c.Withdrawn = true
		if len(c.Tiles) > 0 {
			i := s.intn(len(c.Tiles))
			c.Placed, c.Hidden = c.Tiles[i], true
			c.Tiles = slices.Delete(c.Tiles, i, i+1)
			if s.loud {
				s.pub("grizzled.chaplain_places")
			}
		}
	}
	// P6: the leader takes the first turn.
	s.beginTurn(s.leader)
}

func (s *State) beginTurn(p int) {
	s.active, s.phase = p, PhaseTurn
	if s.loud {
		s.pub("grizzled.turn_of", s.who(p))
	}
}

// ---- F-1, F-2: counting and failure ----

// Counts is the number of active threats of each type (F-1): NML plus the
// Phobias and Traumas of players still in the mission.
func (s *State) Counts() [NumThreats]int {
	// One byte per threat, summed in a single word (counts stay far below 256).
	var sum uint64
	for _, id := range s.nml {
		sum += cards[id].packed
	}
	for i := range s.players {
		p := &s.players[i]
		if p.Withdrawn {
			continue
		}
		for _, k := range p.Knocks {
			if k <= TraumaRain {
				sum += cards[k].packed
			}
		}
	}
	var c [NumThreats]int
	for t := range c {
		c[t] = int(sum >> (8 * t) & 0xff)
	}
	return c
}

// checkFailure applies F-2: failure sticks once some count reaches 3.
func (s *State) checkFailure() {
	if s.failed {
		return
	}
	c := s.Counts()
	for t, n := range c {
		if n >= 3 {
			s.failed = true
			if s.loud {
				s.pubAs(EvThreeThreats, "grizzled.three_threats", threatArg(Threat(t)))
			}
			return
		}
	}
}

// ownerOf is the seat with hard knock k in front, or -1.
func (s *State) ownerOf(k CardID) int {
	for i := range s.players {
		if s.players[i].owns(k) {
			return i
		}
	}
	return -1
}

func (s *State) knocksInPlay() int {
	n := 0
	for i := range s.players {
		n += len(s.players[i].Knocks)
	}
	return n
}

// ---- A1 and card placement ----

// put plays card c for seat p (from hand, by a trap, or by Clumsy). It
// reports whether a Merry Christmas decision is now pending.
// putHow is how a card comes into play, for its narration.
type putHow uint8

const (
	putPlay   putHow = iota // played from hand
	putTrap                 // drawn by a trap (T-1)
	putClumsy               // drawn by Clumsy (H18)
)

// putKeys narrate a card coming into play, by how and card kind.
var putKeys = [3][3]string{
	putPlay:   {"grizzled.put.play_threat", "grizzled.put.play_knock", "grizzled.put.play_mc"},
	putTrap:   {"grizzled.put.trap_threat", "grizzled.put.trap_knock", "grizzled.put.trap_mc"},
	putClumsy: {"grizzled.put.clumsy_threat", "grizzled.put.clumsy_knock", "grizzled.put.clumsy_mc"},
}

func (s *State) put(p int, c CardID, how putHow) (pending bool) {
	pl := &s.players[p]
	switch c.Kind() {
	case KindThreat:
		s.nml = append(s.nml, c)
		if s.loud {
			s.pub(putKeys[how][KindThreat], named(pl.Name), cardArg(c))
		}
		s.checkFailure()
	case KindHardKnock:
		s.stamp++
		pl.Knocks = append(pl.Knocks, c)
		pl.Arrival = append(pl.Arrival, s.stamp)
		if s.loud {
			s.pub(putKeys[how][KindHardKnock], named(pl.Name), cardArg(c))
		}
		if c == Tyrannical && s.leader != p {
			s.leader = p // H09: the leader token moves at once
			if s.loud {
				s.pub("grizzled.tyrannical_takes", named(pl.Name))
			}
		}
		s.checkFailure()
	case KindMerryChristmas:
		if s.loud {
			s.pub(putKeys[how][KindMerryChristmas], named(pl.Name), cardArg(c))
		}
		// MC leaves the game once resolved; it is kept with the removed
		// cards from now on so that it is always somewhere.
		s.removed = append(s.removed, MerryChristmas)
		switch s.knocksInPlay() {
		case 0:
			if s.loud {
				s.pub("grizzled.mc_no_knock")
			}
		case 1: // the only choice: no decision to ask for
			for i := range s.players {
				if len(s.players[i].Knocks) == 1 {
					s.discardKnock(i, s.players[i].Knocks[0], "grizzled.mc_discards")
					break
				}
			}
		default:
			s.phase, s.decision, s.decider = PhaseDecision, DecideHardKnock, p
			return true
		}
	}
	return false
}

// discardKnock discards hard knock k in front of owner, narrated by key.
func (s *State) discardKnock(owner int, k CardID, key string) {
	pl := &s.players[owner]
	i := slices.Index(pl.Knocks, k)
	pl.Knocks = slices.Delete(pl.Knocks, i, i+1)
	pl.Arrival = slices.Delete(pl.Arrival, i, i+1)
	s.removed = append(s.removed, k)
	if s.loud {
		s.pub(key, named(pl.Name), cardArg(k))
	}
}

// TurnStatus is what §5.3 decides for the active player p: whether Fearful
// forces a withdrawal and whether withdrawing is allowed at all, with the
// reason in words when it is not.
func (s *State) TurnStatus(p int) (forced, allowed bool, why game.Msg) {
	if p < 0 || p >= len(s.players) {
		return false, false, game.M("grizzled.block.not_player")
	}
	forced, allowed, block, owner := s.turnStatus(p)
	if !allowed {
		why = s.blockReason(p, block, owner)
	}
	return forced, allowed, why
}

// turnStatus is TurnStatus without words (no allocation): when withdrawal
// is blocked, block is the first blocking card and owner its owner.
func (s *State) turnStatus(p int) (forced, allowed bool, block CardID, owner int) {
	pl := &s.players[p]
	fearful := false
	if pl.owns(Fearful) {
		for _, n := range s.Counts() {
			fearful = fearful || n >= 2
		}
	}
	if len(pl.Hand) == 0 { // G-4: nothing stops an empty hand
		return fearful, true, NoCard, -1
	}
	fearStamp := pl.arrival(Fearful)
	beatsAll := true
	block, owner = NoCard, -1
	blockBy := func(c CardID, o int) {
		if block == NoCard {
			block, owner = c, o
		}
	}
	if pl.owns(Hardheaded) && len(pl.Hand) >= 2 {
		blockBy(Hardheaded, p)
		if !fearful || pl.arrival(Hardheaded) < fearStamp { // G-6: first arrival wins
			beatsAll = false
		}
	}
	if pl.owns(Prideful) && s.othersInMission(p) > 0 {
		blockBy(Prideful, p)
		if !fearful || pl.arrival(Prideful) < fearStamp {
			beatsAll = false
		}
	}
	for i := range s.players {
		q := &s.players[i]
		if i != p && !q.Withdrawn && q.owns(Fragile) {
			blockBy(Fragile, i) // G-6: Fearful of the active player beats another's Fragile
		}
	}
	switch {
	case block == NoCard:
		return fearful, true, NoCard, -1
	case fearful && beatsAll:
		return true, true, NoCard, -1
	default:
		return false, false, block, owner
	}
}

func (s *State) othersInMission(p int) int {
	n := 0
	for i := range s.players {
		if i != p && !s.players[i].Chaplain && !s.players[i].Withdrawn {
			n++
		}
	}
	return n
}

func (s *State) blockReason(p int, block CardID, owner int) game.Msg {
	switch block {
	case Hardheaded:
		return game.M("grizzled.block.hardheaded", game.Count(len(s.players[p].Hand)))
	case Prideful:
		return game.M("grizzled.block.prideful", game.Count(s.othersInMission(p)))
	case Fragile:
		return game.M("grizzled.block.fragile", s.who(owner))
	}
	return game.M("grizzled.block.knock")
}

func (s *State) doTurn(p int, a Action) error {
	if p != s.active {
		return s.notYou(p)
	}
	pl := &s.players[p]
	switch a.Kind {
	case ActPlay, ActCharm, ActSpeech, ActWithdraw:
	default:
		return s.wrongKind(p)
	}
	forced, allowed, block, owner := s.turnStatus(p)
	if forced && a.Kind != ActWithdraw {
		return refuse(ErrForced, "grizzled.err.fearful") // H12
	}
	switch a.Kind {
	case ActPlay:
		i := slices.Index(pl.Hand, a.Card)
		if i < 0 || a.Card == NoCard {
			return refuse(ErrNoSuchCard, "grizzled.err.not_held", cardArg(a.Card))
		}
		pl.Hand = slices.Delete(pl.Hand, i, i+1)
		if s.put(p, a.Card, putPlay) {
			return nil
		}
		// T-1..T-6: a trap played from hand draws and plays the top card.
		if a.Card.Trap() && s.traps {
			c := s.draw()
			if c == NoCard {
				if s.loud {
					s.pub("grizzled.trap_empty")
				}
			} else if s.put(p, c, putTrap) {
				return nil
			}
		}
		s.endAction()
	case ActCharm:
		if pl.CharmUsed {
			return refuse(ErrCharmUsed, "grizzled.err.charm_used")
		}
		charm := Characters[pl.Character].Charm
		i := slices.Index(s.nml, a.Card)
		if i < 0 || a.Card == NoCard {
			return refuse(ErrNoSuchCard, "grizzled.err.not_in_nml", cardArg(a.Card))
		}
		if !a.Card.HasThreat(charm) {
			return refuse(ErrNoCharmTarget, "grizzled.err.charm_target", cardArg(a.Card), threatArg(charm))
		}
		s.nml = slices.Delete(s.nml, i, i+1)
		s.removed = append(s.removed, a.Card)
		pl.CharmUsed = true
		if s.loud {
			s.pub("grizzled.charm_used", named(pl.Name), threatArg(charm), cardArg(a.Card))
		}
		s.endAction()
	case ActSpeech:
		if pl.Tokens == 0 {
			return refuse(ErrNoSpeechToken, "grizzled.err.no_token")
		}
		if pl.owns(Mute) {
			return refuse(ErrMute, "grizzled.err.mute_speech") // H08
		}
		if !a.Threat.Valid() {
			return refuse(ErrBadAction, "grizzled.err.no_threat", game.Num("N", int(a.Threat)))
		}
		s.openSpeech(p, a.Threat)
	case ActWithdraw:
		if !allowed {
			return refuse(ErrCannotWithdraw, "grizzled.err.cannot_withdraw", game.Sub("Why", s.blockReason(p, block, owner)))
		}
		s.withdraw(p)
	}
	return nil
}

// endAction ends the active player's action: the mission ends on failure or
// when every human has withdrawn; otherwise the next player still in the
// mission takes a turn.
func (s *State) endAction() {
	s.decision, s.decider = DecideNone, -1
	if s.failed {
		s.endMission()
		return
	}
	i := s.active
	for range len(s.players) {
		i = (i + 1) % len(s.players)
		if !s.players[i].Withdrawn {
			s.beginTurn(i)
			return
		}
	}
	s.endMission()
}

// ---- A3: speech ----

func (s *State) openSpeech(p int, t Threat) {
	pl := &s.players[p]
	pl.Tokens--
	if s.humans == 2 {
		s.supply++ // §6.4: the token goes back to the supply
	}
	// Every other soldier still in the mission is asked, whether or not
	// they hold a matching card: the rulebooks let each of them decide, and
	// asking only the holders would tell the table who holds none (rules
	// §7: hands are secret). The spec's case 12 asks only holders; the
	// rulebook wins, and a player with no match can only pass.
	var names []game.Msg
	for i := range s.players {
		q := &s.players[i]
		if i == p || q.Withdrawn || q.Chaplain {
			continue
		}
		q.Eligible, q.Answered, q.Answer = true, false, NoCard
		if s.loud {
			names = append(names, game.M("list.item", named(q.Name)))
		}
	}
	s.speaker, s.speechThreat = p, t
	if s.loud {
		switch len(names) {
		case 0:
			s.pub("grizzled.speech_alone", named(pl.Name), threatArg(t))
		case 1:
			s.pub("grizzled.speech_one", named(pl.Name), threatArg(t), game.Sub("Other", names[0]))
		default:
			s.pub("grizzled.speech_many", named(pl.Name), threatArg(t), game.List("Others", names...))
		}
	}
	for i := range s.players {
		if s.players[i].Eligible {
			s.phase, s.speechOpened = PhaseSpeech, s.seq
			return
		}
	}
	s.speaker = -1
	s.endAction()
}

func (s *State) doSpeechAnswer(p int, a Action) error {
	q := &s.players[p]
	if !q.Eligible || q.Answered {
		if q.Answered {
			return refuse(ErrNotYourTurn, "grizzled.err.answered")
		}
		return refuse(ErrNotYourTurn, "grizzled.err.not_asked")
	}
	switch a.Kind {
	case ActSpeechPass:
		q.Answered, q.Answer = true, NoCard
	case ActSpeechDiscard:
		if a.Card == NoCard || !slices.Contains(q.Hand, a.Card) {
			return refuse(ErrNoSuchCard, "grizzled.err.not_held", cardArg(a.Card))
		}
		if !a.Card.HasThreat(s.speechThreat) {
			return refuse(ErrNotMatching, "grizzled.err.not_matching", cardArg(a.Card), threatArg(s.speechThreat))
		}
		q.Answered, q.Answer = true, a.Card
		if s.loud {
			s.priv(p, "grizzled.will_discard", cardArg(a.Card))
		}
	default:
		return s.wrongKind(p)
	}
	if s.loud {
		s.pub("grizzled.has_answered", named(q.Name))
	}
	for i := range s.players {
		if s.players[i].Eligible && !s.players[i].Answered {
			return nil
		}
	}
	s.closeSpeech(false)
	return nil
}

func (s *State) closeSpeech(timeout bool) {
	if timeout && s.loud {
		s.pub("grizzled.speech_timeout")
	}
	for i := range s.players {
		q := &s.players[i]
		if !q.Eligible {
			continue
		}
		if q.Answered && q.Answer != NoCard {
			j := slices.Index(q.Hand, q.Answer)
			q.Hand = slices.Delete(q.Hand, j, j+1)
			s.removed = append(s.removed, q.Answer)
			if s.loud {
				s.pub("grizzled.speech_discards", named(q.Name), cardArg(q.Answer))
			}
		} else if s.loud {
			s.pub("grizzled.speech_passes", named(q.Name))
		}
		q.Eligible, q.Answered, q.Answer = false, false, NoCard
	}
	s.speaker = -1
	s.endAction()
}

// ---- A4: withdraw ----

func removeTile(ts []Tile, t Tile) []Tile {
	i := slices.Index(ts, t)
	return slices.Delete(ts, i, i+1)
}

func (s *State) withdraw(p int) {
	pl := &s.players[p]
	if s.loud {
		s.pubAs(EvWithdrew, "grizzled.withdraws", named(pl.Name))
	}
	// A4.1 Absent-minded: remove one tile first. With 2 or more tiles it is
	// always asked, even when they are all alike, so that whether a choice
	// was asked reveals nothing about the hidden tiles (tile counts are public).
	if pl.owns(AbsentMinded) && len(pl.Tiles) > 0 {
		if len(pl.Tiles) > 1 {
			s.phase, s.decision, s.decider = PhaseDecision, DecideRemoveTile, p
			return
		}
		s.removeTileOf(p, pl.Tiles[0])
	}
	s.withdrawPlace(p)
}

func (s *State) removeTileOf(p int, t Tile) {
	pl := &s.players[p]
	pl.Tiles = removeTile(pl.Tiles, t)
	s.box = append(s.box, t)
	pl.Known = forgetOneOfEach(pl.Known) // nobody else sees which tile went
	if s.loud {
		s.pub("grizzled.absent_removes", named(pl.Name))
		s.priv(p, "grizzled.you_remove_tile", game.Term("Tile", t.Key()))
	}
}

// withdrawPlace is A4.2.
func (s *State) withdrawPlace(p int) {
	pl := &s.players[p]
	switch {
	case len(pl.Tiles) == 0:
		if s.loud {
			s.pub("grizzled.no_tile", named(pl.Name))
		}
	case pl.owns(Panicked):
		i := s.intn(len(pl.Tiles))
		pl.Placed, pl.Hidden = pl.Tiles[i], true
		pl.Tiles = slices.Delete(pl.Tiles, i, i+1)
		if s.loud {
			s.pub("grizzled.panicked_places", named(pl.Name))
		}
	case len(pl.Tiles) > 1: // asked even when all alike (see withdraw)
		s.phase, s.decision, s.decider = PhaseDecision, DecidePlaceTile, p
		return
	default:
		s.placeTile(p, pl.Tiles[0])
	}
	s.withdrawFinish(p)
}

func (s *State) placeTile(p int, t Tile) {
	pl := &s.players[p]
	pl.Tiles = removeTile(pl.Tiles, t)
	pl.Placed, pl.Hidden = t, false
	if s.loud {
		s.pub("grizzled.places_tile", named(pl.Name))
		s.priv(p, "grizzled.you_place_tile", game.Term("Tile", t.Key()))
	}
}

// withdrawFinish is A4.3..A4.5.
func (s *State) withdrawFinish(p int) {
	pl := &s.players[p]
	pl.Withdrawn = true
	s.decision, s.decider = DecideNone, -1
	s.phase = PhaseTurn
	if pl.owns(Clumsy) {
		c := s.draw()
		if c == NoCard {
			if s.loud {
				s.pub("grizzled.clumsy_empty", named(pl.Name))
			}
		} else if s.put(p, c, putClumsy) {
			return
		}
	}
	s.endAction()
}

// ---- decisions ----

func (s *State) doDecision(p int, a Action) error {
	if p != s.decider {
		return s.notYou(p)
	}
	pl := &s.players[p]
	switch s.decision {
	case DecideRemoveTile:
		if a.Kind != ActRemoveTile {
			return s.wrongKind(p)
		}
		if !slices.Contains(pl.Tiles, a.Tile) {
			return refuse(ErrNoSuchTile, "grizzled.err.no_such_tile", game.Term("Tile", a.Tile.Key()))
		}
		s.removeTileOf(p, a.Tile)
		s.withdrawPlace(p)
	case DecidePlaceTile:
		if a.Kind != ActPlaceTile {
			return s.wrongKind(p)
		}
		if !slices.Contains(pl.Tiles, a.Tile) {
			return refuse(ErrNoSuchTile, "grizzled.err.no_such_tile", game.Term("Tile", a.Tile.Key()))
		}
		s.placeTile(p, a.Tile)
		s.withdrawFinish(p)
	case DecideHardKnock:
		if a.Kind != ActDiscardHardKnock {
			return s.wrongKind(p)
		}
		t := int(a.Target)
		if t < 0 || t >= len(s.players) || !a.Card.IsHardKnock() || !s.players[t].owns(a.Card) {
			return refuse(ErrNoSuchHardKnock, "grizzled.err.knock_not_there", cardArg(a.Card))
		}
		s.discardKnock(t, a.Card, "grizzled.mc_discards")
		s.phase = PhaseTurn
		s.endAction()
	default:
		return s.wrongKind(p)
	}
	return nil
}

// ---- E-1..E-3, SU-1..SU-8 ----

// recipient is the seat a tile placed by seat i goes to (SU-2); Selfish
// keeps it for its owner.
func (s *State) recipient(i int, t Tile) int {
	if s.players[i].owns(Selfish) {
		return i
	}
	n := len(s.players)
	return ((i+t.Offset())%n + n) % n
}

func (s *State) endMission() {
	success := !s.failed
	if success {
		s.removed = append(s.removed, s.nml...)
		if s.loud {
			s.pubAs(EvMissionWon, "grizzled.mission_succeeds", game.Num("Mission", s.round))
		}
	} else {
		s.trials = append(s.trials, s.nml...)
		shuffle(s, s.trials)
		if s.loud {
			s.pub("grizzled.mission_fails", game.Num("Mission", s.round), game.Count(len(s.nml)), game.Num("Pile", len(s.trials)))
		}
	}
	s.nml = s.nml[:0]
	// SU-1..SU-3: reveal, hand over, keep.
	n := len(s.players)
	rev := &SupportReveal{Round: s.round, Success: success, Beneficiary: -1}
	var got [5]int
	for i := range s.players {
		pl := &s.players[i]
		if pl.Placed == NoTile {
			continue
		}
		to := s.recipient(i, pl.Placed)
		rev.Tiles = append(rev.Tiles, SupportTile{From: game.Seat(i), To: game.Seat(to), Tile: pl.Placed})
		got[to]++
	}
	for _, t := range rev.Tiles {
		s.players[t.From].Placed, s.players[t.From].Hidden = NoTile, false
		s.players[t.To].Tiles = append(s.players[t.To].Tiles, t.Tile)
		knowTiles(&s.players[t.From], &s.players[t.To], t.Tile)
	}
	// SU-4: strict majority.
	best, top, tie := -1, 0, false
	for i := range n {
		switch {
		case got[i] > top:
			best, top, tie = i, got[i], false
		case got[i] == top && top > 0:
			tie = true
		}
	}
	if tie {
		best = -1
	}
	rev.Beneficiary = game.Seat(best)
	s.last = rev
	if s.loud {
		if len(rev.Tiles) == 0 {
			s.pubAs(EvSupport, "grizzled.support_none")
		} else {
			parts := make([]game.Msg, len(rev.Tiles))
			for i, t := range rev.Tiles {
				parts[i] = game.M("grizzled.support_tile", nameArg("From", s.name(int(t.From))),
					game.Term("Tile", t.Tile.Key()), nameArg("To", s.name(int(t.To))))
			}
			s.pubAs(EvSupport, "grizzled.support_tiles", game.List("Tiles", parts...))
		}
		switch {
		case best < 0:
			s.pub("grizzled.support_tie")
		case s.players[best].Chaplain:
			s.pub("grizzled.support_chaplain") // SU-7
		default:
			s.pub("grizzled.support_most", s.who(best))
		}
	}
	if best >= 0 && !s.players[best].Chaplain {
		b := &s.players[best]
		if len(b.Knocks) > 0 || (success && b.CharmUsed) {
			s.phase, s.beneficiary = PhaseBenefit, best
			return
		}
	}
	s.afterSupport()
}

func (s *State) doBenefit(p int, a Action) error {
	if p != s.beneficiary {
		return s.notYou(p)
	}
	pl := &s.players[p]
	success := s.last != nil && s.last.Success
	switch a.Kind {
	case ActBenefitDiscard:
		limit := 1
		if success {
			limit = 2
		}
		if len(a.Cards) == 0 || len(a.Cards) > limit {
			if success {
				return refuse(ErrTooManyCards, "grizzled.err.benefit_two") // SU-5
			}
			return refuse(ErrTooManyCards, "grizzled.err.benefit_one") // SU-6
		}
		for i, c := range a.Cards {
			if !c.IsHardKnock() || !pl.owns(c) || slices.Contains(a.Cards[:i], c) {
				return refuse(ErrNoSuchHardKnock, "grizzled.err.knock_not_yours", cardArg(c))
			}
		}
		for _, c := range a.Cards {
			s.discardKnock(p, c, "grizzled.support_discards")
		}
	case ActBenefitCharm:
		if !success {
			return refuse(ErrNoCharmRestore, "grizzled.err.charm_failed") // SU-6
		}
		if !pl.CharmUsed {
			return refuse(ErrNoCharmRestore, "grizzled.err.charm_unused")
		}
		pl.CharmUsed = false
		if s.loud {
			s.pub("grizzled.charm_restored", named(pl.Name))
		}
	case ActBenefitDecline:
		if s.loud {
			s.pub("grizzled.benefit_declined", named(pl.Name))
		}
	default:
		return s.wrongKind(p)
	}
	s.beneficiary = -1
	s.afterSupport()
	return nil
}

// ---- L-1, W-1, M-1..M-4, LC-1..LC-3 ----

func (s *State) afterSupport() {
	s.beneficiary = -1
	for i := range s.players {
		if w := s.players[i].weight(); w >= 4 {
			s.gameOver(false, LossKnocks)
			if s.loud {
				s.pub("grizzled.lost_knocks", s.who(i), game.Count(w))
			}
			return
		}
	}
	held := 0
	for i := range s.players {
		held += len(s.players[i].Hand)
	}
	if len(s.trials) == 0 && held == 0 {
		s.gameOver(true, LossNone)
		if s.loud {
			s.pub("grizzled.won")
		}
		return
	}
	// M-1..M-4.
	n := max(held, 3)
	if s.ownerOf(Demoralized) >= 0 {
		n++
	}
	moved := 0
	for moved < n && len(s.morale) > 0 {
		k := len(s.morale) - 1
		s.trials = append(s.trials, s.morale[k])
		s.morale = s.morale[:k]
		moved++
	}
	if s.loud {
		s.pubAs(EvMoraleDrop, "grizzled.morale_drops", game.Count(moved), game.Num("Left", len(s.morale)))
	}
	if len(s.morale) == 0 {
		s.gameOver(false, LossMorale)
		if s.loud {
			s.pub("grizzled.lost_morale")
		}
		return
	}
	// LC-1 / LC-2.
	if t := s.ownerOf(Tyrannical); t >= 0 {
		s.leader = t
		if s.loud {
			s.pubAs(EvLeaderChosen, "grizzled.tyrannical_stays", s.who(t))
		}
	} else {
		old := s.leader
		token := s.supply > 0
		if token {
			s.supply--
			s.players[old].Tokens++
		}
		s.leader = s.nextHuman(old)
		if s.loud {
			from, to := game.Text("From", s.name(old)), game.Text("To", s.name(s.leader))
			if token {
				s.pubAs(EvLeaderChosen, "grizzled.leader_passes_token", from, to, game.Num("Left", s.supply))
			} else {
				s.pubAs(EvLeaderChosen, "grizzled.leader_passes", from, to)
			}
		}
	}
	// LC-3, P1.
	s.round++
	s.failed = false
	for i := range s.players {
		if !s.players[i].Chaplain {
			s.players[i].Withdrawn = false
		}
	}
	s.phase, s.active = PhaseIntensity, s.leader
	if s.loud {
		s.pub("grizzled.mission_begins", game.Num("Mission", s.round), s.who(s.leader))
	}
}

func (s *State) gameOver(won bool, reason Loss) {
	s.phase, s.won, s.loss = PhaseOver, won, reason
}
