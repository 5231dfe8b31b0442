package werewolf

// Why this file is long: it is the phase machine of §7 in one place,
// each phase's entry, end and transition in the order a game runs, with
// the dawn and the death chain (§9) they call.

import (
	"fmt"
	"slices"
	"strings"

	"bivouac/game"
)

// enter starts phase p: a new PhaseSeq (so older ticks are ignored) and the
// phase's public narration line.
func (s *State) enter(p Phase, text string, out *[]game.Event) {
	s.Phase = p
	s.PhaseSeq++
	if text == "" {
		text = p.Narration()
	}
	*out = append(*out, narration(text))
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
				s.secret(out, "You keep the thief card.", s.ThiefSeat)
				s.history("Night 1: the thief (%s) kept his card.", s.name(s.ThiefSeat))
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
		s.verdict(-1, "The sheriff does not decide: nobody is lynched today.", out)
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
			s.finish(OutcomeStalemate, nil, fmt.Sprintf("Stalemate: %d cycles without a death. No winner.", s.Quiet), out)
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
	s.enter(PhaseNightFall, fmt.Sprintf("Night %d falls. The village sleeps.", s.Night), out)
}

func (s *State) enterStep(p Phase, out *[]game.Event) {
	s.enter(p, "", out)
	switch p {
	case PhaseThief:
		if s.alive(s.ThiefSeat) {
			s.ThiefSaw = slices.Clone(s.Middle)
			s.secret(out, fmt.Sprintf("The two middle cards are: %s and %s. Take one, or keep your card.", s.Middle[0], s.Middle[1]), s.ThiefSeat)
		}
	case PhaseCupid:
		if c := s.holder(RoleCupid); c >= 0 && !s.Linked {
			*out = append(*out, private("Choose two players to fall in love (you may choose yourself).", c))
		}
	case PhaseLovers:
		if s.Linked {
			for k, l := range s.Lovers {
				other := s.Lovers[1-k]
				*out = append(*out, private(fmt.Sprintf("You are in love with %s. If one of you dies, the other dies of a broken heart. You may not vote against each other.", s.name(other)), l))
				if s.Players[l].Team == TeamLovers {
					*out = append(*out, private("Your love crosses the line between the pack and the village: your goal is now that the two of you are the last two alive. You win together, or not at all.", l))
				}
			}
		}
	case PhaseSeer:
		if sr := s.holder(RoleSeer); sr >= 0 {
			*out = append(*out, private("Choose a player whose card you want to see.", sr))
		}
	case PhaseWolves:
		wolves := s.livingWolves()
		for _, w := range wolves {
			s.Players[w].KnowsWolves = true
		}
		if len(wolves) > 0 {
			names := make([]string, len(wolves))
			for i, w := range wolves {
				names[i] = s.name(w)
			}
			*out = append(*out, private(fmt.Sprintf("The werewolves are: %s. Agree on a victim.", strings.Join(names, ", ")), wolves...))
		}
		if lg := s.holder(RoleLittleGirl); lg >= 0 {
			*out = append(*out, private("The werewolves are awake. You may peek at them, at your own risk.", lg))
		}
	case PhaseWitch:
		if w := s.holder(RoleWitch); w >= 0 {
			s.secret(out, s.victimLine(), w)
		}
	}
}

func (s *State) victimLine() string {
	if s.Victim >= 0 {
		return fmt.Sprintf("Tonight's victim: %s.", s.name(s.Victim))
	}
	return "The werewolves have no victim tonight."
}

func (s *State) thiefTake(slot int, out *[]game.Event) {
	t := s.ThiefSeat
	p := &s.Players[t]
	p.Card, s.Middle[slot] = s.Middle[slot], RoleThief
	p.Team = teamOf(p.Card)
	s.ThiefTook, s.ThiefDone = slot, true
	s.secret(out, fmt.Sprintf("You take the %s card: you are now the %s.", p.Card, p.Card), t)
	s.history("Night 1: the thief (%s) took the %s card.", s.name(t), p.Card)
}

// link makes a and b the lovers. byLot: cupid let the time run out and
// the couple was drawn, which cupid is told as such.
func (s *State) link(cupid, a, b int, byLot bool, out *[]game.Event) {
	s.Linked, s.Lovers, s.Cupid = true, [2]int{a, b}, cupid
	if s.isWolf(a) != s.isWolf(b) {
		s.Players[a].Team, s.Players[b].Team = TeamLovers, TeamLovers
	}
	if byLot {
		s.secret(out, fmt.Sprintf("You did not choose in time: fate links %s and %s. They are now lovers.", s.name(a), s.name(b)), cupid)
		s.history("Night 1: cupid (%s) did not choose; fate linked %s and %s.", s.name(cupid), s.name(a), s.name(b))
		return
	}
	s.secret(out, fmt.Sprintf("%s and %s are now lovers.", s.name(a), s.name(b)), cupid)
	s.history("Night 1: cupid (%s) linked %s and %s.", s.name(cupid), s.name(a), s.name(b))
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
		s.secret(out, fmt.Sprintf("Tonight's victim: %s.", s.name(s.Victim)), s.livingWolves()...)
		s.history("Night %d: the werewolves chose %s.", s.Night, s.name(s.Victim))
	} else {
		if wolves := s.livingWolves(); len(wolves) == 1 {
			s.secret(out, "You chose no victim: nobody is devoured tonight.", wolves...)
		} else {
			s.secret(out, "The werewolves did not agree: no victim tonight.", wolves...)
		}
		s.history("Night %d: the werewolves had no victim.", s.Night)
	}
}

