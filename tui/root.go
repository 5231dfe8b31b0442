package tui

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// MinWidth and MinHeight are the smallest window every screen works in.
const (
	MinWidth  = 80
	MinHeight = 24
	// ChatMax is the longest chat line, in runes (game.MaxChat).
	ChatMax = game.MaxChat
)

// root is the session's model and its router: it owns what every page
// shares (see page.go) and passes keys, messages and drawing to the page
// it shows.
type root struct {
	app  *App
	sess Session
	th   *uikit.Theme
	keys globalKeys
	box  *table.Mailbox
	// alarm is the table screen's timer, kept by the pump (uikit.Alarm).
	alarm *sessionAlarm

	width, height int
	fit           uikit.FrameFit // the last game frame's lines, not measured again (Lines)
	page          page           // what is on screen
	lobby         *lobbyPage     // kept: the room list follows the hub
	at            *tablePage     // the table this session sits at, or nil
	showHelp      bool
	rules         *rulesView // the rules reference over a table (R)
	notice        string
	hint          hintLine // the coach's hint on the notice line (hintline.go)

	// notes are the notices that came for the player; inbox is where
	// they come from (nil: the server has no notice board). notices.go.
	notes sessionNotices
	inbox *notice.Inbox

	// where is this session on the node's presence (nil: a guest, or no
	// presence; friends.go).
	where        *Whereabouts
	invites      chatLimit   // invitations sent: a burst, then one per inviteEvery
	friendsShown atomic.Bool // the friends page is on screen: the pump tells it of a friend's move

	// Players this session keeps away, and its picker of the players at
	// its table (I; people.go, peoplepick.go).
	people     *peoplePicker
	lists      SessionLists
	lastReport time.Time

	// session plumbing shared with the pump
	current   atomic.Pointer[table.RoomHandle] // the table this session is at, for the pump's last Detach
	lastInput atomic.Int64                     // when input last came (unix ns), stamped by activityReader for the pump's idle clock
	chat      chatLimit
	idleNote  string
	langs     atomic.Pointer[LangSave] // the language choice waiting to be stored (nil: none made)
	send      func(tea.Msg)            // the program's Send, for news from other goroutines (nil in tests)

	// The prompt line: a one-line text entry over the page (a name, a
	// code, a chat line); input is nil while none is open, and submit gets
	// what was typed.
	input  *textinput.Model
	submit func(value string) tea.Cmd

	// sitting: a join is under way (sitDown); early holds the table's
	// first update if it comes before the join's answer.
	sitting bool
	sits    int // joins begun, to tell a slow join's notice from an earlier one's
	early   table.Update

	// sent: this Update sent an action to the table, whose answer usually
	// follows within a millisecond (see tui/frames).
	sent bool

	closed string // the session is ending: why
}

func newRoot(a *App, s Session, th *uikit.Theme) *root {
	m := &root{app: a, sess: s, th: th, keys: newGlobalKeys(th), box: table.NewMailbox(), alarm: newSessionAlarm(),
		width: MinWidth, height: MinHeight, notice: s.Notice,
		chat: newChatLimit(a.ChatBurst, a.ChatEvery), invites: newChatLimit(inviteBurst, inviteEvery)}
	m.lobby = &lobbyPage{rooms: a.Hub.List()}
	m.page = m.lobby
	m.lastInput.Store(time.Now().UnixNano())
	return m
}

// switchLang draws the session in language l from now on, and remembers
// the choice for a player with a key.
func (m *root) switchLang(l i18n.Lang) {
	m.th = m.app.Theme(m.sess.Renderer, l, m.sess.ASCII)
	m.keys = newGlobalKeys(m.th)
	m.notice = m.th.T("ui.lang.now", game.Text("Lang", m.th.T("ui.lang.name")))
	if m.app.Records != nil && !m.sess.Player.Guest {
		m.langSaver().Choose(l)
	}
}

