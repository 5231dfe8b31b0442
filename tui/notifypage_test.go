package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/tui/frames"
)

// fakeNotifications keeps one player's settings as `notify` would.
type fakeNotifications struct {
	url, desktop string
	did          [][]string
}

func (f *fakeNotifications) Settings(string) ([]game.Msg, error) {
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

func (f *fakeNotifications) Do(_ string, args []string, _ string) ([]game.Msg, error) {
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

func (f *fakeNotifications) Desktop(string) string { return f.desktop }

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
// worth one, brings none.
func TestANoticeBringsADesktopNotification(t *testing.T) {
	a := testApp(t)
	f := &fakeNotifications{desktop: "777"}
	a.Notifications = f
	s := newSessionIn(t, a, "fp-bob", "bob", i18n.Polish)
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
	f.desktop = ""
	n.ID, n.Desktop = "turn:Q3ZZ", true
	s.send(noticesMsg{n})
	if d, ok := s.m.Desktop(); ok {
		t.Errorf("desktop notifications off, yet %+v", d)
	}
}
