package server

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// newTable has alice create a 4-seat standard table (no bots seated yet)
// and returns its code.
//
// A cluster may refuse it (its lease or code check not answered within
// 4.5 s: "try again in a minute"), as a young one under -race beside other
// tests did once: alice presses enter again, as a player does, once the
// refusal has left the screen (after its 8 s), so that it is not taken for
// the next try's answer.
func newTable(t *testing.T, alice *sshtest.Client) string {
	t.Helper()
	alice.ExpectScreen(t, `Bivouac`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	refused := regexp.MustCompile(`cannot\s+start\s+new\s+tables`) // table.ErrCannotCreate, wrapped or not
	for try := 1; ; try++ {
		alice.Type("\r")
		m := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})|`+refused.String(), 5*time.Second)
		if m[1] != "" {
			return m[1]
		}
		if try == 5 {
			t.Fatalf("no table made in %d tries", try)
		}
		for s := alice.Screen(); refused.MatchString(s); {
			s = alice.NextScreen(t, s, 10*time.Second)
		}
	}
}

func TestHugeChatPasteIsDroppedAndTheTablePlaysOn(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	code := newTable(t, alice)
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)

	// A pasted chat line, escapes and bidi controls
	// sprinkled in, arrives whole and clean.
	line := strings.Repeat("x\x1b[2J\u202eyz", 20)
	bob.Type("t")
	bob.ExpectScreen(t, `> say something`, 5*time.Second)
	bob.Type("\x1b[200~" + line + "\x1b[201~\r") // a bracketed paste, as terminals send it
	got := alice.ExpectScreen(t, `bob: (x[xyz]*)`, 10*time.Second)[1]
	if len(got) != 60 {
		t.Fatalf("the pasted line reached the table as %d characters, want its 60 printable ones", len(got))
	}
	if strings.Contains(alice.Screen(), "\u202e") {
		t.Fatal("a bidi override reached another player's screen")
	}

	// 300 KB on one line is more than anyone types: dropped, and bob is told.
	big := strings.Repeat("Q", 300_000)
	bob.Type("t")
	bob.ExpectScreen(t, `> say something`, 5*time.Second)
	bob.Type("\x1b[200~" + big + "\x1b[201~")
	bob.ExpectScreen(t, `some were dropped`, 10*time.Second)
	bob.Type("\x1b\r")
	if strings.Contains(alice.Screen(), "QQQQ") {
		t.Fatal("the flood reached the table")
	}
	// The table still answers: alice starts the game with bots.
	alice.Type("s")
	alice.ExpectScreen(t, `Mission 1`, 5*time.Second)
}

func TestChatIsRateLimitedWithAMessage(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.ChatBurst, srv.app.ChatEvery = 2, time.Hour
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	newTable(t, alice)
	for _, line := range []string{"one", "two"} {
		alice.Type("t")
		alice.ExpectScreen(t, `> say something`, 5*time.Second)
		alice.Type(line + "\r")
		alice.ExpectScreen(t, `alice: `+line, 5*time.Second)
	}
	alice.Type("t")
	alice.ExpectScreen(t, `> say something`, 5*time.Second)
	alice.Type("three\r")
	alice.ExpectScreen(t, `you can talk again in \d+ s`, 5*time.Second)
	screen := alice.Screen()
	if !strings.Contains(screen, "alice: two") || strings.Contains(screen, "alice: three") {
		t.Fatalf("the third line should be refused, visibly:\n%s", screen)
	}
}

func TestIdleSessionIsWarnedThenClosed(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	// Wide enough that a loaded CI box answers the warning in time.
	srv.app.IdleAfter, srv.app.IdleWarning = 2*time.Second, time.Second
	c := sshtest.Dial(t, addr, sshtest.WithUser("sleepy"))
	c.ExpectScreen(t, `Bivouac`, 5*time.Second)
	c.ExpectScreen(t, `Still there\?`, 5*time.Second)
	c.Type("j") // a key resets the clock
	c.ExpectScreen(t, `q quit`, 5*time.Second)
	c.ExpectScreen(t, `Still there\?`, 5*time.Second)
	c.Wait(t, 5*time.Second)
	if !strings.Contains(c.Text(), "long idle spell") {
		t.Fatalf("no goodbye:\n%s", c.Screen())
	}
}

func TestPlayerWhoVanishesMidGameIsStoodInForByABot(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	srv.app.Room.TakeoverAfter = 300 * time.Millisecond
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	alice.ExpectScreen(t, `Bivouac`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("jh") // 3 players
	alice.Type("\r")
	code := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 5*time.Second)
	alice.Type("s")
	alice.ExpectScreen(t, `Mission 1`, 5*time.Second)
	bob.ExpectScreen(t, `Mission 1`, 5*time.Second)
	bob.Conn.Close() // gone without a word, whoever's turn it is

	alice.ExpectScreen(t, `bob.*\((away|standing in|bot)\)|A bot plays for bob`, 5*time.Second)
	done := make(chan string, 1)
	go play(t, alice, done)
	if end := <-done; !gameOverRe.MatchString(end) {
		t.Fatalf("the game stalled without bob:\n%s", end)
	}
}

// A megabyte typed into the lobby is dropped beyond what a person could
// type, with a word to the sender; the server does not spend seconds on it,
// and another player's keys still answer at once (issue 12 item 4).
func TestAFloodOfKeysIsDroppedCheaply(t *testing.T) {
	// Serial: it measures the process's CPU time.
	if testing.Short() {
		t.Skip("measures CPU for a few seconds")
	}
	_, addr := startServer(t, t.TempDir())
	bob := sshtest.Dial(t, addr, sshtest.WithUser("bob"))
	bob.ExpectScreen(t, `Bivouac`, 5*time.Second)
	mallory := sshtest.Dial(t, addr, sshtest.WithUser("mallory"))
	mallory.ExpectScreen(t, `Bivouac`, 5*time.Second)

	before, start := cpuTime(t), time.Now()
	mallory.Type(strings.Repeat("j", 1<<20))
	mallory.ExpectScreen(t, `some were dropped`, 10*time.Second)
	bob.Type("?")
	bob.ExpectScreen(t, `card games over ssh. Each table`, 2*time.Second)
	time.Sleep(2 * time.Second)
	used, wall := cpuTime(t)-before, time.Since(start)
	if used > wall/2 {
		t.Errorf("a 1 MB paste cost %v of CPU in %v", used, wall.Round(time.Millisecond))
	}
	t.Logf("1 MB of keys: %v of CPU in %v", used, wall.Round(time.Millisecond))
}

// An unknown command is said back as a short prefix, cleaned; a command
// line of 100,000 characters is refused before anything splits it into
// words, which would cost seconds of CPU (issue 12 item 9).
func TestAHugeUnknownCommandIsNotEchoedInFull(t *testing.T) {
	// Serial: it measures the process's CPU time.
	_, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("\x1b[2J"+strings.Repeat("x", 1000)))
	c.Wait(t, 5*time.Second)
	out := string(c.Transcript())
	if len(out) > 4000 || strings.Contains(out, "\x1b[2J") {
		t.Fatalf("%d bytes said back, escapes included: %v", len(out), strings.Contains(out, "\x1b"))
	}
	if !strings.Contains(out, `unknown command "`+strings.Repeat("x", 40)+`…"`) {
		t.Fatalf("the answer does not name the command's start:\n%.300s", out)
	}

	before, start := cpuTime(t), time.Now()
	for range 5 {
		c := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand(strings.Repeat("x ", 50_000)))
		c.Wait(t, 5*time.Second)
		out := string(c.Transcript())
		if !strings.Contains(out, "(100000 bytes)") || len(out) > 400 {
			t.Fatalf("a 100 KB command line: %.300q", out)
		}
		for _, l := range strings.Split(out, "\n") { // a refusal on a terminal's line
			if n := utf8.RuneCountInString(strings.TrimRight(l, "\r")); n > 80 {
				t.Fatalf("the refusal of a 100 KB command line is %d columns: %q", n, l)
			}
		}
	}
	if used := cpuTime(t) - before; used > time.Second {
		t.Errorf("five 100 KB command lines cost %v of CPU in %v", used, time.Since(start).Round(time.Millisecond))
	}
}
