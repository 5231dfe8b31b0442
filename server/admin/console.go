// Package admin answers the server's admins: `ssh host admin COMMAND …`
// for scripts, and `ssh -t host admin` for a line-based console that runs
// the same commands (Console), in the admin's language. Each node does
// its own part of a command on its sessions and tables (Here); in a
// cluster the admin's node asks the others too (Cluster, over
// cluster/adminbus) and names those that did not answer. Only the
// server's command router leads here, for `ssh host admin`.
package admin

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/adminbus"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/server/commands"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/plain"

	"github.com/charmbracelet/ssh"
	"golang.org/x/time/rate"
)

// Admin command rate: a burst of adminBurst commands, then one every
// adminEvery, per admin (all their sessions together). Far above what a
// person types or a script needs; it stops a runaway loop from flooding
// the store and every player's screen with notices.
const (
	adminBurst = 30
	adminEvery = 200 * time.Millisecond
)

// adminCloseWait is how long `admin close` waits for the table to save
// itself closed before it answers.
const adminCloseWait = 5 * time.Second

// adminLogShown is how many moderation actions `admin log` shows: the last ones.
const adminLogShown = 50

// Console answers the admins' commands.
type Console struct {
	Here   *Here // this node's sessions and tables
	Mod    *moderation.Service
	Access *access.Policy    // invites
	Store  persistence.Store // the admins' names, as their profiles give them
	Names  Names             // the names players go by
	// JoinLine is the ssh line that reaches this server, for invites.
	JoinLine func() string
	// Cluster is the other nodes of this one's cluster; nil on a single node.
	Cluster Cluster
	Log     *slog.Logger

	rates adminRates // each admin's command budget
}

// Names finds players by the names they go by (the server's name book).
type Names interface {
	// Holder is the player who holds a name that reads like name, with
	// the name as they hold it.
	Holder(name string) (id, held string, ok bool)
	// Beginning is up to most holders (ID and name) whose folded names
	// begin with prefix, a folded name.
	Beginning(prefix string, most int) [][2]string
}

// Cluster is what the console asks of the other nodes of a cluster.
type Cluster interface {
	// Node is this node's ID.
	Node() string
	// AskOthers asks every known node but this one, each within within;
	// a node that did not answer has its Err set.
	AskOthers(req adminbus.Request, within time.Duration) []adminbus.Answer
	// Has reports whether the cluster lists an unfinished table code.
	Has(code string) bool
}

// Run answers `ssh host admin …` in p's language: one command (args), or
// with no command the console. Non-admins learn only that it is not
// permitted.
func (c *Console) Run(sess ssh.Session, p *i18n.Printer, args []string) int {
	id, _ := sshserver.IdentityOf(sess)
	if id.Guest || !c.Mod.IsAdmin(id.ID) {
		fmt.Fprintln(sess.Stderr(), p.Error(moderation.ErrNotPermitted))
		return 1
	}
	a := &adminSession{c: c, p: p, by: moderation.Person{ID: id.ID, Name: c.adminName(id), Addr: id.RemoteIP}}
	if len(args) == 0 {
		return c.console(sess, a)
	}
	a.out = func(lines ...string) { writeLines(sess, lines) }
	a.fail = func(msg string) { fmt.Fprintln(sess.Stderr(), msg) }
	if !a.run(args) {
		return 1
	}
	return 0
}

func writeLines(w io.Writer, lines []string) {
	for _, l := range lines {
		_, _ = io.WriteString(w, l+"\n") // to a session: one that has gone reads nothing more
	}
}

// adminName is how the log names an admin: their profile's name, else
// the one they logged in with.
func (c *Console) adminName(id sshserver.Identity) string {
	if prof, err := c.Store.Player(id.ID); err == nil && prof.Name != "" {
		return prof.Name
	}
	if n, err := sanitize.Name(id.User); err == nil {
		return n
	}
	return id.ID
}

