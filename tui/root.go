package tui

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"bivouac/game"
	"bivouac/sanitize"
	"bivouac/table"
	"bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// MinWidth and MinHeight are the smallest window every screen works in.
const (
	MinWidth  = 80
	MinHeight = 24
	// ChatMax is the longest chat line, in runes.
	ChatMax = 200
)

type page int

const (
	pageLobby page = iota
	pageForm
	pageTable
	pageProfile
	pageCampaigns
	pageCampaign
	pageReplay
)

// prompt is a one-line text entry over the current page (name, code, chat).
type prompt int

const (
	promptNone prompt = iota
	promptName
	promptCode
	promptChat
	promptCampaignName
	promptCampaignCode
)

// root is the session's model: it owns the page, focus, prompts and help.
type root struct {
	app  *App
	sess Session
	th   *uikit.Theme
	keys globalKeys
	box  *table.Mailbox

	width, height int
	page          page
	showHelp      bool
	notice        string

	// lobby
	rooms  []table.Summary
	vis    []table.Summary // visibleRooms of visFor (the hub shares rooms slices)
	visFor []table.Summary
	cursor int

	// form
	form formModel

	// table
	room    *table.Room
	upd     table.Update
	screen  uikit.Screen
	seatCur int // waiting room: selected seat

	// records pages
	pk           pagesKeys
	profile      Profile
	games        []GameRecord
	campaigns    []Campaign
	campaign     Campaign
	listCur      int
	newPlayers   int
	replay       *Replay
	replayScreen uikit.Screen
	step         int

	// session plumbing shared with the pump
	current   atomic.Pointer[table.Room] // the table this session is at, for the pump's last Detach
	lastInput atomic.Int64               // when input last came (unix ns), stamped by activityReader for the pump's idle clock
	chat      chatLimit
	idleNote  string

	// drawing scratch, reused from frame to frame
	helpKeys  []key.Binding // lobbyHelp's result, valid until its next call
	lobbyHead struct {      // the lobby's title lines, for this width and name
		width int
		name  string
		badge table.Badge
		text  string
	}

	// prompt
	prompt prompt
	input  *textinput.Model // nil while no prompt is open

	// sitting: a join is under way (sitDown); early holds the table's
	// first update if it comes before the join's answer.
	sitting bool
	early   table.Update

	confirmGiveUp bool   // L was pressed at a running table: the next key answers
	closed        string // the session is ending: why
}

func newRoot(a *App, s Session, th *uikit.Theme) *root {
	m := &root{app: a, sess: s, th: th, keys: newGlobalKeys(), pk: newPagesKeys(), box: table.NewMailbox(),
		width: MinWidth, height: MinHeight, notice: s.Notice,
		chat: newChatLimit(a.ChatBurst, a.ChatEvery)}
	m.rooms = a.Hub.List()
	m.lastInput.Store(time.Now().UnixNano())
	return m
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
	if c := m.sess.Command; len(c) == 2 && strings.EqualFold(c[0], "replay") {
		m.openReplay(c[1])
	}
	if c := m.sess.Command; len(c) == 1 && strings.EqualFold(c[0], "profile") {
		m.openProfile()
		return nil
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
	var mine []string
	for _, r := range m.rooms {
		if r.Status == table.StatusPlaying && slices.Contains(r.Players, m.sess.Player.ID) {
			mine = append(mine, r.Code)
		}
	}
	switch len(mine) {
	case 0:
		return nil
	case 1:
		code := mine[0]
		return func() tea.Msg { return joinMsg{code: code} }
	}
	m.notice = "You have seats at tables " + strings.Join(mine, ", ") + ": pick one (marked \"your seat\")."
	return nil
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
	before := m.notice
	model, cmd := m.update(msg)
	if text := m.notice; text != "" && text != before {
		cmd = tea.Batch(cmd, tea.Tick(noticeLife, func(time.Time) tea.Msg { return noticeExpiredMsg(text) }))
	}
	return model, cmd
}

func (m *root) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case noticeExpiredMsg:
		if m.notice == string(msg) {
			m.notice = ""
		}
		return m, nil
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		if m.input != nil {
			m.input.Width = max(10, msg.Width-6)
		}
		m.sizeScreen()
		return m, nil
	case lobbyChangedMsg:
		m.rooms = m.app.Hub.List()
		m.cursor = min(m.cursor, max(0, len(m.visibleRooms())-1))
		return m, nil
	case uikit.UpdateMsg:
		return m, m.onUpdate(msg.Update)
	case joinMsg:
		if msg.typed && !m.mayGuess() {
			return m, nil
		}
		if msg.typed && m.app.Hub.Room(msg.code) == nil {
			m.wrongGuess()
		}
		return m, m.join(msg.code, msg.watch)
	case joinedMsg:
		return m, m.onJoined(msg)
	case noticeMsg:
		m.notice = string(msg)
		return m, nil
	case uikit.ActMsg:
		if m.room != nil {
			if err := m.room.Act(m.box, msg.Seq, msg.Action); err != nil {
				m.notice = err.Error()
			}
		}
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
	case goodbyeMsg:
		m.leaveRoom(false)
		m.closed = msg.text
		return m, tea.Quit
	case keysDroppedMsg:
		m.notice = "Keys came faster than anyone types, so some were dropped."
		return m, nil
	case idleMsg:
		if msg.warning > 0 {
			m.idleNote = fmt.Sprintf("Still there? This session closes in %d s unless you press a key.", int(math.Ceil(msg.warning.Seconds())))
			return m, nil
		}
		m.leaveRoom(false)
		m.closed = "Closed after a long idle spell. Your seat is kept: ssh in again to sit back down."
		return m, tea.Quit
	}
	// Anything else (cursor blink, a screen's own ticks) goes to whoever is focused.
	if m.prompt != promptNone {
		in, cmd := m.input.Update(msg)
		*m.input = in
		return m, cmd
	}
	if m.page == pageTable && m.screen != nil {
		return m, m.screen.Update(msg)
	}
	return m, nil
}