type death struct {
	seat   int
	causes []Cause
}

func (s *State) enterDawn(out *[]game.Event) {
	s.Day = s.Night
	s.enter(PhaseDawn, fmt.Sprintf("Day %d dawns. The village wakes up.", s.Day), out)
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
		*out = append(*out, narration("Nobody died last night."))
		return
	}
	if !s.Opts.RevealNightCause {
		slices.SortFunc(batch, func(a, b death) int { return a.seat - b.seat })
	}
	s.kill(batch, true, out)
}

// Deaths and the reckoning (spec §9).

func (s *State) deathLine(i int, causes []Cause, night bool) string {
	n := s.name(i)
	var what string
	switch {
	case night && !s.Opts.RevealNightCause && (slices.Contains(causes, CauseDevoured) || slices.Contains(causes, CausePoisoned)):
		what = n + " was found dead"
	case len(causes) == 2:
		what = n + " was devoured by the werewolves and poisoned"
	case len(causes) == 0:
		what = n + " died"
	default:
		switch causes[0] {
		case CauseDevoured:
			what = n + " was devoured by the werewolves"
		case CausePoisoned:
			what = n + " was poisoned"
		case CauseHeartbreak:
			what = n + " died of a broken heart"
		case CauseShot:
			what = n + " was shot by the hunter"
		case CauseLynched:
			what = n + " was lynched by the village"
		default:
			what = n + " died"
		}
	}
	return fmt.Sprintf("%s. Card: %s.", what, s.Players[i].Card)
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
		s.enter(PhaseHunterShot, fmt.Sprintf("%s was the hunter and takes aim with a last breath…", s.name(h)), out)
		*out = append(*out, private("Choose a player to shoot, or lower your rifle.", h))
		return
	}
	if s.winCheck(out) {
		return
	}
	if s.Sheriff >= 0 && !s.alive(s.Sheriff) {
		s.enter(PhaseSheriffSuccession, fmt.Sprintf("%s, the dying sheriff, names a successor…", s.name(s.Sheriff)), out)
		*out = append(*out, private("Name the next sheriff.", s.Sheriff))
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
		s.enter(PhaseSheriffCampaign, "", out)
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
	*out = append(*out, narration(fmt.Sprintf("The hunter %s shoots %s.", s.name(h), s.name(t))))
	s.history("Day %d: the hunter (%s) shot %s.", s.Day, s.name(h), s.name(t))
	s.kill([]death{{t, []Cause{CauseShot}}}, false, out)
	s.reckon(out)
}

func (s *State) hunterHold(out *[]game.Event) {
	h := s.ShotQueue[0]
	s.ShotQueue = s.ShotQueue[1:]
	*out = append(*out, narration(fmt.Sprintf("The hunter %s lowers his rifle.", s.name(h))))
	s.reckon(out)
}

// passBadge gives the dead sheriff's badge to t: named by the sheriff
// (chosen), or drawn by lot when the time ran out.
func (s *State) passBadge(t int, chosen bool, out *[]game.Event) {
	if chosen {
		*out = append(*out, narration(fmt.Sprintf("%s hands the sheriff's badge to %s.", s.name(s.Sheriff), s.name(t))))
	} else {
		*out = append(*out, narration(fmt.Sprintf("%s named no successor in time: the badge goes to %s, drawn by lot.", s.name(s.Sheriff), s.name(t))))
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
		s.finish(OutcomeNone, nil, "Nobody is left alive: no winner.", out)
	case s.Linked && wolves+others == 2 && s.alive(s.Lovers[0]) && s.alive(s.Lovers[1]) && s.Players[s.Lovers[0]].Team == TeamLovers:
		s.finish(OutcomeLovers, seats(s.Lovers[:]), fmt.Sprintf("The lovers %s and %s win, alone in the village.", s.name(s.Lovers[0]), s.name(s.Lovers[1])), out)
	case wolves == 0:
		s.finish(OutcomeVillage, team(TeamVillage), "The village wins: every werewolf is dead.", out)
	case others == 0:
		s.finish(OutcomeWolves, team(TeamWolves), "The werewolves win: they devoured the village.", out)
	default:
		return false
	}
	return true
}