// console reads commands a line at a time, after an overview of who
// is on, the tables, open reports and sanctions. With a PTY it echoes and
// prompts as plain mode does.
func (c *Console) console(sess ssh.Session, a *adminSession) int {
	_, _, pty := sess.Pty()
	out := sshserver.RawOutput(sess)
	ed := plain.NewLineEditor(out, pty)
	a.out = ed.Say
	a.fail = func(msg string) { ed.Say(msg) }
	keys, _ := sshserver.Keyboard(sess)
	lines := ed.Lines(sess.Context(), keys)
	ed.Say(a.p.T("moderation.admin.welcome"), "")
	for _, c := range []string{"who", "tables", "reports", "bans"} {
		if c == "reports" {
			a.openReports() // counted: the whole queue is a page away
		} else {
			a.do([]string{c}) // the overview is not the admin's to pay for
		}
		ed.Say("")
	}
	ed.Prompt()
	for line := range lines {
		args := splitCommand(sanitize.Line(line, sshserver.MaxCommand))
		if len(args) > 0 && (strings.EqualFold(args[0], "quit") || strings.EqualFold(args[0], "exit")) {
			break
		}
		if len(args) > 0 && strings.EqualFold(args[0], "admin") {
			args = args[1:] // typed as on the command line
		}
		if len(args) > 0 {
			a.run(args)
		}
		ed.Prompt()
	}
	ed.Say(a.p.T("moderation.admin.bye"))
	return 0
}

// splitCommand splits a console line into words; "double quotes" keep a
// name with spaces together.
func splitCommand(line string) []string {
	var out []string
	var word strings.Builder
	quoted, any := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, word.String())
			}
			word.Reset()
			any = false
		default:
			word.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, word.String())
	}
	return out
}

// adminSession is one admin's commands, answered in their language.
type adminSession struct {
	c    *Console
	p    *i18n.Printer
	by   moderation.Person
	out  func(lines ...string) // answers
	fail func(msg string)      // refusals and errors
}

// run runs one command within the admin's budget; false: it was refused
// or failed (the admin was told).
func (a *adminSession) run(args []string) bool {
	if !a.c.limiter(a.by.ID).Allow() {
		a.fail(a.p.T("moderation.err.too_fast"))
		return false
	}
	return a.do(args)
}

// do runs one command.
func (a *adminSession) do(args []string) bool {
	cmd, rest := strings.ToLower(args[0]), args[1:]
	var err error
	switch cmd {
	case "who":
		a.who()
	case "tables":
		a.tables()
	case "reports":
		err = a.reports(rest)
	case "resolve":
		err = a.resolve(rest)
	case "bans":
		err = a.bans()
	case "log":
		err = a.log()
	case "help":
		a.help()
	case "kick":
		err = a.withName(rest, "moderation.admin.usage.kick", a.kick)
	case "ban", "mute":
		usage := map[string]string{"ban": "moderation.admin.usage.ban", "mute": "moderation.admin.usage.mute"}[cmd]
		err = a.withName(rest, usage, func(who moderation.Person, more []string) error { return a.sanction(cmd, who, more) })
	case "unban", "unmute":
		usage := map[string]string{"unban": "moderation.admin.usage.unban", "unmute": "moderation.admin.usage.unmute"}[cmd]
		err = a.withName(rest, usage, func(who moderation.Person, _ []string) error { return a.lift(cmd, who) })
	case "say":
		err = a.say(rest)
	case "close":
		err = a.close(rest)
	case "invite":
		err = a.invite(rest)
	default:
		a.fail(a.p.T("moderation.err.unknown", game.Text("Cmd", commands.Echo(args[0]))))
		return false
	}
	if err != nil {
		a.fail(a.explain(err))
		return false
	}
	return true
}

// explain is an error as the admin reads it: the catalog's words for
// those that have them, else that the store failed (details in the log).
func (a *adminSession) explain(err error) string {
	var ge *game.Error
	if errors.As(err, &ge) {
		return a.p.Error(err)
	}
	a.c.Log.Error("admin command failed", "by", a.by.ID, "err", err)
	return a.p.T("moderation.err.store")
}

