package server

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Correspondence tables tell the server whom they wait on (table.Turn);
// the server tells those players: a notice on their screens if they are
// connected (package notice: "your move at K7QX", a bell, j joins) and,
// when the operator runs --notify, a message to the webhook a player set
// (package notify's outbox, on the node that runs the table).

// MaxCorrespondence is how many unfinished correspondence tables one
// player may sit at (keyed players only: guests sit at none).
const MaxCorrespondence = 20

// turnNoticeID names the notice of a player's move at a table: the next
// one replaces it, and it is taken back when the move is made.
func turnNoticeID(code string) string { return "turn:" + code }

// wireNotify sets the tables' OnTurn and MaySit and, with notifications
// on, starts the node's outbox. Before the rooms are restored: they
// report whom they wait on as they come back.
func (s *Server) wireNotify() {
	s.app.Room.OnTurn = s.onTurn
	s.app.Room.MaySit = s.maySit
	s.app.Notifications = notifyPrefs{s}
	if !s.cfg.Notify.On {
		return
	}
	s.outbox = notify.New(notify.Config{
		Policy:   s.cfg.Notify,
		Clock:    cmpClock(s.cfg.tableClock, s.cfg.Clock),
		Settings: s.notifySettings,
		Ledger:   notifyLedger{s.store},
		Compose:  s.composeNotification,
		Present:  s.connected,
		Metrics: notify.Metrics{
			Sent:   func(f notify.Format) { s.metrics.NotifySent(string(f)) },
			Failed: func(r notify.Reason) { s.metrics.NotifyFailed(string(r)) },
		},
		Log:    s.log,
		Client: s.cfg.notifyClient,
	})
}

// onTurn hears a correspondence table's change of whom it waits on (on
// its actor: nothing here blocks).
func (s *Server) onTurn(t table.Turn) {
	room := t.Room + "@" + strconv.FormatInt(t.Since.Unix(), 36) // the code is drawn again once the table ends
	for _, id := range t.Done {
		s.notices.Withdraw(id, turnNoticeID(t.Room))
		if s.outbox != nil {
			s.outbox.Withdraw(id, room)
		}
	}
	for _, w := range t.Waiting {
		if w.Identity == "" {
			continue
		}
		if !w.Here {
			s.notices.Post(notice.Notice{ID: turnNoticeID(t.Room), To: w.Identity,
				Text: game.M("notify.notice.turn", game.Text("Code", t.Room), game.Sub("Title", t.Title)),
				Act:  notice.Act{Verb: notice.VerbJoin, Arg: t.Room}, Desktop: true})
		}
		if s.outbox != nil {
			s.outbox.Post(notify.Turn{Player: w.Identity, Room: room, Table: t.Room, Decision: t.Decision + 1,
				Deadline: t.Deadline, Window: t.Window, Game: t.Game, Title: t.Title, Private: t.Private})
		}
	}
}

// errTooManyCorrespondence: the player sits at MaxCorrespondence
// correspondence tables already.
var errTooManyCorrespondence = game.Refuse(table.ErrTooManyCorrespondence,
	game.M("notify.err.too_many_tables", game.Num("Max", MaxCorrespondence)))

// maySit refuses a seat at one more correspondence table to a player who
// has MaxCorrespondence unfinished ones (on any node).
func (s *Server) maySit(id string) error {
	n := 0
	for _, sum := range s.hub.List() {
		if !sum.Pace.Correspondence || sum.Status == table.StatusOver || sum.Status == table.StatusClosed {
			continue
		}
		for _, p := range sum.Players {
			if p == id {
				n++
				break
			}
		}
	}
	if n >= MaxCorrespondence {
		return errTooManyCorrespondence
	}
	return nil
}

// notifySettings reads a player's choices from their profile.
func (s *Server) notifySettings(id string) (notify.Settings, error) {
	p, err := s.store.Player(id)
	if errors.Is(err, persistence.ErrNotFound) {
		return notify.Settings{}, nil
	}
	if err != nil {
		return notify.Settings{}, err
	}
	return settingsOf(p.Notify), nil
}

func settingsOf(n persistence.NotifySettings) notify.Settings {
	return notify.Settings{URL: n.URL, Format: notify.Format(n.Format), Zone: n.Zone,
		Quiet: notify.Quiet{From: n.QuietFrom, To: n.QuietTo}, Desktop: n.Desktop, Lang: n.Lang}
}

