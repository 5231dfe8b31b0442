package grizzled

// Why this file is long: it is the whole of a mission as the rules run it
// (§3.2–§3.9): the four actions, traps, failure and success, support, the
// checks after it, the morale drop and the leader change, in rule order.
// Split, a reader would jump between files to follow one turn.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"bivouac/game"
)

// ActTimeout closes a speech response window: every seat that has not
// answered passes (A3). Only game.System submits it, when Timer fires.
const ActTimeout = ActBenefitDecline + 1

// SpeechTimeout is how long the speech response window stays open.
const SpeechTimeout = 45 * time.Second

// ---- events ----

func (s *State) pub(text string) {
	s.out = append(s.out, game.Event{Audience: game.Everyone(), Kind: game.Narration, From: -1, Text: text})
}

func (s *State) priv(seat int, text string) {
	s.out = append(s.out, game.Event{Audience: game.Only(game.Seat(seat)), Kind: game.Private, From: -1, Text: text})
}

func (s *State) flush() []game.Event {
	out := s.out
	s.out, s.loud = nil, false
	return out
}

func (s *State) name(i int) string { return s.players[i].Name }

func cardList(cs []CardID) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ", ")
}

func tileList(ts []Tile) string {
	if len(ts) == 0 {
		return "none"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
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
		return refuse(ErrStale, fmt.Sprintf("the table has moved on (you saw move %d, it is now move %d); look again", seq, s.seq))
	}
	return nil
}

func (s *State) step(seat game.Seat, a Action) error {
	if s.phase == PhaseOver {
		return ErrGameOver
	}
	if a.Kind < ActIntensity || a.Kind > ActTimeout {
		return refuse(ErrBadAction, fmt.Sprintf("unknown action kind %d", a.Kind))
	}
	if a.Kind == ActTimeout {
		if seat != game.System {
			return refuse(ErrNotAPlayerAction, "only the table's timer can close a speech")
		}
		if s.phase != PhaseSpeech {
			return refuse(ErrWrongPhase, "no speech is waiting for answers")
		}
		s.closeSpeech(true)
		s.seq++
		return nil
	}
	if seat < 0 || int(seat) >= len(s.players) {
		return refuse(ErrNotYourTurn, "you are not playing at this table")
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
		err = refuse(ErrWrongPhase, "the game is not waiting for anything")
	}
	if err == nil {
		s.seq++
	}
	return err
}

func (s *State) wrongKind(p int) error {
	switch s.phase {
	case PhaseIntensity:
		return refuse(ErrWrongPhase, "you must first choose the mission's intensity")
	case PhaseTurn:
		return refuse(ErrWrongPhase, "it is your turn: play a card, use your lucky charm, make a speech or withdraw")
	case PhaseSpeech:
		return refuse(ErrWrongPhase, fmt.Sprintf("answer the speech about %s: discard a matching card or pass", s.speechThreat))
	case PhaseDecision:
		switch s.decision {
		case DecideRemoveTile:
			return refuse(ErrWrongPhase, "you are Absent-minded: first choose a support tile to remove from the game")
		case DecidePlaceTile:
			return refuse(ErrWrongPhase, "choose the support tile to place face down")
		case DecideHardKnock:
			return refuse(ErrWrongPhase, "Merry Christmas: choose a hard knock to discard")
		}
	case PhaseBenefit:
		return refuse(ErrWrongPhase, "you receive the support: discard hard knocks, turn your charm back, or decline")
	}
	return refuse(ErrWrongPhase, "that move is not possible now")
}

