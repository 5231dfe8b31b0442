package server

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/tui"

	"github.com/charmbracelet/ssh"
)

// notifyCommand answers `ssh host notify …`, a keyed player's webhook and
// desktop notifications:
//
//	notify                      what is set (the URL masked)
//	notify URL [FORMAT]         set it (ntfy, discord, slack or json)
//	notify test                 send one message now, and say what came back
//	notify off                  forget it
//	notify quiet HH:MM-HH:MM    nothing sent then (off: none)
//	notify zone NAME            the time zone of the quiet hours (Europe/Warsaw)
//	notify desktop on|777|off   a desktop notification by OSC 9 (on) or OSC 777
//
// The profile's notifications page and plain mode's notify run the same
// (notifyPrefs). The URL is a secret: it is never said back whole, nor
// logged (the command line's words after the verb are tags in the log).
func (s *Server) notifyCommand(sess ssh.Session, p *i18n.Printer, args []string) int {
	out, errw := io.Writer(sess), sess.Stderr()
	id, ok := sshserver.IdentityOf(sess)
	if !ok || id.Guest {
		fmt.Fprintln(errw, p.T("notify.cmd.keyed_only"))
		return 1
	}
	prefs := notifyPrefs{s}
	say := func(w io.Writer, ms []game.Msg) {
		for _, m := range ms {
			fmt.Fprintln(w, p.Msg(m))
		}
	}
	settings := func() int {
		lines, err := prefs.Settings(id.ID)
		if err != nil {
			fmt.Fprintln(errw, p.Msg(notifyErr(err)))
			return 1
		}
		say(out, lines)
		printUsage(out, p.T("notify.cmd.usage"))
		return 0
	}
	if len(args) == 0 {
		return settings()
	}
	said, err := prefs.Do(id.ID, args, clientZone(sess.Environ()), p.Lang())
	switch {
	case errors.Is(err, tui.ErrNotifyUsage):
		printUsage(errw, p.T("notify.cmd.usage"))
		return 2
	case err != nil:
		fmt.Fprintln(errw, p.Msg(notifyErr(err)))
		return 1
	}
	say(out, said)
	if verb := strings.ToLower(args[0]); verb == "off" || verb == "test" {
		return 0
	}
	return settings()
}

// notifyPrefs are the players' notification settings (tui.Notifications):
// what `ssh host notify`, the profile's page and plain mode change.
type notifyPrefs struct{ s *Server }

func (n notifyPrefs) read(id string) (notify.Settings, error) {
	prof, err := n.s.store.Player(id)
	if err != nil && !errors.Is(err, persistence.ErrNotFound) {
		return notify.Settings{}, err
	}
	return settingsOf(prof.Notify), nil
}

// Settings says a player's settings, the URL masked.
func (n notifyPrefs) Settings(id string) ([]game.Msg, error) {
	set, err := n.read(id)
	if err != nil {
		return nil, &game.Error{Msg: notifyErr(err), Err: err}
	}
	var out []game.Msg
	if !n.s.cfg.Notify.On {
		out = append(out, game.M("notify.cmd.server_off"))
	}
	if set.On() {
		out = append(out, game.M("notify.cmd.url", game.Text("URL", notify.Mask(set.URL)), game.Text("Format", string(set.Format))))
	} else {
		out = append(out, game.M("notify.cmd.no_url"))
	}
	zone := set.Zone
	if zone == "" {
		zone = "UTC"
	}
	if set.Quiet.IsZero() {
		out = append(out, game.M("notify.cmd.no_quiet", game.Text("Zone", zone)))
	} else {
		out = append(out, game.M("notify.cmd.quiet", game.Text("Hours", set.Quiet.String()), game.Text("Zone", zone)))
	}
	if osc := tui.DesktopOSC(set.Desktop); osc != 0 {
		out = append(out, game.M("notify.cmd.desktop_on", game.Text("Seq", fmt.Sprintf("OSC %d", osc))))
	} else {
		out = append(out, game.M("notify.cmd.desktop_off"))
	}
	return out, nil
}

// Errors Do gives besides the notify package's.
var (
	errNotifyQuiet   = game.NewError("notify.err.quiet")
	errNotifyZone    = game.NewError("notify.err.zone")
	errNotifyFormat  = game.NewError("notify.err.format")
	errNotifyDesktop = game.NewError("notify.err.desktop")
	errNotifyOff     = &notify.Refusal{Reason: notify.ReasonOff, Msg: game.M("notify.err.off")}
)

// Do runs `notify ARGS…` for a player: a change kept says "Kept." (the
// caller shows the settings), a test what came back. An error is one the
// player reads (a *game.Error), or tui.ErrNotifyUsage.
func (n notifyPrefs) Do(id string, args []string, zone string, lang i18n.Lang) ([]game.Msg, error) {
	said, err := n.do(id, args, zone, lang)
	if err != nil && !errors.Is(err, tui.ErrNotifyUsage) {
		return nil, &game.Error{Msg: notifyErr(err), Err: err}
	}
	return said, err
}

