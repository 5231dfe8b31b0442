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
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/adminbus"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/server/commands"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/plain"

	"github.com/charmbracelet/ssh"
	"golang.org/x/time/rate"
)

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

	rates    adminRates    // each admin's command budget
	consoles adminConsoles // the consoles open here
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
	c.Mod.Saw(a.by, "") // an admin goes by their name in the lists too
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

// console reads commands a line at a time, after an overview of who is
// on, the tables, open reports and sanctions. With a PTY it echoes and
// prompts as plain mode does. It closes, with status 1, when its key is
// no longer an admin's (CloseRevoked).
func (c *Console) console(sess ssh.Session, a *adminSession) int {
	_, _, pty := sess.Pty()
	out := sshserver.RawOutput(sess)
	ed := plain.NewLineEditor(out, pty)
	a.out = ed.Say
	a.fail = func(msg string) { ed.Say(msg) }
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	oc := c.consoles.add(a.by.ID, cancel)
	defer c.consoles.remove(oc)
	keys, _ := sshserver.Keyboard(sess)
	lines := ed.Lines(ctx, keys)
	ed.Say(a.p.T("moderation.admin.welcome"), "")
	for _, cmd := range []string{"who", "tables", "reports", "bans"} {
		if cmd == "reports" {
			a.openReports() // counted: the whole queue is a page away
		} else {
			a.do([]string{cmd}) // the overview is not the admin's to pay for
		}
		ed.Say("")
	}
	ed.Prompt()
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done(): // the session ended, or the key's rights did
		}
		if !ok {
			break
		}
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
	if oc.revoked.Load() || !c.Mod.IsAdmin(a.by.ID) {
		ed.Say("", a.p.T("moderation.console.revoked"))
		return 1
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

// run runs one command within the admin's budget, if their key is still
// an admin's; false: it was refused or failed (the admin was told).
func (a *adminSession) run(args []string) bool {
	if !a.c.Mod.IsAdmin(a.by.ID) {
		a.fail(a.p.Error(moderation.ErrNotPermitted))
		return false
	}
	if !a.c.limiter(a.by.ID).Allow() {
		a.fail(a.p.T("moderation.err.too_fast"))
		return false
	}
	return a.do(args)
}

// adminVerb is one admin command's grammar: the words after its name,
// from min to max (max < 0: any number, the rest being text), and what
// it does with them.
type adminVerb struct {
	name     string
	usage    string // its usage's catalog key; "": the name alone
	help     string // its help line's catalog key
	min, max int
	run      func(a *adminSession, args []string) error
}

// adminVerbs are the commands in the order help lists them (set in init:
// the commands' usage errors read it).
var adminVerbs []adminVerb

func init() {
	adminVerbs = []adminVerb{
		{"who", "", "moderation.admin.help.who", 0, 0, func(a *adminSession, _ []string) error { a.who(); return nil }},
		{"tables", "", "moderation.admin.help.tables", 0, 0, func(a *adminSession, _ []string) error { a.tables(); return nil }},
		{"kick", "moderation.admin.usage.kick", "moderation.admin.help.kick", 1, -1, (*adminSession).kickCmd},
		{"mute", "moderation.admin.usage.mute", "moderation.admin.help.mute", 2, -1, (*adminSession).muteCmd},
		{"unmute", "moderation.admin.usage.unmute", "moderation.admin.help.unmute", 1, 1, (*adminSession).unmuteCmd},
		{"ban", "moderation.admin.usage.ban", "moderation.admin.help.ban", 2, -1, (*adminSession).banCmd},
		{"unban", "moderation.admin.usage.unban", "moderation.admin.help.unban", 1, 1, (*adminSession).unbanCmd},
		{"bans", "", "moderation.admin.help.bans", 0, 0, func(a *adminSession, _ []string) error { return a.bans() }},
		{"history", "moderation.admin.usage.history", "moderation.admin.help.history", 1, 1, (*adminSession).history},
		{"say", "moderation.admin.usage.say", "moderation.admin.help.say", 1, -1, (*adminSession).say},
		{"close", "moderation.admin.usage.close", "moderation.admin.help.close", 1, 1, (*adminSession).close},
		{"invite", "moderation.admin.usage.invite", "moderation.admin.help.invite", 0, 2, (*adminSession).invite},
		{"invites", "", "moderation.admin.help.invites", 0, 0, func(a *adminSession, _ []string) error { return a.invites() }},
		{"uninvite", "moderation.admin.usage.uninvite", "moderation.admin.help.uninvite", 1, 1, (*adminSession).uninvite},
		{"admitted", "", "moderation.admin.help.admitted", 0, 0, func(a *adminSession, _ []string) error { return a.admitted() }},
		{"unadmit", "moderation.admin.usage.unadmit", "moderation.admin.help.unadmit", 1, 1, (*adminSession).unadmit},
		{"allow", "moderation.admin.usage.allow", "moderation.admin.help.allow", 0, -1, (*adminSession).allowCmd},
		{"admins", "moderation.admin.usage.admins", "moderation.admin.help.admins", 0, -1, (*adminSession).adminsCmd},
		{"reports", "moderation.admin.more.usage_reports", "moderation.admin.help.reports", 0, -1, (*adminSession).reports},
		{"resolve", "moderation.admin.more.usage_resolve", "moderation.admin.more.help_resolve", 1, -1, (*adminSession).resolve},
		{"log", "", "moderation.admin.help.log", 0, 0, func(a *adminSession, _ []string) error { return a.log() }},
		{"help", "", "moderation.admin.help.help", 0, 0, func(a *adminSession, _ []string) error { a.help(); return nil }},
	}
}

// usageMsg is a command's usage as the admin reads it.
func (v adminVerb) usageMsg() game.Msg {
	if v.usage == "" {
		return game.Raw(v.name)
	}
	return game.M(v.usage)
}

// do runs one command: its words checked against its grammar first.
func (a *adminSession) do(args []string) bool {
	name, rest := strings.ToLower(args[0]), args[1:]
	i := slices.IndexFunc(adminVerbs, func(v adminVerb) bool { return v.name == name })
	if i < 0 {
		a.fail(a.p.T("moderation.err.unknown", game.Text("Cmd", commands.Echo(args[0]))))
		return false
	}
	v := adminVerbs[i]
	var err error
	switch {
	case len(rest) < v.min:
		err = &game.Error{Msg: game.M("moderation.err.usage", game.Sub("Usage", v.usageMsg()))}
	case v.max >= 0 && len(rest) > v.max:
		err = extraWord(rest[v.max], v.usageMsg())
	default:
		err = v.run(a, rest)
	}
	if err != nil {
		a.fail(a.explain(err))
		return false
	}
	return true
}

// extraWord refuses a command for a word beyond its grammar.
func extraWord(word string, usage game.Msg) error {
	return &game.Error{Msg: game.M("moderation.console.extra", game.Text("Extra", sanitize.Cut(word, 40)), game.Sub("Usage", usage))}
}

// usageOf is the usage error of the command name.
func usageOf(name string) error {
	i := slices.IndexFunc(adminVerbs, func(v adminVerb) bool { return v.name == name })
	return &game.Error{Msg: game.M("moderation.err.usage", game.Sub("Usage", adminVerbs[i].usageMsg()))}
}

// explain is an error as the admin reads it: the catalog's words for
// those that have them, else that the store failed (details in the log).
func (a *adminSession) explain(err error) string {
	var ge *game.Error
	if errors.As(err, &ge) {
		return a.p.ErrorDetail(err)
	}
	a.c.Log.Error("admin command failed", "by", a.by.ID, "err", err)
	return a.p.T("moderation.err.store")
}

// player resolves the word an admin named a player by (resolvePlayer; in
// a cluster, the other nodes' sessions too), for command cmd.
func (a *adminSession) player(cmd, word string) (moderation.Person, error) {
	who, err := a.c.resolvePlayer(cmd, word)
	if errors.Is(err, errNoSuchPlayer) && a.c.Cluster != nil {
		who, err = a.c.resolveOnNodes(word, err)
	}
	return who, err
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
		if err != nil || n < 1 {
			return usageOf("reports")
		}
		if len(rest) > 1 {
			return extraWord(rest[1], game.M("moderation.admin.more.usage_reports"))
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
		a.fail(a.explain(err))
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
	n, err := strconv.Atoi(strings.TrimPrefix(rest[0], "#"))
	if err != nil {
		return usageOf("resolve")
	}
	if _, err := a.c.Mod.Resolve(a.by, n, strings.Join(rest[1:], " ")); err != nil {
		return err
	}
	a.out(a.p.T("moderation.admin.more.resolved", game.Text("N", strconv.Itoa(n))))
	return nil
}

// bansReadWithin bounds `admin bans`' read of the store; past it the
// list is this node's own, and says so.
const bansReadWithin = 2 * time.Second

// bans lists the bans and mutes as stored, marking those this node does
// not apply yet (made on another node a moment ago: issue 41).
func (a *adminSession) bans() error {
	all, applied, fromView, err := a.c.Mod.Stored(bansReadWithin)
	if fromView {
		a.c.Log.Warn("admin bans: the store did not answer; this node's own list is shown", "err", err)
	}
	if len(all) == 0 && !fromView {
		a.out(a.p.T("moderation.admin.sanctions_none"))
		return nil
	}
	lines := []string{a.p.T("moderation.admin.sanctions_title")}
	if fromView {
		lines[0] = a.p.T("moderation.admin.sanctions_from_view")
	}
	for i, sn := range all {
		args := []game.Arg{game.Term("Kind", "moderation.admin.kind."+sn.Kind), game.Text("Name", sn.Name),
			game.Text("By", sn.ByName), game.Text("Reason", sn.Reason)}
		key := "moderation.admin.sanction_for_good"
		if !sn.Permanent() {
			key = "moderation.admin.sanction_for"
			args = append(args, game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat)))
		}
		line := "  " + strings.TrimSpace(a.p.T(key, args...))
		if !applied[i] {
			line += "  " + a.p.T("moderation.admin.applying")
		}
		lines = append(lines, line)
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
		lines = append(lines, "  "+a.logLine(e))
	}
	a.out(lines...)
	return nil
}