func (s *State) notYou(p int) error {
	w := s.Waiting()
	if len(w) == 0 {
		return refuse(ErrNotYourTurn, "it is not your turn")
	}
	names := make([]string, len(w))
	for i, x := range w {
		names[i] = s.name(int(x))
	}
	return refuse(ErrNotYourTurn, "it is not your turn: waiting for "+strings.Join(names, ", "))
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
			return refuse(ErrIntensityTooLow, fmt.Sprintf("the first mission needs an intensity of at least %d", lo)) // P2
		}
		return refuse(ErrIntensityTooLow, fmt.Sprintf("the intensity must be at least %d", lo)) // P2
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
		s.pub(fmt.Sprintf("%s sets the intensity to %d.", s.name(s.leader), k))
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
		var dealt []string
		for i := range s.players {
			p := &s.players[i]
			if p.Chaplain {
				continue
			}
			got := p.Hand[before[i]:]
			dealt = append(dealt, fmt.Sprintf("%s %d", p.Name, len(got)))
			if len(got) > 0 {
				s.priv(i, "You are dealt "+cardList(got)+".")
			} else {
				s.priv(i, "You are dealt no cards.")
			}
		}
		msg := "Dealt: " + strings.Join(dealt, ", ") + fmt.Sprintf(". %s left in the trials pile.", plural(len(s.trials), "card", "cards"))
		if empty {
			msg += " The trials pile ran out while dealing."
		}
		s.pub(msg)
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
		if s.loud {
			s.pub(fmt.Sprintf("%s is Frenzied and draws %s.", s.name(f), plural(len(got), "more card", "more cards")))
			if len(got) > 0 {
				s.priv(f, "Frenzied: you draw "+cardList(got)+".")
			}
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
				s.pub("The chaplain places a support tile at random and stays behind.")
			}
		}
	}
	// P6: the leader takes the first turn.
	s.beginTurn(s.leader)
}

