// Package commands answers what a player runs without a terminal
// (`ssh host rooms`, `help`, `profile`, `replay CODE`, `review CODE`) as
// plain text in the player's language, and points `join` and `learn` to
// the terminal they need. It reads everything through the sessions' app
// (tui.App): the tables, the games, the records and the coach.
package commands

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/server/people"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/ssh"
)

// Commands answers the commands of the players of App.
type Commands struct{ App *tui.App }

// echoMost is how much of an unknown command is said back, "…" included:
// a client may send a command of any length.
const echoMost = 41

// Echo is an unknown command as it is said back: cleaned, and cut short.
func Echo(c string) string { return sanitize.Cut(c, echoMost) }

// Run answers `ssh host CMD` without a PTY, as plain text in p's language.
func (c Commands) Run(sess ssh.Session, p *i18n.Printer, args []string) int {
	out := sess
	switch strings.ToLower(args[0]) {
	case "rooms", "tables", "ls":
		c.listRooms(out, p)
		return 0
	case "help":
		fmt.Fprint(out, c.help(p))
		return 0
	case "join":
		fmt.Fprintln(sess.Stderr(), p.T("cmd.join_terminal", game.Text("Ssh", joinline.WithTerminal(c.App.JoinHint))))
		return 2
	case "learn":
		fmt.Fprintln(sess.Stderr(), p.T("cmd.learn_terminal", game.Text("Ssh", joinline.WithTerminal(c.App.JoinHint))))
		return 2
	case "play":
		fmt.Fprintln(sess.Stderr(), p.T("cmd.play_terminal", game.Text("Ssh", joinline.WithTerminal(c.App.JoinHint))))
		return 2
	case "friends":
		return c.printFriends(sess, p)
	case "friend", "unfriend":
		id, _ := sshserver.IdentityOf(sess)
		th := c.App.Theme(nil, p.Lang(), false)
		fmt.Fprintln(sess, c.App.Befriend(th, table.Player{ID: id.ID, Guest: id.Guest}, strings.Join(args[1:], " "), nil, args[0] == "friend"))
		return 0
	case "profile":
		return c.printProfile(sess, p)
	case "games":
		return c.printGames(sess, p)
	case "replay":
		switch len(args) {
		case 2:
			return c.printReplay(sess, p, args[1])
		case 3:
			return c.printReplayAt(sess, p, args[1], args[2])
		}
		fmt.Fprintln(sess.Stderr(), p.T("cmd.replay_usage"))
		fmt.Fprintln(sess.Stderr(), p.T("plain.replay_usage"))
		return 2
	case "review":
		if len(args) != 2 {
			fmt.Fprintln(sess.Stderr(), p.T("cmd.review_usage"))
			return 2
		}
		return c.printReview(sess, p, args[1])
	}
	fmt.Fprintf(sess.Stderr(), "%s\n\n%s", p.T("cmd.unknown", game.Text("Cmd", Echo(args[0]))), c.help(p))
	return 2
}

// helpWidth is the terminal the help is laid out for: every line of it
// fits 80 columns, in every language (a command longer than that, from a
// long host name, is the only exception: it is never cut).
const helpWidth = 80

