// Package werewolfui is the table screen of The Werewolves of Millers
// Hollow: it draws one seat's view (werewolf.SeatView inside an
// table.Update) and turns keys into uikit.ActMsg actions (uikit.Actions).
// The server is the narrator; the screen never decides what is legal:
// every move it offers comes from SeatView.Legal.
//
// Anti-leak by layout (spec §11.2): a living player with nothing to do in
// a night step is "asleep". Whatever their card, sleepers get one and the
// same screen built from public facts only: the narration, the countdown,
// the players as everyone sees them, the public log and their own card
// face down (c turns it up on their own request).
package werewolfui

// Why this file is long: the screen's state and its key handling for every
// phase (targets, confirmations of irreversible choices, the card, votes)
// must agree with view.go; the drawing itself is there.

import (
	"slices"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	_ "github.com/bivouac-ssh/bivouac/games/werewolf/catalog" // the game's words, registered with i18n
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Minimum size of the window the table needs, help bar included (when the
// root draws the help bar, the screen itself needs one line less).
const (
	MinWidth  = 80
	MinHeight = 24
)

// revealEvery is the pause between two ballots when a closed vote is
// revealed voter by voter; shorter when that would outlast the step (18
// ballots in a quick 3 s verdict), so the reveal always ends in time.
const revealEvery = 600 * time.Millisecond

// Screen is the Werewolves table for one session. It implements
// uikit.Screen. The zero value is not usable; call New.
type Screen struct {
	th   *uikit.Theme
	keys keyMap

	// spoken: the lines are for plain mode (Look, Hand, Table), read out
	// whole; no name is cut to a column.
	spoken bool

	helpBar bool   // draw the help bar as the last line (standalone); off by default
	notice  string // the session's notice, on lines under the body (uikit.Noticed)
	w, h    int

	u       table.Update
	v       werewolf.SeatView
	hasView bool

	cur      game.Seat        // player under the cursor, -1 for none
	first    game.Seat        // cupid: first lover picked, -1 for none
	confirm  *werewolf.Action // an irreversible choice waiting for its second keypress
	showCard bool             // asleep: the card is turned up (c; kept for the game, as the player chose)
	phaseSeq uint64           // PhaseSeq the local choices above belong to
	logBack  int              // log lines scrolled back from the newest
	logMemo  uikit.LogMemo    // the log's lines as the last frame drew them
	endTop   int              // the end screen's first line shown, when it is taller than the window
	packView bool             // the log panel shows the whole pack channel (P)
	muted    []game.Seat      // seats whose pack lines are not drawn: players this session ignores (Mute)
	sentAt   time.Time        // an action went out for this Update: wait for the next

	revealKey  string        // which closed vote is being revealed
	revealAt   time.Time     // when this screen first saw it
	revealStep time.Duration // the pause between its ballots (revealEvery or less)

	count uikit.Countdown  // the current phase's timer
	ticks uikit.Ticks      // wakes the screen while the countdown or a reveal moves
	acts  uikit.Actions    // where its actions go
	now   func() time.Time // the clock (tests replace it)
}

var _ uikit.Screen = (*Screen)(nil)

// UseAlarm sends the screen's timers through the session's alarm
// (uikit.Alarmed).
func (s *Screen) UseAlarm(a uikit.Alarm) { s.ticks.Use(a) }

// SendActionsTo sends the screen's actions straight to submit
// (uikit.Direct).
func (s *Screen) SendActionsTo(submit func(uikit.ActMsg)) { s.acts.To(submit) }

// New returns an empty table screen drawing with th (the session's theme).
func New(th *uikit.Theme) *Screen {
	s := &Screen{th: th, keys: defaultKeys(th), w: MinWidth, h: MinHeight - 1,
		cur: -1, first: -1, now: time.Now}
	s.sync()
	return s
}

// SetHelpBar says whether View draws the help bar (from Keys) as its last
// line. Off by default: the root draws it below the screen, which then
// needs 80×23. A screen shown on its own turns it on and needs 80×24.
func (s *Screen) SetHelpBar(on bool) { s.helpBar = on }

// SetNotice implements uikit.Noticed.
func (s *Screen) SetNotice(lines string) { s.notice = lines }

// SetSize is the area the screen may draw in.
func (s *Screen) SetSize(width, height int) {
	s.w, s.h = width, height
}

// SetUpdate takes the newest Update from the room.
func (s *Screen) SetUpdate(u table.Update) {
	s.u = u
	s.v, s.hasView = uikit.ViewOf[werewolf.SeatView](&u)
	s.sentAt = time.Time{}
	samePhase := s.hasView && s.v.PhaseSeq == s.phaseSeq
	// Within one phase the countdown keeps its own clock (uikit.Countdown):
	// an Update caused by someone's hidden action (the seer looking, a wolf
	// pointing) must not make it jump (§11.2).
	if s.over() {
		s.count.Stop()
	} else {
		s.count.Set(u.Deadline, s.now(), samePhase)
	}
	if !samePhase {
		s.phaseSeq = s.v.PhaseSeq
		s.first, s.confirm = -1, nil
		if s.irreversibleNow() {
			s.cur = -1 // no target chosen for the player: a stray enter does nothing
		}
	}
	if s.confirm != nil && !slices.Contains(s.legal(), *s.confirm) {
		s.confirm = nil
	}
	if k := s.lastVoteKey(); k != s.revealKey {
		s.revealKey, s.revealAt, s.revealStep = k, s.now(), s.revealPace()
	}
	s.placeCursor()
	s.sync()
}

// Keys is the screen's key map for the help bar; bindings for moves the
// engine would refuse now are disabled.
func (s *Screen) Keys() help.KeyMap {
	s.sync()
	return &s.keys // not a copy: a key map in an interface is 1 KB allocated per frame
}

// Update handles keys, its own ticks, and an UpdateMsg (a root passing
// Updates through here gets a countdown that ticks only while a timer runs).
func (s *Screen) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case uikit.UpdateMsg:
		s.SetUpdate(*msg.Update)
		return s.tick()
	case uikit.Tick:
		if !msg.Of(&s.ticks) {
			return nil
		}
		s.ticks.Fired(msg)
		return s.tick()
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed quickly arrive together: take them one at a time.
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				if cmd := s.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}); cmd != nil {
					cmds = append(cmds, cmd)
				}
			}
			s.sync()
			return tea.Batch(cmds...)
		}
		if msg.Paste {
			return nil
		}
		cmd := s.key(msg)
		s.sync()
		return cmd
	}
	return nil
}