// langSaver is the session's LangSave, made at its first choice: it
// stores after a pause or when the session ends, and a failure comes back
// to the program as langSaveFailed.
func (m *root) langSaver() *LangSave {
	if s := m.langs.Load(); s != nil {
		return s
	}
	p, rec, send, log := m.sess.Player, m.app.Records, m.send, m.app.logger()
	s := NewLangSave(m.app.Clock, func(l i18n.Lang) error { return rec.SetLang(p, l) })
	s.failed = func(err error) {
		if send == nil {
			log.Warn("language choice not saved", "err", err)
			return
		}
		send(langSaveFailed{err})
	}
	context.AfterFunc(m.sess.Ctx, s.Flush)
	m.langs.Store(s)
	return s
}

// flushLang stores a language choice still waiting (the session ends). The
// pump calls it, while the program may still be running.
func (m *root) flushLang() {
	if s := m.langs.Load(); s != nil {
		s.Flush()
	}
}

// langSaveFailed: the language choice could not be stored.
type langSaveFailed struct{ err error }

// inputWidth is how wide the prompt's text may run after its label, so
// the line (label, text, cursor) fits the window.
func inputWidth(label string, w int) int {
	return max(10, w-lipgloss.Width(label)-2)
}

// newInput is the prompt's text field. It exists only while a prompt is
// open: a textinput is 5 KiB, and most sessions never type a line.
func newInput(th *uikit.Theme, width int) *textinput.Model {
	in := textinput.New()
	in.Prompt = "> "
	in.PromptStyle = th.Accent.Style()
	in.TextStyle = th.Base.Style()
	in.PlaceholderStyle = th.Muted.Style()
	in.Cursor.Style = th.Accent.Style()
	in.Width = max(10, width-6)
	return &in
}

// Init goes straight to a table for "ssh host join CODE".
func (m *root) Init() tea.Cmd {
	if code := commandCode(m.sess.Command); code != "" {
		return func() tea.Msg { return joinMsg{code: code, typed: true} }
	}
	if id := playCommand(m.sess.Command); id != "" {
		return m.playNow(id)
	}
	if c := m.sess.Command; len(c) == 2 && strings.EqualFold(c[0], "replay") {
		openReplay(m, c[1], nil)
	}
	if c := m.sess.Command; len(c) == 2 && strings.EqualFold(c[0], "review") {
		return openReview(m, c[1], nil)
	}
	if c := m.sess.Command; len(c) == 1 && strings.EqualFold(c[0], "profile") {
		openProfile(m)
		return nil
	}
	if c := m.sess.Command; len(c) == 1 && strings.EqualFold(c[0], "learn") {
		return m.learn()
	}
	return m.backToYourTable()
}

// backToYourTable is where a player who comes back lands: straight at the
// table when they hold a seat at exactly one game in progress (the lobby is
// one key away), or in the lobby told where they are seated.
func (m *root) backToYourTable() tea.Cmd {
	if len(m.sess.Command) > 0 {
		return nil
	}
	mine := GamesInProgress(m.lobby.rooms, m.sess.Player.ID)
	switch len(mine) {
	case 0:
		return nil
	case 1:
		code := mine[0]
		return func() tea.Msg { return joinMsg{code: code} }
	}
	m.notice = m.th.T("ui.notice.seats_at", game.Text("Codes", strings.Join(mine, ", ")))
	return nil
}

// GamesInProgress are the codes of the games in progress among rooms at
// which id holds a seat: where a player who comes back sits down (one) or
// is told of (several), on the full screen and in plain mode.
func GamesInProgress(rooms []table.Summary, id string) []string {
	var mine []string
	for _, r := range rooms {
		if r.Status == table.StatusPlaying && slices.Contains(r.Players, id) {
			mine = append(mine, r.Code)
		}
	}
	return mine
}

type joinMsg struct {
	code  string
	watch bool
	typed bool // the player typed the code: a guess (see App.Guesses)
}

// noticeLife is how long a notice stays on screen: long enough to read,
// short enough not to outstay its moment (a chat limit through a night).
const noticeLife = 8 * time.Second

// noticeExpiredMsg takes a notice down if it is still the one on screen.
type noticeExpiredMsg string

// Update handles msg, and gives every new notice its time on screen.
func (m *root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before, at := m.notice, m.at
	model, cmd := m.update(msg)
	if _, ok := msg.(updateArrived); ok || m.at != at {
		m.tellPlace() // only a table's update, or sitting down or leaving, moves the session
	}
	if text := m.notice; text != "" && text != before {
		cmd = tea.Batch(cmd, tea.Tick(noticeLife, func(time.Time) tea.Msg { return noticeExpiredMsg(text) }))
	}
	return model, cmd
}

