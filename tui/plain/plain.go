// Package plain is plain mode: the line-oriented interface, for screen
// readers and scripts. No cursor addressing, no redraws, no drawing
// characters beyond text: the table's events are printed as sentences as
// they happen, and the player types short commands (look, hand, moves,
// play 2, withdraw, vote 3, say …, help), each answered in words. It uses
// the same views and catalog words as the full screen (the game screens'
// uikit.Plain side) and the session services of tui.App.
package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Session is what plain mode needs of its SSH session.
type Session struct {
	Ctx    context.Context
	Player table.Player
	Lang   i18n.Lang
	In     io.Reader
	Out    io.Writer
	// Dropped signals that typed bytes over the typing budget were thrown
	// away (sshserver.Keyboard); the player is told. nil: never.
	Dropped <-chan struct{}
	// Echo: the client's terminal is raw (the session has a PTY), so plain
	// mode echoes what is typed and ends its lines with \r\n.
	Echo bool
	// Guest is a keyless guest's reclaim code ("g-…"), said to this
	// session only, as the full screen's lobby does.
	Guest string
	// ASCII: the terminal shows only ASCII; every line is written in
	// ASCII (uikit.ToASCII).
	ASCII bool
	Addr  string
	// Zone is the client's time zone (TZ; "": none sent).
	Zone string
	// Control brings the server's word to this session (see tui.Control);
	// nil: none.
	Control <-chan tui.Control
}

// plain is one plain-mode session.
type plain struct {
	app  *tui.App
	s    Session
	th   *uikit.Theme
	box  *table.Mailbox
	ed   *lineEditor
	quit bool

	room        table.RoomHandle
	seat        game.Seat
	screen      uikit.Screen
	can         uikit.Abilities // what screen may do beyond the contract
	upd         table.Update
	logEnd      int
	asked       string
	form        *plainForm // a table being made, field by field
	droppedSaid time.Time  // when the player was last told keys were dropped
	recent      [8]string  // the last lines said (saidRecently), a ring
	recentAt    int
	askedAhead  string // what is asked, said before the log line that says the same came
	started     bool
	langs       *tui.LangSave    // the language choice waiting to be stored (nil: none made)
	lists       tui.SessionLists // the players this session ignores and blocks (people.go)
	lastReport  time.Time        // when this session last reported a player
	notes       notice.List      // the notices said and still live (notices.go)
	where       *tui.Whereabouts // this session on presence (nil: a guest; friends.go)
}

// maxPlainLine is the longest command line read; the rest of a longer one
// (a 2 MB paste) is dropped.
const maxPlainLine = 1024

// Run runs a plain-mode session until the player quits or the
// session ends; the result is the exit status.
func Run(a *tui.App, s Session) int {
	p := &plain{app: a, s: s, th: a.Theme(nil, s.Lang, s.ASCII), box: table.NewMailbox(), ed: newLineEditor(s.Out, s.Echo)}
	bye, done := a.Goodbye()
	defer done() // last: the session has left its table and said all it had to
	defer func() {
		if p.room != nil {
			_ = p.room.Detach(p.box) // the session is over; a stopped room has nobody to tell
		}
		if p.langs != nil {
			p.langs.Flush()
		}
	}()
	var notes <-chan struct{}
	var inbox *notice.Inbox
	if a.Notices != nil {
		inbox = a.Notices.Open(s.Player.ID)
		defer inbox.Close()
		notes = inbox.C()
	}
	p.where = a.JoinPresence(s.Player)
	defer p.where.Close()
	var friendNews <-chan struct{}
	if p.where != nil {
		friendNews = p.where.C()
	}
	lines := make(chan string)
	go p.ed.read(s.Ctx, s.In, lines)
	p.say(p.th.T("plain.welcome"))
	p.plainMOTD()
	if s.Guest != "" {
		p.say(tui.GuestHint(p.th, s.Guest, p.app.JoinHint))
	}
	if !p.backToYourTable() {
		p.lobby()
	}
	p.ed.prompt()
	for !p.quit {
		select {
		case <-s.Ctx.Done():
			return 0
		case <-bye:
			p.say(p.th.T(tui.RestartGoodbye))
			return 0
		case line, ok := <-lines:
			if !ok {
				return 0
			}
			p.where.Key(time.Now().UnixNano()) // an away player is back
			p.command(line)
			if !p.quit {
				p.ed.prompt()
			}
		case u := <-p.box.C():
			p.onUpdate(*u)
		case c := <-s.Control:
			if p.control(c) {
				return 1
			}
		case <-notes:
			p.onNotices(inbox.Take())
		case <-friendNews:
			p.where.Changed() // plain mode says where friends are when asked (friends)
		case <-s.Dropped:
			// said once a flood, not once a dropped read
			if now := time.Now(); now.Sub(p.droppedSaid) > 5*time.Second {
				p.droppedSaid = now
				p.say(p.th.T("ui.notice.keys_dropped"))
			}
		}
	}
	p.say(p.th.T(tui.QuitGoodbye))
	return 0
}

// saidRecently reports whether line is one of the last few said: what is
// asked is not said again when a log line of the same update said it
// (a screen reader heard each narration twice).
func (p *plain) saidRecently(line string) bool {
	return slices.Contains(p.recent[:], line)
}

