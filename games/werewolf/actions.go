package werewolf

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
)

// Kind names an action. Kinds are stable strings: they are stored in logs.
type Kind string

// Action kinds. Fields used: Target (a seat, or the thief's middle slot 0/1),
// Second (cupid's second lover), On (toggles), Seq (tick), Text (say).
const (
	KindTick        Kind = "tick"         // System: the phase's timer expired (Seq = PhaseSeq)
	KindAbandon     Kind = "abandon"      // System: every human left (§13)
	KindThiefTake   Kind = "thief_take"   // Target = middle slot 0 or 1
	KindThiefKeep   Kind = "thief_keep"   //
	KindCupidLink   Kind = "cupid_link"   // Target, Second = the two lovers
	KindSeerInspect Kind = "seer_inspect" // Target
	KindWolfSelect  Kind = "wolf_select"  // Target = proposed victim
	KindWolfClear   Kind = "wolf_clear"   // withdraw the selection
	KindWolfDone    Kind = "wolf_done"    // fast nights [NR] only: "I agree with the pack"
	KindPeek        Kind = "peek"         // little girl: On
	KindWitchHeal   Kind = "witch_heal"   // heal tonight's victim
	KindWitchPoison Kind = "witch_poison" // Target
	KindWitchDone   Kind = "witch_done"   //
	KindHunterShoot Kind = "hunter_shoot" // Target
	KindHunterHold  Kind = "hunter_hold"  //
	KindSuccessor   Kind = "successor"    // dead sheriff: Target
	KindStand       Kind = "stand"        // sheriff candidacy: On
	KindReady       Kind = "ready"        // campaign/discussion: On
	KindBallot      Kind = "ballot"       // sheriff vote, runoff, lynch vote: Target
	KindAbstain     Kind = "abstain"      //
	KindTiebreak    Kind = "tiebreak"     // sheriff: Target among the tied
	KindSay         Kind = "say"          // a chat line (Text, or a bot's Line); see Game.Say
)

// Action is everything a seat (or System) can submit.
type Action struct {
	Kind   Kind   `json:"kind"`
	Target int    `json:"target"`
	Second int    `json:"second,omitempty"`
	On     bool   `json:"on,omitempty"`
	Seq    uint64 `json:"seq,omitempty"`
	Text   string `json:"text,omitempty"`
	// Line is a bot's chat line (Game.BotLine): a message each viewer
	// reads in their own language, where a player's words are Text. A
	// pointer keeps Action comparable (legal actions are compared).
	Line *game.Msg `json:"line,omitempty"`
}

func (a Action) String() string {
	switch a.Kind {
	case KindTick:
		return fmt.Sprintf("tick(%d)", a.Seq)
	case KindCupidLink:
		return fmt.Sprintf("%s(%d,%d)", a.Kind, a.Target, a.Second)
	case KindPeek, KindStand, KindReady:
		return fmt.Sprintf("%s(%v)", a.Kind, a.On)
	case KindSay:
		if a.Line != nil {
			return fmt.Sprintf("say(%s)", *a.Line)
		}
		return fmt.Sprintf("say(%q)", a.Text)
	case KindThiefKeep, KindWolfClear, KindWolfDone, KindWitchHeal, KindWitchDone, KindHunterHold, KindAbstain, KindAbandon:
		return string(a.Kind)
	}
	return fmt.Sprintf("%s(%d)", a.Kind, a.Target)
}

// Apply applies seat's action to s in place. On error s may be partly
// changed: Game.Apply works on a clone.
func (s *State) apply(seat int, a Action, out *[]game.Event) error {
	if seat == int(game.System) {
		switch a.Kind {
		case KindTick:
			if a.Seq == s.PhaseSeq {
				s.endPhase(out)
			}
		case KindAbandon:
			s.finish(OutcomeAbandoned, nil, game.M("werewolf.end.abandoned"), out)
			return nil
		default:
			return ErrNotAllowed
		}
		s.settle(out)
		return nil
	}
	if !s.valid(seat) {
		return ErrNotAllowed
	}
	var err error
	switch a.Kind {
	case KindThiefTake, KindThiefKeep:
		err = s.actThief(seat, a, out)
	case KindCupidLink:
		err = s.actCupid(seat, a, out)
	case KindSeerInspect:
		err = s.actSeer(seat, a, out)
	case KindWolfSelect, KindWolfClear, KindWolfDone:
		err = s.actWolf(seat, a, out)
	case KindPeek:
		err = s.actPeek(seat, a)
	case KindWitchHeal, KindWitchPoison, KindWitchDone:
		err = s.actWitch(seat, a, out)
	case KindHunterShoot, KindHunterHold:
		err = s.actHunter(seat, a, out)
	case KindSuccessor:
		err = s.actSuccessor(seat, a, out)
	case KindStand, KindReady:
		err = s.actDay(seat, a, out)
	case KindBallot, KindAbstain:
		err = s.actBallot(seat, a)
	case KindTiebreak:
		err = s.actTiebreak(seat, a, out)
	case KindSay:
		line := chatLine{text: a.Text}
		if a.Line != nil {
			line.msg = *a.Line
			if line.msg.IsZero() {
				return game.ErrBadAction
			}
		}
		err = s.chat(seat, line, true, out)
	case KindTick, KindAbandon:
		err = ErrNotAllowed
	default:
		err = game.ErrBadAction
	}
	if err != nil {
		return err
	}
	s.settle(out)
	return nil
}