func (m *root) onUpdate(u table.Update) tea.Cmd {
	if m.room == nil && m.sitting {
		m.early = u // the table answered before the join did: keep it for onJoined
		return nil
	}
	if m.room == nil || u.Room != m.room.Code() {
		return nil // a stale update from a table this session has left
	}
	if u.Closed != table.Open {
		m.current.Store(nil)
		m.room, m.screen = nil, nil
		m.page = pageLobby
		m.rooms = m.app.Hub.List()
		m.notice = "Table " + u.Room + " closed: " + u.Closed.Text()
		switch u.Closed {
		case table.Elsewhere:
			m.closed = "You joined from another terminal; this one is closed."
			return tea.Quit
		case table.Restarting:
			m.closed = "The server is restarting: your seat is saved, come back in a moment."
			return tea.Quit
		}
		return nil
	}
	m.upd = u
	if u.Notice != "" {
		m.notice = ""
	}
	if u.Started && m.screen == nil {
		if g, ok := m.app.Games.Lookup(u.Game); ok && g.Screen != nil {
			m.screen = g.Screen(m.th)
			m.sizeScreen()
		}
	}
	if m.screen != nil {
		// Through Update rather than SetUpdate: a screen with a countdown
		// starts its tick there (only while a timer runs).
		return m.screen.Update(uikit.UpdateMsg{Update: u})
	}
	return nil
}

// mayGuess says whether this session may try a typed code now; while its
// address must wait after wrong codes it may not (and is told for how long).
func (m *root) mayGuess() bool {
	if m.app.Guesses == nil {
		return true
	}
	if w := m.app.Guesses.Wait(m.sess.Addr); w > 0 {
		m.notice = fmt.Sprintf("Too many wrong codes from your address: try again in %s.", w.Round(time.Second))
		return false
	}
	return true
}

// wrongGuess counts a typed code that named nothing.
func (m *root) wrongGuess() {
	if m.app.Guesses != nil {
		m.app.Guesses.Wrong(m.sess.Addr)
	}
}

func (m *root) join(code string, watch bool) tea.Cmd {
	r := m.app.Hub.Room(code)
	if r == nil {
		m.notice = fmt.Sprintf("No table %q here. Check the code, or pick one from the list.", code)
		m.page = pageLobby
		return nil
	}
	return m.sitDown(func() (*table.Room, error) { return r, nil }, watch)
}

// joinedMsg answers sitDown.
type joinedMsg struct {
	room *table.Room
	seat game.Seat
	err  error
}

// noticeMsg is a room call's refusal, said to the player.
type noticeMsg string

// sitDown leaves the current table and joins the one room gives, off
// Update: the join waits for the room's actor, and a busy table must never
// freeze this session's screen. Until the answer comes (joinedMsg) the
// session is "sitting": keys other than ctrl+c are ignored (a few
// milliseconds), and the room's first update is kept.
func (m *root) sitDown(room func() (*table.Room, error), watch bool) tea.Cmd {
	m.leaveRoom(false)
	m.sitting = true
	ctx, p, box, current := m.sess.Ctx, m.sess.Player, m.box, &m.current
	return func() tea.Msg {
		r, err := room()
		if err != nil {
			return joinedMsg{err: err}
		}
		jctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		seat, err := r.Join(jctx, p, box, watch)
		if err != nil {
			return joinedMsg{err: err}
		}
		// The pump detaches current when the session ends; a session that
		// ended while this join was under way detaches here.
		current.Store(r)
		if ctx.Err() != nil {
			r.Detach(box)
		}
		return joinedMsg{room: r, seat: seat}
	}
}

