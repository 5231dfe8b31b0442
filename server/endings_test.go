package server

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// leftClean reports what is wrong with how a session's raw output ends:
// after the last switch to the alternate screen there must be a switch
// back, the cursor shown and the attributes reset, and then want.
func leftClean(raw []byte, want string) string {
	i := bytes.LastIndex(raw, []byte("\x1b[?1049h"))
	if i < 0 {
		return "the session never entered the alternate screen"
	}
	tail := raw[i:]
	j := bytes.Index(tail, []byte("\x1b[?1049l"))
	switch {
	case j < 0:
		return "the alternate screen was never left"
	case !bytes.Contains(tail, []byte("\x1b[?25h")):
		return "the cursor was never shown again"
	case !bytes.Contains(tail[:j], []byte("\x1b[0m")):
		return "the attributes were not reset before leaving"
	case !strings.Contains(string(tail[j:]), want):
		return "after leaving, the terminal does not say " + want
	}
	return ""
}

// Every way a session ends gives the player's terminal back as it was:
// normal screen, cursor shown, plain attributes, and a line saying why
// (issue 18 items 1 and 2).
func TestEverySessionEndLeavesTheTerminalClean(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	key := sshtest.NewKey(t)

	quitter := sshtest.Dial(t, addr, sshtest.WithUser("quinn"))
	quitter.ExpectScreen(t, `Bivouac`, 5*time.Second)
	quitter.Type("q")
	quitter.Wait(t, 5*time.Second)

	ctrlC := sshtest.Dial(t, addr, sshtest.WithUser("cora"))
	code := newTable(t, ctrlC)
	ctrlC.Type("\x03")
	ctrlC.Wait(t, 5*time.Second)

	first := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser("tess"), sshtest.WithCommand("join "+code))
	first.ExpectScreen(t, `tess \(you\)`, 5*time.Second)
	second := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser("tess"), sshtest.WithCommand("join "+code))
	second.ExpectScreen(t, `tess \(you\)`, 5*time.Second)
	first.Wait(t, 5*time.Second)

	inLobby := sshtest.Dial(t, addr, sshtest.WithUser("lou"))
	inLobby.ExpectScreen(t, `Bivouac`, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	inLobby.Wait(t, 5*time.Second)
	second.Wait(t, 5*time.Second)

	for name, c := range map[string]struct {
		c    *sshtest.Client
		want string
	}{
		"q in the lobby":            {quitter, "Goodbye from Bivouac"},
		"ctrl+c at a table":         {ctrlC, "Goodbye from Bivouac"},
		"taken over from elsewhere": {first, "another terminal"},
		"shutdown, in the lobby":    {inLobby, "The server is restarting"},
		"shutdown, at a table":      {second, "The server is restarting"},
	} {
		if why := leftClean(c.c.Transcript(), c.want); why != "" {
			t.Errorf("%s: %s", name, why)
		}
	}
}

// An idle session is closed the same clean way.
func TestIdleCloseLeavesTheTerminalClean(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.IdleAfter, srv.app.IdleWarning = time.Second, 500*time.Millisecond
	c := sshtest.Dial(t, addr, sshtest.WithUser("sleepy"))
	c.Wait(t, 10*time.Second)
	if why := leftClean(c.Transcript(), "long idle spell"); why != "" {
		t.Error(why)
	}
}