func usageError(key string) error {
	return &game.Error{Msg: game.M("moderation.err.usage", game.Sub("Usage", game.M(key)))}
}

// withName resolves the first word as a player's name and runs do with
// the rest.
func (a *adminSession) withName(args []string, usage string, do func(moderation.Person, []string) error) error {
	if len(args) == 0 {
		return usageError(usage)
	}
	who, err := a.c.resolvePlayer(args[0])
	var ge *game.Error
	if errors.As(err, &ge) && ge.Msg.Key == "moderation.err.no_such_player" && a.c.Cluster != nil {
		who, err = a.c.resolveOnNodes(args[0], err)
	}
	if err != nil {
		return err
	}
	return do(who, args[1:])
}

func (a *adminSession) tables() {
	var rooms []table.Summary
	for _, r := range a.c.Here.Hub.List() {
		if r.Status != table.StatusClosed {
			rooms = append(rooms, r)
		}
	}
	if len(rooms) == 0 {
		a.out(a.p.T("moderation.admin.tables_none"))
		return
	}
	lines := []string{a.p.T("moderation.admin.tables_title")}
	for _, r := range rooms {
		var names []string
		for _, st := range r.Seats {
			if st.Name != "" {
				names = append(names, st.Name)
			}
		}
		lines = append(lines, fmt.Sprintf("  %s  %s  %d/%d  %s  %s", r.Code, sanitize.Line(a.p.Msg(r.Title), 80),
			len(r.Seats)-r.Open, len(r.Seats), a.p.T("cmd.rooms.status."+string(r.Status)), strings.Join(names, ", ")))
	}
	a.out(lines...)
}

// reportsPage is how many reports `admin reports` shows at once.
const reportsPage = 20

// reports lists the open reports, numbered as resolve takes them, a page
// of reportsPage at a time (`reports 2` the second); with `all`, the
// resolved ones too, with who resolved them.
func (a *adminSession) reports(rest []string) error {
	if len(rest) >= 2 && strings.EqualFold(rest[0], "close") {
		return a.resolve(rest[1:]) // `reports close N [NOTE]`
	}
	all, page := false, 1
	if len(rest) > 0 && strings.EqualFold(rest[0], "all") {
		all, rest = true, rest[1:]
	}
	if len(rest) > 0 {
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 1 || len(rest) > 1 {
			return usageError("moderation.admin.more.usage_reports")
		}
		page = n
	}
	rs, err := a.c.Mod.Reports()
	if err != nil {
		return err
	}
	var shown []int // numbers (from 1) of the reports listed
	for i, r := range rs {
		if r.Resolved == nil || all {
			shown = append(shown, i+1)
		}
	}
	switch {
	case len(shown) == 0 && all:
		a.out(a.p.T("moderation.admin.reports_none"))
		return nil
	case len(shown) == 0:
		a.out(a.p.T("moderation.admin.more.reports_none_open"))
		return nil
	}
	pages := (len(shown) + reportsPage - 1) / reportsPage
	page = min(page, pages)
	lines := []string{a.p.T("moderation.admin.reports_title")}
	if pages > 1 {
		lines[0] = a.p.T("moderation.admin.reports_page", game.Num("Page", page), game.Num("Pages", pages))
	}
	for _, n := range shown[(page-1)*reportsPage : min(page*reportsPage, len(shown))] {
		lines = append(lines, a.report(n, rs[n-1])...)
	}
	if page < pages {
		next := "reports " + strconv.Itoa(page+1)
		if all {
			next = "reports all " + strconv.Itoa(page+1)
		}
		lines = append(lines, a.p.T("moderation.admin.reports_next", game.Text("Command", next)))
	}
	a.out(lines...)
	return nil
}

// openReports is the console overview's line on reports: how many are
// open (the queue itself may be long).
func (a *adminSession) openReports() {
	rs, err := a.c.Mod.Reports()
	if err != nil {
		a.fail(a.p.Error(err))
		return
	}
	open := 0
	for _, r := range rs {
		if r.Resolved == nil {
			open++
		}
	}
	if open == 0 {
		a.out(a.p.T("moderation.admin.more.reports_none_open"))
		return
	}
	a.out(a.p.T("moderation.admin.reports_open", game.Count(open)))
}