// help is what `ssh host help` prints, with this server's own join
// command in it (never a placeholder such as PORT): each command on its
// own line, what it does under it, word-wrapped with a hanging indent.
func (c Commands) help(p *i18n.Printer) string {
	ssh := c.App.JoinHint        // "ssh -p 2222 games.example.org"
	code := p.T("cmd.help.code") // the placeholder, in the reader's words ("KOD")
	gameID := p.T("cmd.help.game")
	var b strings.Builder
	b.WriteString(c.heading(p))
	b.WriteString(p.T("cmd.help.title") + "\n\n")
	for _, l := range [][2]string{
		{ssh, "cmd.help.lobby"},
		{joinline.WithTerminal(ssh) + " join " + code, "cmd.help.join"},
		{joinline.WithTerminal(ssh) + " learn", "cmd.help.learn"},
		{joinline.WithTerminal(ssh) + " play " + gameID, "cmd.help.play"},
		{joinline.WithTerminal(ssh) + " plain", "cmd.help.plain"},
		{ssh + " rooms", "cmd.help.rooms"},
		{ssh + " profile", "cmd.help.profile"},
		{ssh + " games", "cmd.help.games"},
		{ssh + " notify", "cmd.help.notify"},
		{ssh + " friends", "cmd.help.friends"},
		{ssh + " friend " + p.T("cmd.help.name"), "cmd.help.friend"},
		{ssh + " replay " + code, "cmd.help.replay"},
		{ssh + " replay " + code + " N", "cmd.help.replay_at"},
		{ssh + " review " + code, "cmd.help.review"},
		{ssh + " help", "cmd.help.help"},
	} {
		b.WriteString("  " + l[0] + "\n")
		for _, line := range uikit.Hanging(p.T(l[1]), helpWidth-6, "") {
			b.WriteString("      " + line + "\n")
		}
	}
	b.WriteString("\n")
	writeWrapped(&b, "cmd.help.guests", p, joinline.AsUser(ssh, "g-xxxx-xxxx-xxxx"))
	writeWrapped(&b, "cmd.help.languages", p, strings.Replace(ssh, "ssh ", "ssh -o SetEnv=LANG=pl_PL.UTF-8 ", 1))
	return b.String()
}

// writeWrapped writes the catalog's paragraph key with its example command
// filled in, word-wrapped to helpWidth, the command whole on one line.
func writeWrapped(b *strings.Builder, key string, p *i18n.Printer, example string) {
	joined := strings.ReplaceAll(example, " ", "\u00a0")
	for _, line := range uikit.Hanging(p.T(key, game.Text("Example", joined)), helpWidth, "") {
		b.WriteString(strings.ReplaceAll(line, joined, example) + "\n")
	}
}

func (c Commands) listRooms(w io.Writer, p *i18n.Printer) {
	rooms := c.App.Hub.List()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, p.T("cmd.rooms.head"))
	n := 0
	for _, r := range rooms {
		if r.Private || r.Status == table.StatusClosed {
			continue
		}
		n++
		var names []string
		for _, st := range r.Seats {
			if st.Name != "" {
				names = append(names, st.Name)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", r.Code, sanitize.Line(p.Msg(r.Title), 80), len(r.Seats)-r.Open, len(r.Seats),
			p.T("cmd.rooms.status."+string(r.Status)), strings.Join(names, ", "))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(w, p.T("cmd.rooms.none"))
	}
}