// target checks a seat named by an action: a living player.
func (s *State) target(t int) error {
	if !s.valid(t) {
		return ErrNoSuchPlayer
	}
	if !s.Players[t].Alive {
		return ErrTargetDead
	}
	return nil
}

// acting reports whether seat is the living holder of card r in phase p.
func (s *State) acting(seat int, p Phase, r Role) bool {
	return s.Phase == p && s.alive(seat) && s.Players[seat].Card == r
}

func (s *State) actThief(seat int, a Action, out *[]game.Event) error {
	if s.Phase != PhaseThief || seat != s.ThiefSeat || s.ThiefDone || !s.alive(seat) {
		return ErrNotAllowed
	}
	if a.Kind == KindThiefKeep {
		if s.Middle[0] == RoleWerewolf && s.Middle[1] == RoleWerewolf {
			return ErrMustSwap
		}
		s.ThiefDone = true
		s.secret(out, game.M("werewolf.thief_keeps"), seat)
		s.history("werewolf.history.thief_kept", s.who("Player", seat))
		return nil
	}
	if a.Target != 0 && a.Target != 1 {
		return ErrBadSlot
	}
	s.thiefTake(a.Target, out)
	return nil
}

func (s *State) actCupid(seat int, a Action, out *[]game.Event) error {
	if !s.acting(seat, PhaseCupid, RoleCupid) || s.Linked {
		return ErrNotAllowed
	}
	if err := s.target(a.Target); err != nil {
		return err
	}
	if err := s.target(a.Second); err != nil {
		return err
	}
	if a.Target == a.Second {
		return ErrSamePlayer
	}
	s.link(seat, a.Target, a.Second, false, out)
	return nil
}

func (s *State) actSeer(seat int, a Action, out *[]game.Event) error {
	if !s.acting(seat, PhaseSeer, RoleSeer) || s.SeerDone {
		return ErrNotAllowed
	}
	if err := s.target(a.Target); err != nil {
		return err
	}
	if a.Target == seat {
		return ErrSelf
	}
	s.SeerDone = true
	c := s.Players[a.Target].Card
	p := &s.Players[seat]
	p.Visions = append(p.Visions, Vision{Night: s.Night, Target: game.Seat(a.Target), Card: c})
	*out = append(*out, private(game.M("werewolf.seer_sees", s.who("Target", a.Target), roleArg("Role", c)), seat))
	if w := s.watchers(); len(w) > 0 {
		*out = append(*out, private(game.M("werewolf.seer_watched", s.who("Player", seat), s.who("Target", a.Target), roleArg("Role", c)), w...))
	}
	s.history("werewolf.history.seer_saw", game.Num("Night", s.Night), s.who("Player", seat), s.who("Target", a.Target), roleArg("Role", c))
	return nil
}

func (s *State) actWolf(seat int, a Action, out *[]game.Event) error {
	if !s.acting(seat, PhaseWolves, RoleWerewolf) {
		return ErrNotAllowed
	}
	if s.Caught {
		return ErrLocked
	}
	p := &s.Players[seat]
	if a.Kind == KindWolfDone {
		if !s.fast() || p.WolfDone {
			return ErrNotAllowed
		}
		p.WolfDone = true
		s.wolvesEvent(seat, game.Narration, chatLine{}, game.M("werewolf.pack.done", s.who("Player", seat)), game.M("werewolf.relay.done"), true, out)
		return nil
	}
	if a.Kind == KindWolfClear {
		if p.WolfSel < 0 {
			return ErrNotAllowed
		}
		p.WolfSel = nobody
		s.wolvesEvent(seat, game.Narration, chatLine{}, game.M("werewolf.pack.clear", s.who("Player", seat)), game.M("werewolf.relay.clear"), true, out)
		return nil
	}
	if err := s.target(a.Target); err != nil {
		return err
	}
	if s.isWolf(a.Target) {
		return ErrTargetWolf
	}
	if p.WolfSel == a.Target {
		return ErrNotAllowed
	}
	p.WolfSel = a.Target
	t := s.who("Target", a.Target)
	s.wolvesEvent(seat, game.Narration, chatLine{}, game.M("werewolf.pack.points", s.who("Player", seat), t), game.M("werewolf.relay.points", t), true, out)
	return nil
}

