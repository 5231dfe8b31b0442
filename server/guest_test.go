package server

import (
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// A guest's seat belongs to whoever holds its reclaim code, and only them:
// nothing another player or the log can read gives the code away, a
// stranger using the guest's public name is someone else, and the guest
// with the code sits back down (the old terminal is told) (issue 12 items
// 1, 5 and 6).
func TestAGuestsSeatIsReclaimedOnlyWithItsCode(t *testing.T) {
	t.Parallel()
	var logs sshtest.Buffer
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Guests: true,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)

	ann := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("!!"))
	code := ann.ExpectScreen(t, `Your guest code is (g-[a-z0-9-]+)`, 5*time.Second)[1]
	name := ann.ExpectScreen(t, `(guest-[a-z0-9]{4}) \(guest\)`, 5*time.Second)[1]
	canon, ok := sshserver.ParseGuestCode(code)
	if !ok {
		t.Fatalf("the lobby shows %q, not a reclaim code", code)
	}
	if strings.Contains(strings.ToUpper(name), canon[:4]) && strings.Contains(strings.ToUpper(name), canon[4:8]) {
		t.Fatalf("display name %q is made from the code %s", name, code)
	}
	table := newTable(t, ann)

	// What anyone else can read: the table list, another lobby, the log.
	rooms := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	rooms.Wait(t, 5*time.Second)
	mallory := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser(name))
	mallory.ExpectScreen(t, `Your guest code is`, 5*time.Second)
	mallory.Type("\r") // join the listed table
	mallory.ExpectScreen(t, `Table `+table, 5*time.Second)
	if !strings.Contains(string(rooms.Transcript()), name) {
		t.Fatalf("rooms does not list the guest:\n%s", rooms.Transcript())
	}
	for what, text := range map[string]string{"rooms": string(rooms.Transcript()),
		"another guest's terminal": string(mallory.Transcript()), "the server log": logs.String()} {
		if leaks(text, canon) {
			t.Errorf("the reclaim code %s is in %s", code, what)
		}
	}
	if regexp.MustCompile(regexp.QuoteMeta(name) + `\s+\(you\)`).MatchString(mallory.Screen()) {
		t.Fatalf("a stranger using the name %s got the guest's seat:\n%s", name, mallory.Screen())
	}

	// The code's holder sits back down; the old terminal is told why it closed.
	again := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser(code), sshtest.WithCommand("join "+table))
	again.ExpectScreen(t, `\(you\)`, 5*time.Second)
	ann.Wait(t, 5*time.Second)
	if !strings.Contains(ann.Text(), "another terminal") {
		t.Fatalf("the old terminal was not told:\n%s", ann.Text())
	}
	if leaks(logs.String(), canon) {
		t.Error("the reclaim code reached the server log")
	}
}

// leaks reports whether text holds the code in any form it is written.
func leaks(text, canon string) bool {
	up := strings.ToUpper(text)
	return strings.Contains(up, canon) || strings.Contains(up, strings.ToUpper(sshserver.FormatGuestCode(canon)[2:]))
}

// Private tables are long codes; typing codes that name nothing makes the
// address wait, with a message (issue 12 item 7).
func TestWrongTableCodesAreSlowedDown(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	// The wait after one wrong code is a second: the next connection,
	// slower than that on a loaded machine, found it over (the lobby, no
	// message). On a clock that stands still, the wait is still on.
	withGuessClock(srv)
	c := sshtest.Dial(t, addr, sshtest.WithUser("eve"), sshtest.WithCommand("join ZZZZ"))
	c.ExpectScreen(t, `No table "ZZZZ"`, 5*time.Second)
	if w := srv.app.Guesses.Wait("127.0.0.1"); w <= 0 {
		t.Fatal("a wrong table code was not counted")
	}
	d := sshtest.Dial(t, addr, sshtest.WithUser("eve"), sshtest.WithCommand("join YYYY"))
	d.ExpectScreen(t, `Too many wrong codes from your address: try again in \d+s`, 5*time.Second)
}