// say writes lines, cleaned of anything a terminal would act on.
func (p *plain) say(lines ...string) {
	for _, l := range lines {
		p.recent[p.recentAt%len(p.recent)] = l
		p.recentAt++
	}
	var b strings.Builder
	for _, l := range lines {
		l = uikit.Clean(l)
		if p.s.ASCII {
			l = uikit.ToASCII(uikit.Romanize(l))
		}
		b.WriteString(l)
		b.WriteString(p.ed.eol)
	}
	p.ed.print(b.String())
}

// lineEditor reads the player's lines and writes the session's output.
// With a PTY the client's terminal is raw: it shows nothing typed by
// itself, so the editor echoes, handles backspace and keeps a "> "
// prompt; output that arrives while a line is half typed goes above it
// and the prompt and the half line are drawn again below, with nothing
// but carriage returns and spaces (no cursor addressing). Without a PTY
// (a script) there is no echo and no prompt: lines in, lines out.
type lineEditor struct {
	out  io.Writer
	echo bool
	eol  string

	mu       sync.Mutex
	line     []byte
	prompted bool
}

func newLineEditor(out io.Writer, echo bool) *lineEditor {
	e := &lineEditor{out: out, echo: echo, eol: "\n"}
	if echo {
		e.eol = "\r\n"
	}
	return e
}

// write is best effort: a player who has gone reads nothing more, and
// read ends with their connection.
func (e *lineEditor) write(text string) { _, _ = io.WriteString(e.out, text) }

// prompt shows "> " and what is typed so far.
func (e *lineEditor) prompt() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.echo && !e.prompted {
		e.prompted = true
		e.write("> " + string(e.line))
	}
}

// print writes text above the prompt line.
func (e *lineEditor) print(text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.prompted {
		e.write(text)
		return
	}
	width := 2 + utf8.RuneCount(e.line)
	e.write("\r" + strings.Repeat(" ", width) + "\r" + text + "> " + string(e.line))
}