// logLine is one action as `admin log` shows it.
func (a *adminSession) logLine(e moderation.Entry) string {
	detail := e.Reason
	if !e.Until.IsZero() {
		detail = strings.TrimSpace(e.Until.UTC().Format(moderation.UntilFormat) + "  " + detail)
	}
	if e.Addr != "" {
		detail = strings.TrimSpace(detail + "  +" + moderation.ShowAddr(e.Addr))
	}
	return strings.TrimSpace(a.p.T("moderation.admin.log_line",
		game.Text("When", e.At.UTC().Format("2006-01-02 15:04")), game.Text("By", e.ByName),
		game.Term("Action", "moderation.admin.action."+e.Action), game.Text("Whom", e.SubjectName), game.Text("Detail", detail)))
}

func (a *adminSession) help() {
	lines := []string{a.p.T("moderation.admin.help.title")}
	for _, v := range adminVerbs {
		lines = append(lines, "  "+a.p.Msg(v.usageMsg()), "      "+a.p.T(v.help)) // two lines: each fits 80 columns
	}
	a.out(append(lines, "", a.p.T("moderation.admin.help.quotes"), "  "+a.p.T("moderation.admin.help.quotes_example"))...)
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

// adminConsoles are the consoles open on this node, with their admin's
// key: a reload that takes a key off the admins closes its consoles.
type adminConsoles struct {
	mu sync.Mutex
	m  map[*openConsole]struct{}
}

// openConsole is one console: its admin's key, and its end.
type openConsole struct {
	key     string
	cancel  context.CancelFunc
	revoked atomic.Bool // closed because the key is no longer an admin's
}

// add registers a console of key, ended by cancel; remove it when it ends.
func (c *adminConsoles) add(key string, cancel context.CancelFunc) *openConsole {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[*openConsole]struct{}{}
	}
	oc := &openConsole{key: key, cancel: cancel}
	c.m[oc] = struct{}{}
	return oc
}