// tick schedules the next refresh while something on screen moves: the
// countdown (once a second) or a vote being revealed (faster). Nothing
// ticks on a still screen.
func (s *Screen) tick() tea.Cmd {
	now := s.now()
	every := s.count.Next(now)
	if s.revealing() {
		every = s.pace()
	}
	var at time.Time
	if every > 0 {
		at = now.Add(every)
	}
	return s.ticks.At(now, at)
}

func (s *Screen) key(msg tea.KeyMsg) tea.Cmd {
	s.sync()
	k := &s.keys
	switch {
	case key.Matches(msg, k.Leave):
		return func() tea.Msg { return uikit.LeaveMsg{} }
	case s.confirm != nil && key.Matches(msg, k.Back):
		s.confirm = nil
	case s.confirm != nil && (key.Matches(msg, k.Choose) || (s.confirm.Kind == werewolf.KindWitchPoison && key.Matches(msg, k.Poison))):
		a := *s.confirm
		s.confirm = nil
		return s.actIf(a)
	case key.Matches(msg, k.Up):
		s.moveCursor(-1)
		s.confirm = nil
	case key.Matches(msg, k.Down):
		s.moveCursor(1)
		s.confirm = nil
	case key.Matches(msg, k.LogUp) && s.over():
		s.endTop = max(0, s.endTop-3) // the end screen scrolls as a page
	case key.Matches(msg, k.LogDown) && s.over():
		s.endTop += 3 // endBody keeps it within the page
	case key.Matches(msg, k.LogUp):
		s.logBack += 3
	case key.Matches(msg, k.LogDown):
		s.logBack = max(0, s.logBack-3)
	case key.Matches(msg, k.Card):
		s.showCard = !s.showCard
	case key.Matches(msg, k.Pack):
		s.packView, s.logBack = !s.packView, 0
	case key.Matches(msg, k.Back):
		s.first = -1
	case key.Matches(msg, k.Choose):
		return s.choose()
	case key.Matches(msg, k.Poison):
		return s.askFirst(werewolf.Action{Kind: werewolf.KindWitchPoison, Target: int(s.cur)})
	case key.Matches(msg, k.Heal):
		return s.actFirst(werewolf.KindWitchHeal)
	case key.Matches(msg, k.Peek):
		return s.actIf(werewolf.Action{Kind: werewolf.KindPeek, On: !s.v.Peeking})
	case key.Matches(msg, k.Take):
		return s.actIf(werewolf.Action{Kind: werewolf.KindThiefTake, Target: int(msg.String()[0] - '1')})
	case key.Matches(msg, k.Pass):
		if a, ok := s.passAction(); ok {
			return s.act(a)
		}
	case key.Matches(msg, k.Ready):
		return s.actFirst(werewolf.KindReady)
	case key.Matches(msg, k.Stand):
		return s.actFirst(werewolf.KindStand)
	}
	return nil
}