// printProfile writes the caller's profile as text.
func (c Commands) printProfile(sess ssh.Session, tr *i18n.Printer) int {
	id, _ := sshserver.IdentityOf(sess)
	if id.Guest {
		fmt.Fprintln(sess.Stderr(), tr.T("cmd.profile.guest"))
		return 1
	}
	rec := c.App.Records
	p, err := rec.Profile(id.ID)
	if errors.Is(err, persistence.ErrNotFound) {
		fmt.Fprintln(sess.Stderr(), tr.T("cmd.profile.none"))
		return 1
	}
	if err != nil { // a player with games must not read that they have none
		fmt.Fprintln(sess.Stderr(), tr.Error(err))
		return 1
	}
	fmt.Fprintf(sess, "%s", p.Name)
	if p.Veteran {
		fmt.Fprintf(sess, "  ★ %s", tr.T("ui.profile.veteran_since", game.Text("Date", p.VeteranSince.Format("2006-01-02")), game.Person("Player", p.Name, p.Gender)))
	}
	fmt.Fprintf(sess, "\n%s\n\n", tr.T("cmd.profile.key", game.Text("Key", p.ID), game.Text("Date", p.FirstSeen.Format("2006-01-02"))))
	tw := tabwriter.NewWriter(sess, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, tr.T("cmd.profile.head"))
	for _, st := range p.Stats {
		variant := st.Variant
		if g, ok := c.App.Games.Lookup(st.Game); ok && g.VariantKey != nil && variant != "" {
			variant = tr.T(g.VariantKey(variant))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", tr.T(st.Game+".title"), variant, st.Players, st.Played, st.Won)
	}
	tw.Flush()
	cs, _ := rec.Campaigns(id.ID)
	if len(cs) > 0 {
		fmt.Fprintln(sess, "\n"+tr.T("cmd.profile.campaigns"))
		for _, c := range cs {
			vet := ""
			if c.Veteran {
				vet = "  ★ " + tr.T("ui.campaign.won_at_30_short")
			}
			fmt.Fprintf(sess, "  %s  %s  %s  %d/%d  %s%s\n", c.Code, c.Name, tr.T("ui.n_players", game.Count(c.Players)),
				c.Trials, c.Target, tr.T("ui.campaign.won_lost", game.Num("Won", c.Wins), game.Num("Lost", c.Losses)), vet)
		}
	}
	if games, _ := rec.Finished(id.ID, 10); len(games) > 0 {
		fmt.Fprintln(sess, "\n"+tr.T("cmd.profile.recent"))
		for _, g := range games {
			res := tr.T("ui.lost")
			if g.Won {
				res = tr.T("ui.won")
			}
			fmt.Fprintf(sess, "  %s  %s  %s  %s\n", g.When.Format("2006-01-02 15:04"), g.Code, res, sanitize.Line(tr.Msg(g.Title), 80))
		}
	}
	return 0
}

// lookUpGame runs a replay's or a review's look-up of a typed code under
// the address's wrong-code budget, the one `join` and guest codes draw on
// (sshserver.Guesses): refused while the address must wait, and a code
// that names no finished game counts as a wrong guess. Without it one
// address probed 5,325 codes a second.
func (c Commands) lookUpGame(sess ssh.Session, p *i18n.Printer, look func() error) bool {
	id, _ := sshserver.IdentityOf(sess)
	if c.App.Guesses != nil {
		if w := c.App.Guesses.Wait(id.RemoteIP); w > 0 {
			fmt.Fprintln(sess.Stderr(), p.T("ui.notice.too_many_codes", game.Num("N", int((w+time.Second-1)/time.Second))))
			return false
		}
	}
	err := look()
	if errors.Is(err, tui.ErrNoSuchGame) && c.App.Guesses != nil {
		c.App.Guesses.Wrong(id.RemoteIP)
	}
	if err != nil {
		fmt.Fprintln(sess.Stderr(), p.Error(err))
		return false
	}
	return true
}

// printReplay tells a finished game's public story as text.
func (c Commands) printReplay(sess ssh.Session, p *i18n.Printer, code string) int {
	var r tui.Replay
	if !c.lookUpGame(sess, p, func() (err error) { r, err = c.App.Records.Replay(code); return err }) {
		return 1
	}
	fmt.Fprintf(sess, "%s · %s\n\n", r.Code, sanitize.Line(p.Msg(r.Title), 80))
	id, _ := sshserver.IdentityOf(sess)
	ignores := people.Ignores(c.App.Relations, id.ID)
	for _, st := range r.Steps {
		for i := range st.Events {
			e := &st.Events[i]
			if e.Kind == game.Chat && ignores(r.Seats, e.From) {
				continue // the chat of a player the reader ignores
			}
			text := sanitize.Line(p.Msg(e.Msg), 1000)
			if e.Kind == game.Chat {
				text = sanitize.Line(e.Text, game.MaxChat)
				if int(e.From) >= 0 && int(e.From) < len(r.Seats) {
					text = r.Seats[e.From].Name + ": " + text
				}
			}
			fmt.Fprintf(sess, "%4d  %s\n", st.Index, text)
		}
	}
	if r.End != nil {
		fmt.Fprintf(sess, "\n%s\n", p.Msg(r.End.Summary))
	}
	return 0
}

// printReplayAt says a finished game at moment at (a review line's #N)
// from the caller's own seat, as plain mode's `replay CODE N` does: their
// hand as it was, nobody else's.
func (c Commands) printReplayAt(sess ssh.Session, p *i18n.Printer, code, at string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(at, "#"))
	if err != nil || n < 0 {
		fmt.Fprintln(sess.Stderr(), p.T("plain.replay_usage"))
		return 2
	}
	id, _ := sshserver.IdentityOf(sess)
	var r tui.Replay
	if !c.lookUpGame(sess, p, func() (err error) {
		r, err = c.App.Records.ReplayAs(table.NormalizeCode(code), table.Player{ID: id.ID, Guest: id.Guest})
		return err
	}) {
		return 1
	}
	th := uikit.New(nil)
	th.SetLang(p.Lang())
	lines, ok := c.App.ReplayLook(th, r, n)
	if !ok {
		fmt.Fprintln(sess.Stderr(), p.T("ui.err.cannot_show", game.Text("Game", r.Game)))
		return 1
	}
	ascii := sshserver.WantsASCII(sess)
	for _, l := range lines {
		if l = sanitize.Line(l, 1000); ascii {
			l = uikit.ToASCII(l)
		}
		fmt.Fprintln(sess, l)
	}
	return 0
}

