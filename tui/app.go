// Package tui is the program each SSH session runs: the lobby, the create-a-
// table form, the waiting room and the table (a game's screen plus chat and
// help). One tea.Program per session; all of a session's screens live in it.
//
// Data flow: the session's pump goroutine is the only caller of
// Program.Send but for the frame gap's timer (tui/frames).
// It forwards the newest room Update from the session's
// one-slot mailbox and lobby-change signals from the hub. Keys become room
// commands (Act, Say, Start), which never block.
package tui

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/frames"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"
)

// Campaigns is the game whose campaigns the server offers: the first
// with any.
func (c Catalog) Campaigns() (uikit.Module, bool) {
	for _, g := range c {
		if g.Campaign != nil {
			return g, true
		}
	}
	return uikit.Module{}, false
}

// Title is game id's name in th's language; a game no longer offered
// (its stats stay in profiles) is called by its ID.
func (c Catalog) Title(th *uikit.Theme, id string) string {
	if g, ok := c.Lookup(id); ok {
		return g.Title(th)
	}
	return id
}

// VariantName is game id's stats variant v in th's language.
func (c Catalog) VariantName(th *uikit.Theme, id, v string) string {
	g, ok := c.Lookup(id)
	if !ok {
		return v
	}
	return g.VariantName(th, v)
}

// Reviewer is game id's coach, or nil.
func (c Catalog) Reviewer(id string) uikit.Reviewer {
	if g, ok := c.Lookup(id); ok {
		return g.Review
	}
	return nil
}

// Catalog is the games on offer, in lobby order.
type Catalog []uikit.Module

// Registry is the catalog's rules and bots.
func (c Catalog) Registry() game.Registry {
	r := make(game.Registry, len(c))
	for i, g := range c {
		r[i] = g.Entry
	}
	return r
}

// Lookup finds the game with this ID.
// IDs are the games' IDs, as typed after "play" ("grizzled, werewolf").
func (c Catalog) IDs() string {
	ids := make([]string, len(c))
	for i, g := range c {
		ids[i] = g.Game.ID()
	}
	return strings.Join(ids, ", ")
}

func (c Catalog) Lookup(id string) (uikit.Module, bool) {
	for _, g := range c {
		if g.Game.ID() == id {
			return g, true
		}
	}
	return uikit.Module{}, false
}

// Profiles is what the lobby needs of stored players. Guests have none.
// (The server reads a player's profile before the session starts:
// Session.Player comes with its stored name and veteran status.)
type Profiles interface {
	SetName(id, name string) error
	// Keep stores p's profile if none is stored yet: p has taken a seat,
	// the first thing a key does that is worth keeping. A key that only
	// looks around leaves nothing behind (a script with 500 fresh keys made
	// 500 profiles). It may write: never call it on a program's goroutine.
	Keep(p table.Player)
}

// Seated is told that p sat down at seat (watching: game.Spectator).
func (a *App) Seated(p table.Player, seat game.Seat) {
	if a.Profiles != nil && !p.Guest && seat >= 0 {
		a.Profiles.Keep(p)
	}
}

// Names keeps display names apart (one player per name, look-alikes
// included); the server implements it.
type Names interface {
	// Rename moves player id from name old to name, or says why not.
	Rename(id, old, name string) error
}

// CodeGuesses is the wrong-code budget of each address (sshserver.Guesses).
type CodeGuesses interface {
	Wait(addr string) time.Duration  // how long addr must wait before its next guess
	Wrong(addr string) time.Duration // a wrong guess: how long addr must now wait
}