// A player who comes back with one seat at a game in progress sits straight
// back down (issue 18 item 11); with seats at two, the lobby says where.
func TestReconnectSitsYouBackDown(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = time.Hour // the bots wait: the game stays in progress
	key := sshtest.NewKey(t)
	codes := []string{}
	for range 2 {
		c := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser("ann"))
		if len(codes) == 0 {
			c.ExpectScreen(t, `Bivouac`, 5*time.Second)
		} else {
			// No lobby frame is promised on the way: a loaded server
			// draws the table first.
			c.ExpectScreen(t, `ann is back at the table`, 5*time.Second) // straight back at the first table
			c.Type("Q")
			c.ExpectScreen(t, `Tables`, 5*time.Second)
		}
		c.Type("n")
		c.ExpectScreen(t, `New table`, 5*time.Second)
		c.Type("\r")
		codes = append(codes, c.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1])
		c.Type("s")
		c.ExpectScreen(t, `Mission 1`, 5*time.Second)
		c.Close()
	}
	again := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser("ann"))
	again.ExpectScreen(t, `You have seats at tables `+codes[0]+`, `+codes[1]+`|You have seats at tables `+codes[1]+`, `+codes[0], 5*time.Second)
	// The notice is about the lobby: it stays there (issue 30 item 8).
	again.Type("\r")
	again.ExpectScreen(t, `Mission 1`, 5*time.Second)
	if s := again.Screen(); strings.Contains(s, "You have seats") {
		t.Fatalf("the lobby's notice followed ann to the table:\n%s", s)
	}
}

// L at a running table gives the seat to a bot for the rest of the game,
// after a confirmation; any other answer keeps it (issue 18 item 8).
func TestGivingYourSeatToABotIsConfirmed(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = time.Hour // the bots wait, so the game stays where it is
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alice"))
	alice.ExpectScreen(t, `Bivouac`, 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("jjjj")
	alice.Type("lll")
	alice.ExpectScreen(t, `▸ Bot seats now\s+◂ 3 ▸`, 5*time.Second)
	alice.Type("\r")
	alice.ExpectScreen(t, `Table [A-Z0-9]{4}`, 5*time.Second)
	alice.Type("s")
	alice.ExpectScreen(t, `Mission 1`, 5*time.Second)
	alice.ExpectScreen(t, `L bot takes my seat`, 5*time.Second)
	alice.Type("L")
	alice.ExpectScreen(t, `Give your seat to a bot for this game\?`, 5*time.Second)
	alice.Type("n")
	clocktest.CheckFor(t, 3*time.Second, 10*time.Millisecond, func() error {
		if strings.Contains(alice.Screen(), "Give your seat") {
			return errors.New("the question stayed after the answer")
		}
		return nil
	})
	if !strings.Contains(alice.Screen(), "alice (you)") {
		t.Fatalf("n gave the seat away:\n%s", alice.Screen())
	}
	alice.Type("L")
	alice.ExpectScreen(t, `Give your seat to a bot`, 5*time.Second)
	alice.Type("y")
	alice.ExpectScreen(t, `A bot plays your seat for the rest of that game`, 5*time.Second)
	alice.ExpectScreen(t, `Tables`, 5*time.Second)
}

// The goodbye is word-wrapped to the terminal's width: it is written on
// the normal screen, where German's "…, um weiterzuspielen." broke as
// "weiterzuspi|elen" at 80 columns.
func TestTheGoodbyeFitsTheTerminal(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	for _, lang := range []string{"de_DE.UTF-8", "ru_RU.UTF-8"} {
		c := sshtest.Dial(t, addr, sshtest.WithUser("quinn"), sshtest.WithPTY(80, 24), sshtest.WithEnv("LANG", lang))
		c.ExpectScreen(t, `Bivouac`, 5*time.Second)
		c.Type("q")
		c.Wait(t, 5*time.Second)
		raw := string(c.Transcript())
		i := strings.LastIndex(raw, "\x1b[?1049l")
		if i < 0 {
			t.Fatalf("%s: the alternate screen was never left", lang)
		}
		bye := strings.Split(strings.TrimSpace(raw[i+len("\x1b[?1049l"):]), "\r\n")
		if lang == "de_DE.UTF-8" && len(bye) < 2 { // 86 columns
			t.Errorf("%s: the goodbye is one line: %q", lang, bye)
		}
		for _, l := range bye {
			if w := uikit.Width(l); w > 80 {
				t.Errorf("%s: %d columns: %q", lang, w, l)
			}
		}
	}
}
