package server

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver"

	"github.com/charmbracelet/ssh"
)

// notifyCommand answers `ssh host notify …`, a keyed player's webhook:
//
//	notify                      what is set (the URL masked)
//	notify URL [FORMAT]         set it (ntfy, discord, slack or json)
//	notify test                 send one message now, and say what came back
//	notify off                  forget it
//	notify quiet HH:MM-HH:MM    nothing sent then (off: none)
//	notify zone NAME            the time zone of the quiet hours (Europe/Warsaw)
//
// The URL is a secret: it is never said back whole, nor logged (the
// command line's words after the verb are tags in the log).
func (s *Server) notifyCommand(sess ssh.Session, p *i18n.Printer, args []string) int {
	out, errw := io.Writer(sess), sess.Stderr()
	id, ok := sshserver.IdentityOf(sess)
	if !ok || id.Guest {
		fmt.Fprintln(errw, p.T("notify.cmd.keyed_only"))
		return 1
	}
	fail := func(err error) int {
		fmt.Fprintln(errw, p.Msg(notifyErr(err)))
		return 1
	}
	if len(args) == 0 {
		prof, err := s.store.Player(id.ID)
		if err != nil && !errors.Is(err, persistence.ErrNotFound) {
			return fail(err)
		}
		s.printNotify(out, p, settingsOf(prof.Notify))
		return 0
	}
	verb := strings.ToLower(args[0])
	switch {
	case verb == "off" && len(args) == 1:
		if err := s.updateNotify(id.ID, func(n *notify.Settings) error { n.URL, n.Format = "", ""; return nil }); err != nil {
			return fail(err)
		}
		fmt.Fprintln(out, p.T("notify.cmd.off"))
		return 0
	case verb == "test" && len(args) == 1:
		if s.outbox == nil {
			return fail(&notify.Refusal{Reason: notify.ReasonOff, Msg: game.M("notify.err.off")})
		}
		res, err := s.outbox.Test(id.ID)
		if err != nil {
			return fail(err)
		}
		if !res.OK() {
			fmt.Fprintln(errw, p.T("notify.cmd.test_failed", game.Sub("Why", res.Msg)))
			return 1
		}
		fmt.Fprintln(out, p.T("notify.cmd.test_sent", game.Sub("Why", res.Msg)))
		return 0
	case verb == "quiet" && len(args) == 2:
		q, err := notify.ParseQuiet(args[1])
		if err != nil {
			return fail(game.NewError("notify.err.quiet"))
		}
		if err := s.updateNotify(id.ID, func(n *notify.Settings) error { n.Quiet = q; return nil }); err != nil {
			return fail(err)
		}
	case verb == "zone" && len(args) == 2:
		if _, err := notify.LoadZone(args[1]); err != nil || len(args[1]) > 64 {
			return fail(game.NewError("notify.err.zone"))
		}
		if err := s.updateNotify(id.ID, func(n *notify.Settings) error { n.Zone = args[1]; return nil }); err != nil {
			return fail(err)
		}
	case strings.Contains(args[0], "://") && len(args) <= 2:
		u, err := s.cfg.Notify.Check(args[0])
		if err != nil {
			return fail(err)
		}
		f := notify.GuessFormat(u)
		if len(args) == 2 {
			var ok bool
			if f, ok = notify.ParseFormat(args[1]); !ok {
				return fail(game.NewError("notify.err.format"))
			}
		}
		zone := clientZone(sess.Environ())
		if err := s.updateNotify(id.ID, func(n *notify.Settings) error {
			n.URL, n.Format = args[0], f
			if n.Zone == "" {
				n.Zone = zone // the client's TZ, when it sends one (ssh -o SetEnv=TZ=Europe/Warsaw)
			}
			return nil
		}); err != nil {
			return fail(err)
		}
	default:
		fmt.Fprintln(errw, p.T("notify.cmd.usage"))
		return 2
	}
	prof, err := s.store.Player(id.ID)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(out, p.T("notify.cmd.kept"))
	s.printNotify(out, p, settingsOf(prof.Notify))
	return 0
}

// printNotify says a player's settings, the URL masked.
func (s *Server) printNotify(w io.Writer, p *i18n.Printer, n notify.Settings) {
	if !s.cfg.Notify.On {
		fmt.Fprintln(w, p.T("notify.cmd.server_off"))
	}
	if n.On() {
		fmt.Fprintln(w, p.T("notify.cmd.url", game.Text("URL", notify.Mask(n.URL)), game.Text("Format", string(n.Format))))
	} else {
		fmt.Fprintln(w, p.T("notify.cmd.no_url"))
	}
	zone := n.Zone
	if zone == "" {
		zone = "UTC"
	}
	if n.Quiet.IsZero() {
		fmt.Fprintln(w, p.T("notify.cmd.no_quiet", game.Text("Zone", zone)))
	} else {
		fmt.Fprintln(w, p.T("notify.cmd.quiet", game.Text("Hours", n.Quiet.String()), game.Text("Zone", zone)))
	}
	fmt.Fprintln(w, p.T("notify.cmd.usage"))
}

// updateNotify changes a player's settings in their profile.
func (s *Server) updateNotify(id string, fn func(*notify.Settings) error) error {
	_, err := s.store.UpdatePlayer(id, func(p *persistence.Profile) error {
		n := settingsOf(p.Notify)
		if err := fn(&n); err != nil {
			return err
		}
		p.Notify = storedSettings(n)
		return nil
	})
	return err
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
