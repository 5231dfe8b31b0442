package plain

import (
	"errors"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui"
)

// Notifications in plain mode: `notify` says a keyed player's settings,
// `notify …` changes them as `ssh host notify …` does (the same checks,
// the same words). Plain mode itself writes no desktop notification (OSC
// 9 or 777): its lines are read by screen readers and scripts, and kept
// in transcripts, where an escape sequence is noise; a notice here is a
// line and the bell. A player who turns desktop notifications on here is
// told so: the full screen sends them.

// notifySettings says the player's settings (nothing for a guest).
func (p *plain) notifySettings() {
	n := p.app.Notifications
	if n == nil || p.s.Player.Guest {
		return
	}
	lines, err := n.Settings(p.s.Player.ID)
	if err != nil {
		p.say(p.th.Err(err))
		return
	}
	p.sayMsgs(lines)
}

func (p *plain) sayMsgs(ms []game.Msg) {
	for _, m := range ms {
		p.say(p.th.Msg(m))
	}
}

// notifyCommand runs `notify …`.
func (p *plain) notifyCommand(rest string) {
	n := p.app.Notifications
	if n == nil || p.s.Player.Guest {
		p.say(p.th.T("notify.cmd.keyed_only"))
		return
	}
	args := strings.Fields(rest)
	if len(args) == 0 {
		p.notifySettings()
		p.sayUsage()
		return
	}
	said, err := n.Do(p.s.Player.ID, args, p.s.Zone, p.th.Lang())
	switch {
	case errors.Is(err, tui.ErrNotifyUsage):
		p.sayUsage()
		return
	case err != nil:
		p.say(p.th.Err(err))
		return
	}
	p.sayMsgs(said)
	switch strings.ToLower(args[0]) {
	case "off", "test":
		return
	case "desktop": // taken: on, 9, 777 or off
		if !strings.EqualFold(args[1], "off") {
			p.say(p.th.T("plain.notify.no_desktop"))
		}
	}
	p.notifySettings()
}

// sayUsage says the notify commands one to a line (together they are some
// 150 columns).
func (p *plain) sayUsage() {
	for _, line := range strings.Split(p.th.T("notify.cmd.usage"), " · ") {
		p.say(line)
	}
}