func (c *adminConsoles) remove(oc *openConsole) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, oc)
}

// closeRevoked closes the consoles of keys that are no longer admins',
// and says how many.
func (c *adminConsoles) closeRevoked(isAdmin func(string) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for oc := range c.m {
		if !isAdmin(oc.key) {
			oc.revoked.Store(true)
			oc.cancel()
			n++
		}
	}
	return n
}

// errNoSuchPlayer: nobody this node knows goes by the name.
var errNoSuchPlayer = errors.New("no such player")

// resolvePlayer finds the player an admin names for command cmd: an
// identity as `who` shows it (SHA256:…, guest:…) as it is; else the
// players whose name reads like word exactly (case and look-alikes folded
// by sanitize.Fold, never by prefix): the one holding the name now, the
// sessions here, the sanctioned, and whoever was seen under it. One
// player is found; several are refused with the candidates, and nothing
// is done.
func (c *Console) resolvePlayer(cmd, word string) (moderation.Person, error) {
	if strings.HasPrefix(word, "SHA256:") || strings.HasPrefix(word, "guest:") {
		id := sanitize.Line(word, 128)
		return c.person(id, c.displayName(id)), nil
	}
	name := sanitize.Line(word, sanitize.MaxNameRunes+8)
	fold := sanitize.Fold(name)
	var cands [][2]string // identity, name
	addCand := func(id, n string) {
		if id != "" && !slices.ContainsFunc(cands, func(c [2]string) bool { return c[0] == id }) {
			cands = append(cands, [2]string{id, n})
		}
	}
	if fold != "" {
		if id, display, ok := c.Names.Holder(name); ok {
			addCand(id, display)
		}
		for _, ls := range c.Here.Live.List(nil) {
			if sanitize.Fold(ls.DisplayName()) == fold {
				addCand(ls.Who.ID, ls.DisplayName())
			}
		}
		sanctions, _ := c.Mod.InForce()
		for _, sn := range sanctions {
			if sanitize.Fold(sn.Name) == fold {
				addCand(sn.Subject, sn.Name)
			}
		}
		for _, id := range c.Mod.SeenAs(name) {
			addCand(id, c.displayName(id))
		}
	}
	switch len(cands) {
	case 0:
		return moderation.Person{}, c.notFound(cmd, name)
	case 1:
		return c.person(cands[0][0], c.displayName(cands[0][0])), nil // the name they go by now
	}
	slices.SortFunc(cands, func(x, y [2]string) int { return cmp.Or(strings.Compare(x[1], y[1]), strings.Compare(x[0], y[0])) })
	var names []game.Msg
	for _, c := range cands {
		names = append(names, game.Raw(c[1]+" ("+c[0]+")"))
	}
	return moderation.Person{}, &game.Error{Err: errAmbiguous, Msg: game.M("moderation.console.ambiguous", game.Text("Name", name), game.List("Names", names...))}
}