func (s *State) actPeek(seat int, a Action) error {
	// Setting the current value is allowed once, so that "I won't peek" is
	// a decision too.
	if !s.acting(seat, PhaseWolves, RoleLittleGirl) || s.Caught || (s.Peeking == a.On && s.Players[seat].PeekSet) {
		return ErrNotAllowed
	}
	s.Peeking = a.On
	s.Players[seat].PeekSet = true
	return nil
}

func (s *State) actWitch(seat int, a Action, out *[]game.Event) error {
	if !s.acting(seat, PhaseWitch, RoleWitch) || s.WitchDone {
		return ErrNotAllowed
	}
	switch a.Kind {
	case KindWitchHeal:
		if !s.HealLeft {
			return ErrNoPotion
		}
		if s.Victim < 0 || s.Healed {
			return ErrNoVictim
		}
		s.Healed, s.HealLeft = true, false
		s.secret(out, game.M("werewolf.witch_heals", s.who("Target", s.Victim)), seat)
		s.history("werewolf.history.witch_healed", game.Num("Night", s.Night), s.who("Player", seat), s.who("Target", s.Victim))
	case KindWitchPoison:
		if !s.PoisonLeft || s.Poisoned >= 0 {
			return ErrNoPotion
		}
		if err := s.target(a.Target); err != nil {
			return err
		}
		s.Poisoned, s.PoisonLeft = a.Target, false
		s.secret(out, game.M("werewolf.witch_poisons", s.who("Target", a.Target)), seat)
		s.history("werewolf.history.witch_poisoned", game.Num("Night", s.Night), s.who("Player", seat), s.who("Target", a.Target))
	default:
		s.WitchDone = true
		if !s.fast() {
			*out = append(*out, private(game.M("werewolf.acted"), seat))
		}
	}
	return nil
}

func (s *State) actHunter(seat int, a Action, out *[]game.Event) error {
	if s.Phase != PhaseHunterShot || len(s.ShotQueue) == 0 || s.ShotQueue[0] != seat {
		return ErrNotAllowed
	}
	if a.Kind == KindHunterHold {
		s.hunterHold(out)
		return nil
	}
	if err := s.target(a.Target); err != nil {
		return err
	}
	s.hunterShoot(a.Target, out)
	return nil
}

func (s *State) actSuccessor(seat int, a Action, out *[]game.Event) error {
	if s.Phase != PhaseSheriffSuccession || seat != s.Sheriff {
		return ErrNotAllowed
	}
	if err := s.target(a.Target); err != nil {
		return err
	}
	s.passBadge(a.Target, true, out)
	return nil
}

func (s *State) actDay(seat int, a Action, out *[]game.Event) error {
	if !s.alive(seat) {
		return ErrNotAllowed
	}
	p := &s.Players[seat]
	if a.Kind == KindStand {
		if s.Phase != PhaseSheriffCampaign || p.Candidate == a.On {
			return ErrNotAllowed
		}
		p.Candidate = a.On
		if a.On {
			*out = append(*out, narration(game.M("werewolf.stands", s.who("Player", seat))))
		} else {
			*out = append(*out, narration(game.M("werewolf.stands_down", s.who("Player", seat))))
		}
		return nil
	}
	if (s.Phase != PhaseSheriffCampaign && s.Phase != PhaseDiscussion) || p.Ready == a.On {
		return ErrNotAllowed
	}
	p.Ready = a.On
	return nil
}

// ballotOK says whether seat may put t on its ballot now.
func (s *State) ballotOK(seat, t int) error {
	if err := s.target(t); err != nil {
		return err
	}
	switch s.Phase {
	case PhaseVote:
		if t == seat {
			return ErrSelf
		}
		if t == s.partner(seat) {
			return ErrNotAllowed
		}
	case PhaseSheriffVote, PhaseSheriffRunoff:
		if !slices.Contains(s.Eligible, t) {
			return ErrNotEligible
		}
		if t == seat && !s.Players[seat].Candidate {
			return ErrSelf
		}
	}
	return nil
}

