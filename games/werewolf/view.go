package werewolf

import (
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// PlayerView is one seat as a viewer may know it.
type PlayerView struct {
	Seat      game.Seat `json:"seat"`
	Name      string    `json:"name"`
	Alive     bool      `json:"alive"`
	Card      Role      `json:"card"`               // RoleUnknown unless the viewer may see it
	Original  Role      `json:"original,omitempty"` // dealt card, at the end (thief history)
	Causes    []Cause   `json:"causes,omitempty"`   // how the player died
	Sheriff   bool      `json:"sheriff,omitempty"`  // holds the badge
	Candidate bool      `json:"candidate,omitempty"`
	Wolf      bool      `json:"wolf,omitempty"`  // known werewolf (to wolves, watchers, the end)
	Lover     bool      `json:"lover,omitempty"` // known lover (to lovers, cupid, watchers, the end)
	Team      Team      `json:"team,omitempty"`  // at the end only
	Winner    bool      `json:"winner,omitempty"`
}

// WolfChoice is one werewolf's current selection in the wolves' step.
type WolfChoice struct {
	Wolf   game.Seat `json:"wolf"`
	Target game.Seat `json:"target"` // game.NoSeat: none
}

// SeatView is everything one seat may know: the only door out of the
// state. It never aliases the state. Spectator views hold public facts only.
type SeatView struct {
	Seat       game.Seat    `json:"seat"` // the viewer, or game.Spectator
	Phase      Phase        `json:"phase"`
	PhaseSeq   uint64       `json:"phase_seq"`
	Night      int          `json:"night"`
	Day        int          `json:"day"`
	Deadline   int          `json:"deadline"`  // the phase's full window in seconds (0: none)
	Narration  game.Msg     `json:"narration"` // the phase's public line, the same for everyone
	Prompt     game.Msg     `json:"prompt"`    // what this seat is asked now (zero = asleep / nothing)
	Players    []PlayerView `json:"players"`
	Deck       []Role       `json:"deck"`             // public deck list (thief extras included)
	Middle     []Role       `json:"middle,omitempty"` // middle cards as the viewer knows them (thief: as seen)
	Unofficial bool         `json:"unofficial,omitempty"`
	SheriffOn  bool         `json:"sheriff_on,omitempty"`
	Fast       bool         `json:"fast,omitempty"` // NightTiming=fast [NR]

	// The viewer.
	Alive      bool         `json:"alive"`
	Card       Role         `json:"card"`
	Original   Role         `json:"original"`
	LastBreath bool         `json:"last_breath,omitempty"` // dead, with a hunter shot or succession to decide
	Wolves     []game.Seat  `json:"wolves,omitempty"`      // the werewolves the viewer knows (self included)
	Choices    []WolfChoice `json:"choices,omitempty"`     // wolves' live selections (wolves, watchers)
	Victim     game.Seat    `json:"victim"`                // tonight's victim if known to the viewer, else -1
	Visions    []Vision     `json:"visions,omitempty"`     // the seer's
	Partner    game.Seat    `json:"partner"`               // lover's partner, else -1
	Lovers     []game.Seat  `json:"lovers,omitempty"`      // the couple, to cupid, watchers, the end
	HealLeft   bool         `json:"heal_left,omitempty"`   // witch
	PoisonLeft bool         `json:"poison_left,omitempty"` // witch
	Healed     bool         `json:"healed,omitempty"`      // witch: healed tonight
	Poisoned   game.Seat    `json:"poisoned"`              // witch: poisoned tonight, else -1
	Peeking    bool         `json:"peeking,omitempty"`     // little girl
	Caught     bool         `json:"caught,omitempty"`      // little girl (or her wolves) know she was caught
	Relayed    []game.Msg   `json:"relayed,omitempty"`     // little girl: glimpses of the wolves' choices
	Pack       []PackLine   `json:"pack,omitempty"`        // the wolves' channel, all game (wolves, watchers)
	ThiefSaw   []Role       `json:"thief_saw,omitempty"`   // thief: both middle cards as dealt
	ThiefTook  int          `json:"thief_took"`            // thief: slot taken, -1
	Ready      bool         `json:"ready,omitempty"`
	MyBallot   game.Seat    `json:"my_ballot"` // NoBallot, Abstain or a seat (sealed: own only)

	// Public.
	Sheriff game.Seat `json:"sheriff"` // -1: none
	// SheriffHistory lists every badge holder in order (elections and
	// successions; all public).
	SheriffHistory []game.Seat  `json:"sheriff_history,omitempty"`
	Eligible       []game.Seat  `json:"eligible,omitempty"`
	Tied           []game.Seat  `json:"tied,omitempty"`
	VotesCast      int          `json:"votes_cast"` // during a vote: how many living have a ballot
	ReadyCount     int          `json:"ready_count"`
	Voters         int          `json:"voters"` // living players
	Votes          []VoteRecord `json:"votes,omitempty"`
	Over           bool         `json:"over,omitempty"`
	Outcome        string       `json:"outcome,omitempty"`
	Winners        []game.Seat  `json:"winners,omitempty"`
	Summary        game.Msg     `json:"summary,omitzero"`
	History        []game.Msg   `json:"history,omitempty"` // night log, at the end (and to watchers)

	Legal []Action `json:"legal,omitempty"` // what this seat may do now
}

// IsLegal reports whether a is among the view's legal actions.
func (v SeatView) IsLegal(a Action) bool { return slices.Contains(v.Legal, a) }

// View builds the view of seat (game.Spectator for the public view).
func (s *State) View(seat game.Seat) SeatView {
	me := int(seat)
	if !s.valid(me) {
		me = -1
		seat = game.Spectator
	}
	v := s.openView(seat)
	// all: the seat may see everything (the game is over, or it watches).
	all := s.Over || (me >= 0 && s.watcher(me))
	var p *Player
	if me >= 0 {
		p = &s.Players[me]
	}
	knowsWolves := p != nil && p.Card == RoleWerewolf && p.KnowsWolves
	if p != nil {
		s.ownView(&v, me, knowsWolves)
	}
	s.nightView(&v, me, all, knowsWolves)
	s.playerViews(&v, me, all, knowsWolves)
	s.tallyView(&v)
	if me >= 0 {
		v.Legal = s.Legal(me)
		v.Prompt = s.prompt(me, v.Legal)
	}
	return v
}

// openView is what everyone at the table sees, seat or not.
func (s *State) openView(seat game.Seat) SeatView {
	v := SeatView{
		Seat: seat, Phase: s.Phase, PhaseSeq: s.PhaseSeq, Night: s.Night, Day: s.Day,
		Deadline:   s.Opts.Timers.Seconds(s.Phase, s.livingCount()),
		Narration:  s.phaseNarration(),
		Deck:       slices.Clone(s.Deck),
		Unofficial: s.Opts.Unofficial(), SheriffOn: s.Opts.SheriffOn(), Fast: s.fast(),
		Victim: -1, Partner: -1, Poisoned: -1, ThiefTook: -1, MyBallot: NoBallot,
		Sheriff: game.Seat(s.Sheriff),
		Over:    s.Over, Outcome: s.Outcome, Winners: slices.Clone(s.Winners), Summary: s.Summary,
	}
	if s.Over {
		v.Deadline = 0
	}
	return v
}

// ownView adds what seat me knows of itself: its card, its visions, a
// lover's partner, and what its role lets it see at night.
func (s *State) ownView(v *SeatView, me int, knowsWolves bool) {
	p := &s.Players[me]
	v.Alive, v.Card, v.Original = p.Alive, p.Card, p.Original
	v.LastBreath = s.lastBreath(me)
	v.Visions = slices.Clone(p.Visions)
	v.Ready = p.Ready
	v.MyBallot = game.Seat(p.Ballot)
	if q := s.partner(me); q >= 0 {
		v.Partner = game.Seat(q)
	}
	if me == s.ThiefSeat {
		v.ThiefSaw = slices.Clone(s.ThiefSaw)
		v.ThiefTook = s.ThiefTook
		if len(s.ThiefSaw) > 0 { // seen them, and knows what he left there
			v.Middle = slices.Clone(s.Middle)
		}
	}
	if p.Card == RoleWitch {
		v.HealLeft, v.PoisonLeft = s.HealLeft, s.PoisonLeft
		if s.Phase == PhaseWitch {
			v.Healed, v.Poisoned = s.Healed, game.Seat(s.Poisoned)
		}
	}
	if p.Card == RoleLittleGirl {
		v.Peeking = s.Peeking && s.Phase == PhaseWolves
		v.Caught = s.Caught && s.Phase.Night()
		v.Relayed = slices.Clone(p.Relayed)
	}
	if knowsWolves && s.Caught && s.Phase.Night() {
		v.Caught = true
	}
}

// nightView adds the night's secrets the seat is in on: the middle cards
// and the night log (to watchers), the lovers, tonight's victim and the
// wolves' choices.
func (s *State) nightView(v *SeatView, me int, all, knowsWolves bool) {
	if all {
		v.Middle = slices.Clone(s.Middle)
		v.History = slices.Clone(s.History)
	}
	if s.Linked && (all || me == s.Cupid || v.Partner >= 0) {
		v.Lovers = seats(s.Lovers[:])
	}
	// Tonight's victim: wolves after their step, the witch in hers, watchers.
	witch := me >= 0 && s.Players[me].Alive && s.Players[me].Card == RoleWitch
	if s.Phase == PhaseWitch && (all || knowsWolves || witch) {
		v.Victim = game.Seat(s.Victim)
	}
	if s.Phase == PhaseWolves && (all || knowsWolves) {
		for _, w := range s.livingWolves() {
			v.Choices = append(v.Choices, WolfChoice{Wolf: game.Seat(w), Target: game.Seat(s.Players[w].WolfSel)})
		}
		if s.Caught {
			v.Victim = game.Seat(s.holder(RoleLittleGirl))
		}
	}
}

// playerViews adds every player as seat me may see them, and the pack
// when it may see it.
func (s *State) playerViews(v *SeatView, me int, all, knowsWolves bool) {
	for i := range s.Players {
		v.Players = append(v.Players, s.playerView(v, i, me, all, knowsWolves))
		if knowsWolves && s.Players[i].Card == RoleWerewolf {
			v.Wolves = append(v.Wolves, game.Seat(i))
		}
	}
	if all && !knowsWolves {
		for i, q := range s.Players {
			if q.Card == RoleWerewolf {
				v.Wolves = append(v.Wolves, game.Seat(i))
			}
		}
	}
	if knowsWolves || all {
		v.Pack = slices.Clone(s.Pack)
	}
}

// playerView is player i as seat me sees them: a card only when it may
// know it, a death's causes as the rules let them be told.
func (s *State) playerView(v *SeatView, i, me int, all, knowsWolves bool) PlayerView {
	q := &s.Players[i]
	pv := PlayerView{Seat: game.Seat(i), Name: q.Name, Alive: q.Alive, Sheriff: i == s.Sheriff, Candidate: q.Candidate && s.Phase >= PhaseSheriffCampaign && s.Phase <= PhaseSheriffRunoff}
	if all || i == me || !q.Alive {
		pv.Card = q.Card
	}
	if !q.Alive {
		pv.Causes = slices.Clone(q.Causes)
		if !s.Opts.RevealNightCause && !s.Over {
			for k, c := range pv.Causes {
				if c == CauseDevoured || c == CausePoisoned {
					pv.Causes[k] = CauseFoundDead
				}
			}
			pv.Causes = slices.Compact(pv.Causes)
		}
	}
	if q.Card == RoleWerewolf && (all || knowsWolves || (!q.Alive)) {
		pv.Wolf = true
		if knowsWolves {
			pv.Card = RoleWerewolf
		}
	}
	if v.Lovers != nil && (i == s.Lovers[0] || i == s.Lovers[1]) {
		pv.Lover = true
	}
	if s.Over {
		pv.Original, pv.Team = q.Original, q.Team
		pv.Winner = slices.Contains(s.Winners, game.Seat(i))
	}
	return pv
}

// tallyView adds the public counts and records: votes, readiness, the
// sheriffs so far, who may be voted for.
func (s *State) tallyView(v *SeatView) {
	for _, q := range s.Players {
		if !q.Alive {
			continue
		}
		v.Voters++
		if q.Ballot != NoBallot {
			v.VotesCast++
		}
		if q.Ready {
			v.ReadyCount++
		}
	}
	for _, h := range s.SheriffHistory {
		v.SheriffHistory = append(v.SheriffHistory, game.Seat(h))
	}
	v.Eligible = seats(s.Eligible)
	v.Tied = seats(s.Tied)
	for _, r := range s.Votes {
		r.Ballots = slices.Clone(r.Ballots)
		r.Tied = slices.Clone(r.Tied)
		v.Votes = append(v.Votes, r)
	}
}

func (s *State) prompt(me int, legal []Action) game.Msg {
	if len(legal) == 0 {
		if s.Phase.nightStep() && s.alive(me) {
			switch {
			case s.Phase == PhaseSeer && s.Players[me].Card == RoleSeer && s.SeerDone,
				s.Phase == PhaseWitch && s.Players[me].Card == RoleWitch && s.WitchDone,
				s.Phase == PhaseThief && me == s.ThiefSeat && s.ThiefDone,
				s.Phase == PhaseCupid && s.Players[me].Card == RoleCupid && s.Linked:
				return game.M("werewolf.acted")
			}
		}
		return game.Msg{}
	}
	switch s.Phase {
	case PhaseThief: // the screen lists the middle cards under it (thief_sees named them)
		return game.M("werewolf.prompt.thief")
	case PhaseCupid: // the prompts below say what the actor's private call said (flow.go)
		return game.M("werewolf.cupid_choose")
	case PhaseSeer:
		return game.M("werewolf.prompt.seer")
	case PhaseWolves:
		if s.Players[me].Card == RoleLittleGirl {
			return game.M("werewolf.prompt.girl")
		}
		if wolves := s.livingWolves(); len(wolves) > 1 {
			return game.M("werewolf.pack_is", s.whoList("Players", wolves))
		}
		return game.M("werewolf.pack_alone") // nobody to agree with
	case PhaseWitch:
		return game.M("werewolf.prompt.witch", game.Sub("Victim", s.victimLine()))
	case PhaseHunterShot:
		return game.M("werewolf.prompt.hunter")
	case PhaseSheriffSuccession:
		return game.M("werewolf.prompt.successor")
	case PhaseSheriffCampaign:
		return game.M("werewolf.prompt.campaign")
	case PhaseSheriffVote, PhaseSheriffRunoff:
		return game.M("werewolf.prompt.sheriff_vote")
	case PhaseDiscussion:
		return game.M("werewolf.prompt.discussion")
	case PhaseVote:
		return game.M("werewolf.prompt.vote")
	case PhaseSheriffTiebreak:
		return game.M("werewolf.prompt.tiebreak")
	}
	return game.Msg{}
}

// Legal lists what seat may do now (chat and System actions excluded).
func (s *State) Legal(seat int) []Action {
	if s.Over || !s.valid(seat) {
		return nil
	}
	switch s.Phase {
	case PhaseThief, PhaseCupid, PhaseSeer, PhaseWolves, PhaseWitch:
		return s.nightLegal(seat)
	}
	return s.dayLegal(seat)
}

// eachAlive appends an action of kind k on every living player t for
// whom ok(t).
func (s *State) eachAlive(v []Action, k Kind, ok func(t int) bool) []Action {
	for t := range s.Players {
		if s.Players[t].Alive && ok(t) {
			v = append(v, Action{Kind: k, Target: t})
		}
	}
	return v
}

// nightLegal is Legal in the night's role steps.
func (s *State) nightLegal(seat int) []Action {
	p := &s.Players[seat]
	var v []Action
	switch s.Phase {
	case PhaseThief:
		if seat == s.ThiefSeat && p.Alive && !s.ThiefDone {
			v = append(v, Action{Kind: KindThiefTake, Target: 0}, Action{Kind: KindThiefTake, Target: 1})
			if !(s.Middle[0] == RoleWerewolf && s.Middle[1] == RoleWerewolf) {
				v = append(v, Action{Kind: KindThiefKeep})
			}
		}
	case PhaseCupid:
		if s.acting(seat, PhaseCupid, RoleCupid) && !s.Linked {
			for a := range s.Players {
				for b := a + 1; b < len(s.Players); b++ {
					if s.Players[a].Alive && s.Players[b].Alive {
						v = append(v, Action{Kind: KindCupidLink, Target: a, Second: b})
					}
				}
			}
		}
	case PhaseSeer:
		if s.acting(seat, PhaseSeer, RoleSeer) && !s.SeerDone {
			v = s.eachAlive(v, KindSeerInspect, func(t int) bool { return t != seat })
		}
	case PhaseWolves:
		if s.acting(seat, PhaseWolves, RoleWerewolf) && !s.Caught {
			v = s.eachAlive(v, KindWolfSelect, func(t int) bool { return !s.isWolf(t) && t != p.WolfSel })
			if p.WolfSel >= 0 {
				v = append(v, Action{Kind: KindWolfClear})
			}
			if s.fast() && !p.WolfDone {
				v = append(v, Action{Kind: KindWolfDone})
			}
		}
		if s.acting(seat, PhaseWolves, RoleLittleGirl) && !s.Caught {
			v = append(v, Action{Kind: KindPeek, On: !s.Peeking})
			if !p.PeekSet {
				v = append(v, Action{Kind: KindPeek, On: s.Peeking})
			}
		}
	case PhaseWitch:
		if s.acting(seat, PhaseWitch, RoleWitch) && !s.WitchDone {
			if s.HealLeft && s.Victim >= 0 && !s.Healed {
				v = append(v, Action{Kind: KindWitchHeal})
			}
			if s.PoisonLeft && s.Poisoned < 0 {
				v = s.eachAlive(v, KindWitchPoison, func(int) bool { return true })
			}
			v = append(v, Action{Kind: KindWitchDone})
		}
	}
	return v
}

// dayLegal is Legal outside the night's role steps: a hunter's shot, the
// sheriff's succession, campaign, votes and tiebreak, the discussion.
func (s *State) dayLegal(seat int) []Action {
	p := &s.Players[seat]
	var v []Action
	switch s.Phase {
	case PhaseHunterShot:
		if len(s.ShotQueue) > 0 && s.ShotQueue[0] == seat {
			v = s.eachAlive(v, KindHunterShoot, func(int) bool { return true })
			v = append(v, Action{Kind: KindHunterHold})
		}
	case PhaseSheriffSuccession:
		if seat == s.Sheriff {
			v = s.eachAlive(v, KindSuccessor, func(int) bool { return true })
		}
	case PhaseSheriffCampaign:
		if p.Alive {
			v = append(v, Action{Kind: KindStand, On: !p.Candidate}, Action{Kind: KindReady, On: !p.Ready})
		}
	case PhaseDiscussion:
		if p.Alive {
			v = append(v, Action{Kind: KindReady, On: !p.Ready})
		}
	case PhaseSheriffVote, PhaseSheriffRunoff, PhaseVote:
		if p.Alive {
			v = s.eachAlive(v, KindBallot, func(t int) bool { return t != p.Ballot && s.ballotOK(seat, t) == nil })
			if p.Ballot != Abstain {
				v = append(v, Action{Kind: KindAbstain})
			}
		}
	case PhaseSheriffTiebreak:
		if seat == s.Sheriff && p.Alive {
			for _, t := range s.Tied {
				if t != s.partner(seat) {
					v = append(v, Action{Kind: KindTiebreak, Target: t})
				}
			}
		}
	}
	return v
}

// Waiting lists the seats with a decision still open now (bots act for
// these). A seat that has made its decision is no longer listed even if it
// could still change it.
func (s *State) Waiting() []game.Seat {
	if s.Over {
		return nil
	}
	var v []int
	switch s.Phase {
	case PhaseThief:
		if s.alive(s.ThiefSeat) && !s.ThiefDone {
			v = append(v, s.ThiefSeat)
		}
	case PhaseCupid:
		if c := s.holder(RoleCupid); c >= 0 && !s.Linked {
			v = append(v, c)
		}
	case PhaseSeer:
		if c := s.holder(RoleSeer); c >= 0 && !s.SeerDone {
			v = append(v, c)
		}
	case PhaseWolves:
		if s.Caught {
			break
		}
		if lg := s.holder(RoleLittleGirl); lg >= 0 && !s.Players[lg].PeekSet {
			v = append(v, lg)
		}
		lead := -1
		for _, w := range s.livingWolves() {
			t := s.Players[w].WolfSel
			if t >= 0 && lead < 0 {
				lead = t
			}
			if t < 0 || t != lead {
				v = append(v, w)
			}
		}
	case PhaseWitch:
		if c := s.holder(RoleWitch); c >= 0 && !s.WitchDone {
			v = append(v, c)
		}
	case PhaseHunterShot:
		v = append(v, s.ShotQueue[0])
	case PhaseSheriffSuccession, PhaseSheriffTiebreak:
		v = append(v, s.Sheriff)
	case PhaseSheriffCampaign, PhaseDiscussion:
		for i, p := range s.Players {
			if p.Alive && !p.Ready {
				v = append(v, i)
			}
		}
	case PhaseSheriffVote, PhaseSheriffRunoff, PhaseVote:
		for i, p := range s.Players {
			if p.Alive && p.Ballot == NoBallot {
				v = append(v, i)
			}
		}
	}
	return seats(v)
}

// Describe is a short label for one of the view's actions ("Vote for Anna"),
// for menus and help bars.
func (v SeatView) Describe(a Action) game.Msg {
	name := func(arg string, t int) game.Arg {
		if t >= 0 && t < len(v.Players) {
			return game.Text(arg, v.Players[t].Name)
		}
		return game.Text(arg, "?")
	}
	switch a.Kind {
	case KindThiefTake:
		if a.Target >= 0 && a.Target < len(v.ThiefSaw) {
			return game.M("werewolf.act.take", roleArg("Role", v.ThiefSaw[a.Target]))
		}
		return game.M("werewolf.act.take_any")
	case KindThiefKeep:
		return game.M("werewolf.act.keep")
	case KindCupidLink:
		return game.M("werewolf.act.link", name("A", a.Target), name("B", a.Second))
	case KindSeerInspect:
		return game.M("werewolf.act.inspect", name("Player", a.Target))
	case KindWolfSelect:
		return game.M("werewolf.act.devour", name("Player", a.Target))
	case KindWolfClear:
		return game.M("werewolf.act.clear")
	case KindWolfDone:
		return game.M("werewolf.act.done_pack")
	case KindPeek:
		if a.On {
			return game.M("werewolf.act.peek")
		}
		return game.M("werewolf.act.no_peek")
	case KindWitchHeal:
		return game.M("werewolf.act.heal", name("Player", int(v.Victim)))
	case KindWitchPoison:
		return game.M("werewolf.act.poison", name("Player", a.Target))
	case KindWitchDone:
		return game.M("werewolf.act.done")
	case KindHunterShoot:
		return game.M("werewolf.act.shoot", name("Player", a.Target))
	case KindHunterHold:
		return game.M("werewolf.act.hold")
	case KindSuccessor:
		return game.M("werewolf.act.successor", name("Player", a.Target))
	case KindStand:
		if a.On {
			return game.M("werewolf.act.stand")
		}
		return game.M("werewolf.act.stand_down")
	case KindReady:
		if a.On {
			return game.M("werewolf.act.ready")
		}
		return game.M("werewolf.act.not_ready")
	case KindBallot:
		return game.M("werewolf.act.vote", name("Player", a.Target))
	case KindAbstain:
		return game.M("werewolf.act.abstain")
	case KindTiebreak:
		return game.M("werewolf.act.lynch", name("Player", a.Target))
	case KindSay:
		if a.Line != nil {
			return game.M("werewolf.act.say", game.Sub("Line", *a.Line))
		}
		return game.M("werewolf.act.say", game.Text("Line", a.Text))
	}
	return game.M("werewolf.act.unknown")
}