// finish ends the game and reveals everything.
func (s *State) finish(outcome string, winners []game.Seat, summary string, out *[]game.Event) {
	s.Over, s.Outcome, s.Winners, s.Summary = true, outcome, winners, summary
	s.ShotQueue = nil
	s.enter(PhaseGameOver, summary, out)
	var b strings.Builder
	b.WriteString("The cards: ")
	for i, p := range s.Players {
		if i > 0 {
			b.WriteString("; ")
		}
		if p.Original != p.Card {
			fmt.Fprintf(&b, "%s %s → %s", p.Name, p.Original, p.Card)
		} else {
			fmt.Fprintf(&b, "%s %s", p.Name, p.Card)
		}
	}
	if len(s.Middle) == 2 {
		fmt.Fprintf(&b, ". Middle: %s, %s", s.Middle[0], s.Middle[1])
	}
	if s.Linked {
		fmt.Fprintf(&b, ". Lovers: %s and %s", s.name(s.Lovers[0]), s.name(s.Lovers[1]))
	}
	b.WriteString(".")
	*out = append(*out, narration(b.String()))
	for _, h := range s.History {
		*out = append(*out, narration(h))
	}
}

// Day.

func (s *State) enterDiscussion(out *[]game.Event) {
	for i := range s.Players {
		s.Players[i].Ready = false
	}
	s.enter(PhaseDiscussion, "", out)
}

func (s *State) enterSheriffVote(out *[]game.Event) {
	var cands []int
	for i, p := range s.Players {
		if p.Alive && p.Candidate {
			cands = append(cands, i)
		}
	}
	text := "Nobody stands: every living player may be elected sheriff."
	if len(cands) > 0 {
		text = "Candidates for sheriff: " + s.nameList(cands) + "."
	} else {
		cands = s.living()
	}
	s.Eligible = cands
	s.resetBallots()
	s.enter(PhaseSheriffVote, "", out)
	*out = append(*out, narration(text))
}

func (s *State) nameList(v []int) string {
	names := make([]string, len(v))
	for i, x := range v {
		names[i] = s.name(x)
	}
	return strings.Join(names, ", ")
}

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

func (s *State) reveal(title string, bs []BallotRecord, out *[]game.Event) {
	*out = append(*out, narration(title))
	for _, b := range bs {
		v := s.name(int(b.Voter))
		if b.Weight == 2 {
			v += " (sheriff, ×2)"
		}
		if b.Target < 0 {
			*out = append(*out, narration(v+" abstains."))
		} else {
			*out = append(*out, narration(fmt.Sprintf("%s votes for %s.", v, s.name(int(b.Target)))))
		}
	}
}

func (s *State) closeSheriffVote(runoff bool, out *[]game.Event) {
	kind := PhaseSheriffVote
	title := "The sheriff ballots are opened:"
	if runoff {
		kind, title = PhaseSheriffRunoff, "The runoff ballots are opened:"
	}
	bs := s.ballots(false)
	s.reveal(title, bs, out)
	rec := VoteRecord{Kind: kind, Day: s.Day, Ballots: bs, Result: game.NoSeat}
	tops := top(bs)
	winner := nobody
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
		*out = append(*out, narration("No majority: the sheriff is drawn by lot."))
	default:
		rec.Tied = seats(tops)
		s.Votes = append(s.Votes, rec)
		s.Eligible = tops
		s.Tied = tops
		s.resetBallots()
		s.enter(PhaseSheriffRunoff, "Tie between "+s.nameList(tops)+": runoff (sealed ballots).", out)
		return
	}
	rec.Result = game.Seat(winner)
	s.Votes = append(s.Votes, rec)
	s.Sheriff, s.Elected = winner, true
	s.SheriffHistory = append(s.SheriffHistory, winner)
	s.Tied, s.Eligible = nil, nil
	*out = append(*out, narration(fmt.Sprintf("%s is elected sheriff.", s.name(winner))))
	s.enterDiscussion(out)
}

func (s *State) enterVote(out *[]game.Event) {
	s.resetBallots()
	s.enter(PhaseVote, "", out)
}

func (s *State) closeVote(out *[]game.Event) {
	bs := s.ballots(true)
	s.reveal("The ballots are opened:", bs, out)
	rec := VoteRecord{Kind: PhaseVote, Day: s.Day, Ballots: bs, Result: game.NoSeat}
	tops := top(bs)
	if len(tops) > 1 {
		rec.Tied = seats(tops)
	}
	s.Votes = append(s.Votes, rec)
	switch {
	case len(tops) == 1:
		s.verdict(tops[0], "", out)
	case len(tops) > 1 && s.alive(s.Sheriff):
		s.Tied = tops
		s.enter(PhaseSheriffTiebreak, "Tie between "+s.nameList(tops)+": the sheriff decides.", out)
		*out = append(*out, private("Choose whom the village lynches among the tied players.", s.Sheriff))
	case len(tops) > 1:
		s.verdict(-1, "Tie: nobody is lynched today.", out)
	default:
		s.verdict(-1, "No votes: nobody is lynched today.", out)
	}
}

func (s *State) verdict(t int, why string, out *[]game.Event) {
	s.Lynch = t
	s.Tied = nil
	if n := len(s.Votes); n > 0 && s.Votes[n-1].Kind == PhaseVote && s.Votes[n-1].Day == s.Day {
		s.Votes[n-1].Result = game.Seat(t)
	}
	s.enter(PhaseVerdict, "", out)
	if t < 0 {
		*out = append(*out, narration(why))
		return
	}
	s.kill([]death{{t, []Cause{CauseLynched}}}, false, out)
}