// roomCall runs a request to the current table off Update; a refusal
// comes back as a notice.
func (m *root) roomCall(call func(ctx context.Context) error) tea.Cmd {
	ctx := m.sess.Ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if err := call(ctx); err != nil {
			return noticeMsg(err.Error())
		}
		return nil
	}
}

func (m *root) onJoined(msg joinedMsg) tea.Cmd {
	m.sitting = false
	early := m.early
	m.early = table.Update{}
	if msg.err != nil {
		m.notice = msg.err.Error()
		return nil
	}
	r := msg.room
	m.room, m.upd, m.screen, m.page, m.notice, m.seatCur = r, table.Update{Room: r.Code(), Seat: msg.seat}, nil, pageTable, "", 0
	if early.Room == r.Code() {
		return m.onUpdate(early)
	}
	return nil
}

// leaveRoom detaches from the current table; forGood gives the seat up.
func (m *root) leaveRoom(forGood bool) {
	if m.room == nil {
		return
	}
	if forGood {
		m.room.Leave(m.box)
	} else {
		m.room.StepAway(m.box)
	}
	m.current.Store(nil)
	m.room, m.screen = nil, nil
}

func (m *root) toLobby(forGood bool) {
	m.leaveRoom(forGood)
	m.page = pageLobby
	m.rooms = m.app.Hub.List()
}

func (m *root) say(text string) {
	text = sanitize.Line(text, ChatMax)
	if text == "" || m.room == nil {
		return
	}
	if wait := m.chat.take(time.Now()); wait > 0 {
		m.notice = fmt.Sprintf("Easy there: you can talk again in %d s. Your line was not sent.", int(wait.Seconds()+0.999))
		return
	}
	if err := m.room.Say(m.box, text); err != nil {
		m.notice = err.Error()
	}
}

func (m *root) sizeScreen() {
	for _, s := range []uikit.Screen{m.screen, m.replayScreen} {
		if s != nil {
			s.SetSize(m.width, max(1, m.height-1)) // the last line is the help bar or a prompt
		}
	}
}

// onKey routes a key: a prompt first, then global keys, then the page.
func (m *root) onKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, m.keys.Quit) && k.String() == "ctrl+c" {
		m.leaveRoom(false)
		m.closed = quitGoodbye
		return tea.Quit
	}
	if m.sitting {
		return nil // a second enter while a table opens must not open another
	}
	if m.prompt != promptNone {
		return m.onPromptKey(k)
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		// Keys typed faster than a read arrive together ("jjj"): take them
		// one at a time. A paste is never taken as commands.
		var cmds []tea.Cmd
		for i, r := range k.Runes {
			cmds = append(cmds, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
			if m.prompt != promptNone && i+1 < len(k.Runes) {
				// A key opened a prompt: the rest is what was typed into it.
				cmds = append(cmds, m.onPromptKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: k.Runes[i+1:]}))
				break
			}
		}
		return tea.Batch(cmds...)
	}
	if m.showHelp {
		m.showHelp = false
		return nil
	}
	switch m.page {
	case pageForm:
		return m.onFormKey(k)
	case pageTable:
		return m.onTableKey(k)
	case pageProfile:
		return m.onProfileKey(k)
	case pageCampaigns:
		return m.onCampaignsKey(k)
	case pageCampaign:
		return m.onCampaignKey(k)
	case pageReplay:
		return m.onReplayKey(k)
	}
	return m.onLobbyKey(k)
}

func (m *root) openPrompt(p prompt, placeholder, value string) tea.Cmd {
	m.prompt = p
	m.input = newInput(m.th, m.width)
	m.input.Placeholder = placeholder
	m.input.SetValue(value)
	m.input.CursorEnd()
	switch p {
	case promptName:
		m.input.CharLimit = 20
	case promptCode, promptCampaignCode:
		m.input.CharLimit = 12 // 8 characters, and the dashes people type
	case promptCampaignName:
		m.input.CharLimit = 24
	default:
		m.input.CharLimit = ChatMax
	}
	return m.input.Focus()
}