func (n notifyPrefs) do(id string, args []string, zone string, lang i18n.Lang) ([]game.Msg, error) {
	s := n.s
	if len(args) == 0 {
		return nil, tui.ErrNotifyUsage
	}
	kept := []game.Msg{game.M("notify.cmd.kept")}
	verb := strings.ToLower(args[0])
	switch {
	case verb == "off" && len(args) == 1:
		if err := s.updateNotify(id, func(n *notify.Settings) { n.URL, n.Format = "", "" }); err != nil {
			return nil, err
		}
		return []game.Msg{game.M("notify.cmd.off")}, nil
	case verb == "test" && len(args) == 1:
		if s.outbox == nil {
			return nil, errNotifyOff
		}
		res, err := s.outbox.Test(id)
		if err != nil {
			return nil, err
		}
		if !res.OK() {
			return nil, &game.Error{Msg: game.M("notify.cmd.test_failed", game.Sub("Why", res.Msg))}
		}
		return []game.Msg{game.M("notify.cmd.test_sent", game.Sub("Why", res.Msg))}, nil
	case verb == "quiet" && len(args) == 2:
		q, err := notify.ParseQuiet(args[1])
		if err != nil {
			return nil, errNotifyQuiet
		}
		return kept, s.updateNotify(id, func(n *notify.Settings) { n.Quiet = q })
	case verb == "zone" && len(args) == 2:
		if _, err := notify.LoadZone(args[1]); err != nil || len(args[1]) > 64 {
			return nil, errNotifyZone
		}
		return kept, s.updateNotify(id, func(n *notify.Settings) { n.Zone = args[1] })
	case verb == "desktop" && len(args) == 2:
		choice, ok := map[string]string{"on": "9", "9": "9", "777": "777", "off": ""}[strings.ToLower(args[1])]
		if !ok {
			return nil, errNotifyDesktop
		}
		if err := s.updateNotify(id, func(n *notify.Settings) { n.Desktop = choice }); err != nil {
			return nil, err
		}
		s.tellDesktop(id, choice)
		return kept, nil
	case strings.Contains(args[0], "://") && len(args) <= 2:
		u, err := s.cfg.Notify.Check(args[0])
		if err != nil {
			return nil, err
		}
		f := notify.GuessFormat(u)
		if len(args) == 2 {
			var ok bool
			if f, ok = notify.ParseFormat(args[1]); !ok {
				return nil, errNotifyFormat
			}
		}
		return kept, s.updateNotify(id, func(n *notify.Settings) {
			n.URL, n.Format, n.Lang = args[0], f, string(lang)
			if n.Zone == "" {
				n.Zone = zone // the client's TZ, when it sends one (ssh -o SetEnv=TZ=Europe/Warsaw)
			}
		})
	}
	return nil, tui.ErrNotifyUsage
}

// updateNotify changes a player's settings in their profile.
func (s *Server) updateNotify(id string, fn func(*notify.Settings)) error {
	_, err := s.store.UpdatePlayer(id, func(p *persistence.Profile) error {
		n := settingsOf(p.Notify)
		fn(&n)
		p.Notify = storedSettings(n)
		return nil
	})
	return err
}

// tellDesktop tells every session of player id, on any node, their new
// desktop choice: each keeps a copy (tui.Session.Desktop), so a notice
// that warrants a desktop notification reads no profile on the session's
// goroutine. An older node shows it as the line it carries.
func (s *Server) tellDesktop(id, choice string) {
	text := game.M("notify.cmd.desktop_off")
	if osc := tui.DesktopOSC(choice); osc != 0 {
		text = game.M("notify.cmd.desktop_on", game.Text("Seq", fmt.Sprintf("OSC %d", osc)))
	}
	s.notices.Post(notice.Notice{ID: "setting:desktop", To: id, Text: text, Quiet: true,
		Act: notice.Act{Verb: notice.VerbDesktop, Arg: choice}})
}

// notifyErr is what a player reads of err.
func notifyErr(err error) game.Msg {
	var ref *notify.Refusal
	if errors.As(err, &ref) {
		return ref.Msg
	}
	var ge *game.Error
	if errors.As(err, &ge) {
		return ge.Msg
	}
	return game.M("notify.err.store")
}

// clientZone is the time zone the client's environment names (TZ, an
// IANA name such as Europe/Warsaw; ":" before it allowed), or "".
func clientZone(env []string) string {
	zone := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TZ="); ok {
			zone = strings.TrimPrefix(v, ":")
		}
	}
	if zone == "" || len(zone) > 64 || strings.EqualFold(zone, "UTC") {
		return ""
	}
	if _, err := notify.LoadZone(zone); err != nil {
		return ""
	}
	return zone
}

// printUsage prints the notify commands one to a line: together they are
// some 150 columns, which a terminal would break mid-word.
func printUsage(w io.Writer, usage string) {
	for _, line := range strings.Split(usage, " · ") {
		fmt.Fprintln(w, line)
	}
}
