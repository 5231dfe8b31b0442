package server

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// guessClock is a clock for the wrong-code budget that moves only when told.
type guessClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *guessClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *guessClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// withGuessClock gives srv a wrong-code budget on a clock the test moves.
func withGuessClock(srv *Server) *guessClock {
	clk := &guessClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv.app.Guesses = sshserver.NewGuesses(clk.Now)
	return clk
}

// ask runs `ssh host CMD` and returns its exit status and words.
func ask(t *testing.T, addr, user, cmd string) (int, string) {
	t.Helper()
	c := sshtest.Dial(t, addr, sshtest.WithUser(user), sshtest.WithoutPTY(), sshtest.WithCommand(cmd))
	status := c.Wait(t, 10*time.Second)
	return status, strings.TrimSpace(string(c.Transcript()))
}

// `replay CODE` and `review CODE` answered 5,325 probes a second from one
// address, and told a live private table ("not finished") from none ("no
// game on record"). A code that names no finished game now gets one
// answer, whatever it names, and counts as a wrong guess in the budget
// `join` and guest codes draw on: the next probe waits.
func TestProbingGameCodesIsThrottledAndTellsNothing(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	clk := withGuessClock(srv)
	g, _ := srv.games.Lookup("grizzled")
	cfg := srv.app.Room
	cfg.Game, cfg.Seats, cfg.Private, cfg.Host = g.Game, 2, true, "someone"
	private, err := srv.hub.Create(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const none = "ZZZZ9999" // as long as a private code, naming nothing
	for _, cmd := range []string{"replay", "review"} {
		status, live := ask(t, addr, "eve", cmd+" "+private.Code())
		clk.Advance(time.Hour) // past the back-off
		status2, nothing := ask(t, addr, "eve", cmd+" "+none)
		clk.Advance(time.Hour)
		if status != 1 || status2 != 1 {
			t.Fatalf("%s: exits %d and %d, want 1", cmd, status, status2)
		}
		if strings.ReplaceAll(live, private.Code(), none) != nothing {
			t.Fatalf("%s tells a live private table from no table:\n%q\n%q", cmd, live, nothing)
		}
		if !strings.Contains(nothing, "no finished game "+none) {
			t.Fatalf("%s of no game: %q", cmd, nothing)
		}
	}

	// Probing: the first miss is answered, the next ones from the address
	// wait, whoever asks and whichever command.
	if _, said := ask(t, addr, "eve", "replay AAAA"); !strings.Contains(said, "no finished game AAAA") {
		t.Fatalf("first probe: %q", said)
	}
	for _, probe := range []string{"replay BBBB", "review CCCC", "replay " + private.Code()} {
		status, said := ask(t, addr, "mallory", probe)
		if status != 1 || !strings.Contains(said, "Too many wrong codes from your address") {
			t.Fatalf("%s right after a miss: exit %d, %q", probe, status, said)
		}
	}
	// The budget is the one the lobby's `join` and guest codes draw on.
	if w := srv.app.Guesses.Wait("127.0.0.1"); w <= 0 {
		t.Fatal("the misses did not count in the address's budget")
	}
}
