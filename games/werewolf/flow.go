package werewolf

// Why this file is long: it is the phase machine of §7 in one place,
// each phase's entry, end and transition in the order a game runs, with
// the dawn and the death chain (§9) they call.

import (
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// The words of the private calls to act that older games logged (the
// seer's, the little girl's, the dying hunter's and sheriff's, the tie's),
// said since in their prompts' words: no rule says them any more, and the
// catalogs keep them for the replays of those games. This list is what
// names them in the code, so the catalogs' completeness test knows them.
var _ = []string{"werewolf.seer_choose", "werewolf.girl_may_peek", "werewolf.hunter_choose",
	"werewolf.successor_choose", "werewolf.tiebreak_choose"}

// enter starts phase p: a new PhaseSeq (so older ticks are ignored) and the
// phase's public narration line (phaseNarration).
func (s *State) enter(p Phase, out *[]game.Event) {
	s.Phase = p
	s.PhaseSeq++
	*out = append(*out, narration(s.phaseNarration()))
}

// phaseNarration is the line that opens the current phase, as the log
// says it and the view repeats it: one wording, so that a player who
// reads both (plain mode: the log, then what the view asks) hears it once.
// A phase opened for named players (the hunter, the dying sheriff, the
// tied) names them in both.
func (s *State) phaseNarration() game.Msg {
	switch s.Phase {
	case PhaseNightFall:
		return game.M("werewolf.night_falls", game.Num("Night", s.Night))
	case PhaseDawn:
		return game.M(DawnKey, game.Num("Day", s.Day))
	case PhaseHunterShot:
		if len(s.ShotQueue) > 0 {
			return game.M("werewolf.hunter_aims", s.who("Player", s.ShotQueue[0]))
		}
	case PhaseSheriffSuccession:
		return game.M("werewolf.sheriff_dying", s.who("Player", s.Sheriff))
	case PhaseSheriffRunoff:
		return game.M("werewolf.runoff", s.whoList("Players", s.Tied))
	case PhaseSheriffTiebreak:
		return game.M("werewolf.tie_sheriff", s.whoList("Players", s.Tied))
	case PhaseGameOver:
		if !s.Summary.IsZero() {
			return s.Summary
		}
	}
	return game.M(s.Phase.NarrationKey())
}

// settle ends phases whose early-end condition holds (spec §7), repeatedly.
func (s *State) settle(out *[]game.Event) {
	for range 64 {
		if s.Over || !s.doneEarly() {
			return
		}
		s.endPhase(out)
	}
}

func (s *State) allLiving(f func(p *Player) bool) bool {
	for i := range s.Players {
		if p := &s.Players[i]; p.Alive && !f(p) {
			return false
		}
	}
	return true
}

func (s *State) doneEarly() bool {
	switch s.Phase {
	case PhaseSheriffCampaign, PhaseDiscussion:
		return s.allLiving(func(p *Player) bool { return p.Ready })
	case PhaseSheriffVote, PhaseSheriffRunoff, PhaseVote:
		return s.allLiving(func(p *Player) bool { return p.Ballot != NoBallot })
	}
	if !s.fast() || !s.Phase.nightStep() {
		return false
	}
	// NightTiming=fast [NR]: a step ends when its actors are done or absent.
	switch s.Phase {
	case PhaseThief:
		return s.ThiefDone || !s.alive(s.ThiefSeat)
	case PhaseCupid:
		return s.Linked || s.holder(RoleCupid) < 0
	case PhaseLovers:
		return true
	case PhaseSeer:
		return s.SeerDone || s.holder(RoleSeer) < 0
	case PhaseWolves:
		if s.Caught {
			return true
		}
		// Every living wolf holds the same selection or pressed Done.
		sel := nobody
		for _, w := range s.livingWolves() {
			p := &s.Players[w]
			switch t := p.WolfSel; {
			case t < 0 && !p.WolfDone:
				return false
			case t >= 0 && sel >= 0 && t != sel:
				return false
			case t >= 0:
				sel = t
			}
		}
		return true
	case PhaseWitch:
		return s.WitchDone || s.holder(RoleWitch) < 0
	}
	return false
}

// nightSteps lists tonight's role steps: those of the public deck list,
// whether their card is alive, dead or in the middle (spec §6, §11.1).
func (s *State) nightSteps() []Phase {
	var v []Phase
	if s.Night == 1 {
		if s.inDeck(RoleThief) {
			v = append(v, PhaseThief)
		}
		if s.inDeck(RoleCupid) {
			v = append(v, PhaseCupid, PhaseLovers)
		}
	}
	if s.inDeck(RoleSeer) {
		v = append(v, PhaseSeer)
	}
	v = append(v, PhaseWolves)
	if s.inDeck(RoleWitch) {
		v = append(v, PhaseWitch)
	}
	return v
}

// nextNightStep enters the step after the current one, or the dawn.
func (s *State) nextNightStep(out *[]game.Event) {
	steps := s.nightSteps()
	i := slices.Index(steps, s.Phase) + 1 // NightFall gives 0
	if i < len(steps) {
		s.enterStep(steps[i], out)
		return
	}
	s.enterDawn(out)
}

// endPhase closes the current phase as its timer expiry does (applying the
// phase's timeout policy) and moves on.
func (s *State) endPhase(out *[]game.Event) {
	switch s.Phase {
	case PhaseNightFall, PhaseLovers, PhaseSeer, PhaseWitch:
		s.nextNightStep(out)
	case PhaseThief:
		if s.alive(s.ThiefSeat) && !s.ThiefDone {
			if s.Middle[0] == RoleWerewolf && s.Middle[1] == RoleWerewolf {
				s.thiefTake(0, out)
			} else {
				s.ThiefDone = true
				s.secret(out, game.M("werewolf.thief_keeps"), s.ThiefSeat)
				s.history("werewolf.history.thief_kept", s.who("Player", s.ThiefSeat))
			}
		}
		s.nextNightStep(out)
	case PhaseCupid:
		if c := s.holder(RoleCupid); c >= 0 && !s.Linked {
			n := len(s.Players)
			r := s.rand()
			a := r.IntN(n)
			b := r.IntN(n - 1)
			if b >= a {
				b++
			}
			s.link(c, a, b, true, out)
		}
		s.nextNightStep(out)
	case PhaseWolves:
		s.resolveWolves(out)
		s.nextNightStep(out)
	case PhaseDawn:
		s.ReckonNext = PhaseDiscussion
		s.reckon(out)
	case PhaseHunterShot:
		s.hunterHold(out)
	case PhaseSheriffSuccession:
		if l := s.living(); len(l) > 0 {
			s.passBadge(l[s.rand().IntN(len(l))], false, out)
		}
	case PhaseSheriffCampaign:
		s.enterSheriffVote(out)
	case PhaseSheriffVote:
		s.closeSheriffVote(false, out)
	case PhaseSheriffRunoff:
		s.closeSheriffVote(true, out)
	case PhaseDiscussion:
		s.enterVote(out)
	case PhaseVote:
		s.closeVote(out)
	case PhaseSheriffTiebreak:
		s.verdict(-1, game.M("werewolf.verdict.sheriff_silent"), out)
	case PhaseVerdict:
		s.ReckonNext = PhaseNightFall
		s.reckon(out)
	}
}

// Night.

func (s *State) enterNightFall(out *[]game.Event) {
	if s.Night >= 1 {
		if s.Deaths == s.DeathsAtFall {
			s.Quiet++
		} else {
			s.Quiet = 0
		}
		if c := s.Opts.StalemateCycles; c > 0 && s.Quiet >= c {
			s.finish(OutcomeStalemate, nil, game.M("werewolf.end.stalemate", game.Count(s.Quiet)), out)
			return
		}
	}
	s.DeathsAtFall = s.Deaths
	s.Night++
	s.Victim, s.Poisoned = nobody, nobody
	s.Healed, s.WitchDone, s.SeerDone, s.Peeking, s.Caught = false, false, false, false, false
	s.WolfEvents = 0
	s.Tied, s.Eligible, s.Lynch = nil, nil, -1
	for i := range s.Players {
		p := &s.Players[i]
		p.WolfSel, p.WolfDone, p.PeekSet, p.Ballot, p.Ready = nobody, false, false, NoBallot, false
	}
	s.enter(PhaseNightFall, out)
}

func (s *State) enterStep(p Phase, out *[]game.Event) {
	s.enter(p, out)
	switch p {
	case PhaseThief:
		if s.alive(s.ThiefSeat) {
			s.ThiefSaw = slices.Clone(s.Middle)
			s.secret(out, game.M("werewolf.thief_sees", roleArg("A", s.Middle[0]), roleArg("B", s.Middle[1])), s.ThiefSeat)
		}
	case PhaseCupid:
		if c := s.holder(RoleCupid); c >= 0 && !s.Linked {
			*out = append(*out, private(game.M("werewolf.cupid_choose"), c))
		}
	case PhaseLovers:
		// Lovers only look at each other and show no card (the rulebook,
		// set-up F): each learns the partner's name and the rule for every
		// couple, mixed or not; none is told the partner is a werewolf.
		if s.Linked {
			for k, l := range s.Lovers {
				other := s.Lovers[1-k]
				*out = append(*out, private(game.M("werewolf.in_love", s.who("Player", other)), l))
			}
		}
	case PhaseSeer:
		if sr := s.holder(RoleSeer); sr >= 0 {
			*out = append(*out, private(game.M("werewolf.prompt.seer"), sr)) // the view asks in the same words
		}
	case PhaseWolves:
		wolves := s.livingWolves()
		for _, w := range wolves {
			s.Players[w].KnowsWolves = true
		}
		switch len(wolves) {
		case 0:
		case 1: // nobody to agree with
			*out = append(*out, private(game.M("werewolf.pack_alone"), wolves...))
		default:
			*out = append(*out, private(game.M("werewolf.pack_is", s.whoList("Players", wolves)), wolves...))
		}
		if lg := s.holder(RoleLittleGirl); lg >= 0 {
			*out = append(*out, private(game.M("werewolf.prompt.girl"), lg))
		}
	case PhaseWitch:
		if w := s.holder(RoleWitch); w >= 0 {
			s.secret(out, s.victimLine(), w)
		}
	}
}

func (s *State) victimLine() game.Msg {
	if s.Victim >= 0 {
		return game.M("werewolf.victim_is", s.who("Player", s.Victim))
	}
	return game.M("werewolf.no_victim")
}

func (s *State) thiefTake(slot int, out *[]game.Event) {
	t := s.ThiefSeat
	p := &s.Players[t]
	p.Card, s.Middle[slot] = s.Middle[slot], RoleThief
	p.Team = teamOf(p.Card)
	s.ThiefTook, s.ThiefDone = slot, true
	s.secret(out, game.M("werewolf.thief_takes", roleArg("Role", p.Card)), t)
	s.history("werewolf.history.thief_took", s.who("Player", t), roleArg("Role", p.Card))
}

// link makes a and b the lovers. byLot: cupid let the time run out and
// the couple was drawn, which cupid is told as such.
func (s *State) link(cupid, a, b int, byLot bool, out *[]game.Event) {
	s.Linked, s.Lovers, s.Cupid = true, [2]int{a, b}, cupid
	if s.isWolf(a) != s.isWolf(b) {
		s.Players[a].Team, s.Players[b].Team = TeamLovers, TeamLovers
	}
	if byLot {
		s.secret(out, game.M("werewolf.fate_links", s.who("A", a), s.who("B", b)), cupid)
		s.history("werewolf.history.fate_linked", s.who("Player", cupid), s.who("A", a), s.who("B", b))
		return
	}
	s.secret(out, game.M("werewolf.now_lovers", s.who("A", a), s.who("B", b)), cupid)
	s.history("werewolf.history.cupid_linked", s.who("Player", cupid), s.who("A", a), s.who("B", b))
}

func (s *State) resolveWolves(out *[]game.Event) {
	s.Victim = nobody
	if s.Caught {
		s.Victim = s.holder(RoleLittleGirl)
	} else {
		sel, agree := nobody, true
		for _, w := range s.livingWolves() {
			t := s.Players[w].WolfSel
			switch {
			case t < 0:
			case sel < 0:
				sel = t
			case t != sel:
				agree = false
			}
		}
		if agree && s.alive(sel) && !s.isWolf(sel) {
			s.Victim = sel
		}
	}
	if s.Victim >= 0 {
		s.secret(out, game.M("werewolf.victim_is", s.who("Player", s.Victim)), s.livingWolves()...)
		s.history("werewolf.history.wolves_chose", game.Num("Night", s.Night), s.who("Player", s.Victim))
	} else {
		if wolves := s.livingWolves(); len(wolves) == 1 {
			s.secret(out, game.M("werewolf.wolves_no_choice"), wolves...)
		} else {
			s.secret(out, game.M("werewolf.wolves_disagree"), wolves...)
		}
		s.history("werewolf.history.no_victim", game.Num("Night", s.Night))
	}
}

type death struct {
	seat   int
	causes []Cause
}

func (s *State) enterDawn(out *[]game.Event) {
	s.Day = s.Night
	s.enter(PhaseDawn, out)
	(*out)[len(*out)-1].Type = EvDawn
	var batch []death
	if s.Victim >= 0 && !s.Healed {
		batch = append(batch, death{s.Victim, []Cause{CauseDevoured}})
	}
	if s.Poisoned >= 0 {
		if len(batch) > 0 && batch[0].seat == s.Poisoned {
			batch[0].causes = append(batch[0].causes, CausePoisoned)
		} else {
			batch = append(batch, death{s.Poisoned, []Cause{CausePoisoned}})
		}
	}
	if len(batch) == 0 {
		*out = append(*out, narration(game.M("werewolf.nobody_died")))
		return
	}
	if !s.Opts.RevealNightCause {
		slices.SortFunc(batch, func(a, b death) int { return a.seat - b.seat })
	}
	s.kill(batch, true, out)
}

// Deaths and the reckoning (spec §9).

func (s *State) deathLine(i int, causes []Cause, night bool) game.Msg {
	key := "werewolf.death.died"
	switch {
	case night && !s.Opts.RevealNightCause && (slices.Contains(causes, CauseDevoured) || slices.Contains(causes, CausePoisoned)):
		key = "werewolf.death.found_dead"
	case len(causes) == 2:
		key = "werewolf.death.devoured_poisoned"
	case len(causes) == 0:
	default:
		switch causes[0] {
		case CauseDevoured:
			key = "werewolf.death.devoured"
		case CausePoisoned:
			key = "werewolf.death.poisoned"
		case CauseHeartbreak:
			key = "werewolf.death.heartbreak"
		case CauseShot:
			key = "werewolf.death.shot"
		case CauseLynched:
			key = "werewolf.death.lynched"
		}
	}
	return game.M(key, s.who("Player", i), roleArg("Role", s.Players[i].Card))
}

// kill marks the batch dead, closes it under heartbreak and queues hunter
// shots (spec §9.2 steps 1–3).
func (s *State) kill(batch []death, night bool, out *[]game.Event) {
	var dead []int
	causes := map[int][]Cause{}
	mark := func(i int, c []Cause) {
		if !s.alive(i) {
			return
		}
		p := &s.Players[i]
		p.Alive = false
		p.Causes = slices.Clone(c)
		p.WolfSel = nobody
		dead = append(dead, i)
		causes[i] = c
	}
	for _, d := range batch {
		mark(d.seat, d.causes)
	}
	for k := 0; k < len(dead); k++ {
		if q := s.partner(dead[k]); s.alive(q) {
			mark(q, []Cause{CauseHeartbreak})
		}
	}
	for _, i := range dead {
		*out = append(*out, narration(s.deathLine(i, causes[i], night)))
		p := &s.Players[i]
		if p.Card == RoleHunter && !p.Fired {
			p.Fired = true
			s.ShotQueue = append(s.ShotQueue, i)
		}
	}
	s.Deaths += len(dead)
}

// reckon: pending shot → HunterShot; else win check; else succession; else
// the next phase (spec §9.2 steps 3–5).
func (s *State) reckon(out *[]game.Event) {
	if len(s.ShotQueue) > 0 {
		h := s.ShotQueue[0]
		s.enter(PhaseHunterShot, out)
		*out = append(*out, private(game.M("werewolf.prompt.hunter"), h))
		return
	}
	if s.winCheck(out) {
		return
	}
	if s.Sheriff >= 0 && !s.alive(s.Sheriff) {
		s.enter(PhaseSheriffSuccession, out)
		*out = append(*out, private(game.M("werewolf.prompt.successor"), s.Sheriff))
		return
	}
	s.continueTo(s.ReckonNext, out)
}

func (s *State) continueTo(p Phase, out *[]game.Event) {
	if p == PhaseNightFall {
		s.enterNightFall(out)
		return
	}
	if s.Day == 1 && s.Opts.SheriffOn() && !s.Elected {
		s.enter(PhaseSheriffCampaign, out)
		for i := range s.Players {
			s.Players[i].Ready, s.Players[i].Candidate = false, false
		}
		return
	}
	s.enterDiscussion(out)
}

func (s *State) hunterShoot(t int, out *[]game.Event) {
	h := s.ShotQueue[0]
	s.ShotQueue = s.ShotQueue[1:]
	*out = append(*out, narration(game.M("werewolf.hunter_shoots", s.who("Player", h), s.who("Target", t))))
	s.history("werewolf.history.hunter_shot", game.Num("Day", s.Day), s.who("Player", h), s.who("Target", t))
	s.kill([]death{{t, []Cause{CauseShot}}}, false, out)
	s.reckon(out)
}

func (s *State) hunterHold(out *[]game.Event) {
	h := s.ShotQueue[0]
	s.ShotQueue = s.ShotQueue[1:]
	*out = append(*out, narration(game.M("werewolf.hunter_holds", s.who("Player", h))))
	s.reckon(out)
}

// passBadge gives the dead sheriff's badge to t: named by the sheriff
// (chosen), or drawn by lot when the time ran out.
func (s *State) passBadge(t int, chosen bool, out *[]game.Event) {
	if chosen {
		*out = append(*out, narration(game.M("werewolf.badge_passed", s.who("Player", s.Sheriff), s.who("Target", t))))
	} else {
		*out = append(*out, narration(game.M("werewolf.badge_drawn", s.who("Player", s.Sheriff), s.who("Target", t))))
	}
	s.Sheriff = t
	s.SheriffHistory = append(s.SheriffHistory, t)
	s.continueTo(s.ReckonNext, out)
}

// winCheck applies spec §10 and ends the game if it is decided.
func (s *State) winCheck(out *[]game.Event) bool {
	wolves, others := 0, 0
	for _, p := range s.Players {
		if !p.Alive {
			continue
		}
		if p.Card == RoleWerewolf {
			wolves++
		} else {
			others++
		}
	}
	team := func(t Team) []game.Seat {
		var v []game.Seat
		for i, p := range s.Players {
			if p.Team == t {
				v = append(v, game.Seat(i))
			}
		}
		return v
	}
	switch {
	case wolves+others == 0:
		s.finish(OutcomeNone, nil, game.M("werewolf.end.nobody"), out)
	case s.Linked && wolves+others == 2 && s.alive(s.Lovers[0]) && s.alive(s.Lovers[1]) && s.Players[s.Lovers[0]].Team == TeamLovers:
		s.finish(OutcomeLovers, seats(s.Lovers[:]), game.M("werewolf.end.lovers", s.who("A", s.Lovers[0]), s.who("B", s.Lovers[1])), out)
	case wolves == 0:
		s.finish(OutcomeVillage, team(TeamVillage), game.M("werewolf.end.village"), out)
	case others == 0:
		s.finish(OutcomeWolves, team(TeamWolves), game.M("werewolf.end.wolves"), out)
	default:
		return false
	}
	return true
}

// finish ends the game and reveals everything.
func (s *State) finish(outcome string, winners []game.Seat, summary game.Msg, out *[]game.Event) {
	s.Over, s.Outcome, s.Winners, s.Summary = true, outcome, winners, summary
	s.ShotQueue = nil
	s.enter(PhaseGameOver, out)
	reveal := narration(s.cardsReveal())
	reveal.Type = EvCardsRevealed
	*out = append(*out, reveal)
	for _, h := range s.History {
		*out = append(*out, narration(h))
	}
}

// Day.

func (s *State) enterDiscussion(out *[]game.Event) {
	for i := range s.Players {
		s.Players[i].Ready = false
	}
	s.enter(PhaseDiscussion, out)
}

func (s *State) enterSheriffVote(out *[]game.Event) {
	var cands []int
	for i, p := range s.Players {
		if p.Alive && p.Candidate {
			cands = append(cands, i)
		}
	}
	text := game.M("werewolf.sheriff_no_candidates")
	if len(cands) > 0 {
		text = game.M("werewolf.sheriff_candidates", s.whoList("Players", cands))
	} else {
		cands = s.living()
	}
	s.Eligible = cands
	s.resetBallots()
	s.enter(PhaseSheriffVote, out)
	*out = append(*out, narration(text))
}

// DawnKey is the key of the line that opens a day; its first argument is
// the day's number.
const DawnKey = "werewolf.day_dawns"

// The events code matches (game.EventType).
const (
	EvDawn          game.EventType = "dawn"           // a day opens (DawnKey: its first argument is the day)
	EvCardsRevealed game.EventType = "cards_revealed" // the game is over: every card shown
)

// cardsReveal is the end of game's line showing every card (and the
// middle cards and the lovers).
func (s *State) cardsReveal() game.Msg {
	cards := make([]game.Msg, len(s.Players))
	for i, p := range s.Players {
		if p.Original != p.Card {
			cards[i] = game.M("werewolf.reveal.swapped", s.who("Player", i), roleArg("From", p.Original), roleArg("Role", p.Card))
		} else {
			cards[i] = game.M("werewolf.reveal.card", s.who("Player", i), roleArg("Role", p.Card))
		}
	}
	middle, lovers := game.Text("Middle", ""), game.Text("Lovers", "")
	if len(s.Middle) == 2 {
		middle = game.Sub("Middle", game.M("werewolf.reveal.middle", roleArg("A", s.Middle[0]), roleArg("B", s.Middle[1])))
	}
	if s.Linked {
		lovers = game.Sub("Lovers", game.M("werewolf.reveal.lovers", s.who("A", s.Lovers[0]), s.who("B", s.Lovers[1])))
	}
	return game.M(CardsRevealKey, game.List("Cards", cards...), middle, lovers)
}

// CardsRevealKey is the key of the end-of-game line that shows every card.
const CardsRevealKey = "werewolf.reveal.cards"

func (s *State) resetBallots() {
	for i := range s.Players {
		s.Players[i].Ballot, s.Players[i].Ready = NoBallot, false
	}
}

// ballots collects the living voters' ballots in seat order.
func (s *State) ballots(weighted bool) []BallotRecord {
	var v []BallotRecord
	for i, p := range s.Players {
		if !p.Alive {
			continue
		}
		b := p.Ballot
		if b == NoBallot {
			b = Abstain
		}
		w := 1
		if weighted && i == s.Sheriff {
			w = 2
		}
		v = append(v, BallotRecord{Voter: game.Seat(i), Target: game.Seat(b), Weight: w})
	}
	return v
}

// top returns the seats with the highest total weight (none if all abstain).
func top(bs []BallotRecord) []int {
	tally := map[int]int{}
	best := 0
	for _, b := range bs {
		if b.Target >= 0 {
			tally[int(b.Target)] += b.Weight
			best = max(best, tally[int(b.Target)])
		}
	}
	var v []int
	for t, w := range tally {
		if w == best && best > 0 {
			v = append(v, t)
		}
	}
	slices.Sort(v)
	return v
}

func (s *State) reveal(titleKey string, bs []BallotRecord, out *[]game.Event) {
	*out = append(*out, narration(game.M(titleKey)))
	for _, b := range bs {
		v := s.who("Player", int(b.Voter))
		switch {
		case b.Target < 0 && b.Weight == 2:
			*out = append(*out, narration(game.M("werewolf.ballot.sheriff_abstains", v)))
		case b.Target < 0:
			*out = append(*out, narration(game.M("werewolf.ballot.abstains", v)))
		case b.Weight == 2:
			*out = append(*out, narration(game.M("werewolf.ballot.sheriff_votes", v, s.who("Target", int(b.Target)))))
		default:
			*out = append(*out, narration(game.M("werewolf.ballot.votes", v, s.who("Target", int(b.Target)))))
		}
	}
}

func (s *State) closeSheriffVote(runoff bool, out *[]game.Event) {
	kind := PhaseSheriffVote
	title := "werewolf.ballot.sheriff_opened"
	if runoff {
		kind, title = PhaseSheriffRunoff, "werewolf.ballot.runoff_opened"
	}
	bs := s.ballots(false)
	s.reveal(title, bs, out)
	rec := VoteRecord{Kind: kind, Day: s.Day, Ballots: bs, Result: game.NoSeat}
	tops := top(bs)
	var winner int
	switch {
	case len(tops) == 1:
		winner = tops[0]
	case len(tops) == 0 || runoff:
		pool := tops
		if len(pool) == 0 {
			pool = s.Eligible
		}
		pool = slices.DeleteFunc(slices.Clone(pool), func(i int) bool { return !s.alive(i) })
		if len(pool) == 0 {
			pool = s.living()
		}
		winner = pool[s.rand().IntN(len(pool))]
		*out = append(*out, narration(game.M("werewolf.sheriff_by_lot")))
	default:
		rec.Tied = seats(tops)
		s.Votes = append(s.Votes, rec)
		s.Eligible = tops
		s.Tied = tops
		s.resetBallots()
		s.enter(PhaseSheriffRunoff, out)
		return
	}
	rec.Result = game.Seat(winner)
	s.Votes = append(s.Votes, rec)
	s.Sheriff, s.Elected = winner, true
	s.SheriffHistory = append(s.SheriffHistory, winner)
	s.Tied, s.Eligible = nil, nil
	*out = append(*out, narration(game.M("werewolf.sheriff_elected", s.who("Player", winner))))
	s.enterDiscussion(out)
}

func (s *State) enterVote(out *[]game.Event) {
	s.resetBallots()
	s.enter(PhaseVote, out)
}

func (s *State) closeVote(out *[]game.Event) {
	bs := s.ballots(true)
	s.reveal("werewolf.ballot.opened", bs, out)
	rec := VoteRecord{Kind: PhaseVote, Day: s.Day, Ballots: bs, Result: game.NoSeat}
	tops := top(bs)
	if len(tops) > 1 {
		rec.Tied = seats(tops)
	}
	s.Votes = append(s.Votes, rec)
	switch {
	case len(tops) == 1:
		s.verdict(tops[0], game.Msg{}, out)
	case len(tops) > 1 && s.alive(s.Sheriff):
		s.Tied = tops
		s.enter(PhaseSheriffTiebreak, out)
		*out = append(*out, private(game.M("werewolf.prompt.tiebreak"), s.Sheriff))
	case len(tops) > 1:
		s.verdict(-1, game.M("werewolf.verdict.tie"), out)
	default:
		s.verdict(-1, game.M("werewolf.verdict.no_votes"), out)
	}
}

func (s *State) verdict(t int, why game.Msg, out *[]game.Event) {
	s.Lynch = t
	s.Tied = nil
	if n := len(s.Votes); n > 0 && s.Votes[n-1].Kind == PhaseVote && s.Votes[n-1].Day == s.Day {
		s.Votes[n-1].Result = game.Seat(t)
	}
	s.enter(PhaseVerdict, out)
	if t < 0 {
		*out = append(*out, narration(why))
		return
	}
	s.kill([]death{{t, []Cause{CauseLynched}}}, false, out)
}
