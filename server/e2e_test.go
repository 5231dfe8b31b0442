package server

import (
	"context"
	"errors"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
)

// startServer runs the real server in-process on a loopback listener.
func startServer(t *testing.T, dir string) (*Server, string) {
	t.Helper()
	return startServerWith(t, dir, nil)
}

// startServerWith is startServer with adjust's changes to its Config.
func startServerWith(t *testing.T, dir string, adjust func(*Config)) (*Server, string) {
	t.Helper()
	cfg := Config{Addr: "127.0.0.1:0", DataDir: dir, Guests: true}
	if adjust != nil {
		adjust(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, sshtest.Start(t, srv)
}

// startGameServer is startServer for a game played through over SSH: its
// bots answer at once. It skips the test under -short.
func startGameServer(t *testing.T, why string) (*Server, string) {
	t.Helper()
	return startGameServerWith(t, why, nil)
}

// startGameServerWith is startGameServer with adjust's changes to its Config.
func startGameServerWith(t *testing.T, why string, adjust func(*Config)) (*Server, string) {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	srv, addr := startServerWith(t, t.TempDir(), adjust)
	srv.app.Room.BotDelay = 0
	return srv, addr
}

// helpBar is the last non-empty line of the screen: the keys that are live.
func helpBar(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return lines[len(lines)-1]
}

// playerMove picks a key from what the help bar offers, as a cautious
// player would: answer what is asked, play a card, else withdraw.
func playerMove(bar string) string {
	switch {
	case strings.Contains(bar, "enter deal"):
		return "\r"
	case strings.Contains(bar, "x pass"):
		return "x"
	case strings.Contains(bar, "n take nothing"):
		return "n"
	case strings.Contains(bar, "enter choose"), strings.Contains(bar, "enter place"), strings.Contains(bar, "enter "):
		return "\r"
	case strings.Contains(bar, "p play"), strings.Contains(bar, "play card"):
		return "p"
	case strings.Contains(bar, "w withdraw"):
		return "w"
	}
	return ""
}

var gameOverRe = regexp.MustCompile(`Game over after \d+ missions?`)

// play drives one client until its screen says the game is over.
func play(t *testing.T, c *sshtest.Client, done chan<- string) {
	deadline := time.Now().Add(3 * time.Minute)
	last := ""
	for time.Now().Before(deadline) {
		screen := c.Screen()
		if gameOverRe.MatchString(screen) {
			done <- screen
			return
		}
		if k := playerMove(helpBar(screen)); k != "" && screen != last {
			c.Type(k)
			last = screen
		}
		select {
		case <-c.Done():
			done <- "session ended: " + c.Screen()
			return
		case <-time.After(30 * time.Millisecond):
		}
	}
	done <- "timed out: " + c.Screen()
}

func TestTwoPlayersAndTwoBotsPlayAWholeGameOverSSH(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0

	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"), sshtest.WithPTY(80, 24))
	alice.ExpectScreen(t, `Bivouac`, 5*time.Second)
	alice.ExpectScreen(t, `alice`, 5*time.Second)
	// New table: 4 players (default), easy bots (default), 2 bot seats now.
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("jjjj") // down to "Bot seats now"
	alice.Type("ll")   // 2
	alice.ExpectScreen(t, `▸ Bot seats now\s+◂ 2 ▸`, 5*time.Second)
	alice.Type("\r")
	code := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]

	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)
	alice.ExpectScreen(t, `bob\s+● here`, 5*time.Second)

	// A watcher that never reads its channel must not hold anyone up. It
	// watches the table (w on the lobby's only table) without ever seeing
	// a screen, so its keys go out blind, a moment apart.
	stuck := sshtest.Dial(t, addr, sshtest.WithUser("carol"), sshtest.NeverRead())
	watching := func() bool {
		for _, r := range srv.hub.List() {
			if r.Code == code && r.Watchers == 1 {
				return true
			}
		}
		return false
	}
	clocktest.CheckFor(t, 5*time.Second, 50*time.Millisecond, func() error {
		if !watching() {
			stuck.Type("w")
			return errors.New("the stuck client never came to watch the table")
		}
		return nil
	})

	alice.Type("s")
	alice.ExpectScreen(t, `Mission 1`, 5*time.Second)
	bob.ExpectScreen(t, `Mission 1`, 5*time.Second)

	done := make(chan string, 2)
	go play(t, alice, done)
	go play(t, bob, done)
	for i := 0; i < 2; i++ {
		if end := <-done; !gameOverRe.MatchString(end) {
			t.Fatalf("a player did not reach the end:\n%s", end)
		}
	}

	// Hand isolation: replay the durable log. A card each human holds at
	// the end that was never public (never in No Man's Land, in front of a
	// soldier, out of the game or named in a public event: a failed mission
	// shuffles seen cards back into the pile) must never have reached
	// another client's terminal.
	final := replayState(t, srv, code, grizzled.Game{}).(*grizzled.State)
	public := publicCards(t, srv, code)
	hands := map[string][]grizzled.CardID{
		"alice": final.View(0).Hand,
		"bob":   final.View(1).Hand,
	}
	transcripts := map[string]string{"alice": string(alice.Transcript()), "bob": string(bob.Transcript())}
	for owner, hand := range hands {
		for other, tr := range transcripts {
			if other == owner {
				continue
			}
			for _, c := range hand {
				if c == grizzled.MerryChristmas || public[c] {
					continue // "MC" is too short to search for; public cards were seen fairly
				}
				if strings.Contains(tr, c.Code()) {
					t.Errorf("%s's card %s reached %s's terminal", owner, c.Code(), other)
				}
			}
		}
	}
	t.Logf("final hands alice=%v bob=%v", hands["alice"], hands["bob"])

	// The finished game is on record: its story as text, and move by move.
	story := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("replay "+code))
	if status := story.Wait(t, 5*time.Second); status != 0 {
		t.Fatalf("replay exit %d", status)
	}
	// The raw text, not the emulated screen: without a PTY there are no
	// carriage returns, and the screen's wrapping could split a phrase.
	if text := string(story.Transcript()); !regexp.MustCompile(`A new game of The Grizzled[\s\S]*Mission 1 begins: [^\n]*leads`).MatchString(text) {
		t.Fatalf("the story:\n%s", text)
	}
	watch := sshtest.Dial(t, addr, sshtest.WithUser("alice"), sshtest.WithCommand("replay "+code))
	watch.ExpectScreen(t, `Replay of `+code+` · move 0 of \d+`, 5*time.Second)
	watch.Type("G")
	watch.ExpectScreen(t, `Game over after`, 5*time.Second)
	watch.Type("h")
	watch.ExpectScreen(t, `move \d+ of \d+`, 5*time.Second)
}