func (s *State) beginTurn(p int) {
	s.active, s.phase = p, PhaseTurn
	if s.loud {
		s.pub(s.name(p) + "'s turn.")
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
				s.pub(fmt.Sprintf("Three %s threats: the mission fails!", Threat(t)))
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
func (s *State) put(p int, c CardID, how string) (pending bool) {
	pl := &s.players[p]
	switch c.Kind() {
	case KindThreat:
		s.nml = append(s.nml, c)
		if s.loud {
			s.pub(pl.Name + " " + how + " " + c.String() + " into No Man's Land.")
		}
		s.checkFailure()
	case KindHardKnock:
		s.stamp++
		pl.Knocks = append(pl.Knocks, c)
		pl.Arrival = append(pl.Arrival, s.stamp)
		if s.loud {
			s.pub(pl.Name + " " + how + " hard knock " + c.String() + ", in front of " + pl.Name + ".")
		}
		if c == Tyrannical && s.leader != p {
			s.leader = p // H09: the leader token moves at once
			if s.loud {
				s.pub(fmt.Sprintf("%s is Tyrannical and takes the leader token.", pl.Name))
			}
		}
		s.checkFailure()
	case KindMerryChristmas:
		if s.loud {
			s.pub(fmt.Sprintf("%s %s MC Merry Christmas.", pl.Name, how))
		}
		// MC leaves the game once resolved; it is kept with the removed
		// cards from now on so that it is always somewhere.
		s.removed = append(s.removed, MerryChristmas)
		switch s.knocksInPlay() {
		case 0:
			if s.loud {
				s.pub("No hard knock is in play; Merry Christmas leaves the game.")
			}
		case 1: // the only choice: no decision to ask for
			for i := range s.players {
				if len(s.players[i].Knocks) == 1 {
					s.discardKnock(i, s.players[i].Knocks[0], "Merry Christmas")
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

func (s *State) discardKnock(owner int, k CardID, why string) {
	pl := &s.players[owner]
	i := slices.Index(pl.Knocks, k)
	pl.Knocks = slices.Delete(pl.Knocks, i, i+1)
	pl.Arrival = slices.Delete(pl.Arrival, i, i+1)
	s.removed = append(s.removed, k)
	if s.loud {
		s.pub(fmt.Sprintf("%s: %s in front of %s is discarded.", why, k, pl.Name))
	}
}

// TurnStatus is what §5.3 decides for the active player p: whether Fearful
// forces a withdrawal and whether withdrawing is allowed at all, with the
// reason in words when it is not.
func (s *State) TurnStatus(p int) (forced, allowed bool, why string) {
	if p < 0 || p >= len(s.players) {
		return false, false, "not a player"
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

func (s *State) blockReason(p int, block CardID, owner int) string {
	switch block {
	case Hardheaded:
		return fmt.Sprintf("Hardheaded and you hold %d cards", len(s.players[p].Hand))
	case Prideful:
		return fmt.Sprintf("Prideful and %s still in the mission", plural(s.othersInMission(p), "other player is", "other players are"))
	case Fragile:
		return fmt.Sprintf("%s is Fragile and still in the mission, and you hold cards", s.name(owner))
	}
	return "a hard knock forbids it"
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
		return refuse(ErrForced, "you are Fearful and two identical threats are active: you must withdraw") // H12
	}
	switch a.Kind {
	case ActPlay:
		i := slices.Index(pl.Hand, a.Card)
		if i < 0 || a.Card == NoCard {
			return refuse(ErrNoSuchCard, fmt.Sprintf("you do not hold %s", a.Card))
		}
		pl.Hand = slices.Delete(pl.Hand, i, i+1)
		if s.put(p, a.Card, "plays") {
			return nil
		}
		// T-1..T-6: a trap played from hand draws and plays the top card.
		if a.Card.Trap() && s.traps {
			c := s.draw()
			if c == NoCard {
				if s.loud {
					s.pub("Trap! But the trials pile is empty.")
				}
			} else if s.put(p, c, "springs the trap and draws") {
				return nil
			}
		}
		s.endAction()
	case ActCharm:
		if pl.CharmUsed {
			return refuse(ErrCharmUsed, "your lucky charm is already used this game (until support turns it back)")
		}
		charm := Characters[pl.Character].Charm
		i := slices.Index(s.nml, a.Card)
		if i < 0 || a.Card == NoCard {
			return refuse(ErrNoSuchCard, fmt.Sprintf("%s is not in No Man's Land", a.Card))
		}
		if !a.Card.HasThreat(charm) {
			return refuse(ErrNoCharmTarget, fmt.Sprintf("%s does not show %s, your lucky charm", a.Card, charm))
		}
		s.nml = slices.Delete(s.nml, i, i+1)
		s.removed = append(s.removed, a.Card)
		pl.CharmUsed = true
		if s.loud {
			s.pub(fmt.Sprintf("%s uses the lucky charm (%s) and discards %s from No Man's Land.", pl.Name, charm, a.Card))
		}
		s.endAction()
	case ActSpeech:
		if pl.Tokens == 0 {
			return refuse(ErrNoSpeechToken, "you have no speech token")
		}
		if pl.owns(Mute) {
			return refuse(ErrMute, "you are Mute and cannot make a speech") // H08
		}
		if !a.Threat.Valid() {
			return refuse(ErrBadAction, fmt.Sprintf("there is no threat number %d", a.Threat))
		}
		s.openSpeech(p, a.Threat)
	case ActWithdraw:
		if !allowed {
			return refuse(ErrCannotWithdraw, "you may not withdraw: "+s.blockReason(p, block, owner))
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
	var names []string
	for i := range s.players {
		q := &s.players[i]
		if i == p || q.Withdrawn || q.Chaplain {
			continue
		}
		q.Eligible, q.Answered, q.Answer = true, false, NoCard
		if s.loud {
			names = append(names, q.Name)
		}
	}
	s.speaker, s.speechThreat = p, t
	if s.loud {
		msg := fmt.Sprintf("%s makes a speech about %s.", pl.Name, t)
		if len(names) == 0 {
			msg += " Nobody else is in the mission to answer."
		} else {
			msg += " " + strings.Join(names, ", ") + " may each discard one card showing it."
			if len(names) == 1 {
				msg = fmt.Sprintf("%s makes a speech about %s. %s may discard one card showing it.", pl.Name, t, names[0])
			}
		}
		s.pub(msg)
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
			return refuse(ErrNotYourTurn, "you have already answered this speech")
		}
		return refuse(ErrNotYourTurn, "you are not asked to answer this speech")
	}
	switch a.Kind {
	case ActSpeechPass:
		q.Answered, q.Answer = true, NoCard
	case ActSpeechDiscard:
		if a.Card == NoCard || !slices.Contains(q.Hand, a.Card) {
			return refuse(ErrNoSuchCard, fmt.Sprintf("you do not hold %s", a.Card))
		}
		if !a.Card.HasThreat(s.speechThreat) {
			return refuse(ErrNotMatching, fmt.Sprintf("%s does not show %s", a.Card, s.speechThreat))
		}
		q.Answered, q.Answer = true, a.Card
		if s.loud {
			s.priv(p, fmt.Sprintf("You will discard %s when everyone has answered.", a.Card))
		}
	default:
		return s.wrongKind(p)
	}
	if s.loud {
		s.pub(q.Name + " has answered.")
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
		s.pub("Time is up for the speech; everyone who has not answered passes.")
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
				s.pub(fmt.Sprintf("%s discards %s.", q.Name, q.Answer))
			}
		} else if s.loud {
			s.pub(fmt.Sprintf("%s passes.", q.Name))
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
		s.pub(pl.Name + " withdraws.")
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
	if s.loud {
		s.pub(fmt.Sprintf("%s is Absent-minded and removes a support tile from the game.", pl.Name))
		s.priv(p, fmt.Sprintf("You remove your %s tile from the game.", t))
	}
}

// withdrawPlace is A4.2.
func (s *State) withdrawPlace(p int) {
	pl := &s.players[p]
	switch {
	case len(pl.Tiles) == 0:
		if s.loud {
			s.pub(fmt.Sprintf("%s has no support tile to give.", pl.Name))
		}
	case pl.owns(Panicked):
		i := s.intn(len(pl.Tiles))
		pl.Placed, pl.Hidden = pl.Tiles[i], true
		pl.Tiles = slices.Delete(pl.Tiles, i, i+1)
		if s.loud {
			s.pub(fmt.Sprintf("%s is Panicked: a support tile is placed at random, face down.", pl.Name))
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
		s.pub(pl.Name + " places a support tile face down.")
		s.priv(p, "You place your "+t.String()+" tile.")
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
				s.pub(fmt.Sprintf("%s is Clumsy, but the trials pile is empty.", pl.Name))
			}
		} else if s.put(p, c, "is Clumsy and draws") {
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
			return refuse(ErrNoSuchTile, fmt.Sprintf("you do not hold a %s tile", a.Tile))
		}
		s.removeTileOf(p, a.Tile)
		s.withdrawPlace(p)
	case DecidePlaceTile:
		if a.Kind != ActPlaceTile {
			return s.wrongKind(p)
		}
		if !slices.Contains(pl.Tiles, a.Tile) {
			return refuse(ErrNoSuchTile, fmt.Sprintf("you do not hold a %s tile", a.Tile))
		}
		s.placeTile(p, a.Tile)
		s.withdrawFinish(p)
	case DecideHardKnock:
		if a.Kind != ActDiscardHardKnock {
			return s.wrongKind(p)
		}
		t := int(a.Target)
		if t < 0 || t >= len(s.players) || !a.Card.IsHardKnock() || !s.players[t].owns(a.Card) {
			return refuse(ErrNoSuchHardKnock, fmt.Sprintf("%s is not in front of that player", a.Card))
		}
		s.discardKnock(t, a.Card, "Merry Christmas")
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
			s.pub(fmt.Sprintf("Mission %d succeeds! No Man's Land is cleared.", s.round))
		}
	} else {
		s.trials = append(s.trials, s.nml...)
		shuffle(s, s.trials)
		if s.loud {
			s.pub(fmt.Sprintf("Mission %d failed. %s go back into the trials pile, which is shuffled (%d cards).",
				s.round, plural(len(s.nml), "card", "cards"), len(s.trials)))
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
			s.pub("Support: no tiles were placed.")
		} else {
			parts := make([]string, len(rev.Tiles))
			for i, t := range rev.Tiles {
				parts[i] = fmt.Sprintf("%s's %s to %s", s.name(int(t.From)), t.Tile, s.name(int(t.To)))
			}
			s.pub("Support: " + strings.Join(parts, "; ") + ".")
		}
		switch {
		case best < 0:
			s.pub("Nobody receives more support than everyone else: no benefit.")
		case s.players[best].Chaplain:
			s.pub("The chaplain receives the most support; nothing happens.") // SU-7
		default:
			s.pub(fmt.Sprintf("%s receives the most support.", s.name(best)))
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
				return refuse(ErrTooManyCards, "after a successful mission you may discard 1 or 2 hard knocks") // SU-5
			}
			return refuse(ErrTooManyCards, "after a failed mission you may discard only 1 hard knock") // SU-6
		}
		for i, c := range a.Cards {
			if !c.IsHardKnock() || !pl.owns(c) || slices.Contains(a.Cards[:i], c) {
				return refuse(ErrNoSuchHardKnock, fmt.Sprintf("%s is not in front of you", c))
			}
		}
		for _, c := range a.Cards {
			s.discardKnock(p, c, "Support")
		}
	case ActBenefitCharm:
		if !success {
			return refuse(ErrNoCharmRestore, "after a failed mission the lucky charm is not restored") // SU-6
		}
		if !pl.CharmUsed {
			return refuse(ErrNoCharmRestore, "your lucky charm is not used")
		}
		pl.CharmUsed = false
		if s.loud {
			s.pub(fmt.Sprintf("Support: %s turns the lucky charm back.", pl.Name))
		}
	case ActBenefitDecline:
		if s.loud {
			s.pub(fmt.Sprintf("%s takes no benefit.", pl.Name))
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
			s.gameOver(false, "hard knocks")
			if s.loud {
				s.pub(fmt.Sprintf("%s has %d hard knocks' weight: the team loses.", s.name(i), w))
			}
			return
		}
	}
	held := 0
	for i := range s.players {
		held += len(s.players[i].Hand)
	}
	if len(s.trials) == 0 && held == 0 {
		s.gameOver(true, "")
		if s.loud {
			s.pub("The Peace card is revealed and every hand is empty: the war is over. The team wins!")
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
		s.pub(fmt.Sprintf("Morale drops: %s move from the morale reserve to the trials pile (%d left in the reserve).",
			plural(moved, "card", "cards"), len(s.morale)))
	}
	if len(s.morale) == 0 {
		s.gameOver(false, "morale")
		if s.loud {
			s.pub("The Monument is revealed: morale is broken and the team loses.")
		}
		return
	}
	// LC-1 / LC-2.
	if t := s.ownerOf(Tyrannical); t >= 0 {
		s.leader = t
		if s.loud {
			s.pub(fmt.Sprintf("%s is Tyrannical and stays the leader; no speech token is handed out.", s.name(t)))
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
			msg := fmt.Sprintf("%s passes the leader token to %s", s.name(old), s.name(s.leader))
			if token {
				msg += fmt.Sprintf(" and takes a speech token (%d left in the supply)", s.supply)
			} else {
				msg += "; the speech supply is empty"
			}
			s.pub(msg + ".")
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
		s.pub(fmt.Sprintf("Mission %d begins: %s leads and chooses the intensity.", s.round, s.name(s.leader)))
	}
}

func (s *State) gameOver(won bool, reason string) {
	s.phase, s.won, s.loss = PhaseOver, won, reason
}