func storedSettings(n notify.Settings) persistence.NotifySettings {
	return persistence.NotifySettings{URL: n.URL, Format: string(n.Format), Zone: n.Zone,
		QuietFrom: n.Quiet.From, QuietTo: n.Quiet.To, Desktop: n.Desktop, Lang: n.Lang}
}

// notifyLedger keeps what was sent in the players' profiles.
type notifyLedger struct{ store persistence.Store }

func (l notifyLedger) Sent(player, room string) (notify.Mark, error) {
	p, err := l.store.Player(player)
	if errors.Is(err, persistence.ErrNotFound) {
		return notify.Mark{}, nil
	}
	if err != nil {
		return notify.Mark{}, err
	}
	m := p.Notified[room]
	return notify.Mark{At: m.At, Decision: m.Decision, Reminded: m.Reminded}, nil
}

func (l notifyLedger) Mark(player, room string, m notify.Mark) error {
	_, err := l.store.UpdatePlayer(player, func(p *persistence.Profile) error {
		p.SetNotified(room, persistence.NotifyMark{At: m.At, Decision: m.Decision, Reminded: m.Reminded})
		return nil
	})
	return err
}

// composeNotification writes a message in the player's language: the
// table's code and title, the game, how long is left, and the line that
// takes them there. Nothing of a hand.
func (s *Server) composeNotification(kind notify.Kind, t notify.Turn, set notify.Settings) notify.Message {
	lang, ok := i18n.Parse(set.Lang) // the language the webhook was set in
	if !ok {
		lang = i18n.English
		if prof, err := s.store.Player(t.Player); err == nil {
			if l, ok := i18n.Parse(prof.Lang); ok {
				lang = l
			}
		}
	}
	p := i18n.For(lang)
	hint := *s.joinHint.Load()
	m := notify.Message{Server: s.access.Name(), Click: clickURL(hint)}
	if kind == notify.KindTest {
		m.Title, m.Text = p.T("notify.msg.test_title"), p.T("notify.msg.test", game.Text("Server", cmpName(m.Server)))
		return m
	}
	m.Table, m.Game, m.Deadline = t.Table, t.Game, t.Deadline
	if mod, ok := s.app.Games.Lookup(t.Game); ok {
		m.GameName = p.T(mod.TitleKey)
	}
	m.Join = joinline.WithTerminal(hint) + " join " + t.Table
	left := game.Msg{}
	if !t.Deadline.IsZero() {
		left = uikit.Left(t.Deadline.Sub(s.now()))
	}
	title := p.Msg(t.Title)
	switch {
	case kind == notify.KindReminder:
		m.Title = p.T("notify.msg.reminder_title", game.Text("Game", m.GameName))
		m.Text = p.T("notify.msg.reminder", game.Text("Code", t.Table), game.Text("Title", title), game.Sub("Left", left))
	case left.IsZero():
		m.Title = p.T("notify.msg.turn_title", game.Text("Game", m.GameName))
		m.Text = p.T("notify.msg.turn", game.Text("Code", t.Table), game.Text("Title", title))
	default:
		m.Title = p.T("notify.msg.turn_title", game.Text("Game", m.GameName))
		m.Text = p.T("notify.msg.turn_left", game.Text("Code", t.Table), game.Text("Title", title), game.Sub("Left", left))
	}
	return m
}

// cmpName is the server's name, or Bivouac.
func cmpName(name string) string {
	if name != "" {
		return name
	}
	return "Bivouac"
}

// now is the tables' clock's time.
func (s *Server) now() time.Time {
	if c := cmpClock(s.cfg.tableClock, s.cfg.Clock); c != nil {
		return c.Now()
	}
	return time.Now()
}

// cmpClock is the first clock set.
func cmpClock(cs ...clock.Clock) clock.Clock {
	for _, c := range cs {
		if c != nil {
			return c
		}
	}
	return nil
}

// clickURL is what tapping a notification opens: the server's ssh://
// address, never a table's code.
func clickURL(join string) string {
	f := strings.Fields(join) // "ssh -p 2222 host" or "ssh host"
	if len(f) < 2 {
		return ""
	}
	host, port := f[len(f)-1], ""
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "-p" {
			port = f[i+1]
		}
	}
	if port == "" || port == "22" {
		return "ssh://" + host
	}
	return "ssh://" + host + ":" + port
}
