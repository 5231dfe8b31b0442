package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/frames"

	tea "github.com/charmbracelet/bubbletea"
)

// fakeNotifications keeps one player's settings as `notify` would.
type fakeNotifications struct {
	url, desktop string
	did          [][]string
	reads        int // Settings read
}

func (f *fakeNotifications) Settings(string) ([]game.Msg, error) {
	f.reads++
	url := game.M("notify.cmd.no_url")
	if f.url != "" {
		url = game.M("notify.cmd.url", game.Text("URL", "https://ntfy.sh/…"), game.Text("Format", "ntfy"))
	}
	desk := game.M("notify.cmd.desktop_off")
	if f.desktop != "" {
		desk = game.M("notify.cmd.desktop_on", game.Text("Seq", "OSC "+f.desktop))
	}
	return []game.Msg{game.M("notify.cmd.server_off"), url, game.M("notify.cmd.no_quiet", game.Text("Zone", "Europe/Warsaw")), desk}, nil
}

func (f *fakeNotifications) Do(_ string, args []string, _ string, _ i18n.Lang) ([]game.Msg, error) {
	f.did = append(f.did, args)
	switch args[0] {
	case "desktop":
		f.desktop = map[string]string{"9": "9", "777": "777", "off": ""}[args[1]]
	case "off":
		f.url = ""
		return []game.Msg{game.M("notify.cmd.off")}, nil
	case "test":
		return nil, game.NewError("notify.err.no_url")
	default:
		if strings.Contains(args[0], "://") {
			f.url = args[0]
		}
	}
	return []game.Msg{game.M("notify.cmd.kept")}, nil
}

// The profile's notifications page (N): the settings, masked, at 80×24 in
// every language; u opens a text field for the URL, d cycles desktop
// notifications, x turns the webhook off, t tests, each through
// Notifications.Do as `ssh host notify` runs it.
func TestTheNotificationsPage(t *testing.T) {
	for _, l := range i18n.Langs {
		a := testApp(t)
		a.Records = profRecords{}
		f := &fakeNotifications{}
		a.Notifications = f
		s := newSessionIn(t, a, "fp-alice", "alice", l)
		th := s.m.th
		openProfile(s.m)
		if v := s.m.View(); !strings.Contains(v, th.T("ui.profile.notify")) {
			t.Fatalf("%s: the profile does not offer N:\n%s", l, v)
		}
		s.keys("N")
		v := s.m.View()
		if _, ok := s.m.page.(*notifyPage); !ok {
			t.Fatalf("%s: N did not open the page:\n%s", l, v)
		}
		if n := len(s.m.Lines()); n > 24 {
			t.Errorf("%s: the page is %d lines at 80×24", l, n)
		}
		flat := strings.Join(strings.Fields(v), "")
		for _, want := range []string{th.T("ui.notify.title"), th.T("notify.cmd.no_url"), th.T("notify.cmd.desktop_off"),
			th.T("notify.cmd.server_off"), th.T("ui.notify.about_desktop")} {
			want = strings.Join(strings.Fields(want), "")
			if !strings.Contains(flat, want) {
				t.Errorf("%s: the page does not say %q:\n%s", l, want, v)
			}
		}
		s.keys("u")
		if s.m.input == nil {
			t.Fatalf("%s: u opened no text field", l)
		}
		s.keys("https://ntfy.sh/alice-secret", "enter")
		s.keys("d", "d")
		if f.desktop != "777" || !strings.Contains(s.m.View(), th.T("notify.cmd.desktop_on", game.Text("Seq", "OSC 777"))) {
			t.Errorf("%s: d twice: desktop %q:\n%s", l, f.desktop, s.m.View())
		}
		s.keys("t")
		if !strings.Contains(s.m.View(), th.T("notify.err.no_url")) {
			t.Errorf("%s: the test's refusal is not said:\n%s", l, s.m.View())
		}
		s.keys("x")
		want := [][]string{{"https://ntfy.sh/alice-secret"}, {"desktop", "9"}, {"desktop", "777"}, {"test"}, {"off"}}
		if len(f.did) != len(want) {
			t.Fatalf("%s: did %q, want %q", l, f.did, want)
		}
		for i := range want {
			if strings.Join(f.did[i], " ") != strings.Join(want[i], " ") {
				t.Errorf("%s: did %q, want %q", l, f.did, want)
			}
		}
		if strings.Contains(s.m.View(), "alice-secret") {
			t.Errorf("%s: the page shows the secret URL:\n%s", l, s.m.View())
		}
		s.keys("esc")
		if _, ok := s.m.page.(*profilePage); !ok {
			t.Errorf("%s: esc did not go back to the profile", l)
		}
	}
}