// App builds one program per session and holds what they share.
type App struct {
	// Degraded, if set, says the server cannot serve fully now (a cluster
	// without its majority): a table closed then is not said to carry on
	// elsewhere in a few seconds.
	Degraded func() bool
	Hub      *table.Hub
	Games    Catalog
	Profiles Profiles
	Names    Names   // nil: any name goes
	Records  Records // nil: the server keeps no history
	Reviews  Reviews // nil: no coach on this server
	// Relations keeps whom players ignore and block (nil: a session's
	// lists last as long as it does); Reports takes their reports to the
	// admins (nil: this server takes none). See people.go.
	Relations Relations
	Reports   Reports
	// Notices is the node's notice board (package notice): each session
	// opens an inbox on it and shows what comes (nil: no notices).
	Notices *notice.Board
	// Friends keeps keyed players' friendships and requests; Presence is
	// the node's presence hub, where each keyed session says where it is
	// and hears where its friends are (nil: no friends). friends.go.
	Friends  Friends
	Presence *presence.Hub
	// Notifications keeps keyed players' webhooks and desktop choices
	// (the profile's N page, plain mode's notify; nil: none).
	Notifications Notifications
	// JoinHint is the command friends type, e.g. "ssh -p 2222 example.org".
	JoinHint string
	// ServerName heads the lobby ("" : Bivouac's own title); MOTD is the
	// message of the day in a language, "" for none (nil: none). See motd.go.
	ServerName string
	MOTD       func(i18n.Lang) string
	// Guesses slows down an address that keeps typing table or campaign
	// codes that do not exist (nil: no limit). The SSH server shares it for
	// guest codes, so every kind of guess draws on one budget.
	Guesses CodeGuesses
	// Room holds the defaults every new room gets (journal, bot delay,
	// takeover, idle close, logger, OnOver).
	Room table.RoomConfig
	// NewSeed gives each new table its seed.
	NewSeed func() uint64
	Log     *slog.Logger
	// IdleAfter ends a session nobody has typed in for this long, after a
	// warning IdleWarning before (0: never). A seat at a table is kept.
	IdleAfter   time.Duration
	IdleWarning time.Duration
	// ChatBurst and ChatEvery limit chat: a burst of lines, then one line
	// per ChatEvery (0: defaults of 5 and 2 s).
	ChatBurst int
	ChatEvery time.Duration
	// Clock times what waits for a pause (a language choice is stored
	// after one, window sizes wait for resizeGap); nil: the system's.
	Clock clock.Clock

	lobbyRooms sharedRooms   // the lobby's list and lines, made once for every session
	lobbyWatch lobbyWatchers // the hub's changes, passed on to lobby sessions at a pace

	themeMu sync.Mutex
	themes  map[themeKey]*uikit.Theme

	live      liveCount // sessions whose pump runs
	closingMu sync.Mutex
	closingCx context.Context // see closing
	closeAll  context.CancelFunc
}

// Session is what the program needs to know about its SSH session.
type Session struct {
	Ctx      context.Context
	Player   table.Player
	Renderer *lipgloss.Renderer
	Lang     i18n.Lang // the language the session starts in (see i18n.FromEnv)
	Command  []string  // "join CODE" goes straight to a table
	Notice   string    // said in the lobby when the session starts
	Guest    string    // a keyless guest's reclaim code, as typed ("g-…"): shown to this session only
	Addr     string    // the client's address, for the wrong-code budget (App.Guesses)
	Zone     string    // the client's time zone (TZ; "": none sent), for notify's quiet hours
	// Desktop is the player's desktop notification choice ("" none, "9"
	// OSC 9, "777" OSC 777), their profile's as read at login: the
	// session keeps it current (a notice.VerbDesktop notice comes when the
	// player changes it, from any terminal), and reads no store for it.
	Desktop string
	Options []tea.ProgramOption
	// Input is the session's keyboard. Every byte read from it counts as
	// activity for the idle clock, stamped as it arrives rather than when
	// the program gets round to it, so a key typed just before the deadline
	// is never lost behind a busy event loop. nil: the program reads the
	// input named in Options, unseen, so the session has no idle clock.
	Input io.Reader
	// Dropped signals that keys over the typing budget were thrown away
	// (sshserver.Terminal.Dropped); the player is told. nil: never.
	Dropped <-chan struct{}
	// Output is the session's terminal (required). The program draws
	// through a frame writer that only wakes when the screen changes
	// (tui/frames), never through Bubble Tea's standard renderer.
	Output io.Writer
	// ASCII: the terminal shows only ASCII (sshserver.WantsASCII); every
	// frame is drawn in ASCII of the same width (uikit.AppendASCII).
	ASCII bool
	// Sizes are the terminal's sizes, the first its size at the start
	// (sshserver.ClaimWindowChanges): the pump hands them to the program,
	// the newest at most once per resizeGap, and quits the program when the channel closes (the session's channel
	// is gone). nil: whoever runs the program sends its sizes.
	Sizes <-chan ssh.Window
}