// choose is enter: the phase's choice on the player under the cursor.
func (s *Screen) choose() tea.Cmd {
	kind, ok := s.chooseKind()
	if !ok || s.cur < 0 {
		return nil
	}
	if kind == werewolf.KindCupidLink {
		switch {
		case s.first < 0:
			s.first = s.cur // the cursor stays: the player moves it to the second
			return nil
		case s.first == s.cur:
			s.first = -1
			return nil
		}
		a, b := min(s.first, s.cur), max(s.first, s.cur)
		return s.askFirst(werewolf.Action{Kind: kind, Target: int(a), Second: int(b)})
	}
	return s.askFirst(werewolf.Action{Kind: kind, Target: int(s.cur)})
}

// irreversibleKinds cannot be taken back once sent: each asks for a second
// keypress, and their prompts open with no player chosen.
var irreversibleKinds = []werewolf.Kind{werewolf.KindCupidLink, werewolf.KindHunterShoot,
	werewolf.KindWitchPoison, werewolf.KindSuccessor, werewolf.KindTiebreak}

// irreversibleNow: the choice the phase asks of the viewer is irreversible.
func (s *Screen) irreversibleNow() bool {
	for _, k := range irreversibleKinds {
		if s.hasKind(k) {
			return true
		}
	}
	return false
}

// askFirst sends a at once if it can be taken back; an irreversible a
// waits for the same key again (or enter), esc cancels.
func (s *Screen) askFirst(a werewolf.Action) tea.Cmd {
	if !slices.Contains(s.legal(), a) {
		return nil
	}
	if slices.Contains(irreversibleKinds, a.Kind) {
		s.confirm = &a
		return nil
	}
	return s.act(a)
}

// confirmLine asks for the second keypress of a pending irreversible choice.
func (s *Screen) confirmLine() string {
	if s.confirm == nil {
		return ""
	}
	a := *s.confirm
	n := s.name(game.Seat(a.Target))
	th := s.th
	key := "enter"
	who := game.Text("Player", n)
	what := ""
	switch a.Kind {
	case werewolf.KindHunterShoot:
		what = th.T("werewolf.act.shoot", who)
	case werewolf.KindWitchPoison:
		what, key = th.T("werewolf.act.poison", who), th.T("werewolfui.key_p_or_enter")
	case werewolf.KindSuccessor:
		what = th.T("werewolf.act.successor", who)
	case werewolf.KindTiebreak:
		what = th.T("werewolf.act.lynch", who)
	case werewolf.KindCupidLink:
		what = th.T("werewolf.act.link", game.Text("A", n), game.Text("B", s.name(game.Seat(a.Second))))
	}
	return th.T("werewolfui.confirm", game.Text("What", what), game.Text("Key", key))
}

