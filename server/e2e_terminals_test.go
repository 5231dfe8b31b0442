package server

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// startGrizzled opens a Grizzled table for c's player and three bots and
// starts it, from the lobby, with keys.
func startGrizzled(t *testing.T, c *sshtest.Client) {
	t.Helper()
	c.ExpectScreen(t, `New table|Bivouac`, 5*time.Second)
	c.Type("n")
	c.ExpectScreen(t, `New table`, 5*time.Second)
	c.Type("jjjj") // down to the bot seats
	c.Type("lll")  // 3 bots
	c.Type("\r")
	c.ExpectScreen(t, `Table [A-Z0-9]{4}`, 5*time.Second)
	c.Type("s")
	c.ExpectScreen(t, `Mission 1`, 5*time.Second)
}

// playToTheEnd plays c's seat until the game is over, or fails; it
// returns every screen seen on the way.
func playToTheEnd(t *testing.T, c *sshtest.Client) []string {
	t.Helper()
	var screens []string
	last := ""
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		screen := c.Screen()
		if screen != last {
			screens = append(screens, screen)
		}
		if gameOverRe.MatchString(screen) {
			return screens
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end:\n%s", screen)
		}
		if k := playerMove(helpBar(screen)); k != "" && screen != last {
			c.Type(k)
		}
		last = screen
	}
}

// A terminal without Unicode (TERM=vt100, a C locale, or BIVOUAC_UI=ascii)
// gets every byte in ASCII, a Cyrillic name included, and the layout of
// 80×24 as drawn.
func TestASCIITerminalsGetOnlyASCII(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("whole games over SSH")
	}
	for _, tc := range []struct {
		name, user string
		opts       []sshtest.Option
		wantName   string
	}{
		{"vt100", "vera", []sshtest.Option{sshtest.WithTerm("vt100")}, "vera"},
		{"LANG=C", "carl", []sshtest.Option{sshtest.WithEnv("LANG", "C")}, "carl"},
		{"BIVOUAC_UI=ascii", "Жанна", []sshtest.Option{sshtest.WithEnv("BIVOUAC_UI", "ascii")}, "Zhanna"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, addr := startServer(t, t.TempDir())
			srv.app.Room.BotDelay = 0
			c := sshtest.Dial(t, addr, append(tc.opts, sshtest.WithUser(tc.user), sshtest.WithPTY(80, 24))...)
			startGrizzled(t, c)
			mid := c.Screen()
			playToTheEnd(t, c)
			tr := c.Transcript()
			for i, b := range tr {
				if b >= utf8.RuneSelf {
					t.Fatalf("a byte beyond ASCII at %d: %q", i, tr[max(0, i-60):min(len(tr), i+20)])
				}
			}
			if !strings.Contains(mid, tc.wantName+" (you)") {
				t.Errorf("the name is not shown as %q:\n%s", tc.wantName, mid)
			}
			for _, l := range strings.Split(mid, "\n") {
				if len(l) > 80 {
					t.Errorf("a line wider than the window: %q", l)
				}
			}
			if !regexp.MustCompile(`\+-+`).MatchString(mid) && !strings.Contains(mid, "--") {
				t.Errorf("no ASCII lines where the screen draws boxes:\n%s", mid)
			}
		})
	}
}

// sgrColour is an SGR sequence that sets a colour or an attribute, as
// opposed to the plain reset the frame writer ends each line with.
var sgrColour = regexp.MustCompile(`\x1b\[[0-9;]*[1-9][0-9;]*m`)

// Under NO_COLOR nothing is coloured, and the table still says by letters
// and symbols which threats lie out, which card is a trap and whose turn
// it is.
func TestNoColourOverSSH(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	srv.app.NewSeed = func() uint64 { return 1 } // a deal in which nina meets trap cards
	c := sshtest.Dial(t, addr, sshtest.WithUser("nina"), sshtest.WithEnv("NO_COLOR", "1"), sshtest.WithPTY(80, 24))
	startGrizzled(t, c)
	all := strings.Join(playToTheEnd(t, c), "\n")
	for _, want := range []string{
		"Ni Night", "Sn Snow", "Ra Rain", "Sh Shell", "Wh Whistle", "Ma Gas Mask", // the threats by letters
		"! = trap", // traps
		"▶",        // whose turn
		"★",        // the leader
		"▸ Your turn",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no screen of the game showed %q", want)
		}
	}
	if m := sgrColour.Find(c.Transcript()); m != nil {
		t.Fatalf("a colour under NO_COLOR: %q", m)
	}
}

// A window's new sizes reach the screen over SSH (the session's pump
// passes them on, sshserver.ClaimWindowChanges): too small a window says
// so, and a larger one is drawn to its width.
func TestResizesReachTheScreen(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithUser("rita"), sshtest.WithPTY(80, 24))
	c.ExpectScreen(t, `Tables`, 10*time.Second)
	c.Resize(20, 5)
	c.ExpectScreen(t, `have\s+20×5`, 10*time.Second)
	c.Resize(110, 30)
	c.ExpectScreen(t, `─{110}`, 10*time.Second) // the lobby's rule spans the new width
	c.Type("q")
	if code := c.Wait(t, 10*time.Second); code != 0 {
		t.Fatalf("quitting ended with status %d", code)
	}
}