// NewProgram builds the session's program and starts its pump. The pump
// stops, and the session leaves its table (keeping the seat), when ctx ends.
func (a *App) NewProgram(s Session) *tea.Program {
	th := a.Theme(s.Renderer, s.Lang, s.ASCII)
	m := newRoot(a, s, th)
	// WithoutSignalHandler: a program runs inside the server, and the
	// server's SIGTERM is for the server (which says goodbye to every
	// session, see Shutdown), not for each program to quit on its own.
	opts := append([]tea.ProgramOption{tea.WithContext(s.Ctx), tea.WithoutSignalHandler()}, s.Options...)
	m.where = a.JoinPresence(s.Player)
	if s.Input != nil {
		opts = append(opts, tea.WithInput(activityReader{s.Input, &m.lastInput, m.where}))
	}
	opts = append(opts, tea.WithoutRenderer())
	f := frames.New(s.Ctx, m, s.Output, s.ASCII)
	p := tea.NewProgram(f, opts...)
	f.SendWith(p.Send)
	m.send = p.Send
	if a.Notices != nil {
		m.inbox = a.Notices.Open(s.Player.ID)
	}
	a.live.add(1)
	go func() {
		defer a.live.add(-1)
		a.pump(s.Ctx, p, m, s.Input != nil, s.Dropped)
	}()
	return p
}

// Theme returns the Theme for a session's renderer and language. Styles
// only read the renderer's colour profile and background, so sessions that
// agree on those and on the language share one Theme (a Theme per session
// was most of a session's memory). ascii: the terminal shows only ASCII,
// and the theme romanises its words before they are laid out.
func (a *App) Theme(r *lipgloss.Renderer, lang i18n.Lang, ascii bool) *uikit.Theme {
	if r == nil {
		th := uikit.New(nil)
		th.SetLang(lang)
		th.SetASCII(ascii)
		return th
	}
	k := themeKey{r.ColorProfile(), r.HasDarkBackground(), lang, ascii}
	a.themeMu.Lock()
	defer a.themeMu.Unlock()
	if a.themes == nil {
		a.themes = map[themeKey]*uikit.Theme{}
	}
	if th, ok := a.themes[k]; ok {
		return th
	}
	th := uikit.New(r)
	th.SetLang(lang)
	th.SetASCII(ascii)
	a.themes[k] = th
	return th
}

type themeKey struct {
	profile termenv.Profile
	dark    bool
	lang    i18n.Lang
	ascii   bool
}