func (s *State) actBallot(seat int, a Action) error {
	if !s.alive(seat) || (s.Phase != PhaseVote && s.Phase != PhaseSheriffVote && s.Phase != PhaseSheriffRunoff) {
		return ErrNotAllowed
	}
	p := &s.Players[seat]
	if a.Kind == KindAbstain {
		if p.Ballot == Abstain {
			return ErrNotAllowed
		}
		p.Ballot = Abstain
		return nil
	}
	if err := s.ballotOK(seat, a.Target); err != nil {
		return err
	}
	if p.Ballot == a.Target {
		return ErrNotAllowed
	}
	p.Ballot = a.Target
	return nil
}

func (s *State) actTiebreak(seat int, a Action, out *[]game.Event) error {
	if s.Phase != PhaseSheriffTiebreak || seat != s.Sheriff || !s.alive(seat) {
		return ErrNotAllowed
	}
	if !slices.Contains(s.Tied, a.Target) {
		return ErrNotEligible
	}
	if a.Target == s.partner(seat) {
		return ErrNotAllowed
	}
	*out = append(*out, narration(game.M("werewolf.tiebreak", s.who("Player", seat), s.who("Target", a.Target))))
	s.verdict(a.Target, game.Msg{}, out)
	return nil
}

// Chat.

const maxChatRunes = game.MaxChat