// printReview prints the coach's review of a finished game the caller
// played in, as text. While the coach works it says how far it has got on
// stderr, about every tenth of the way.
func (c Commands) printReview(sess ssh.Session, p *i18n.Printer, code string) int {
	id, _ := sshserver.IdentityOf(sess)
	var job tui.ReviewJob
	if !c.lookUpGame(sess, p, func() (err error) {
		job, err = c.App.Reviews.Review(code, table.Player{ID: id.ID, Guest: id.Guest})
		return err
	}) {
		return 1
	}
	said := -1
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-job.Done():
			break wait
		case <-sess.Context().Done():
			return 1
		case <-tick.C:
			if done, total := job.Progress(); total > 0 && done*10/total > said {
				said = done * 10 / total
				fmt.Fprintln(sess.Stderr(), p.T("ui.review.progress", game.Num("Done", done), game.Count(total)))
			}
		}
	}
	r, err := job.Result()
	if err != nil {
		fmt.Fprintln(sess.Stderr(), p.Error(err))
		return 1
	}
	th := uikit.New(nil)
	th.SetLang(p.Lang())
	outcome := p.T("ui.lost")
	if r.Coach.Won() {
		outcome = p.T("ui.won")
	}
	ascii := sshserver.WantsASCII(sess) // no bars in ASCII: the missions in words
	out := func(l string) {
		if ascii {
			l = uikit.ToASCII(l)
		}
		fmt.Fprintln(sess, l)
	}
	out(p.T("ui.review.title", game.Text("Code", r.Code)) + " · " + sanitize.Line(p.Msg(r.Title), 80) + " · " + outcome + "\n")
	st, stepped := r.Coach.(uikit.Stepped)
	if !stepped || c.App.Records == nil {
		for _, l := range r.Coach.Lines(th, r.Seats, 80, ascii) {
			out(l)
		}
		return 0
	}
	// What is about a decision ends with its moment (#N), which `ssh host
	// replay CODE N` opens, as in plain mode: drawn narrower for it.
	lines, at := st.LinesAt(th, r.Seats, 80-len(" (#999)"), ascii)
	marked := tui.MarkMoments(lines, at, true)
	for _, l := range lines {
		out(l)
	}
	if marked {
		out("")
		for _, l := range uikit.Wrap(p.T("plain.review_replay", game.Text("Code", r.Code)), 80) {
			out(strings.TrimRight(l, " "))
		}
	}
	return 0
}