func (m *root) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case campaignRefresh:
		return m, msg.page.refresh(m)
	case campaignOptionsKept:
		msg.apply(m)
		return m, nil
	case reviewTick:
		return m, msg.page.tick(m)
	case noticeExpiredMsg:
		if m.notice == string(msg) {
			m.notice = ""
		}
		return m, nil
	case noticesMsg:
		return m, m.onNotices(msg)
	case friendsChangedMsg:
		return m, nil // the page draws again, reading each friend it shows
	case bannerDown:
		if m.notes.banner.ID == string(msg) {
			m.setBanner(notice.Notice{}, time.Now())
		}
		return m, nil
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		if m.input != nil {
			m.input.Width = inputWidth(m.input.Prompt, msg.Width)
		}
		m.sizeScreen()
		return m, nil
	case lobbyChangedMsg:
		m.lobby.refreshSince(m, msg.at)
		return m, nil
	case updateArrived:
		return m, m.onUpdate(*msg.u)
	case joinMsg:
		if msg.typed && !m.mayGuess() {
			return m, nil
		}
		if msg.typed && !m.app.Hub.Has(msg.code) {
			m.wrongGuess()
		}
		return m, m.join(msg.code, msg.watch)
	case joinedMsg:
		return m, m.onJoined(msg)
	case joinSlowMsg:
		m.onJoinSlow(msg)
		return m, nil
	case noticeMsg:
		m.notice = string(msg)
		return m, nil
	case notifyDone:
		if p, ok := m.page.(*notifyPage); ok {
			p.done(m, msg)
		}
		return m, nil
	case langSaveFailed:
		m.notice = m.th.T("ui.err.save_lang", game.Text("Err", m.th.Err(msg.err)))
		return m, nil
	case uikit.HintMsg:
		m.hint.arrived(m, msg)
		return m, nil
	case uikit.ActMsg:
		m.act(msg)
		return m, nil
	case uikit.SayMsg:
		m.say(msg.Text)
		return m, nil
	case uikit.LeaveMsg:
		m.toLobby(false)
		return m, nil
	case tea.KeyMsg:
		m.idleNote = ""
		return m, m.onKey(msg)
	case Control:
		if m.control(msg) {
			return m, tea.Quit
		}
		return m, nil
	case goodbyeMsg:
		m.leaveRoom(false)
		m.closed = m.th.T(msg.key)
		return m, tea.Quit
	case keysDroppedMsg:
		m.notice = m.th.T("ui.notice.keys_dropped")
		return m, nil
	case idleMsg:
		if msg.warning > 0 {
			m.idleNote = m.th.T("ui.notice.idle_warning", game.Num("N", int(math.Ceil(msg.warning.Seconds()))))
			return m, nil
		}
		m.leaveRoom(false)
		m.closed = m.th.T("ui.bye.idle")
		return m, tea.Quit
	}
	// Anything else (cursor blink, a screen's own ticks) goes to whoever is focused.
	if m.input != nil {
		in, cmd := m.input.Update(msg)
		*m.input = in
		return m, cmd
	}
	if m.at != nil && m.page == m.at && m.at.screen != nil {
		return m, m.at.screen.Update(msg)
	}
	return m, nil
}

func (m *root) onUpdate(u table.Update) tea.Cmd {
	if m.at == nil && m.sitting {
		m.early = u // the table answered before the join did: keep it for onJoined
		return nil
	}
	if m.at == nil || u.Room != m.at.room.Code() {
		return nil // a stale update from a table this session has left
	}
	if u.Closed != table.Open {
		m.current.Store(nil)
		m.at = nil
		m.show(m.lobby)
		m.notice = m.th.T("ui.notice.table_closed", game.Text("Code", u.Room), game.Term("Why", m.app.ClosedWhy(u.Closed)))
		m.people = nil
		if u.Closed == table.Removed {
			m.notice = m.th.T("ui.people.you_removed", game.Text("Code", u.Room))
		}
		switch u.Closed {
		case table.Elsewhere:
			m.closed = m.th.T("ui.bye.elsewhere")
			return tea.Quit
		case table.Restarting:
			m.closed = m.th.T(RestartGoodbye)
			return tea.Quit
		}
		return nil
	}
	if !u.Notice.IsZero() {
		m.notice = ""
	}
	TakeBadge(&m.sess.Player, u)
	m.hint.moved(m, u.Seq)
	return m.at.update(m, u)
}