// report is report n as `admin reports` shows it: number, who, whom,
// where, why, the evidence, and its resolution if it has one.
func (a *adminSession) report(n int, r moderation.Report) []string {
	args := []game.Arg{game.Text("When", r.At.UTC().Format("2006-01-02 15:04")), game.Text("Reporter", r.ReporterName),
		game.Text("Subject", r.SubjectName), game.Text("Reason", r.Reason)}
	key := "moderation.admin.report_no_table"
	if r.Table != "" {
		key = "moderation.admin.report"
		args = append(args, game.Text("Table", r.Table))
	}
	lines := []string{fmt.Sprintf("  #%d  %s", n, a.p.T(key, args...))}
	if r.Times() > 1 {
		lines = append(lines, "      "+a.p.T("moderation.admin.report_times", game.Count(r.Times()),
			game.Text("When", r.LastAt.UTC().Format("2006-01-02 15:04"))))
	}
	for _, e := range r.Evidence {
		lines = append(lines, "      "+e)
	}
	if res := r.Resolved; res != nil {
		args := []game.Arg{game.Text("By", res.ByName), game.Text("When", res.At.UTC().Format("2006-01-02 15:04"))}
		key := "moderation.admin.more.resolved_by"
		if res.Note != "" {
			key = "moderation.admin.more.resolved_by_note"
			args = append(args, game.Text("Note", res.Note))
		}
		lines = append(lines, "      "+a.p.T(key, args...))
	}
	return lines
}

// resolve marks a report handled: `resolve N [NOTE]`.
func (a *adminSession) resolve(rest []string) error {
	if len(rest) == 0 {
		return usageError("moderation.admin.more.usage_resolve")
	}
	n, err := strconv.Atoi(strings.TrimPrefix(rest[0], "#"))
	if err != nil {
		return usageError("moderation.admin.more.usage_resolve")
	}
	if _, err := a.c.Mod.Resolve(a.by, n, strings.Join(rest[1:], " ")); err != nil {
		return err
	}
	a.out(a.p.T("moderation.admin.more.resolved", game.Text("N", strconv.Itoa(n))))
	return nil
}

func (a *adminSession) bans() error {
	all, err := a.c.Mod.InForce()
	if err != nil {
		return err
	}
	if len(all) == 0 {
		a.out(a.p.T("moderation.admin.sanctions_none"))
		return nil
	}
	lines := []string{a.p.T("moderation.admin.sanctions_title")}
	for _, sn := range all {
		args := []game.Arg{game.Term("Kind", "moderation.admin.kind."+sn.Kind), game.Text("Name", sn.Name),
			game.Text("By", sn.ByName), game.Text("Reason", sn.Reason)}
		key := "moderation.admin.sanction_for_good"
		if !sn.Permanent() {
			key = "moderation.admin.sanction_for"
			args = append(args, game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat)))
		}
		lines = append(lines, "  "+strings.TrimSpace(a.p.T(key, args...)))
	}
	a.out(lines...)
	return nil
}

func (a *adminSession) log() error {
	entries, err := a.c.Mod.Log(adminLogShown)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		a.out(a.p.T("moderation.admin.log_none"))
		return nil
	}
	lines := []string{a.p.T("moderation.admin.log_title")}
	for _, e := range entries {
		detail := e.Reason
		if !e.Until.IsZero() {
			detail = strings.TrimSpace(e.Until.UTC().Format(moderation.UntilFormat) + "  " + detail)
		}
		lines = append(lines, "  "+strings.TrimSpace(a.p.T("moderation.admin.log_line",
			game.Text("When", e.At.UTC().Format("2006-01-02 15:04")), game.Text("By", e.ByName),
			game.Term("Action", "moderation.admin.action."+e.Action), game.Text("Whom", e.SubjectName), game.Text("Detail", detail))))
	}
	a.out(lines...)
	return nil
}