// pump is the caller of p.Send for this session (but for the frame gap's
// timer, tui/frames). It passes on the
// terminal's sizes (Session.Sizes, the newest once per resizeGap), keeps the table screen's alarm
// (sessionAlarm) on a runtime timer, and keeps the idle clock: one runtime
// timer that, when it fires, looks at when input last came (nothing
// ticks, and a key wakes nobody). When the session ends it tells the
// session's table, which keeps the seat. Without input it can see
// (idleClock false) it keeps no idle clock: it would close a session whose
// player is typing.
func (a *App) pump(ctx context.Context, p program, m *root, idleClock bool, dropped <-chan struct{}) {
	// The pump waits on as few channels as it can: a select locks every
	// channel it waits on twice (to wait and, woken, to stop waiting), and
	// ten thousand pumps woken at every move of their tables spent most of
	// their time so (the pumps' select was 4% of the server's CPU at 10,000
	// players). The rare signals of the session's own making (its context
	// ending, the server closing, the alarm set or due, the idle clock, the
	// lobby's changes) all come on one channel, wake (the alarm's, which
	// its Set signals), each with a flag saying which; the others' channels
	// (the room's news, the terminal's sizes, dropped keys, notices,
	// friends) are waited on as they are.
	wake := m.alarm.changed
	poke := func() {
		select {
		case wake <- struct{}{}:
		default: // a wake is on its way: the flags say what it brings
		}
	}
	var lobbyChanged, closingNow, alarmDue, idleDue atomic.Bool
	inLobby := func() bool { return m.current.Load() == nil } // at a table the lobby is not on screen
	stopLobby := a.watchLobbyOn(wake, &lobbyChanged, inLobby)
	defer stopLobby()
	var notes <-chan struct{}
	if m.inbox != nil {
		notes = m.inbox.C()
		defer m.inbox.Close()
	}
	var friends <-chan struct{}
	if m.where != nil {
		friends = m.where.C()
		defer m.where.Close()
	}
	defer m.flushLang() // before the session counts as gone: Shutdown then closes the store
	defer func() {
		if r := m.current.Load(); r != nil {
			_ = (*r).Detach(m.box) // the session is over; a stopped room has nobody to tell
		}
	}()
	defer context.AfterFunc(ctx, poke)()
	// Timers that fire set their flag and wake the pump; a timer's func
	// that ran late for an older setting is told apart by the times.
	idle := time.AfterFunc(time.Hour, func() { idleDue.Store(true); poke() })
	idle.Stop()
	quietFor := max(time.Millisecond, a.IdleAfter-a.IdleWarning) // then the warning
	if idleClock && a.IdleAfter > 0 {
		idle.Reset(quietFor)
	}
	defer idle.Stop()
	// The table screen's alarm: one runtime timer, set from the program.
	alarm := time.AfterFunc(time.Hour, func() { alarmDue.Store(true); poke() })
	alarm.Stop()
	defer alarm.Stop()
	var due uikit.Tick
	sizes := m.sess.Sizes
	var resize resizes
	defer resize.stop()
	warned, lastAtWarning := false, int64(0)
	// Each session hears of the server's shutdown by a flag of its own:
	// ten thousand pumps selecting on one shared channel queued on its lock
	// at every wake (a quarter of the pumps' time while tables played).
	defer context.AfterFunc(a.closing(), func() { closingNow.Store(true); poke() })()
	for {
		select {
		case <-wake:
			if ctx.Err() != nil {
				return
			}
			if closingNow.Swap(false) {
				p.Send(goodbyeMsg{key: RestartGoodbye}) // said once; the session ends by itself now
			}
			if tick, changed := m.alarm.takeChanged(); changed {
				alarm.Stop()
				alarmDue.Store(false)
				if due = tick; !due.When().IsZero() {
					alarm.Reset(time.Until(due.When()))
				}
			}
			if alarmDue.Swap(false) && !due.When().IsZero() {
				if left := time.Until(due.When()); left > 0 { // the func of an older setting
					alarm.Reset(left)
				} else {
					p.Send(due)
				}
			}
			if lobbyChanged.Swap(false) && inLobby() { // still: the session may have sat down since it was told
				p.Send(lobbyChangedMsg{at: time.Now()})
			}
			if idleDue.Swap(false) && a.idleDue(p, m, idle, quietFor, &warned, &lastAtWarning) {
				return
			}
		case u := <-m.box.C():
			p.Send(updateArrived{u}) // pointer-shaped: sent without allocating
		case w, open := <-sizes:
			if !open { // the session's channel is gone: so is the program
				sizes = nil
				p.Quit()
				continue
			}
			if resize.hold(a.timeSource(), tea.WindowSizeMsg{Width: w.Width, Height: w.Height}) {
				p.Send(resize.size)
			}
		case <-resize.due:
			p.Send(resize.take(a.timeSource()))
		case <-dropped:
			p.Send(keysDroppedMsg{})
		case <-notes:
			p.Send(noticesMsg(m.inbox.Take()))
		case <-friends:
			m.where.Changed()          // the page reads every friend it shows again
			if m.friendsShown.Load() { // else nothing on screen changed: no frame
				p.Send(friendsChangedMsg{})
			}
		}
	}
}

// idleDue is the pump's idle clock come due: true when the session is to
// end (its program told so). Any input since the warning ends it. Compare
// stamps, not durations: a timer that fires late must not swallow a key
// typed the moment the warning showed.
func (a *App) idleDue(p program, m *root, idle *time.Timer, quietFor time.Duration, warned *bool, lastAtWarning *int64) bool {
	last := m.lastInput.Load()
	if *warned && last == *lastAtWarning {
		p.Send(idleMsg{})
		return true
	}
	*warned = false
	if quiet := time.Since(time.Unix(0, last)); quiet < quietFor {
		idle.Reset(quietFor - quiet)
		return false
	}
	if a.IdleWarning <= 0 {
		p.Send(idleMsg{})
		return true
	}
	*warned, *lastAtWarning = true, last
	idle.Reset(a.IdleWarning)
	p.Send(idleMsg{warning: a.IdleWarning})
	return false
}