// read sends each line typed until the input ends or ctrl+c/ctrl+d.
func (e *lineEditor) read(ctx context.Context, in io.Reader, lines chan<- string) {
	defer close(lines)
	buf := make([]byte, 4096)
	cr := false
	for {
		n, err := in.Read(buf)
		for _, c := range buf[:n] {
			afterCR := cr
			cr = c == '\r'
			switch {
			case c == '\n' && afterCR:
				// the \n of a \r\n: the line went out with the \r
			case c == '\r' || c == '\n':
				e.mu.Lock()
				line := string(e.line)
				e.line = e.line[:0]
				if e.echo {
					e.write("\r\n")
				}
				e.prompted = false
				e.mu.Unlock()
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			case c == 0x7f || c == 0x08:
				e.mu.Lock()
				if len(e.line) > 0 {
					_, size := utf8.DecodeLastRune(e.line)
					e.line = e.line[:len(e.line)-size]
					if e.echo {
						e.write("\b \b")
					}
				}
				e.mu.Unlock()
			case c == 0x03 || c == 0x04: // ctrl+c, ctrl+d
				return
			case c < 0x20:
				// other control bytes (escape sequences of arrow keys) are dropped
			default:
				e.mu.Lock()
				if len(e.line) < maxPlainLine { // the rest of an overlong line is dropped
					e.line = append(e.line, c)
					if e.echo {
						_, _ = e.out.Write([]byte{c}) // as write: best effort
					}
				}
				e.mu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

// command answers one line.
func (p *plain) command(line string) {
	line = strings.TrimSpace(sanitize.Line(line, maxPlainLine))
	if line == "" && p.form != nil {
		p.formLine("")
		return
	}
	if line == "" {
		if p.room != nil {
			p.say(p.th.T("plain.hint"))
		}
		return
	}
	word, rest, _ := strings.Cut(line, " ")
	word, rest = strings.ToLower(word), strings.TrimSpace(rest)
	if p.form != nil && word != "help" && word != "?" && word != "quit" && word != "exit" {
		p.formLine(line)
		return
	}
	switch word {
	case "help", "?":
		p.help()
		return
	case "quit", "exit", "q":
		p.quit = true
		return
	case "accept":
		p.accept()
		return
	// The profile's commands are the player's, not the table's: they
	// work at a table too (address f there answered "nothing to do now").
	case "address":
		p.addressCommand(rest)
		return
	case "profile":
		p.profile()
		return
	case "notify":
		p.notifyCommand(rest)
		return
	case "campaigns":
		p.campaigns()
		return
	case "games": // at a table it answered "nothing to do now"
		p.games()
		return
	case "friends":
		p.friends()
		return
	case "friend", "unfriend":
		var u *table.Update
		if p.room != nil {
			u = &p.upd
		}
		p.say(p.app.Befriend(p.th, p.s.Player, rest, u, word == "friend"))
		return
	case "lang", "language":
		if l, ok := i18n.Parse(rest); ok {
			p.th = p.app.Theme(nil, l, p.s.ASCII)
			if p.screen != nil {
				p.setScreen(p.newScreen(p.upd.Game))
				p.screen.SetUpdate(p.upd)
			}
			p.say(p.th.T("ui.lang.now", game.Text("Lang", p.th.T("ui.lang.name"))))
			if p.app.Records != nil && !p.s.Player.Guest {
				if p.langs == nil { // stored after a pause or at the end, as the lobby's l
					pl, rec := p.s.Player, p.app.Records
					p.langs = tui.NewLangSave(p.app.Clock, func(l i18n.Lang) error { return rec.SetLang(pl, l) })
				}
				p.langs.Choose(l)
			}
		} else {
			p.say(p.th.T("plain.langs"))
		}
		return
	}
	if p.peopleCommand(word, rest) {
		return
	}
	if p.room == nil {
		p.lobbyCommand(word, rest)
		return
	}
	p.tableCommand(line, word, rest)
}

func (p *plain) help() {
	if p.room == nil {
		p.plainMOTD()
		p.sayHelp(strings.Split(p.th.T("plain.help_lobby", p.gameIDs()), "\n")...)
		p.sayHelp(p.th.T("plain.help_review"))
		p.sayHelp(p.th.T("plain.people.help"))
		p.sayHelp(p.th.T("plain.address.help"))
		p.sayHelp(p.th.T("plain.notice.help"))
		p.sayHelp(p.th.T("plain.friends.help"), p.th.T("friends.usage"))
		p.sayHelp(p.th.T("plain.notify.help"))
		return
	}
	p.sayHelp(strings.Split(p.th.T("plain.help_table"), "\n")...)
	p.sayHelp(p.th.T("plain.people.help"))
	p.sayHelp(p.th.T("plain.notice.help"))
	p.sayHelp(p.th.T("plain.friends.help"), p.th.T("friends.usage"))
	if p.app.Games.Reviewer(p.room.Summary().Game) != nil {
		p.sayHelp(p.th.T("plain.help_review"))
	}
	if p.room.Summary().Hints {
		p.sayHelp(p.th.T("ui.hint.usage"))
	}
	if p.can.Guide != nil {
		p.sayHelp(strings.Split(p.can.Guide.Guide(), "\n")...)
	}
}

// helpWidth is the terminal the help's paragraphs are wrapped for.
const helpWidth = 80

// sayHelp says the help's paragraphs word-wrapped to helpWidth, each
// line after a paragraph's first indented: a terminal of 80 columns broke
// their words (a screen reader reads the lines in order either way).
func (p *plain) sayHelp(paragraphs ...string) {
	for _, para := range paragraphs {
		p.say(uikit.Hanging(para, helpWidth, "  ")...)
	}
}

// backToYourTable seats a player who comes back (after a lost connection
// or a restart) at the one game in progress they hold a seat at, as the
// full screen does; with several, it says which. It reports whether the
// player sat down.
func (p *plain) backToYourTable() bool {
	mine := tui.GamesInProgress(p.app.Hub.List(), p.s.Player.ID)
	switch len(mine) {
	case 0:
		return false
	case 1:
		r := p.app.Hub.Room(mine[0])
		if r == nil {
			return false
		}
		p.sit(r, false)
		return p.room != nil
	}
	p.say(p.th.T("ui.notice.seats_at", game.Text("Codes", strings.Join(mine, ", "))))
	return false
}

// lobby lists the tables this player may join.
func (p *plain) lobby() {
	th := p.th
	var rooms []table.Summary
	for _, r := range p.app.Hub.List() {
		if r.Status == table.StatusClosed || (r.Private && r.Host != p.s.Player.ID && !slices.Contains(r.Players, p.s.Player.ID)) {
			continue
		}
		rooms = append(rooms, r)
	}
	if len(rooms) == 0 {
		p.say(th.T("plain.no_tables"))
		return
	}
	p.say(th.T("ui.lobby.tables") + ":")
	for _, r := range rooms {
		var names []string
		for _, s := range r.Seats {
			if s.Name != "" {
				names = append(names, th.Name(s.Name))
			}
		}
		status := plainStatus(th, r)
		if r.Status != table.StatusOver && slices.Contains(r.Players, p.s.Player.ID) {
			status = th.T("ui.lobby.your_seat") + ", " + status
		}
		p.say(fmt.Sprintf("%s: %s, %s. %s", r.Code, th.Msg(r.Title), status, strings.Join(names, ", ")))
	}
}

// games says the player's unfinished tables, those waiting on them
// first (the lobby's "your move" lines, and `ssh host games`).
func (p *plain) games() {
	th, me := p.th, p.s.Player.ID
	rooms := p.app.Hub.List()
	moves := uikit.YourMoves(rooms, me)
	now := time.Now()
	for _, r := range moves {
		p.say(th.Msg(uikit.YourMove(r, now)))
	}
	n := len(moves)
	for _, r := range rooms {
		if !slices.Contains(r.Players, me) || slices.ContainsFunc(moves, func(x table.Summary) bool { return x.Code == r.Code }) ||
			(r.Status != table.StatusWaiting && r.Status != table.StatusPlaying) {
			continue
		}
		n++
		p.say(fmt.Sprintf("%s: %s, %s.", r.Code, th.Msg(r.Title), plainStatus(th, r)))
	}
	if n == 0 {
		p.say(th.T("cmd.games.none"))
	}
}

// plainStatus is where a table is: waiting with its open seats, playing,
// or over (only a waiting table has seats to offer), and whether it is
// played by correspondence.
func plainStatus(th *uikit.Theme, r table.Summary) string {
	status := th.T("cmd.rooms.status." + string(r.Status))
	if r.Status == table.StatusWaiting {
		status = th.T("ui.lobby.waiting_open", game.Num("N", r.Open))
	}
	if r.Pace.Correspondence && r.Status != table.StatusOver {
		status += ", " + th.T("ui.lobby.correspondence")
	}
	return status
}

func (p *plain) lobbyCommand(word, rest string) {
	th := p.th
	switch word {
	case "tables", "list", "ls", "look", "l":
		p.lobby()
	case "join", "watch", "j", "w":
		if !p.mayGuess() {
			return
		}
		code := table.NormalizeCode(rest)
		r := p.app.Hub.Room(code)
		if r == nil {
			p.wrongGuess() // a typed code that names nothing costs time, as on the full screen
			p.say(th.T("ui.notice.no_table", game.Text("Code", sanitize.Line(rest, 20))))
			return
		}
		p.sit(r, word == "watch" || word == "w")
	case "new", "n":
		p.newTable(strings.Fields(rest))
	case "play":
		p.playNow(rest)
	case "name":
		name, err := sanitize.Name(rest)
		if err != nil {
			p.say(th.Err(err))
			return
		}
		if p.app.Names != nil {
			if err := p.app.Names.Rename(p.s.Player.ID, p.s.Player.Name, name); err != nil {
				p.say(th.Err(err))
				return
			}
		}
		if p.app.Profiles != nil && !p.s.Player.Guest {
			if err := p.app.Profiles.SetName(p.s.Player.ID, name); err != nil {
				p.say(th.T("ui.err.save_name", game.Text("Err", th.Err(err))))
				return
			}
		}
		p.s.Player.Name = name
		p.say(th.T("ui.notice.renamed", game.Text("Name", name)))
	case "rules", "r":
		name, what, _ := strings.Cut(rest, " ")
		if g, ok := p.gameNamed(name); ok {
			p.rules(g.Game.ID(), what)
		} else {
			p.say(th.T("plain.rules_which", p.gameIDs()))
		}
	case "learn":
		r, seat, err := p.app.StartLearning(p.s.Ctx, p.s.Player, p.box)
		if err != nil {
			p.say(th.Err(err))
			return
		}
		p.seated(r, seat)
		p.say(th.T("plain.learn"))
	case "profile":
		p.profile()
	case "address":
		p.addressCommand(rest)
	case "review":
		p.review(rest)
	case "replay":
		p.replayAt(rest)
	case "campaign":
		p.campaign(strings.Fields(rest))
	default:
		p.say(th.T("plain.unknown", game.Text("Cmd", sanitize.Line(word, 40))))
	}
}

// newTable makes a table: "new grizzled 3 2" is The Grizzled for three
// with two bot seats; the form's defaults for the rest.
func (p *plain) newTable(args []string) {
	th := p.th
	if len(args) == 0 {
		p.say(th.T("plain.new_usage", p.gameIDs()))
		return
	}
	g, ok := p.gameNamed(args[0])
	if !ok {
		p.say(th.T("plain.new_usage", p.gameIDs()))
		return
	}
	choice := g.FormDefaults()
	if len(args) == 1 {
		p.form = &plainForm{game: g, fields: g.FormFields(), choice: choice}
		p.say(th.T("plain.form.start", game.Text("Game", g.Title(th))))
		p.askField()
		return
	}
	set := func(std uikit.Std, n int) { // out of range: the default
		if i := g.StdField(std); i >= 0 && n >= 0 && n < len(g.FormFields()[i].Choices) {
			choice[i] = n
		}
	}
	if n, err := strconv.Atoi(args[1]); err == nil {
		set(uikit.Seats, n-g.Players.Min)
	}
	if len(args) > 2 {
		if n, err := strconv.Atoi(args[2]); err == nil {
			set(uikit.BotSeats, n)
		}
	}
	spec, err := g.BuildTable(choice)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	r, err := p.app.Create(g, spec, p.s.Player)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	p.sit(r, false)
}

// plainForm is the new-table form asked one field at a time: the same
// fields, choices and notes as the full screen's form.
type plainForm struct {
	game   uikit.Module
	fields []uikit.Field // the game's, standard ones filled in
	choice []int
	field  int
}

// askField says the current field, its note and its numbered choices.
func (p *plain) askField() {
	th, f := p.th, p.form
	fl := f.fields[f.field]
	p.say(fmt.Sprintf("%s (%d/%d)", th.T(fl.Label), f.field+1, len(f.fields)))
	if fl.Note != "" {
		p.say(th.T(fl.Note))
	}
	for i, c := range fl.Choices {
		line := fmt.Sprintf("%d. %s", i+1, th.Msg(c))
		if i == f.choice[f.field] {
			line += " " + th.T("plain.form.default")
		}
		p.say(line)
	}
	p.say(th.T("plain.form.ask"))
}

// formLine takes one answer: a choice's number, enter for the default,
// "back" for the previous field, "cancel" to give up.
func (p *plain) formLine(line string) {
	th, f := p.th, p.form
	fl := f.fields[f.field]
	switch w := strings.ToLower(strings.TrimSpace(line)); w {
	case "cancel", "leave", "lobby":
		p.form = nil
		p.say(th.T("plain.form.cancelled"))
		return
	case "back":
		if f.field > 0 {
			f.field--
		}
		p.askField()
		return
	case "":
	default:
		n, err := strconv.Atoi(w)
		if err != nil || n < 1 || n > len(fl.Choices) {
			p.say(th.T("plain.form.bad", game.Num("N", len(fl.Choices))))
			return
		}
		f.choice[f.field] = n - 1
	}
	if f.field++; f.field < len(f.fields) {
		p.askField()
		return
	}
	p.form = nil
	spec, err := f.game.BuildTable(f.choice)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	r, err := p.app.Create(f.game, spec, p.s.Player)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	p.sit(r, false)
}

func (p *plain) sit(r table.RoomHandle, watch bool) {
	ctx, cancel := context.WithTimeout(p.s.Ctx, table.CallPatience)
	defer cancel()
	seat, err := r.Join(ctx, p.s.Player, p.box, watch)
	if err != nil {
		p.say(p.th.Err(err))
		return
	}
	p.seated(r, seat)
}

// seated is plain mode at the table r just joined.
func (p *plain) seated(r table.RoomHandle, seat game.Seat) {
	p.app.Seated(p.s.Player, seat)
	p.room, p.seat, p.logEnd, p.asked, p.started = r, seat, 0, "", false
	p.upd = table.Update{}
	p.setScreen(nil)
	p.say(p.th.T("ui.table.title", game.Text("Code", r.Code())) + ": " + p.th.Msg(r.Summary().Title))
	// The table's first update, before the next command: a script's
	// "join CODE" then "hand" reads the hand, not an empty table.
	timeout := time.NewTimer(2 * time.Second)
	defer timeout.Stop()
	for p.room != nil && p.upd.Room != r.Code() {
		select {
		case u := <-p.box.C():
			p.onUpdate(*u)
		case <-timeout.C:
			return
		case <-p.s.Ctx.Done():
			return
		}
	}
}

// setScreen makes s the table's screen (nil: none) and looks up what it
// can do.
func (p *plain) setScreen(s uikit.Screen) {
	p.screen, p.can = s, uikit.AbilitiesOf(s)
}

func (p *plain) newScreen(gameID string) uikit.Screen {
	if g, ok := p.app.Games.Lookup(gameID); ok && g.Screen != nil {
		s := g.Screen(p.th)
		if c := uikit.AbilitiesOf(s).Coached; c != nil && p.room != nil && p.room.Summary().Practice {
			c.StartCoach()
		}
		return s
	}
	return nil
}

// onUpdate prints what is new at the table.
func (p *plain) onUpdate(u table.Update) {
	if p.room == nil || u.Room != p.room.Code() {
		return
	}
	tui.TakeBadge(&p.s.Player, u)
	defer p.tellPlace()
	th := p.th
	if u.Closed == table.Removed {
		p.say(th.T("ui.people.you_removed", game.Text("Code", u.Room)))
		p.room = nil
		p.setScreen(nil)
		return
	}
	if u.Closed != table.Open {
		p.say(th.T("ui.notice.table_closed", game.Text("Code", u.Room), game.Term("Why", p.app.ClosedWhy(u.Closed))))
		p.room = nil
		p.setScreen(nil)
		return
	}
	if u.Started && p.screen == nil {
		p.setScreen(p.newScreen(u.Game))
	}
	p.upd = u
	p.app.LoadLists(p.s.Player, &p.lists)
	if p.screen != nil {
		p.screen.SetUpdate(p.muted(u))
	}
	// New lines of the log, never one twice (LogEnd counts them).
	var logSaid []string // this update's, however many (a game's end and its night log)
	if n := u.LogEnd - p.logEnd; n > 0 || u.LogEnd < p.logEnd {
		if u.LogEnd < p.logEnd || n > len(u.Log) {
			n = len(u.Log) // a restarted room, or more than the log keeps
		}
		pr := th.Printer()
		for i := len(u.Log) - n; i < len(u.Log); i++ {
			e := u.Log[i]
			if p.mutedLine(&u, e) {
				continue
			}
			text := pr.Event(e)
			if e.Kind == game.Chat && int(e.From) >= 0 && int(e.From) < len(u.Seats) {
				text = th.Name(u.Seats[e.From].Name) + ": " + text
			}
			if text == p.askedAhead {
				p.askedAhead = "" // the narration's own line, come after it was asked
				continue
			}
			p.say(text)
			logSaid = append(logSaid, text)
		}
		p.logEnd = u.LogEnd
	}
	if !u.Notice.IsZero() {
		p.say(th.T("ui.refused", game.Text("Why", th.Msg(u.Notice))))
	}
	if !u.Info.IsZero() {
		p.say(th.Msg(u.Info))
	}
	// The guided mission's lessons, each read once, before what is asked.
	if c := p.can.Coached; c != nil {
		for text, _ := c.Lesson(); text != ""; text, _ = c.Lesson() {
			p.say(p.th.T("learn.coach") + ": " + text)
			c.NextLesson()
		}
	}
	if pl := p.can.Plain; pl != nil {
		// What is asked is said when it changes, or when the moves do
		// (your turn again, with a card fewer).
		asked := tui.StripKeyHints(pl.Asked()) // plain mode picks moves by commands
		moves := pl.Moves()
		key := asked
		for _, m := range moves {
			key += "\x00" + m.Label
		}
		if key != p.asked {
			p.asked = key
			said := p.saidRecently(asked) || slices.Contains(logSaid, asked)
			if (asked == "" || said) && len(moves) == 0 {
				return // the log already said it ("Turn: Ann.", the night's narration)
			}
			line := asked
			switch {
			case len(moves) > 0 && said:
				// The log has just called the player in these words
				// ("Choose a player whose card you want to see."): only
				// the hint is new.
				line = th.T("plain.moves_hint")
			case len(moves) > 0:
				line = p.notSaid(asked, logSaid) + " " + th.T("plain.moves_hint")
			}
			// A table's view can reach the session a moment before the
			// log line saying the same ("The Seer wakes."): that line is
			// not said again when it comes.
			p.askedAhead = asked
			p.say(line)
		}
	} else if !u.Started && !p.started {
		p.started = true
		p.waitingRoom()
	}
}

// notSaid is what is asked less a first sentence the log has just said
// ("Tonight's victim: Bob." before "Tonight's victim: Bob. Use a potion,
// or pass.").
func (p *plain) notSaid(asked string, logSaid []string) string {
	for _, l := range slices.Concat(logSaid, p.recent[:]) {
		if rest, ok := strings.CutPrefix(asked, l+" "); ok && l != "" && rest != "" {
			return rest
		}
	}
	return asked
}

// waitingRoom says who sits where before the game.
func (p *plain) waitingRoom() {
	th, u := p.th, p.upd
	p.say(th.T("ui.table.seats") + ":")
	for i, s := range u.Seats {
		who := th.Name(s.Name)
		switch {
		case s.Bot != "":
			who += " · " + th.T("bot.level."+s.Bot)
		case s.Name == "":
			who = th.T("ui.table.open_seat")
		case game.Seat(i) == u.Seat:
			who += " " + th.T("ui.tag.you")
		}
		p.say(fmt.Sprintf("%d. %s", i+1, who))
	}
	if p.room.Summary().Host == p.s.Player.ID {
		p.say(th.T("plain.host_start"))
	} else {
		p.say(th.T("ui.table.wait_host"))
	}
}

func (p *plain) tableCommand(line, word, rest string) {
	th := p.th
	pl := p.can.Plain
	switch word {
	case "look", "l":
		if pl == nil {
			p.waitingRoom()
			return
		}
		lines := pl.Look()
		for i, l := range lines {
			lines[i] = tui.StripKeyHints(l)
		}
		p.say(lines...)
		return
	case "hand", "h", "card":
		if pl == nil {
			p.say(th.T("ui.waiting_table"))
			return
		}
		p.say(pl.Hand()...)
		return
	case "table", "t", "players":
		if pl == nil {
			p.waitingRoom()
			return
		}
		p.say(pl.Table()...)
		return
	case "moves", "m":
		p.listMoves(pl)
		return
	case "say", "'":
		if err := p.room.Say(p.box, sanitize.Line(rest, tui.ChatMax)); err != nil {
			p.say(th.Err(err))
		}
		return
	case "rules", "r":
		p.rules(p.room.Summary().Game, rest)
		return
	case "review":
		if rest == "" {
			rest = p.room.Code()
		}
		p.review(rest)
		return
	case "replay":
		if len(strings.Fields(rest)) == 1 { // replay N at its table
			rest = p.room.Code() + " " + rest
		}
		p.replayAt(rest)
		return
	case "hint":
		h := p.can.Hinter
		if h == nil || !p.room.Summary().Hints {
			p.say(th.T("ui.hint.off"))
			return
		}
		if msg, ok := h.Hint()().(uikit.HintMsg); ok {
			p.say(string(msg))
		}
		return
	case "leave", "lobby":
		p.leaveTable() // to the lobby either way
		p.lobby()
		return
	case "start":
		ctx, cancel := context.WithTimeout(p.s.Ctx, table.CallPatience)
		defer cancel()
		if err := p.room.Start(ctx, p.box); err != nil {
			p.say(th.Err(err))
		}
		return
	}
	if pl == nil {
		p.say(th.T("plain.unknown", game.Text("Cmd", sanitize.Line(word, 40))))
		return
	}
	moves := pl.Moves()
	pick := -1
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(moves) {
		pick = n - 1
	}
	cmd := strings.ToLower(strings.Join(strings.Fields(line), " "))
	for i, m := range moves {
		if pick < 0 && slices.Contains(m.Commands, cmd) {
			pick = i
		}
	}
	if pick < 0 {
		if len(moves) == 0 {
			p.say(th.T("plain.no_moves"))
		} else {
			p.say(th.T("plain.unknown_move", game.Text("Cmd", sanitize.Line(line, 40))))
		}
		return
	}
	// The move waits for its outcome, so that the answer to it is what it
	// did (or why not) and the next command sees the table after it: an
	// update already in the mailbox may be from before the move.
	ctx, cancel := context.WithTimeout(p.s.Ctx, table.CallPatience)
	defer cancel()
	if err := p.room.ActNow(ctx, p.box, p.upd.Seq, moves[pick].Action); err != nil {
		p.say(th.Err(err))
		return
	}
	select { // the view after the move (the mailbox keeps only the newest)
	case u := <-p.box.C():
		p.onUpdate(*u)
	default:
	}
}

// listMoves numbers what the player may do now.
func (p *plain) listMoves(pl uikit.Plain) {
	if pl == nil {
		p.say(p.th.T("plain.no_moves"))
		return
	}
	moves := pl.Moves()
	if len(moves) == 0 {
		p.say(p.th.T("plain.no_moves"))
		return
	}
	for i, m := range moves {
		line := fmt.Sprintf("%d. %s", i+1, m.Label)
		if len(m.Commands) > 0 {
			line += " (" + m.Commands[0] + ")"
		}
		p.say(line)
	}
}

// rules reads the rules reference of a game: the whole, or one card or
// role. At a table it is the table's game; in the lobby the first word
// names the game ("rules grizzled selfish").
func (p *plain) rules(gameID, what string) {
	var screen uikit.Screen
	if p.room != nil && p.screen != nil {
		screen = p.screen
	} else if gameID != "" {
		screen = p.newScreen(gameID) // the rules need no view
	}
	r := uikit.AbilitiesOf(screen).Rules
	if r == nil {
		p.say(p.th.T("plain.rules_which", p.gameIDs()))
		return
	}
	pages := r.RulePages()
	if strings.TrimSpace(what) == "" {
		// the first page (how a turn goes) and the names of the others
		titles := make([]string, 0, len(pages))
		for _, pg := range pages[1:] {
			titles = append(titles, pg.Title)
		}
		p.sayPage(pages[0])
		p.say(p.th.T("ui.rules.cards", game.Text("Names", strings.Join(titles, "; "))), p.th.T("ui.rules.ask"))
		return
	}
	found := uikit.FindRules(pages, what)
	if len(found) == 0 {
		p.say(p.th.T("ui.rules.none", game.Text("What", sanitize.Line(what, 40))))
		return
	}
	for _, pg := range found {
		p.sayPage(pg)
	}
}

// sayPage reads one rules page: its title, then its paragraphs.
func (p *plain) sayPage(pg uikit.RulePage) {
	p.say(append([]string{pg.Title + "."}, strings.Split(pg.Body, "\n")...)...)
}

// gameNamed finds a game by its id or the start of its title.
// gameIDs is the games on offer as the commands name them, joined as
// the player's language joins alternatives ("grizzled, werewolf or
// pebbles"): the usage lines list the registry, not a fixed pair.
func (p *plain) gameIDs() game.Arg {
	ids := make([]string, len(p.app.Games))
	for i, g := range p.app.Games {
		ids[i] = g.Game.ID()
	}
	return game.Text("Games", p.th.Or(ids))
}

func (p *plain) gameNamed(word string) (uikit.Module, bool) {
	word = strings.ToLower(word)
	if g, ok := p.app.Games.Lookup(word); ok {
		return g, true
	}
	for _, e := range p.app.Games {
		if word != "" && strings.HasPrefix(strings.ToLower(e.Title(p.th)), word) {
			return e, true
		}
	}
	return uikit.Module{}, false
}

func (p *plain) profile() {
	th := p.th
	rec, err := p.app.RecordsFor(p.s.Player)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	prof, err := rec.Profile(p.s.Player.ID)
	var said *game.Error
	if errors.As(err, &said) { // the server is degraded, say: not "no profile yet"
		p.say(th.Err(err))
		return
	}
	if err != nil {
		p.say(th.T("cmd.profile.none"), tui.AddressLine(th, p.s.Player.Gender)+" "+th.T("plain.address.usage"))
		return
	}
	p.say(th.T("ui.profile.title", game.Text("Player", prof.Name)))
	p.say(tui.AddressLine(th, p.s.Player.Gender) + " " + th.T("plain.address.usage"))
	for _, st := range prof.Stats {
		p.say(p.app.Games.Title(th, st.Game) + " " + p.app.Games.VariantName(th, st.Game, st.Variant) + ": " + th.T("ui.profile.stat_line",
			game.Count(st.Players), game.Num("Played", st.Played), game.Num("Won", st.Won), game.Num("Rate", 100*st.Won/max(st.Played, 1))))
	}
	if cs, err := rec.Campaigns(p.s.Player.ID); err != nil {
		p.say(th.T("ui.err.read_campaigns", game.Text("Err", th.Err(err))))
	} else if len(cs) > 0 {
		p.say(th.T("cmd.profile.campaigns"))
		for _, c := range cs {
			p.say(campaignSentence(th, c))
		}
	}
	if games, err := rec.Finished(p.s.Player.ID, 10); err == nil && len(games) > 0 {
		p.say(th.T("ui.profile.recent") + ":")
		for _, g := range games {
			res := th.T("ui.lost")
			if g.Won {
				res = th.T("ui.won")
			}
			p.say(g.When.Format(tui.DateTimeLayout) + " " + g.Code + " " + res + ": " + th.Msg(g.Title))
		}
	}
	p.peopleCommand("ignored", "")
	p.peopleCommand("blocked", "")
	p.notifySettings()
}

// mayGuess is the wrong-code budget of the session's address
// (tui.App.Guesses): false, said, while it must wait.
func (p *plain) mayGuess() bool {
	if wait := p.app.CodeWait(p.th, p.s.Addr); wait != "" {
		p.say(wait)
		return false
	}
	return true
}

func (p *plain) wrongGuess() { p.app.WrongCode(p.s.Addr) }

// campaign runs "campaign new PLAYERS NAME", "campaign join CODE" and
// "campaign play CODE" (open the next mission's table, as its host).
func (p *plain) campaign(args []string) {
	th := p.th
	rec, err := p.app.RecordsFor(p.s.Player)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	if len(args) < 2 {
		p.say(th.T("plain.campaign_usage"))
		return
	}
	switch strings.ToLower(args[0]) {
	case "new":
		players, err := strconv.Atoi(args[1])
		if err != nil || len(args) < 3 {
			p.say(th.T("plain.campaign_usage"))
			return
		}
		name, err := sanitize.CampaignName(strings.Join(args[2:], " "))
		if err != nil {
			p.say(th.Err(err))
			return
		}
		c, err := rec.CreateCampaign(p.s.Player, name, players)
		if err != nil {
			p.say(th.Err(err))
			return
		}
		p.say(th.T("ui.campaign.created", game.Text("Code", c.Code)))
	case "join":
		if !p.mayGuess() {
			return
		}
		c, err := rec.JoinCampaign(p.s.Player, table.NormalizeCode(args[1]))
		if errors.Is(err, tui.ErrNoSuchCampaign) {
			p.wrongGuess()
		}
		if err != nil {
			p.say(th.Err(err))
			return
		}
		p.say(th.T("ui.campaign.joined", game.Text("Name", c.Name)))
	case "play":
		c, err := myCampaign(rec, p.s.Player.ID, args[1])
		if err != nil {
			p.say(th.Err(err))
			return
		}
		g, spec, err := rec.CampaignTable(c)
		if err != nil {
			p.say(th.Err(err))
			return
		}
		p.say(campaignOptionsLine(th, c))
		r, err := p.app.Create(g, spec, p.s.Player)
		if err != nil {
			p.say(th.Err(err))
			return
		}
		p.sit(r, false)
	case "set":
		p.campaignSet(rec, args[1:])
	default:
		p.say(th.T("plain.campaign_usage"), th.T("campaign.mission.plain_usage"))
	}
}

// myCampaign is one of the player's campaigns by its code.
func myCampaign(rec tui.Records, playerID, code string) (tui.Campaign, error) {
	cs, err := rec.Campaigns(playerID)
	if err != nil {
		return tui.Campaign{}, err
	}
	code = table.NormalizeCode(code)
	for _, c := range cs {
		if c.Code == code {
			return c, nil
		}
	}
	return tui.Campaign{}, tui.ErrNoSuchCampaign
}

func (p *plain) campaigns() {
	th := p.th
	rec, err := p.app.RecordsFor(p.s.Player)
	if err != nil {
		p.say(th.Err(err))
		return
	}
	cs, err := rec.Campaigns(p.s.Player.ID)
	if err != nil || len(cs) == 0 {
		p.say(th.T("ui.campaign.none"))
		return
	}
	for _, c := range cs {
		p.say(campaignSentence(th, c))
	}
}

// campaignSentence is a campaign as plain mode reads it: its code and
// name, its players, the next game's trials pile (or its veteran win), its
// wins and losses, in words rather than "24/30".
func campaignSentence(th *uikit.Theme, c tui.Campaign) string {
	where := strings.Join(strings.Fields(th.T("ui.campaign.next_pile", game.Text("Bar", ""), game.Num("N", c.Trials), game.Num("Of", c.Target))), " ") + "."
	if c.Veteran {
		where = th.T("ui.campaign.won_at_30")
	}
	return fmt.Sprintf("%s %s: %s, %s. %s", c.Code, th.Text(c.Name), th.T("ui.n_players", game.Count(c.Players)),
		th.T("ui.campaign.won_lost", game.Num("Won", c.Wins), game.Num("Lost", c.Losses)), where)
}

// review reads the coach's review of a finished game aloud: how far the
// coach has got while it works (every tenth of the way), then the missions
// in sentences, the moments that turned the game and each player's
// costliest decisions.
func (p *plain) review(code string) {
	th := p.th
	if p.app.Reviews == nil {
		p.say(th.T("ui.err.no_coach"))
		return
	}
	var job tui.ReviewJob
	if said, ok := p.app.LookUpGame(th, p.s.Addr, func() (err error) {
		job, err = p.app.Reviews.Review(strings.TrimSpace(code), p.s.Player)
		return err
	}); !ok {
		p.say(said)
		return
	}
	said := -1
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case <-job.Done():
			waiting = false
		case <-p.s.Ctx.Done():
			return
		case <-tick.C:
			if done, total := job.Progress(); total > 0 && done*10/total > said {
				said = done * 10 / total
				p.say(th.T("ui.review.progress", game.Num("Done", done), game.Count(total)))
			}
		}
	}
	r, err := job.Result()
	if err != nil {
		p.say(th.Err(err))
		return
	}
	p.say(th.T("ui.review.title", game.Text("Code", r.Code)) + " · " + th.Msg(r.Title))
	st, ok := r.Coach.(uikit.Stepped)
	if !ok || p.app.Records == nil {
		p.say(r.Coach.Lines(th, r.Seats, 1000, true)...)
		return
	}
	// A line about a decision ends with its moment (#N: the actions
	// before it), which replay CODE N opens: the plain mode's enter on a
	// review line.
	lines, at := st.LinesAt(th, r.Seats, 1000, true)
	marked := tui.MarkMoments(lines, at, false)
	p.say(lines...)
	if marked {
		p.say(th.T("plain.review_replay", game.Text("Code", r.Code)))
	}
}

// replayAt says the situation of a finished game ("CODE N") at moment N
// (after N actions: a decision a review line marks #N), from the reader's
// own seat (Records.ReplayAs: their hand as it was, nobody else's; the
// spectator's view for someone who did not play): what the full screen's
// enter on a review line opens.
func (p *plain) replayAt(rest string) {
	th := p.th
	code, n, _ := strings.Cut(strings.TrimSpace(rest), " ")
	at, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(n), "#"))
	if code == "" || err != nil || at < 0 {
		p.say(th.T("plain.replay_usage"))
		return
	}
	if p.app.Records == nil {
		p.say(th.T("ui.err.no_records"))
		return
	}
	var r tui.Replay
	if said, ok := p.app.LookUpGame(th, p.s.Addr, func() (err error) {
		r, err = p.app.Records.ReplayAs(table.NormalizeCode(code), p.s.Player)
		return err
	}); !ok {
		p.say(said)
		return
	}
	lines, ok := p.app.ReplayLook(th, r, at)
	if !ok {
		p.say(th.T("ui.err.cannot_show", game.Text("Game", r.Game)))
		return
	}
	p.say(lines...)
}