// mayGuess says whether this session may try a typed code now; while its
// address must wait after wrong codes it may not (and is told for how long).
func (m *root) mayGuess() bool {
	if wait := m.app.CodeWait(m.th, m.sess.Addr); wait != "" {
		m.notice = wait
		return false
	}
	return true
}

// wrongGuess counts a typed code that named nothing.
func (m *root) wrongGuess() { m.app.WrongCode(m.sess.Addr) }

// CodeWait is what an address must be told while its wrong codes make it
// wait before typing another ("" when it may type one now).
func (a *App) CodeWait(th *uikit.Theme, addr string) string {
	if a.Guesses == nil {
		return ""
	}
	if w := a.Guesses.Wait(addr); w > 0 {
		return th.T("ui.notice.too_many_codes", game.Num("N", int((w+time.Second-1)/time.Second))) // rounded up: never "0s"
	}
	return ""
}

// WrongCode counts a typed code from addr that named nothing.
func (a *App) WrongCode(addr string) {
	if a.Guesses != nil {
		a.Guesses.Wrong(addr)
	}
}

func (m *root) join(code string, watch bool) tea.Cmd {
	if !m.app.Hub.Has(code) {
		m.notice = m.th.T("ui.notice.no_table", game.Text("Code", code))
		m.show(m.lobby)
		return nil
	}
	hub := m.app.Hub
	// In a cluster the table may run on another node: reaching it asks
	// the cluster, so it happens off Update, with the join.
	return m.sitDown(func() (table.RoomHandle, error) {
		if r := hub.Room(code); r != nil {
			return r, nil
		}
		return nil, game.Refuse(nil, game.M("ui.notice.no_table", game.Text("Code", code)))
	}, watch)
}

// joinedMsg answers sitDown.
type joinedMsg struct {
	room table.RoomHandle
	seat game.Seat
	err  error
}

// noticeMsg is a room call's refusal, said to the player.
type noticeMsg string

// sitDown leaves the current table and joins the one room gives, off
// Update: the join waits for the room's actor, and a busy table must never
// freeze this session's screen. Until the answer comes (joinedMsg) the
// session is "sitting": keys other than ctrl+c are ignored (a few
// milliseconds, seconds on a server under load: past joinSlow the
// notice line says the table is awaited), and the room's first update is
// kept. The join waits table.CallPatience: a busy table answers late, and
// a table that is there is never an error for being slow.
func (m *root) sitDown(room func() (table.RoomHandle, error), watch bool) tea.Cmd {
	return m.sitWith(func(ctx context.Context, p table.Player, box *table.Mailbox) (table.RoomHandle, game.Seat, error) {
		r, err := room()
		if err != nil {
			return nil, game.NoSeat, err
		}
		jctx, cancel := context.WithTimeout(ctx, table.CallPatience)
		defer cancel()
		seat, err := r.Join(jctx, p, box, watch)
		if err != nil {
			return nil, game.NoSeat, err
		}
		return r, seat, nil
	})
}

// learn opens the guided first mission and sits down at it, the same way.
func (m *root) learn() tea.Cmd { return m.sitWith(m.app.StartLearning) }

// sitWith runs sit (which joins a room) off Update, as sitDown says.
func (m *root) sitWith(sit func(context.Context, table.Player, *table.Mailbox) (table.RoomHandle, game.Seat, error)) tea.Cmd {
	m.leaveRoom(false)
	m.sitting = true
	m.sits++
	ctx, p, box, current, app := m.sess.Ctx, m.sess.Player, m.box, &m.current, m.app
	// The tick's function runs on a goroutine of its own: it gets the
	// count as it is now, never the field.
	sits := m.sits
	slow := tea.Tick(joinSlow, func(time.Time) tea.Msg { return joinSlowMsg(sits) })
	return tea.Batch(slow, func() tea.Msg {
		r, seat, err := sit(ctx, p, box)
		if err != nil {
			return joinedMsg{err: err}
		}
		app.Seated(p, seat)
		// The pump detaches current when the session ends; a session that
		// ended while this join was under way detaches here.
		current.Store(&r)
		if ctx.Err() != nil {
			_ = r.Detach(box) // the session is over; a stopped room has nobody to tell
		}
		return joinedMsg{room: r, seat: seat}
	})
}