// errAmbiguous: several players go by the name.
var errAmbiguous = errors.New("ambiguous name")

// notFound is "nobody called name", with the names that begin with name
// and a space, when there are some: the shell dropped the quotes of a
// name with spaces (`ssh host admin ban "jean luc" 30m` reaches the
// server as ban jean luc 30m).
func (c *Console) notFound(cmd, name string) error {
	var longer []game.Msg
	example := ""
	for _, c := range c.Names.Beginning(sanitize.Fold(name), 64) {
		if strings.HasPrefix(strings.ToLower(c[1]), strings.ToLower(name)+" ") {
			longer = append(longer, game.Raw(c[1]))
			if example == "" {
				example = c[1]
			}
		}
	}
	if len(longer) == 0 {
		return &game.Error{Err: errNoSuchPlayer, Msg: game.M("moderation.err.no_such_player", game.Text("Name", name))}
	}
	return &game.Error{Err: errNoSuchPlayer, Msg: game.M("moderation.console.not_found_spaces", game.Text("Name", name),
		game.List("Names", longer...), game.Text("Cmd", cmd), game.Text("Example", example))}
}

// displayName is how an identity goes now: a session's name here, the
// name it holds, or the last name it was seen under; else the identity.
func (c *Console) displayName(id string) string {
	if ls := c.Here.Live.Of(id); len(ls) > 0 {
		return ls[0].DisplayName()
	}
	if sg, ok := c.Mod.Sighting(id); ok && len(sg.Names) > 0 {
		return sg.Names[len(sg.Names)-1].Name
	}
	if prof, err := c.Store.Player(id); err == nil && prof.Name != "" {
		return prof.Name
	}
	return id
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

// CloseRevoked closes the consoles of keys that are no longer admins'
// (the admins' list changed), and says how many.
func (c *Console) CloseRevoked() int { return c.consoles.closeRevoked(c.Mod.IsAdmin) }