// program is what the pump needs of the session's tea.Program.
type program interface {
	Send(tea.Msg)
	Quit()
}

// resizeGap is the least time between two window sizes handed to a
// session's program. Each size redraws the whole screen; a client may send
// window changes as fast as it can write them (12 sessions sending 20,000
// each took 1.3 of 2 cores and wrote each 2 MB of redraws). A size after a
// pause goes at once; sizes within the gap are held, the newest replacing
// the older, and the last goes when the gap has passed: a window dragged
// by hand is redrawn 20 times a second and always ends at its final size.
const resizeGap = 50 * time.Millisecond

// resizes holds the window size that waits for resizeGap (the pump's).
type resizes struct {
	size   tea.WindowSizeMsg // the newest size
	sentAt time.Time         // when a size last went to the program
	held   bool              // size waits for due
	due    chan struct{}     // the gap has passed (made at the first size held)
	timer  clock.Timer
}

// hold takes a new size: true when it may go now (then it counts as sent),
// false when it waits for due.
func (r *resizes) hold(c clock.Clock, w tea.WindowSizeMsg) bool {
	r.size = w
	if r.held {
		return false // the timer is set: the newest size goes with it
	}
	now := c.Now()
	wait := resizeGap - now.Sub(r.sentAt)
	if r.sentAt.IsZero() || wait <= 0 {
		r.sentAt = now
		return true
	}
	if r.due == nil {
		r.due = make(chan struct{}, 1)
	}
	r.held = true
	due := r.due
	r.timer = c.AfterFunc(wait, func() {
		select {
		case due <- struct{}{}:
		default:
		}
	})
	return false
}

// take is the held size, now due.
func (r *resizes) take(c clock.Clock) tea.WindowSizeMsg {
	r.held, r.timer, r.sentAt = false, nil, c.Now()
	return r.size
}

func (r *resizes) stop() {
	if r.timer != nil {
		r.timer.Stop()
	}
}

// timeSource is the App's clock.
func (a *App) timeSource() clock.Clock {
	if a.Clock == nil {
		return clock.System{}
	}
	return a.Clock
}

// activityReader stamps the time of every read that brought input, for
// the idle clock and for presence (away: tui.Whereabouts.Key).
type activityReader struct {
	r     io.Reader
	last  *atomic.Int64 // unix ns
	where *Whereabouts  // nil: a guest, or no presence
}

func (a activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		now := time.Now().UnixNano()
		a.last.Store(now)
		a.where.Key(now)
	}
	return n, err
}

// Goodbyes: every way a session ends leaves the player's terminal as it
// was (normal screen, cursor shown, plain colours) with a line saying why.
const (
	QuitGoodbye          = "ui.bye.quit"
	RestartGoodbye       = "ui.bye.restart" // also plain mode's (see Goodbye)
	internalErrorGoodbye = "ui.bye.internal"
)

// goodbyeMsg ends the session with a goodbye (the catalog key of it): the
// server is shutting down.
type goodbyeMsg struct{ key string }

// Shutdown tells every session that the server is restarting and waits,
// until ctx ends, for each to leave its terminal clean with that line on
// it. Sessions that start afterwards are told at once.
func (a *App) Shutdown(ctx context.Context) {
	a.closing() // makes closeAll if no session has asked yet
	a.closeAll()
	a.live.waitZero(ctx)
}

// liveCount counts running sessions; waitZero may run while sessions start
// and end (unlike sync.WaitGroup's Wait).
type liveCount struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n drops to 0; nil while n == 0
}

func (c *liveCount) add(d int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 && d > 0 {
		c.zero = make(chan struct{})
	}
	c.n += d
	if c.n == 0 && c.zero != nil {
		close(c.zero)
		c.zero = nil
	}
}

func (c *liveCount) waitZero(ctx context.Context) {
	c.mu.Lock()
	ch := c.zero
	c.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// Goodbye is how a session that is not a Bubble Tea program (plain mode)
// hears of the server's shutdown: bye is signalled once when it begins (at
// once for a session that starts after), and Shutdown waits for the
// session, until its deadline, to say RestartGoodbye and call done.
func (a *App) Goodbye() (bye <-chan struct{}, done func()) {
	a.live.add(1)
	ch := make(chan struct{}, 1)
	stop := context.AfterFunc(a.closing(), func() { ch <- struct{}{} })
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			stop()
			a.live.add(-1)
		})
	}
}