// CleanText keeps printable text in any script, drops controls and bidi
// overrides, and caps the length.
func CleanText(text string) string {
	var b strings.Builder
	n := 0
	for _, r := range text {
		if n == maxChatRunes {
			break
		}
		if r == utf8.RuneError || !(unicode.IsPrint(r) || r == ' ') {
			continue
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// WolvesPrefix sends a line to the wolves' channel explicitly ("/w eat Anna").
// A living werewolf's lines in the wolves' step go there anyway.
const WolvesPrefix = "/w "

// chatLine is what a seat says: a player's words, or a bot's line.
type chatLine struct {
	text string
	msg  game.Msg // a bot's line (text is then unused)
}

// BotLinePrefix starts the catalog key of every line a bot may say: a
// logged line with another key is refused, so the log can make a bot say
// nothing but a bot's line.
const BotLinePrefix = "werewolf.bot."

// botLineOK reports whether m is a line a bot may say: one of its keys,
// with names (text) as its only arguments.
func botLineOK(m game.Msg) bool {
	if !strings.HasPrefix(m.Key, BotLinePrefix) || len(m.Args) > 2 {
		return false
	}
	for _, a := range m.Args {
		if a.Kind != game.ArgText || utf8.RuneCountInString(a.Str) > maxChatRunes {
			return false
		}
	}
	return true
}

// event is a chat event of the line for aud.
func (l chatLine) event(aud game.Audience, seat int, channel string) game.Event {
	return game.Event{Audience: aud, Kind: game.Chat, From: game.Seat(seat), Channel: channel, Text: l.text, Msg: l.msg}
}

// chat turns a line into events. With commit (the KindSay action, which is
// logged), relay draws use the state RNG and may catch the little girl; from
// Game.Say, which may not change the state, the draws come from a hash of
// the state and the line, and no catch happens.
func (s *State) chat(seat int, line chatLine, commit bool, out *[]game.Event) error {
	if !s.valid(seat) {
		return ErrNotAllowed
	}
	wolvesOnly := false
	if line.msg.IsZero() {
		wolvesOnly = strings.HasPrefix(line.text, WolvesPrefix)
		if wolvesOnly {
			line.text = line.text[len(WolvesPrefix):]
		}
		line.text = CleanText(line.text)
		if line.text == "" {
			return ErrEmptyChat
		}
	} else if line.text = ""; !botLineOK(line.msg) {
		return game.ErrBadAction
	}
	p := &s.Players[seat]
	switch {
	case s.Over:
		if wolvesOnly {
			return ErrNotAllowed
		}
		*out = append(*out, line.event(game.Everyone(), seat, ChannelTable))
	case !p.Alive:
		if wolvesOnly || s.lastBreath(seat) {
			return ErrNotAllowed
		}
		*out = append(*out, line.event(game.Only(seats(s.graveyard())...), seat, ChannelDead))
	case s.Phase == PhaseWolves && p.Card == RoleWerewolf:
		if commit { // a logged line: the channel keeps it for the game
			s.Pack = append(s.Pack, PackLine{Night: s.Night, From: game.Seat(seat), Text: line.text, Line: line.msg})
		}
		s.wolvesEvent(seat, game.Chat, line, game.Msg{}, s.relayLine(line), commit, out)
	case wolvesOnly:
		return ErrNotAllowed
	case s.Phase.Night():
		return ErrChatClosed
	default:
		*out = append(*out, line.event(game.Everyone(), seat, ChannelTable))
	}
	return nil
}

// relayLine is what the little girl glimpses of a wolf's line: the line
// with the wolves' names hidden.
func (s *State) relayLine(line chatLine) game.Msg {
	if line.msg.IsZero() {
		return game.M("werewolf.relay.says", game.Text("Line", s.redactWolves(line.text)))
	}
	m := game.Msg{Key: line.msg.Key, Args: make([]game.Arg, len(line.msg.Args))}
	for i, a := range line.msg.Args {
		a.Str = s.redactWolves(a.Str)
		m.Args[i] = a
	}
	return game.M("werewolf.relay.says", game.Sub("Line", m))
}

// wolvesEvent emits one item of the wolves' channel and, if the little girl
// peeks, maybe its anonymised relay (spec §5.7).
// A chat line comes as line, a move of the pack as msg; relay is what the
// little girl may glimpse of it.
func (s *State) wolvesEvent(from int, kind game.EventKind, line chatLine, msg, relay game.Msg, commit bool, out *[]game.Event) {
	aud := append(s.livingWolves(), s.watchers()...)
	if msg.IsZero() {
		msg = line.msg
	}
	*out = append(*out, game.Event{Audience: game.Only(seats(aud)...), Kind: kind, From: game.Seat(from), Channel: ChannelWolves, Text: line.text, Msg: msg})
	lg := s.holder(RoleLittleGirl)
	defer func() {
		if commit {
			s.WolfEvents++
		}
	}()
	if lg < 0 || !s.Peeking || s.Caught {
		return
	}
	var u float64
	if commit {
		u = s.rand().Float64()
	} else {
		u = s.hashDraw(from, line.text+line.msg.String())
	}
	if u >= s.Opts.LittleGirlRelay {
		return
	}
	*out = append(*out, game.Event{Audience: game.Only(game.Seat(lg)), Kind: game.Chat, From: -1, Channel: ChannelRelay, Msg: relay})
	if !commit {
		return
	}
	s.Players[lg].Relayed = append(s.Players[lg].Relayed, relay)
	if s.rand().Float64() < s.Opts.LittleGirlCatch {
		s.Caught, s.Peeking = true, false
		*out = append(*out, private(game.M("werewolf.girl_caught"), lg))
		s.secret(out, game.M("werewolf.caught_girl", s.who("Player", lg)), s.livingWolves()...)
		s.history("werewolf.history.girl_caught", game.Num("Night", s.Night), s.who("Player", lg))
	}
}

// Redacted stands for a werewolf's name in a line the little girl glimpses:
// a mark rather than a word, since the line is relayed as it was typed.
const Redacted = "[***]"

// hashDraw is a uniform number in [0, 1) fixed by the state and the line.
func (s *State) hashDraw(from int, text string) float64 {
	h := fnv.New64a()
	var b [8]byte
	for _, v := range []uint64{s.Salt, s.PhaseSeq, uint64(s.WolfEvents), uint64(from)} {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	h.Write([]byte(text))
	return float64(h.Sum64()>>11) / float64(1<<53)
}

// redactWolves replaces every werewolf's name (whole words, any case) in a
// relayed line, so a glimpse never names a wolf.
func (s *State) redactWolves(text string) string {
	for i, p := range s.Players {
		if p.Card == RoleWerewolf || p.Original == RoleWerewolf {
			text = redactWord(text, s.Players[i].Name)
		}
	}
	return text
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func redactWord(text, name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return text
	}
	lt, ln := strings.ToLower(text), strings.ToLower(name)
	if len(lt) != len(text) { // case folding changed byte lengths: fall back to exact case
		lt, ln = text, name
	}
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(lt[i:], ln)
		if j < 0 {
			b.WriteString(text[i:])
			return b.String()
		}
		j += i
		end := j + len(ln)
		before, _ := utf8.DecodeLastRuneInString(text[:j])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (j > 0 && isWordRune(before)) || (end < len(text) && isWordRune(after)) {
			b.WriteString(text[i : j+1])
			i = j + 1
			continue
		}
		b.WriteString(text[i:j])
		b.WriteString(Redacted)
		i = end
	}
}
