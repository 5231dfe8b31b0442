package server

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"bivouac/game"
	"bivouac/sanitize"
	"bivouac/sshserver"
	"bivouac/table"

	"github.com/charmbracelet/ssh"
)

// command answers `ssh host CMD` without a PTY, as plain text.
func (s *Server) command(sess ssh.Session, args []string) int {
	out := sess
	switch strings.ToLower(args[0]) {
	case "rooms", "tables", "ls":
		s.listRooms(out)
		return 0
	case "help":
		fmt.Fprint(out, s.help())
		return 0
	case "join":
		fmt.Fprintf(sess.Stderr(), "join needs a terminal: %s join CODE\n", withT(s.app.JoinHint))
		return 2
	case "profile":
		return s.printProfile(sess)
	case "replay":
		if len(args) != 2 {
			fmt.Fprintln(sess.Stderr(), "usage: replay CODE (ssh -t for the move-by-move screen)")
			return 2
		}
		return s.printReplay(sess, args[1])
	}
	fmt.Fprintf(sess.Stderr(), "unknown command %q\n\n%s", echoCommand(args[0]), s.help())
	return 2
}

// echoCommand is an unknown command as it is said back: cleaned, and cut
// short (a client may send a command of any length).
func echoCommand(c string) string {
	const most = 40
	clean := sanitize.Line(c, most+1)
	if utf8.RuneCountInString(clean) > most {
		clean = string([]rune(clean)[:most]) + "…"
	}
	return clean
}

// help is what `ssh host help` prints, with this server's own join
// command in it (never a placeholder such as PORT).
func (s *Server) help() string {
	ssh := s.app.JoinHint // "ssh -p 2222 games.example.org"
	var b strings.Builder
	b.WriteString("Bivouac: card games over ssh.\n\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, l := range [][2]string{
		{ssh, "open the lobby (needs a terminal)"},
		{withT(ssh) + " join CODE", "go straight to a table"},
		{ssh + " rooms", "list open tables as text"},
		{ssh + " profile", "your games, campaigns and veteran status"},
		{ssh + " replay CODE", "a finished game's story (with -t: move by move)"},
		{ssh + " help", "this text"},
	} {
		fmt.Fprintf(tw, "  %s\t%s\n", l[0], l[1])
	}
	tw.Flush()
	b.WriteString("\nPlayers are known by their SSH key. Without a key you play as a guest; the\n")
	b.WriteString("lobby shows your guest code: log in with it as the user name to get your seat\n")
	b.WriteString("back, e.g. " + guestLogin(ssh, "g-xxxx-xxxx-xxxx") + "\n")
	return b.String()
}

// withT adds ssh's -t (a terminal even with a command) to a join command.
func withT(ssh string) string { return strings.Replace(ssh, "ssh ", "ssh -t ", 1) }

// guestLogin is the join command with a guest code as the user name.
func guestLogin(ssh, code string) string {
	if i := strings.LastIndexByte(ssh, ' '); i > 0 {
		return ssh[:i+1] + code + "@" + ssh[i+1:]
	}
	return ssh + " " + code + "@host"
}

func (s *Server) listRooms(w io.Writer) {
	rooms := s.hub.List()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tGAME\tSEATED\tSTATUS\tPLAYERS")
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
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", r.Code, r.Title, len(r.Seats)-r.Open, len(r.Seats), r.Status, strings.Join(names, ", "))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(w, "(no open tables: ssh in with a terminal and press n to start one)")
	}
}

// printProfile writes the caller's profile as text.
func (s *Server) printProfile(sess ssh.Session) int {
	id, _ := sshserver.IdentityOf(sess)
	if id.Guest {
		fmt.Fprintln(sess.Stderr(), "guests keep no profile: ssh in with a key to have one")
		return 1
	}
	rec := records{s}
	p, err := rec.Profile(id.ID)
	if err != nil {
		fmt.Fprintln(sess.Stderr(), "no profile yet: play a game first")
		return 1
	}
	fmt.Fprintf(sess, "%s", p.Name)
	if p.Veteran {
		fmt.Fprintf(sess, "  ★ veteran since %s", p.VeteranSince.Format("2 Jan 2006"))
	}
	fmt.Fprintf(sess, "\nkey %s, first seen %s\n\n", p.ID, p.FirstSeen.Format("2 Jan 2006"))
	tw := tabwriter.NewWriter(sess, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tVARIANT\tPLAYERS\tPLAYED\tWON")
	for _, st := range p.Stats {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", st.Game, st.Variant, st.Players, st.Played, st.Won)
	}
	tw.Flush()
	cs, _ := rec.Campaigns(id.ID)
	if len(cs) > 0 {
		fmt.Fprintln(sess, "\nCampaigns:")
		for _, c := range cs {
			vet := ""
			if c.Veteran {
				vet = "  ★ won at 30"
			}
			fmt.Fprintf(sess, "  %s  %-20s %d players  trials %d/%d  won %d lost %d%s\n", c.Code, c.Name, c.Players, c.Trials, c.Target, c.Wins, c.Losses, vet)
		}
	}
	if games, _ := rec.Finished(id.ID, 10); len(games) > 0 {
		fmt.Fprintln(sess, "\nRecent games (ssh -t ... replay CODE to watch one again):")
		for _, g := range games {
			res := "lost"
			if g.Won {
				res = "won "
			}
			fmt.Fprintf(sess, "  %s  %s  %s  %s\n", g.When.Format("2006-01-02 15:04"), g.Code, res, g.Title)
		}
	}
	return 0
}

// printReplay tells a finished game's public story as text.
func (s *Server) printReplay(sess ssh.Session, code string) int {
	r, err := records{s}.Replay(code)
	if err != nil {
		fmt.Fprintln(sess.Stderr(), err)
		return 1
	}
	fmt.Fprintf(sess, "%s · %s\n\n", r.Code, r.Title)
	for _, st := range r.Steps {
		for _, e := range st.Events {
			text := e.Text
			if e.Kind == game.Chat && int(e.From) >= 0 && int(e.From) < len(r.Seats) {
				text = r.Seats[e.From].Name + ": " + text
			}
			fmt.Fprintf(sess, "%4d  %s\n", st.Index, text)
		}
	}
	if r.End != nil {
		fmt.Fprintf(sess, "\n%s\n", r.End.Summary)
	}
	return 0
}