func (a *adminSession) help() {
	lines := []string{a.p.T("moderation.admin.help.title")}
	for _, c := range []struct{ syntax, help string }{
		{"who", "moderation.admin.help.who"},
		{"tables", "moderation.admin.help.tables"},
		{a.p.T("moderation.admin.usage.kick"), "moderation.admin.help.kick"},
		{a.p.T("moderation.admin.usage.mute"), "moderation.admin.help.mute"},
		{a.p.T("moderation.admin.usage.unmute"), "moderation.admin.help.unmute"},
		{a.p.T("moderation.admin.usage.ban"), "moderation.admin.help.ban"},
		{a.p.T("moderation.admin.usage.unban"), "moderation.admin.help.unban"},
		{"bans", "moderation.admin.help.bans"},
		{a.p.T("moderation.admin.usage.say"), "moderation.admin.help.say"},
		{a.p.T("moderation.admin.usage.close"), "moderation.admin.help.close"},
		{a.p.T("moderation.admin.usage.invite"), "moderation.admin.help.invite"},
		{a.p.T("moderation.admin.more.usage_reports"), "moderation.admin.help.reports"},
		{a.p.T("moderation.admin.more.usage_resolve"), "moderation.admin.more.help_resolve"},
		{"log", "moderation.admin.help.log"},
		{"help", "moderation.admin.help.help"},
	} {
		lines = append(lines, "  "+c.syntax, "      "+a.p.T(c.help)) // two lines: each fits 80 columns
	}
	a.out(lines...)
}

// sanction bans or mutes who: `NAME [DURATION] [REASON]`.
func (a *adminSession) sanction(kind string, who moderation.Person, rest []string) error {
	var d time.Duration
	if len(rest) > 0 && moderation.LooksLikeDuration(rest[0]) {
		var err error
		if d, err = moderation.ParseDuration(rest[0]); err != nil {
			return err
		}
		rest = rest[1:]
	}
	reason := strings.Join(rest, " ")
	mk := a.c.Mod.Mute
	if kind == moderation.Ban {
		mk = a.c.Mod.Ban
	}
	sn, err := mk(a.by, who, d, reason)
	if err != nil {
		return err
	}
	if kind == moderation.Ban {
		a.c.Here.EnforceBan(sn)
	}
	said := map[string][2]string{moderation.Ban: {"moderation.admin.banned_for", "moderation.admin.banned_for_good"},
		moderation.Mute: {"moderation.admin.muted_for", "moderation.admin.muted_for_good"}}[kind]
	if sn.Permanent() {
		a.out(a.p.T(said[1], game.Text("Name", who.Name)))
	} else {
		a.out(a.p.T(said[0], game.Text("Name", who.Name), moderation.LeftArg(d), game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat))))
	}
	return nil
}

func (a *adminSession) lift(cmd string, who moderation.Person) error {
	var err error
	key := "moderation.admin.unbanned"
	if cmd == "unban" {
		_, err = a.c.Mod.Unban(a.by, who.ID)
	} else {
		_, err = a.c.Mod.Unmute(a.by, who.ID)
		key = "moderation.admin.unmuted"
	}
	if err != nil {
		return err
	}
	a.out(a.p.T(key, game.Text("Name", who.Name)))
	return nil
}