// A notice of their move brings a player who turned them on a desktop
// notification with its words; one who did not, or a notice that is not
// worth one, brings none. The choice is the session's copy (its profile's
// at login), kept current by the notice a change sends to every session
// of the player: a notice reads no profile on the session's goroutine (a
// JetStream read in a cluster). Before, the session asked the store at
// each notice: here the store says off while the session's copy says
// 777, and the store was read once a notice.
func TestANoticeBringsADesktopNotification(t *testing.T) {
	a := testApp(t)
	f := &fakeNotifications{desktop: ""}
	a.Notifications = f
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m := newRoot(a, Session{Ctx: ctx, Player: table.Player{ID: "fp-bob", Name: "bob"}, Lang: i18n.Polish, Desktop: "777"}, a.Theme(nil, i18n.Polish, false))
	s := &session{t: t, m: m}
	s.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	n := notice.Notice{ID: "turn:K7QX", To: "fp-bob", Text: game.M("notify.notice.turn", game.Text("Code", "K7QX"), game.Text("Title", "Wiarusi")),
		Act: notice.Act{Verb: notice.VerbJoin, Arg: "K7QX"}, Until: time.Now().Add(time.Minute), Desktop: true}
	s.send(noticesMsg{n})
	d, ok := s.m.Desktop()
	if !ok || d.OSC != frames.OSC777 || d.Title != "Bivouac" || d.Body != s.m.th.Msg(n.Text) || !strings.Contains(d.Body, "K7QX") {
		t.Fatalf("desktop note %+v, %v", d, ok)
	}
	if _, ok := s.m.Desktop(); ok {
		t.Errorf("a second Desktop call reports it again")
	}
	n.ID, n.Desktop = "friend:x", false
	s.send(noticesMsg{n})
	if d, ok := s.m.Desktop(); ok {
		t.Errorf("a notice not worth it brought %+v", d)
	}

	// Turned off from another terminal: the setting's notice says so,
	// unseen (no banner, no bell), and the next move brings none.
	s.m.Bell()
	off := notice.Notice{ID: "setting:desktop", To: "fp-bob", Text: game.M("notify.cmd.desktop_off"), Quiet: true,
		Act: notice.Act{Verb: notice.VerbDesktop}}
	s.send(noticesMsg{off})
	if s.m.Bell() || s.m.notes.banner.ID == off.ID || strings.Contains(s.m.View(), s.m.th.T("notify.cmd.desktop_off")) {
		t.Errorf("the setting's notice shows:\n%s", s.m.View())
	}
	n.ID, n.Desktop = "turn:Q3ZZ", true
	s.send(noticesMsg{n})
	if d, ok := s.m.Desktop(); ok {
		t.Errorf("desktop notifications off, yet %+v", d)
	}
	on := off
	on.Act.Arg = "9"
	s.send(noticesMsg{on})
	n.ID = "turn:B3ZT"
	s.send(noticesMsg{n})
	if d, ok := s.m.Desktop(); !ok || d.OSC != frames.OSC9 {
		t.Errorf("turned on with OSC 9: %+v, %v", d, ok)
	}
	if f.reads != 0 {
		t.Errorf("the notices read the player's settings %d times", f.reads)
	}

	// The notifications page's d cycles from the session's copy, and
	// keeps what it set.
	openNotify(s.m, s.m.page)
	s.keys("d")
	if got := f.did[len(f.did)-1]; strings.Join(got, " ") != "desktop 777" || s.m.sess.Desktop != "777" {
		t.Errorf("d from OSC 9 did %q, the session keeps %q", got, s.m.sess.Desktop)
	}
}