// closing ends when the server shuts down.
func (a *App) closing() context.Context {
	a.closingMu.Lock()
	defer a.closingMu.Unlock()
	if a.closingCx == nil {
		a.closingCx, a.closeAll = context.WithCancel(context.Background())
	}
	return a.closingCx
}

func (a *App) logger() *slog.Logger {
	if a.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Log
}

// keysDroppedMsg: keys came faster than anyone types and some were dropped.
type keysDroppedMsg struct{}

// updateArrived is a room's Update on its way from the pump to the root: a
// struct of one pointer, which goes into a tea.Msg without an allocation
// (see table.Mailbox).
type updateArrived struct{ u *table.Update }

// idleMsg warns that the session will end for lack of typing (warning > 0),
// or ends it.
type idleMsg struct{ warning time.Duration }

// Create opens a room from a filled-in form with the session as host.
func (a *App) Create(g uikit.Module, spec uikit.TableSpec, host table.Player) (table.RoomHandle, error) {
	if host.WatchOnly {
		return nil, table.ErrWatchOnly // a table is made to sit at
	}
	if spec.Campaign != "" {
		// Its mission may be under way on another node of a cluster.
		if r := a.Hub.CampaignTable(spec.Campaign); r != nil {
			return r, nil
		}
	}
	if spec.Pace.Correspondence {
		if host.Guest {
			return nil, table.ErrKeyedOnly
		}
		if a.Room.MaySit != nil {
			if err := a.Room.MaySit(host.ID); err != nil {
				return nil, err
			}
		}
	}
	cfg := a.Room
	cfg.Code = ""
	cfg.Game, cfg.Bots = g.Game, g.Bots
	cfg.Title, cfg.GameOptions, cfg.Seats, cfg.FillBots = spec.Title, spec.GameOptions, spec.Seats, spec.Bots
	cfg.Options, cfg.Host, cfg.Addr = spec.Options, host.ID, host.Addr
	if a.NewSeed != nil {
		cfg.Seed = a.NewSeed()
	}
	if spec.Seed != 0 {
		cfg.Seed = spec.Seed
	}
	if g.Bots == nil {
		cfg.BotLevel = ""
	}
	return a.Hub.Create(cfg)
}

// learnEntry is the first game with a guided mission.
func (a *App) learnEntry() (uikit.Module, bool) {
	for _, g := range a.Games {
		if g.Learn != nil {
			return g, true
		}
	}
	return uikit.Module{}, false
}

// StartLearning opens the guided mission for p and starts it at once,
// p leading the first mission (box is where p's updates go).
func (a *App) StartLearning(ctx context.Context, p table.Player, box *table.Mailbox) (table.RoomHandle, game.Seat, error) {
	g, ok := a.learnEntry()
	if !ok {
		return nil, game.NoSeat, errNoLearning
	}
	spec := g.Learn()
	spec.Practice = true // it closes when its newcomer goes: nobody else plays at it
	r, err := a.Create(g, spec, p)
	if err != nil {
		return nil, game.NoSeat, err
	}
	jctx, cancel := context.WithTimeout(ctx, table.CallPatience)
	defer cancel()
	seat, err := r.Join(jctx, p, box, false)
	if err != nil {
		return nil, game.NoSeat, err
	}
	_ = r.NameFirst(box, seat) // the newcomer learns to lead first
	if err := r.Start(jctx, box); err != nil {
		_ = r.Detach(box) // the start's error is the one to report
		return nil, game.NoSeat, err
	}
	return r, seat, nil
}

var errNoLearning = game.NewError("ui.learn.none")

// commandCode reads "join CODE" from the session's command line.
func commandCode(args []string) string {
	if len(args) == 2 && strings.EqualFold(args[0], "join") {
		return table.NormalizeCode(args[1])
	}
	return ""
}

// lobbyChangedMsg: the hub's rooms changed at or before at.
type lobbyChangedMsg struct{ at time.Time }

// FramesWritten is how many screen changes this process sent its
// sessions (the operator's bivouac_frames_total).
func FramesWritten() uint64 { return frames.Written() }