// invite makes an invite code (access) for `[USES] [DURATION]` and shows
// it to this admin only: the log keeps that an invite was made, never its
// code.
func (a *adminSession) invite(rest []string) error {
	uses, ttl := 0, time.Duration(0)
	for _, w := range rest {
		var err error
		if moderation.LooksLikeDuration(w) {
			if ttl, err = moderation.ParseDuration(w); err != nil {
				return err
			}
		} else if uses, err = strconv.Atoi(w); err != nil {
			return usageError("moderation.admin.usage.invite")
		} else if uses <= 0 {
			uses = -1 // typed: CreateInvite's 0 means "one", and 0 typed is a slip it should refuse
		}
	}
	code, err := a.c.Access.CreateInvite(a.by.ID, uses, ttl)
	if err != nil {
		return err
	}
	if uses == 0 {
		uses = 1
	}
	if ttl == 0 {
		ttl = access.DefaultTTL
	}
	until := a.c.Mod.Now().Add(ttl).UTC().Format(moderation.UntilFormat)
	login := joinline.AsUser(a.c.JoinLine(), sshserver.InvitePrefix+access.FormatCode(code))
	a.c.Mod.Record(a.by, "invite", "", "", "")
	a.out(a.p.T("moderation.admin.invite", game.Count(uses), game.Text("Code", access.FormatCode(code)),
		game.Text("Until", until), game.Text("Command", login)))
	return nil
}

// resolvePlayer finds a player by the name players see, case and
// look-alikes aside: a name held now or lately, a sanctioned player's, or
// else the only name beginning so. A name several could mean is refused
// with the candidates. An identity (SHA256:…, guest:…) is taken as it is.
func (c *Console) resolvePlayer(name string) (moderation.Person, error) {
	if strings.HasPrefix(name, "SHA256:") || strings.HasPrefix(name, "guest:") {
		// An identity as `who` shows it: a player on another node of a
		// cluster, or one whose name this node no longer knows.
		id := sanitize.Line(name, 128)
		return c.person(id, id), nil
	}
	name = sanitize.Line(name, sanitize.MaxNameRunes+8)
	if id, display, ok := c.Names.Holder(name); ok {
		return c.person(id, display), nil
	}
	sanctions, _ := c.Mod.InForce()
	fold := sanitize.Fold(name)
	for _, sn := range sanctions {
		if sanitize.Fold(sn.Name) == fold {
			return moderation.Person{ID: sn.Subject, Name: sn.Name, Addr: sn.Addr, Guest: strings.HasPrefix(sn.Subject, "guest:")}, nil
		}
	}
	cands := c.Names.Beginning(fold, 6)
	for _, sn := range sanctions {
		if strings.HasPrefix(sanitize.Fold(sn.Name), fold) && !slices.ContainsFunc(cands, func(c [2]string) bool { return c[0] == sn.Subject }) {
			cands = append(cands, [2]string{sn.Subject, sn.Name})
		}
	}
	switch len(cands) {
	case 0:
		return moderation.Person{}, &game.Error{Msg: game.M("moderation.err.no_such_player", game.Text("Name", name))}
	case 1:
		return c.person(cands[0][0], cands[0][1]), nil
	}
	var names []game.Msg
	for _, c := range cands {
		names = append(names, game.Raw(c[1]))
	}
	slices.SortFunc(names, func(x, y game.Msg) int { return cmp.Compare(x.Args[0].Str, y.Args[0].Str) })
	return moderation.Person{}, &game.Error{Msg: game.M("moderation.err.ambiguous", game.Text("Name", name), game.List("Names", names...))}
}

// person is a player with the address and kind of their session here, if
// they have one.
func (c *Console) person(id, name string) moderation.Person {
	p := moderation.Person{ID: id, Name: name, Guest: strings.HasPrefix(id, "guest:")}
	if ls := c.Here.Live.Of(id); len(ls) > 0 {
		p.Guest, p.Addr = ls[0].Who.Guest, ls[0].Who.RemoteIP
	}
	return p
}

// limiter is an admin's command budget, shared by their sessions.
func (c *Console) limiter(id string) *rate.Limiter {
	c.rates.mu.Lock()
	defer c.rates.mu.Unlock()
	if c.rates.m == nil {
		c.rates.m = map[string]*rate.Limiter{}
	}
	l := c.rates.m[id]
	if l == nil {
		l = rate.NewLimiter(rate.Every(adminEvery), adminBurst)
		c.rates.m[id] = l // admins only: a short list
	}
	return l
}

// adminRates holds each admin's command budget.
type adminRates struct {
	mu sync.Mutex
	m  map[string]*rate.Limiter
}
