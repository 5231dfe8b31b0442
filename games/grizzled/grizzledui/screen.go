// Package grizzledui is the table screen of The Grizzled: it draws one
// seat's view (grizzled.SeatView inside an table.Update) and turns keys
// into uikit.ActMsg actions (uikit.Actions). It never talks to a room and
// never decides what is legal: every move it offers comes from
// SeatView.Legal.
package grizzledui

import (
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	_ "github.com/bivouac-ssh/bivouac/games/grizzled/catalog" // the game's words, registered with i18n
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

// Screen is the table of The Grizzled for one session. It implements
// uikit.Screen. The zero value is not usable; call New.
type Screen struct {
	words // the theme, the newest Update and its view
	keys  keyMap

	spoken bool // the status line is for plain mode: threats in words only (Asked)

	helpBar bool   // draw the help bar as the last line (see SetHelpBar); off by default
	notice  string // the session's notice, on lines under the body (uikit.Noticed)
	w, h    int

	coach   *coach // the guided mission's teacher (StartCoach); nil at other tables
	hasView bool

	sel    int             // cursor in the hand
	selID  grizzled.CardID // card under the cursor, kept across updates
	mode   askKind         // a chooser the player opened (askCharm, askSpeech) or askNone
	opt    int             // cursor in the current chooser
	optOf  askKind         // which chooser opt belongs to
	sentAt time.Time       // an action went out for this Update: wait for the next (see waiting)

	count     uikit.Countdown  // the current timer (the speech window)
	ticks     uikit.Ticks      // wakes the screen when the countdown's number changes
	acts      uikit.Actions    // where its actions go
	logBack   int              // log lines scrolled back from the newest ([ and ])
	logMemo   uikit.LogMemo    // the log's lines as the last frame drew them
	logEvents [][]string       // logLines' scratch list, kept empty between frames
	scratch   bodyScratch      // body's other lists, kept empty between frames
	now       func() time.Time // the clock (tests replace it)

	parts shownParts // the shared parts this screen drew last
	hand  handMemos  // the hand part as drawn last, by what it was drawn from

	// While a frame is drawn (body) the question asked does not change:
	// worked out once, not by every part that shows it.
	drawing  bool
	drawnAsk ask
	updates  uint64   // counts SetUpdate's calls: the Update askNow's memo was worked out for
	asked    asked    // askNow's memo
	left     struct { // timeLeft's last words
		th   *uikit.Theme
		n    int
		text string
	}
	inks    threatInks // the threats' styles for this theme (threats)
	threatW struct {   // threatNameW's answer for this theme
		th *uikit.Theme
		w  int
	}
	head struct { // the soldiers' column headers, drawn once per theme and width
		th   *uikit.Theme
		w    int
		text string
	}
}

// shownParts are the shared parts a screen drew last (see sharedLines).
type shownParts struct {
	title, nml, handHead, hand, detail, logRule uikit.Part
	soldiers, soldierWraps                      [6]uikit.Part // by the soldier's place in the view
	threats                                     [grizzled.NumThreats]uikit.Part
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
	s := &Screen{words: words{th: th}, keys: defaultKeys(th), w: MinWidth, h: MinHeight - 1, now: time.Now}
	s.sync()
	return s
}

// SetHelpBar says whether View draws the help bar (from Keys) as its last
// line. It is off by default: per the uikit.Screen contract the root draws
// the help bar from Keys on the line below the screen, so the screen needs
// 80×23. A screen shown on its own (tests, demos) turns it on and then
// needs 80×24.
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
	s.updates++
	s.v, s.hasView = uikit.ViewOf[grizzled.SeatView](&u)
	s.sentAt = time.Time{}
	s.count.Set(u.Deadline, s.now(), false)
	// Keep the cursor on the same card if it is still in hand.
	if i := slices.Index(s.v.Hand, s.selID); s.hasView && s.selID != grizzled.NoCard && i >= 0 {
		s.sel = i
	}
	s.clampHand()
	if s.mode != askNone && len(s.legalOf(modeKind(s.mode))) == 0 {
		s.mode = askNone
	}
	s.observe()
	s.sync()
}

// Keys is the screen's key map for the help bar; bindings for moves the
// engine would refuse now are disabled.
func (s *Screen) Keys() help.KeyMap {
	s.sync()
	return &s.keys // not a copy: a key map in an interface is 1 KB allocated per frame
}