// actIf emits a if the view lists it as legal.
func (s *Screen) actIf(a werewolf.Action) tea.Cmd {
	if !slices.Contains(s.legal(), a) {
		return nil
	}
	return s.act(a)
}

// actFirst emits the legal action of that kind (toggles have only one).
func (s *Screen) actFirst(kind werewolf.Kind) tea.Cmd {
	for _, a := range s.legal() {
		if a.Kind == kind {
			return s.act(a)
		}
	}
	return nil
}

// act emits a legal action for the Update the player is looking at.
func (s *Screen) act(a werewolf.Action) tea.Cmd {
	if s.waiting() || !s.hasView {
		return nil
	}
	s.sentAt = s.now()
	if a.Kind == werewolf.KindCupidLink {
		s.first = -1
	}
	return s.acts.Send(uikit.ActMsg{Seq: s.u.Seq, Action: a})
}

// resendAfter is how long keys wait for the Update that answers an action.
// The room may drop an action without an Update (busy inbox); after this the
// player can try again (a duplicate is refused, never applied twice).
const resendAfter = 2 * time.Second

// waiting is true while an action sent for this Update awaits an answer.
func (s *Screen) waiting() bool {
	return !s.sentAt.IsZero() && s.now().Sub(s.sentAt) < resendAfter
}

// playing is true when this session sits at a running table.
func (s *Screen) playing() bool {
	return s.hasView && s.u.Seat != game.Spectator && s.u.Closed == table.Open && !s.over()
}

func (s *Screen) over() bool {
	return s.u.Over || s.v.Over || s.v.Phase == werewolf.PhaseGameOver
}

// legal is what keys may produce now: the view's legal actions, or nothing
// while an action is on its way.
func (s *Screen) legal() []werewolf.Action {
	if !s.playing() || s.waiting() {
		return nil
	}
	return s.v.Legal
}