// joinSlow is how long a join may take before the player is told the
// table is awaited: longer than a join takes on a server at ease, so the
// notice does not flicker at every table.
const joinSlow = 400 * time.Millisecond

// joinSlowMsg: the join numbered so (root.sits) is still under way after joinSlow.
type joinSlowMsg int

func (m *root) onJoinSlow(msg joinSlowMsg) {
	if m.sitting && int(msg) == m.sits {
		m.notice = m.th.T("ui.waiting_table")
	}
}

// roomCall runs a request to the current table off Update; a refusal
// comes back as a notice.
func (m *root) roomCall(call func(ctx context.Context) error) tea.Cmd {
	ctx := m.sess.Ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, table.CallPatience)
		defer cancel()
		if err := call(ctx); err != nil {
			return noticeMsg(m.th.Err(err))
		}
		return nil
	}
}

func (m *root) onJoined(msg joinedMsg) tea.Cmd {
	m.sitting = false
	early := m.early
	m.early = table.Update{}
	if msg.err != nil {
		m.notice = m.th.Err(msg.err)
		return nil
	}
	r := msg.room
	m.at = &tablePage{room: r, upd: table.Update{Room: r.Code(), Seat: msg.seat}}
	m.show(m.at)
	m.notice = "" // the lobby's (where your seats are, a refusal) is about the lobby
	if early.Room == r.Code() {
		return m.onUpdate(early)
	}
	return nil
}

// act sends a screen's action to the table (it never blocks); a refusal
// is said in the notice line.
func (m *root) act(msg uikit.ActMsg) {
	if m.at == nil {
		return
	}
	m.hint.clear(m) // advice for the moment just left
	if err := m.at.room.Act(m.box, msg.Seq, msg.Action); err != nil {
		m.notice = m.th.Err(err)
		return
	}
	m.sent = true
}

// leaveRoom detaches from the current table; forGood gives the seat up.
func (m *root) leaveRoom(forGood bool) {
	if m.at == nil {
		return
	}
	// The page leaves the table either way; a stopped room has nobody
	// to tell.
	if forGood {
		_ = m.at.room.Leave(m.box)
	} else {
		_ = m.at.room.StepAway(m.box)
	}
	m.current.Store(nil)
	m.at, m.people = nil, nil
}

// toLobby leaves the table (forGood gives the seat up) for the lobby.
func (m *root) toLobby(forGood bool) {
	m.rules = nil
	m.leaveRoom(forGood)
	m.show(m.lobby)
}

// show puts p on screen; a page that was there is dropped (the lobby and
// the table this session sits at are kept by the router).
func (m *root) show(p page) {
	m.page = p
	_, friends := p.(*friendsPage)
	m.friendsShown.Store(friends)
	if p == page(m.lobby) {
		m.lobby.refresh(m)
	} else {
		m.lobby.forget()
	}
	m.sizeScreen()
}

func (m *root) say(text string) {
	text = sanitize.Line(text, ChatMax)
	if text == "" || m.at == nil {
		return
	}
	if wait := m.chat.take(time.Now()); wait > 0 {
		m.notice = m.th.T("ui.notice.chat_slow", game.Num("N", int(wait.Seconds()+0.999)))
		return
	}
	if err := m.at.room.Say(m.box, text); err != nil {
		m.notice = m.th.Err(err)
	}
}

// sizeScreen tells the page's game screen its size: the window less the
// bottom line (help bar or prompt) and the notice's banner.
func (m *root) sizeScreen() {
	if r, ok := m.page.(resizer); ok {
		r.resize(m.width, max(1, m.height-1-m.bannerLines()))
	}
}