// Update handles keys, its own countdown ticks, and an UpdateMsg: a root
// that passes Updates through here (rather than SetUpdate) gets a
// countdown that ticks once a second while a timer runs, and only then.
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
			// Keys typed quickly can arrive as one message ("2p"): take
			// them one at a time. At most one action goes out per Update.
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}
				if cmd := s.key(k); cmd != nil {
					cmds = append(cmds, cmd)
				}
			}
			s.sync()
			return tea.Batch(cmds...)
		}
		cmd := s.key(msg)
		s.sync()
		return cmd
	}
	return nil
}

// tick wishes the screen woken when the countdown's number changes (and
// not at all when no timer runs).
func (s *Screen) tick() tea.Cmd {
	now := s.now()
	var at time.Time
	if every := s.count.Next(now); every > 0 {
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
	case key.Matches(msg, k.LogUp):
		s.logBack += 3 // logLines keeps it within the log
		return nil
	case key.Matches(msg, k.LogDown):
		s.logBack = max(0, s.logBack-3)
		return nil
	case msg.Type == tea.KeySpace && s.coach != nil && len(s.coach.queue) > 0:
		s.NextLesson()
		return nil
	}
	a := s.current()
	if a.kind != askNone {
		s.focusChooser(a)
		switch {
		case key.Matches(msg, k.Prev):
			s.opt = (s.opt - 1 + len(a.choices)) % len(a.choices)
		case key.Matches(msg, k.Next):
			s.opt = (s.opt + 1) % len(a.choices)
		case key.Matches(msg, k.Pick):
			s.pickChoice(a, msg.String())
		case key.Matches(msg, k.Confirm):
			return s.act(a.choices[s.opt].act)
		case key.Matches(msg, k.Back):
			s.mode = askNone
		case key.Matches(msg, k.Pass):
			return s.actKind(grizzled.ActSpeechPass)
		case key.Matches(msg, k.Restore):
			return s.actKind(grizzled.ActBenefitCharm)
		case key.Matches(msg, k.Decline):
			return s.actKind(grizzled.ActBenefitDecline)
		}
		return nil
	}
	n := len(s.v.Hand)
	switch {
	case key.Matches(msg, k.Prev):
		s.setSel((s.sel - 1 + n) % n)
	case key.Matches(msg, k.Next):
		s.setSel((s.sel + 1) % n)
	case key.Matches(msg, k.Pick):
		if i := int(msg.String()[0] - '1'); i < n {
			s.setSel(i)
		}
	case key.Matches(msg, k.Play):
		if s.sel < n {
			c := s.v.Hand[s.sel]
			for _, l := range s.legalOf(grizzled.ActPlay) {
				if l.Card == c {
					return s.act(l)
				}
			}
		}
	case key.Matches(msg, k.Charm):
		s.mode = askCharm
	case key.Matches(msg, k.Speech):
		s.mode = askSpeech
	case key.Matches(msg, k.Withdraw):
		return s.actKind(grizzled.ActWithdraw)
	}
	return nil
}

// pickChoice moves the chooser cursor for a digit key: the k itself for
// the intensity, else the n-th choice.
func (s *Screen) pickChoice(a ask, d string) {
	n := int(d[0] - '0')
	if a.kind == askIntensity {
		for i, c := range a.choices {
			if c.act.K == n {
				s.opt = i
			}
		}
		return
	}
	if n-1 < len(a.choices) {
		s.opt = n - 1
	}
}

func (s *Screen) setSel(i int) {
	s.sel = i
	s.selID = s.v.Hand[i]
}

func (s *Screen) clampHand() {
	if s.sel >= len(s.v.Hand) {
		s.sel = max(len(s.v.Hand)-1, 0)
	}
	if s.sel < len(s.v.Hand) {
		s.selID = s.v.Hand[s.sel]
	} else {
		s.selID = grizzled.NoCard
	}
}

// focusChooser resets the chooser cursor when the chooser changes.
func (s *Screen) focusChooser(a ask) {
	if s.optOf != a.kind {
		s.optOf, s.opt = a.kind, 0 // a new chooser starts on its first choice (the smallest k)
	}
	if s.opt >= len(a.choices) {
		s.opt = max(len(a.choices)-1, 0)
	}
}