// replayState rebuilds a room's final state from the store.
func replayState(t *testing.T, srv *Server, code string, g game.Game) game.State {
	t.Helper()
	rm, err := srv.store.Room(code)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := srv.store.Log(code)
	if err != nil {
		t.Fatal(err)
	}
	st, err := table.ReplayEach(g, rm.Setup, rm.Seed, entries, func(int, game.Seat, game.State, []game.Event) {})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// publicCards are the cards a spectator saw at some point of a game.
func publicCards(t *testing.T, srv *Server, code string) map[grizzled.CardID]bool {
	t.Helper()
	rm, err := srv.store.Room(code)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := srv.store.Log(code)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := table.Replay(grizzled.Game{}, rm.Setup, rm.Seed, entries, game.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[grizzled.CardID]bool{}
	for _, st := range steps {
		v := st.View.(grizzled.SeatView)
		for _, c := range append(append([]grizzled.CardID{}, v.NML...), v.Removed...) {
			seen[c] = true
		}
		for _, p := range v.Players {
			for _, c := range p.HardKnocks {
				seen[c] = true
			}
		}
		for _, e := range st.Events {
			for c := grizzled.FirstThreat; c <= grizzled.MerryChristmas; c++ {
				if strings.Contains(e.Msg.String(), c.Code()) {
					seen[c] = true
				}
			}
		}
	}
	return seen
}

func TestRoomsCommandWithoutPTY(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	r, err := srv.app.Hub.Create(table.RoomConfig{Game: grizzled.Game{}, Title: game.Raw("Grizzled · 4"), Seats: 4, Host: "x"})
	if err != nil {
		t.Fatal(err)
	}
	c := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	c.Expect(t, `CODE\s+GAME`, 5*time.Second)
	c.Expect(t, r.Code()+`\s+Grizzled · 4\s+0/4\s+waiting`, 5*time.Second)
	if code := c.Wait(t, 5*time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// help names this server's own join command, never a placeholder.
func TestHelpCommandNamesThisServer(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("help"))
	c.Wait(t, 5*time.Second)
	out := string(c.Transcript())
	_, port, _ := net.SplitHostPort(addr)
	if strings.Contains(out, "PORT") || !strings.Contains(out, "-p "+port+" ") || !strings.Contains(out, srv.app.JoinHint+" rooms") {
		t.Fatalf("help:\n%s", out)
	}
}

func TestShutdownTellsPlayersAndExitsQuickly(t *testing.T) {
	t.Parallel()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Guests: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	alice := sshtest.Dial(t, l.Addr().String(), sshtest.WithUser("alice"))
	alice.ExpectScreen(t, `Bivouac`, 5*time.Second)
	alice.Type("n\r")
	alice.ExpectScreen(t, `Table [A-Z0-9]{4}`, 5*time.Second)
	sshtest.Dial(t, l.Addr().String(), sshtest.WithUser("stuck"), sshtest.NeverRead())

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("shutdown took %v", d)
	}
	if !strings.Contains(alice.Text(), "restarting") {
		t.Fatalf("alice was not told:\n%s", alice.Screen())
	}
}