// onKey routes a key: a prompt first, then global keys, then the page.
func (m *root) onKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, m.keys.Quit) && k.String() == "ctrl+c" {
		m.leaveRoom(false)
		m.closed = m.th.T(QuitGoodbye)
		return tea.Quit
	}
	if m.sitting {
		return nil // a second enter while a table opens must not open another
	}
	if m.input != nil {
		return m.onPromptKey(k)
	}
	if m.notes.banner.ID != "" && actLabel(m.notes.banner.Act) != "" && key.Matches(k, m.keys.Answer) {
		return m.actOnBanner()
	}
	if m.rules != nil {
		if m.rules.key(k) {
			m.rules = nil
		}
		return nil
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		// Keys typed faster than a read arrive together ("jjj"): take them
		// one at a time. A paste is never taken as commands.
		var cmds []tea.Cmd
		for i, r := range k.Runes {
			cmds = append(cmds, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
			if m.input != nil && i+1 < len(k.Runes) {
				// A key opened a prompt: the rest is what was typed into it.
				cmds = append(cmds, m.onPromptKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: k.Runes[i+1:]}))
				break
			}
		}
		return tea.Batch(cmds...)
	}
	if m.people != nil { // after the keys that came together are taken apart: "rspam" is r, then a reason
		return m.people.key(m, k)
	}
	if m.showHelp {
		m.showHelp = false
		return nil
	}
	if key.Matches(k, m.keys.Help) {
		m.showHelp = true
		return nil
	}
	return m.page.key(m, k)
}

// openPrompt opens the prompt line: a label saying what is asked, a
// placeholder, a starting value and a length limit; enter hands the value
// to submit, esc drops it.
func (m *root) openPrompt(label, placeholder, value string, limit int, submit func(value string) tea.Cmd) tea.Cmd {
	m.input = newInput(m.th, m.width)
	m.input.Prompt = label + "> "
	m.input.Width = inputWidth(m.input.Prompt, m.width)
	m.input.Placeholder = placeholder
	m.input.SetValue(value)
	m.input.CursorEnd()
	m.input.CharLimit = limit
	m.submit = submit
	return m.input.Focus()
}

func (m *root) onPromptKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		m.closePrompt()
		return nil
	case tea.KeyEnter:
		value, submit := m.input.Value(), m.submit
		m.closePrompt()
		return submit(value)
	}
	if k.Type == tea.KeyRunes {
		// What is typed or pasted shows as it will be kept: no controls,
		// escapes, bidi overrides or zero-width characters, even for a moment.
		clean := sanitize.Line(string(k.Runes), len(k.Runes))
		if clean == "" {
			return nil
		}
		k.Runes = []rune(clean)
	} else if len(k.Runes) > 0 {
		// The input cleans its runes in place, and Bubble Tea hands every
		// session the same slice for the space key: each must get its own.
		k.Runes = append([]rune(nil), k.Runes...)
	}
	in, cmd := m.input.Update(k)
	*m.input = in
	return cmd
}

func (m *root) closePrompt() {
	m.input, m.submit = nil, nil
}

// askCode opens the prompt for a table code.
func (m *root) askCode() tea.Cmd {
	// 8 characters, and the dashes people type
	return m.openPrompt(m.th.T("ui.prompt.code"), m.th.T("ui.prompt.code_hint"), "", 12, func(v string) tea.Cmd {
		return func() tea.Msg { return joinMsg{code: table.NormalizeCode(v), typed: true} }
	})
}

// askName opens the prompt for a new name. It takes more than a name may
// hold, so that a name too long is refused with the reason rather than
// cut where typing stopped.
func (m *root) askName() tea.Cmd {
	return m.openPrompt(m.th.T("ui.prompt.name"), m.th.T("ui.prompt.name_hint"), m.sess.Player.Name, 2*sanitize.MaxNameRunes, func(v string) tea.Cmd { m.rename(v); return nil })
}

// askChat opens the prompt for a line to the table.
func (m *root) askChat(hint string) tea.Cmd {
	return m.openPrompt(m.th.T("ui.prompt.say"), m.th.T("ui.prompt.say_hint", game.Text("Hint", hint)), "", ChatMax, func(v string) tea.Cmd { m.say(v); return nil })
}