func (m *root) onPromptKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		m.closePrompt()
		return nil
	case tea.KeyEnter:
		value := m.input.Value()
		p := m.prompt
		m.closePrompt()
		switch p {
		case promptName:
			m.rename(value)
		case promptCode:
			return func() tea.Msg { return joinMsg{code: table.NormalizeCode(value), typed: true} }
		case promptChat:
			m.say(value)
		case promptCampaignName:
			m.createCampaign(value)
		case promptCampaignCode:
			m.joinCampaign(value)
		}
		return nil
	}
	if k.Type == tea.KeyRunes {
		// What is typed or pasted shows as it will be kept: no controls,
		// escapes, bidi overrides or zero-width characters, even for a moment.
		clean := sanitize.Line(string(k.Runes), len(k.Runes))
		if clean == "" {
			return nil
		}
		k.Runes = []rune(clean)
	}
	in, cmd := m.input.Update(k)
	*m.input = in
	return cmd
}

func (m *root) closePrompt() {
	m.prompt = promptNone
	m.input = nil
}

func (m *root) rename(value string) {
	name, err := sanitize.Name(value)
	if err != nil {
		m.notice = err.Error()
		return
	}
	if m.app.Names != nil && name != m.sess.Player.Name {
		if err := m.app.Names.Rename(m.sess.Player.ID, m.sess.Player.Name, name); err != nil {
			m.notice = err.Error()
			return
		}
	}
	if m.app.Profiles != nil && !m.sess.Player.Guest {
		if err := m.app.Profiles.SetName(m.sess.Player.ID, name); err != nil {
			m.notice = "could not save your name: " + err.Error()
			return
		}
	}
	m.sess.Player.Name = name
	m.notice = "You are now " + name + "."
}

// View draws the page, then the prompt or help bar on the last line.
func (m *root) View() string {
	if m.closed != "" {
		return m.closed + "\n"
	}
	if m.width < MinWidth || m.height < MinHeight {
		return tooSmall(m.th, m.width, m.height)
	}
	if m.showHelp {
		return m.fullHelp()
	}
	var body string
	switch m.page {
	case pageForm:
		body = m.formView()
	case pageTable:
		body = m.tableView()
	case pageProfile:
		body = m.profileView()
	case pageCampaigns:
		body = m.campaignsView()
	case pageCampaign:
		body = m.campaignView()
	case pageReplay:
		body = m.replayView()
	default:
		body = m.lobbyView()
	}
	bottom := m.helpBar()
	if m.prompt != promptNone {
		bottom = m.input.View()
	}
	if m.idleNote != "" {
		bottom = m.th.Notice.Render(" " + uikit.Trunc(m.idleNote, m.width-2) + " ")
	}
	return uikit.FitAbove(body, m.height-1, bottom)
}

// tooSmall is what every page shows in a window under 80×24.
func tooSmall(th *uikit.Theme, w, h int) string {
	msg := fmt.Sprintf("Window too small: need %d×%d, have %d×%d. Enlarge it, or ctrl+c to quit.", MinWidth, MinHeight, w, h)
	if w > 0 {
		msg = lipgloss.NewStyle().Width(w).Render(msg)
	}
	return th.Warning.Render(msg)
}

func (m *root) helpBar() string {
	switch m.page {
	case pageTable:
		return m.shortHelp(m.tableHelp())
	case pageForm:
		return m.shortHelp(m.form.keys.short())
	case pageReplay:
		return m.replayBar()
	case pageProfile, pageCampaigns, pageCampaign:
		return m.shortHelp(m.pagesHelp())
	}
	return m.shortHelp(m.lobbyHelp(false))
}

// shortHelp is a one-line help bar of keys as wide as the window.
func (m *root) shortHelp(keys []key.Binding) string {
	return m.th.ShortHelp(m.width, keys)
}

func (m *root) fullHelp() string {
	var groups [][]key.Binding
	switch m.page {
	case pageTable:
		if m.screen != nil {
			groups = append(groups, m.screen.Keys().FullHelp()...)
		}
		groups = append(groups, m.tableGlobal())
	case pageForm:
		groups = [][]key.Binding{m.form.keys.short()}
	case pageProfile, pageCampaigns, pageCampaign, pageReplay:
		groups = [][]key.Binding{m.pagesHelp()}
	default:
		groups = [][]key.Binding{m.lobbyHelp(true)}
	}
	return m.th.HelpPage(m.width, m.height, groups, helpText)
}

const helpText = `Bivouac: card games over ssh. Each table is one game; your hand is only ever
on your own screen. Table talk is for coordination: in The Grizzled you may not
reveal or describe the cards in your hand, nor say which support tile you gave.
If you lose the connection, ssh in again with the same key to get your seat back
(guests: use the code shown in the lobby).`

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