// heading is what `ssh host help` says before its commands: the
// server's name and its message of the day in the reader's language.
func (c Commands) heading(p *i18n.Printer) string {
	var b strings.Builder
	if name := c.App.ServerName; name != "" {
		b.WriteString(name + "\n\n")
	}
	if c.App.MOTD != nil {
		if motd := c.App.MOTD(p.Lang()); motd != "" {
			b.WriteString(motd + "\n\n")
		}
	}
	return b.String()
}

// printGames writes one line per unfinished table the caller sits at,
// theirs to move first: the code, a fixed word (move: the table waits on
// them; wait: on others; open: not started), the deadline (RFC 3339, UTC,
// or -), the pace (live, or the hours a decision may take) and the
// title. The first four columns are the same in every language, for a
// script; the exit status is 0, with or without tables.
func (c Commands) printGames(sess ssh.Session, p *i18n.Printer) int {
	id, _ := sshserver.IdentityOf(sess)
	type line struct {
		mine bool
		text string
	}
	var lines []line
	for _, r := range c.App.Hub.List() {
		if (r.Status != table.StatusWaiting && r.Status != table.StatusPlaying) || !slices.Contains(r.Players, id.ID) {
			continue
		}
		state, deadline := "wait", "-"
		switch {
		case r.Status == table.StatusWaiting:
			state = "open"
		case slices.Contains(r.Waiting, id.ID):
			state = "move"
		}
		if !r.Deadline.IsZero() {
			deadline = r.Deadline.UTC().Format(time.RFC3339)
		}
		pace := "live"
		if r.Pace.Correspondence {
			pace = "corr"
			if r.Pace.Decision > 0 {
				pace += "/" + strconv.Itoa(int(r.Pace.Decision/time.Hour)) + "h"
			}
		}
		lines = append(lines, line{state == "move", fmt.Sprintf("%s\t%s\t%s\t%s\t%s", r.Code, state, deadline, pace, sanitize.Line(p.Msg(r.Title), 60))})
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		switch {
		case a.mine == b.mine:
			return strings.Compare(a.text, b.text)
		case a.mine:
			return -1
		}
		return 1
	})
	if len(lines) == 0 {
		fmt.Fprintln(sess.Stderr(), p.T("cmd.games.none")) // stdout stays a list: empty
		return 0
	}
	for _, l := range lines {
		fmt.Fprintln(sess, l.text)
	}
	return 0
}

// printFriends answers `ssh host friends`: the player's friends and where
// each is (as presence lets them see it), and the requests waiting for
// their answer. A guest reads that a key brings friends.
func (c Commands) printFriends(sess ssh.Session, tr *i18n.Printer) int {
	id, _ := sshserver.IdentityOf(sess)
	if id.Guest || c.App.Friends == nil {
		fmt.Fprintln(sess.Stderr(), tr.T("friends.err.guest"))
		return 1
	}
	me := table.Player{ID: id.ID}
	l, err := c.App.Friends.Lists(me)
	if err != nil {
		fmt.Fprintln(sess.Stderr(), tr.Error(err))
		return 1
	}
	th := c.App.Theme(nil, tr.Lang(), false)
	if len(l.Friends) == 0 {
		fmt.Fprintln(sess, tr.T("ui.friends.none"))
	}
	tw := tabwriter.NewWriter(sess, 0, 4, 2, ' ', 0)
	for _, f := range l.Friends {
		var st presence.Status
		ok := false
		if c.App.Presence != nil {
			st, ok = c.App.Presence.Lookup(id.ID, f.ID)
		}
		fmt.Fprintf(tw, "%s\t%s\n", sanitize.Line(f.Name, 40), tui.WhereText(th, c.App.Games, l.Status(f.ID, st), ok))
	}
	tw.Flush()
	for _, a := range l.Askers {
		fmt.Fprintln(sess, tr.T("friends.notice.asks", game.Text("Player", sanitize.Line(a.Name, 40))))
	}
	return 0
}