func (m *root) rename(value string) {
	name, err := sanitize.Name(value)
	if err != nil {
		m.notice = m.th.Err(err)
		return
	}
	if m.app.Names != nil && name != m.sess.Player.Name {
		if err := m.app.Names.Rename(m.sess.Player.ID, m.sess.Player.Name, name); err != nil {
			m.notice = m.th.Err(err)
			return
		}
	}
	if m.app.Profiles != nil && !m.sess.Player.Guest {
		if err := m.app.Profiles.SetName(m.sess.Player.ID, name); err != nil {
			m.notice = m.th.T("ui.err.save_name", game.Text("Err", m.th.Err(err)))
			return
		}
	}
	m.sess.Player.Name = name
	m.notice = m.th.T("ui.notice.renamed", game.Text("Name", name))
}

// View draws the page, then the prompt or help bar on the last line.
func (m *root) View() string { return strings.Join(m.Lines(), "\n") }

// Lines is the screen as lines, View's lines: the session's frames are
// drawn from them (tui/frames), and a table's screen gives its lines
// without joining them first (uikit.Lined).
func (m *root) Lines() []string {
	if m.closed != "" {
		return strings.Split(m.closed+"\n", "\n")
	}
	if m.width < MinWidth || m.height < MinHeight {
		return strings.Split(tooSmall(m.th, m.width, m.height), "\n")
	}
	if m.rules != nil {
		return m.withBanner(m.th.FitLinesWidth(strings.Split(m.rules.view(m.th, m.width, m.height), "\n"), m.width))
	}
	if m.people != nil && m.at != nil && m.page == m.at {
		return m.withBanner(m.people.frame(m))
	}
	if m.showHelp {
		return m.withBanner(uikit.SplitLines(m.fullHelp()))
	}
	var body []string
	p, lined := m.page.(linedPage)
	if lined {
		body = p.frameLines(m)
	} else {
		m.fit.Forget()
		body = uikit.SplitLines(m.page.view(m))
	}
	bottom := m.page.bar(m)
	if m.input != nil {
		bottom = m.input.View()
	}
	if m.idleNote != "" {
		bottom = m.th.Notice.Render(" " + m.th.Trunc(m.idleNote, m.width-2) + " ")
	}
	above := m.height - 1
	if banner := m.bannerLine(); banner != "" {
		switch _, game := m.page.(resizer); {
		case !game:
			bottom, above = banner+"\n"+bottom, above-1
		case m.input == nil && m.idleNote == "":
			bottom = banner // over the help bar while it shows (its key is on it); a prompt keeps its line
		}
	}
	if lined { // a game's frames, a move apart, are mostly the same lines
		return m.fit.Fit(m.th, body, above, bottom, m.width)
	}
	return m.th.FitLinesWidth(uikit.FitLinesAbove(body, above, bottom), m.width)
}

// tooSmall is what every page shows in a window under 80×24.
func tooSmall(th *uikit.Theme, w, h int) string {
	msg := th.T("ui.too_small", game.Num("MinW", MinWidth), game.Num("MinH", MinHeight), game.Num("W", w), game.Num("H", h))
	if w > 0 {
		msg = lipgloss.NewStyle().Width(w).Render(msg)
	}
	return th.Warning.Render(msg)
}

// shortHelp is a one-line help bar of keys as wide as the window.
func (m *root) shortHelp(keys []key.Binding) string {
	return m.th.ShortHelp(m.width, keys)
}

func (m *root) fullHelp() string {
	about := m.th.Wrapped("ui.help.about", m.width)
	if t, ok := m.page.(*tablePage); ok {
		if t.can.Guide != nil {
			about = t.can.Guide.Guide() // at a table: this game's rules and symbols
		}
	}
	return m.th.HelpPage(m.width, m.height, m.page.keys(m), about)
}

// noticeBlock is a notice as lines that fit the window: a long one wraps
// rather than running past the edge (where the terminal would wrap it and
// leave a stray line behind on the next frame).
func (m *root) noticeBlock(text string) string {
	lines := uikit.Wrap(text, max(10, m.width-2))
	for i, l := range lines {
		lines[i] = m.th.Notice.Render(" " + l + " ")
	}
	return strings.Join(lines, "\n")
}

// rule is the line under a page's title, across the window.
func (m *root) rule() string { return m.th.Rule.Render(strings.Repeat("─", m.width)) }