// act emits a legal action for the Update the player is looking at.
func (s *Screen) act(a grizzled.Action) tea.Cmd {
	if s.waiting() || !s.hasView {
		return nil
	}
	a.Cards = slices.Clone(a.Cards)
	s.sentAt = s.now()
	s.mode = askNone
	return s.acts.Send(uikit.ActMsg{Seq: s.u.Seq, Action: a})
}

// resendAfter is how long keys wait for the Update that answers an action.
// The room may drop an action without an Update (busy inbox); after this
// the player can try again (a duplicate is refused as stale, never applied twice).
const resendAfter = 2 * time.Second

// waiting is true while an action sent for this Update awaits an answer.
func (s *Screen) waiting() bool {
	return !s.sentAt.IsZero() && s.now().Sub(s.sentAt) < resendAfter
}

func (s *Screen) actKind(kind grizzled.ActionKind) tea.Cmd {
	if l := s.legalOf(kind); len(l) > 0 {
		return s.act(l[0])
	}
	return nil
}

// playing is true when this session sits at the table and may act.
func (s *Screen) playing() bool {
	return s.hasView && s.u.Seat != game.Spectator && !s.u.Over && s.u.Closed == table.Open && !s.v.Over
}

func (s *Screen) legalOf(kinds ...grizzled.ActionKind) []grizzled.Action {
	if !s.playing() || s.waiting() {
		return nil
	}
	var out []grizzled.Action
	for _, a := range s.v.Legal {
		if slices.Contains(kinds, a.Kind) {
			out = append(out, a)
		}
	}
	return out
}

// has is len(legalOf(kind)) > 0 without building the list (sync asks on
// every frame).
func (s *Screen) has(kind grizzled.ActionKind) bool {
	if !s.playing() || s.waiting() {
		return false
	}
	for _, a := range s.v.Legal {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// sync enables exactly the bindings that do something now.
func (s *Screen) sync() {
	k := &s.keys
	for _, b := range k.all() {
		b.SetEnabled(false)
	}
	k.Leave.SetEnabled(true)
	k.LogUp.SetEnabled(true)
	k.LogDown.SetEnabled(s.logBack > 0)
	if !s.playing() {
		return
	}
	a := s.current()
	if a.kind == askNone {
		many := len(s.v.Hand) > 1
		k.Prev.SetEnabled(many)
		k.Next.SetEnabled(many)
		k.Pick.SetEnabled(many)
		k.Prev.SetHelp("←/→", s.th.T("grizzledui.key.card"))
		k.Pick.SetHelp("1-9", s.th.T("grizzledui.key.pick"))
		k.Play.SetEnabled(s.has(grizzled.ActPlay))
		k.Charm.SetEnabled(s.has(grizzled.ActCharm))
		k.Speech.SetEnabled(s.has(grizzled.ActSpeech))
		k.Withdraw.SetEnabled(s.has(grizzled.ActWithdraw))
		return
	}
	s.focusChooser(a)
	many := len(a.choices) > 1
	k.Prev.SetEnabled(many)
	k.Next.SetEnabled(many)
	k.Pick.SetEnabled(many)
	k.Prev.SetHelp("←/→", s.th.T("grizzledui.key.choose"))
	k.Pick.SetHelp("1-9", s.th.T("grizzledui.key.pick"))
	if a.kind == askIntensity {
		k.Prev.SetHelp("←/→", s.th.T("grizzledui.key.fewer_more"))
		k.Pick.SetHelp("1-9", s.th.T("grizzledui.key.cards"))
	}
	k.Confirm.SetEnabled(len(a.choices) > 0)
	k.Confirm.SetHelp("enter", a.confirm)
	k.Back.SetEnabled(a.cancel)
	k.Pass.SetEnabled(s.has(grizzled.ActSpeechPass))
	k.Restore.SetEnabled(s.has(grizzled.ActBenefitCharm))
	k.Decline.SetEnabled(s.has(grizzled.ActBenefitDecline))
}

// Guide implements uikit.Guide: the rules in a few lines and what the
// table's symbols mean.
func (s *Screen) Guide() string { return s.th.Wrapped("grizzledui.guide", 80) }