func (s *Screen) hasKind(kind werewolf.Kind) bool {
	for _, a := range s.legal() {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// targetedKinds are the actions enter takes on the player under the cursor,
// at most one of which is legal at a time.
var targetedKinds = []werewolf.Kind{werewolf.KindCupidLink, werewolf.KindSeerInspect, werewolf.KindWolfSelect,
	werewolf.KindHunterShoot, werewolf.KindSuccessor, werewolf.KindBallot, werewolf.KindTiebreak}

// chooseKind is what enter does now, if anything.
func (s *Screen) chooseKind() (werewolf.Kind, bool) {
	for _, k := range targetedKinds {
		if s.hasKind(k) {
			return k, true
		}
	}
	return "", false
}

// targets are the players the cursor may rest on: those the current choice
// can name, plus the player already chosen (a wolf's pick, one's ballot),
// which the engine does not list again. Seat order.
func (s *Screen) targets() []game.Seat {
	var out []game.Seat
	add := func(t int) {
		if t >= 0 && t < len(s.v.Players) && !slices.Contains(out, game.Seat(t)) {
			out = append(out, game.Seat(t))
		}
	}
	kind, ok := s.chooseKind()
	if !ok && s.hasKind(werewolf.KindWitchPoison) {
		kind, ok = werewolf.KindWitchPoison, true
	}
	if !ok {
		return nil
	}
	for _, a := range s.legal() {
		if a.Kind == kind {
			add(a.Target)
			if kind == werewolf.KindCupidLink {
				add(a.Second)
			}
		}
	}
	switch kind {
	case werewolf.KindWolfSelect:
		if t := s.myWolfChoice(); t >= 0 {
			add(int(t))
		}
	case werewolf.KindBallot:
		if s.v.MyBallot >= 0 {
			add(int(s.v.MyBallot))
		}
	}
	slices.Sort(out)
	return out
}

// myWolfChoice is the viewer's own selection in the wolves' step, or -1.
func (s *Screen) myWolfChoice() game.Seat {
	for _, c := range s.v.Choices {
		if c.Wolf == s.v.Seat {
			return c.Target
		}
	}
	return -1
}

// placeCursor keeps the cursor on its player if still a target, else puts
// it on the viewer's current pick or the first target.
func (s *Screen) placeCursor() {
	ts := s.targets()
	if len(ts) == 0 {
		s.cur = -1
		return
	}
	if slices.Contains(ts, s.cur) {
		return
	}
	if s.irreversibleNow() {
		s.cur = -1 // the player chooses with ↑/↓; nothing is chosen for them
		return
	}
	for _, pick := range []game.Seat{s.myWolfChoice(), s.v.MyBallot} {
		if pick >= 0 && slices.Contains(ts, pick) {
			s.cur = pick
			return
		}
	}
	// The next target after the old cursor, so the cursor does not jump back.
	for _, t := range ts {
		if t > s.cur {
			s.cur = t
			return
		}
	}
	s.cur = ts[0]
}

func (s *Screen) moveCursor(d int) {
	ts := s.targets()
	if len(ts) == 0 {
		s.cur = -1
		return
	}
	i := slices.Index(ts, s.cur)
	if i < 0 {
		s.cur = ts[0]
		return
	}
	s.cur = ts[(i+d+len(ts))%len(ts)]
}

// passAction is x: the phase's way of not acting (or of finishing).
func (s *Screen) passAction() (werewolf.Action, bool) {
	for _, a := range s.legal() {
		switch a.Kind {
		case werewolf.KindThiefKeep, werewolf.KindWolfClear, werewolf.KindWitchDone,
			werewolf.KindHunterHold, werewolf.KindAbstain:
			return a, true
		case werewolf.KindPeek:
			if a.On == s.v.Peeking { // "I won't peek" (or "I keep peeking")
				return a, true
			}
		}
	}
	return werewolf.Action{}, false
}

// name is a player's name as the screen shows it: a bot's "Ada (bot·easy)"
// becomes "Ada" (the players list marks bots).
func (s *Screen) name(seat game.Seat) string {
	if i := int(seat); i >= 0 && i < len(s.v.Players) {
		return s.shortName(s.v.Players[i].Name)
	}
	return "?"
}

func (s *Screen) shortName(n string) string {
	n = s.th.Text(uikit.Clean(n))
	if i := strings.Index(n, " (bot"); i > 0 && strings.HasSuffix(n, ")") {
		n = n[:i]
	}
	return n
}

// sync enables exactly the bindings that do something now, with help text
// saying what.
func (s *Screen) sync() {
	k := &s.keys
	for _, b := range k.all() {
		b.SetEnabled(false)
	}
	k.Leave.SetEnabled(true)
	k.LogUp.SetEnabled(s.hasView)
	k.Pack.SetEnabled(s.hasView && len(s.v.Pack) > 0)
	th := s.th
	if s.packView {
		k.Pack.SetHelp("P", th.T("werewolfui.key.back_to_log"))
	} else {
		k.Pack.SetHelp("P", th.T("werewolfui.key.pack"))
	}
	k.LogDown.SetEnabled(s.hasView && (s.logBack > 0 || s.over()))
	if !s.playing() {
		return
	}
	if s.asleep() {
		k.Card.SetEnabled(true)
		if s.showCard {
			k.Card.SetHelp("c", th.T("werewolfui.key.hide_card"))
		} else {
			k.Card.SetHelp("c", th.T("werewolfui.key.look_card"))
		}
	}
	ts := s.targets()
	many := len(ts) > 1
	k.Up.SetEnabled(many)
	k.Down.SetEnabled(many)
	if kind, ok := s.chooseKind(); ok && s.cur >= 0 {
		n := game.Text("Player", s.short(s.name(s.cur), 12))
		verb := th.T(map[werewolf.Kind]string{
			werewolf.KindSeerInspect: "werewolfui.key.see", werewolf.KindWolfSelect: "werewolfui.key.devour",
			werewolf.KindHunterShoot: "werewolfui.key.shoot", werewolf.KindSuccessor: "werewolfui.key.badge",
			werewolf.KindBallot: "werewolfui.key.vote", werewolf.KindTiebreak: "werewolfui.key.lynch",
		}[kind], n)
		ok := slices.Contains(s.legal(), werewolf.Action{Kind: kind, Target: int(s.cur)})
		if kind == werewolf.KindCupidLink {
			ok = true
			verb = th.T("werewolfui.key.first_lover", n)
			if s.first >= 0 {
				if s.first == s.cur {
					verb = th.T("werewolfui.key.unpick", n)
				} else {
					verb = th.T("werewolfui.key.link", game.Text("A", s.short(s.name(s.first), 10)), n)
					a, b := min(s.first, s.cur), max(s.first, s.cur)
					ok = slices.Contains(s.legal(), werewolf.Action{Kind: kind, Target: int(a), Second: int(b)})
				}
			}
		}
		if kind == werewolf.KindBallot && s.v.Phase != werewolf.PhaseVote {
			verb = th.T("werewolfui.key.elect", n)
		}
		k.Choose.SetEnabled(ok)
		k.Choose.SetHelp("enter", verb)
	}
	k.Back.SetEnabled(s.first >= 0)
	if s.confirm != nil {
		k.Choose.SetEnabled(true)
		k.Choose.SetHelp("enter", th.T("werewolfui.key.confirm"))
		k.Back.SetEnabled(true)
		k.Back.SetHelp("esc", th.T("werewolfui.key.cancel"))
	} else {
		k.Back.SetHelp("esc", th.T("werewolfui.key.undo_pick"))
	}
	if s.cur >= 0 && slices.Contains(s.legal(), werewolf.Action{Kind: werewolf.KindWitchPoison, Target: int(s.cur)}) {
		k.Poison.SetEnabled(true)
		k.Poison.SetHelp("p", th.T("werewolfui.key.poison_who", game.Text("Player", s.short(s.name(s.cur), 12))))
	}
	if s.hasKind(werewolf.KindWitchHeal) {
		k.Heal.SetEnabled(true)
		k.Heal.SetHelp("h", th.T("werewolfui.key.heal_who", game.Text("Player", s.short(s.name(s.v.Victim), 12))))
	}
	if slices.Contains(s.legal(), werewolf.Action{Kind: werewolf.KindPeek, On: !s.v.Peeking}) {
		k.Peek.SetEnabled(true)
		if s.v.Peeking {
			k.Peek.SetHelp("p", th.T("werewolfui.key.close_eyes"))
		} else {
			k.Peek.SetHelp("p", th.T("werewolfui.key.peek"))
		}
	}
	k.Take.SetEnabled(s.hasKind(werewolf.KindThiefTake))
	if a, ok := s.passAction(); ok {
		k.Pass.SetEnabled(true)
		k.Pass.SetHelp("x", th.T(map[werewolf.Kind]string{
			werewolf.KindThiefKeep: "werewolfui.key.keep_card", werewolf.KindWolfClear: "werewolfui.key.withdraw_pick",
			werewolf.KindWitchDone: "werewolfui.key.done", werewolf.KindHunterHold: "werewolfui.key.lower_rifle",
			werewolf.KindAbstain: "werewolfui.key.abstain", werewolf.KindPeek: "werewolfui.key.eyes_shut",
		}[a.Kind]))
	}
	for _, a := range s.legal() {
		switch a.Kind {
		case werewolf.KindReady:
			k.Ready.SetEnabled(true)
			if a.On {
				k.Ready.SetHelp("r", th.T("werewolfui.key.ready"))
			} else {
				k.Ready.SetHelp("r", th.T("werewolfui.key.not_ready"))
			}
		case werewolf.KindStand:
			k.Stand.SetEnabled(true)
			if a.On {
				k.Stand.SetHelp("s", th.T("werewolfui.key.stand"))
			} else {
				k.Stand.SetHelp("s", th.T("werewolfui.key.stand_down"))
			}
		}
	}
}

// asleep: a living player with nothing to do or see in this night step.
// Every such player gets the same screen, whatever their card (§11.2).
func (s *Screen) asleep() bool {
	v := s.v
	if !s.playing() || !v.Alive || !v.Phase.Night() {
		return false
	}
	switch {
	case len(v.Legal) > 0, !v.Prompt.IsZero():
		return false // acting, or just acted ("the night goes on")
	case v.Phase == werewolf.PhaseWolves && (v.Card == werewolf.RoleWerewolf || v.Card == werewolf.RoleLittleGirl):
		return false // the pack watches its choice; the little girl was caught
	case v.Phase == werewolf.PhaseLovers && v.Partner >= 0:
		return false // the lovers look into each other's eyes
	}
	return true
}

// lastVoteKey names the newest closed vote ("" if none).
func (s *Screen) lastVoteKey() string {
	n := len(s.v.Votes)
	if n == 0 {
		return ""
	}
	r := s.v.Votes[n-1]
	return r.Kind.String() + "/" + itoa(r.Day) + "/" + itoa(n)
}

// revealShown is how many ballots of the newest vote are revealed so far.
func (s *Screen) revealShown() int {
	n := len(s.v.Votes)
	if n == 0 {
		return 0
	}
	total := len(s.v.Votes[n-1].Ballots)
	if !s.revealPhase() {
		return total
	}
	shown := int(s.now().Sub(s.revealAt)/s.pace()) + 1
	return min(max(shown, 0), total)
}

// revealPhase: the phases right after a vote closes, when its ballots are
// shown (Verdict and the sheriff's tie-break after the lynch vote; the
// runoff or the discussion after the sheriff's election).
func (s *Screen) revealPhase() bool {
	n := len(s.v.Votes)
	if n == 0 || s.over() {
		return false
	}
	r := s.v.Votes[n-1]
	if r.Day != s.v.Day {
		return false
	}
	switch s.v.Phase {
	case werewolf.PhaseVerdict, werewolf.PhaseSheriffTiebreak:
		return r.Kind == werewolf.PhaseVote
	case werewolf.PhaseSheriffRunoff, werewolf.PhaseDiscussion:
		return r.Kind == werewolf.PhaseSheriffVote || r.Kind == werewolf.PhaseSheriffRunoff
	}
	return false
}

// revealing: a reveal is still under way (the screen ticks for it).
func (s *Screen) revealing() bool {
	n := len(s.v.Votes)
	return s.revealPhase() && s.revealShown() < len(s.v.Votes[n-1].Ballots)
}

// Quiet implements uikit.Quiet: an asleep screen is the same for everyone,
// so the session shows no notice of its own over it.
func (s *Screen) Quiet() bool { return s.asleep() }

// Guide implements uikit.Guide: the rules in a few lines and what the
// table's symbols mean.
func (s *Screen) Guide() string { return s.th.Wrapped("werewolfui.guide", 80) }

// pace is the pause between ballots of the reveal under way.
func (s *Screen) pace() time.Duration {
	if s.revealStep <= 0 {
		return revealEvery
	}
	return s.revealStep
}

// revealPace is the pause between ballots for the vote being revealed:
// revealEvery, or less so that every ballot is out a second before the
// step ends.
func (s *Screen) revealPace() time.Duration {
	n := len(s.v.Votes)
	left := time.Duration(s.count.Left(s.now())) * time.Second
	if n == 0 || left <= 0 {
		return revealEvery
	}
	ballots := len(s.v.Votes[n-1].Ballots)
	if ballots <= 1 {
		return revealEvery
	}
	fit := (left - time.Second) / time.Duration(ballots-1)
	return min(revealEvery, max(fit, 50*time.Millisecond))
}
