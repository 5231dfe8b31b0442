package server

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"

	gossh "golang.org/x/crypto/ssh"
)

// startModerated is a server on dir whose admins are in adminsFile.
func startModerated(t *testing.T, dir, adminsFile string) (*Server, string) {
	t.Helper()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir, Guests: true, Access: access.Config{AdminsFile: adminsFile}})
	if err != nil {
		t.Fatal(err)
	}
	srv.app.Room.BotDelay = 0
	return srv, sshtest.Start(t, srv)
}

// startWithAdmin is a moderated server (startModerated) whose one admin,
// logged in as ada, runs commands with run (adminRun).
func startWithAdmin(t *testing.T) (*Server, string, func(args string, wantStatus int, want ...string) string) {
	t.Helper()
	adminKey := sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, t.TempDir(), adminsFile)
	return srv, addr, adminRun(t, addr, adminKey)
}

// adminRun runs `admin ARGS` as key (logged in as ada) and checks its
// exit status and that its answer matches every pattern in want; it
// returns the answer.
func adminRun(t *testing.T, addr string, key gossh.Signer) func(args string, wantStatus int, want ...string) string {
	return adminRunAs(t, addr, key, "ada")
}

// adminRunAs is adminRun logged in as user.
func adminRunAs(t *testing.T, addr string, key gossh.Signer, user string) func(args string, wantStatus int, want ...string) string {
	return func(args string, wantStatus int, want ...string) string {
		t.Helper()
		out, status := adminAs(t, addr, key, user, args)
		if status != wantStatus {
			t.Errorf("admin %s: status %d, want %d:\n%s", args, status, wantStatus, out)
		}
		for _, w := range want {
			if !regexp.MustCompile(w).MatchString(out) {
				t.Errorf("admin %s said:\n%s\nwant %q", args, out, w)
			}
		}
		return out
	}
}

// runAdmin runs `ssh host admin ARGS` as key and returns what it printed and
// its exit status.
func runAdmin(t *testing.T, addr string, key gossh.Signer, args string) (string, int) {
	t.Helper()
	return adminAs(t, addr, key, "ada", args)
}

// adminAs is admin logged in as user.
func adminAs(t *testing.T, addr string, key gossh.Signer, user, args string) (string, int) {
	t.Helper()
	c := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser(user), sshtest.WithoutPTY(), sshtest.WithCommand("admin "+args))
	code := c.Wait(t, 10*time.Second)
	c.Close()
	return string(c.Transcript()), code // raw: without a PTY, lines end in a bare \n
}

// The story of issue 29: an admin bans a player in the middle of a
// Werewolves day. The player's terminal says why and for how long and is
// given back whole; a bot takes the seat and the game goes on; the
// player's reconnect is refused with the time left; after a restart on the
// same data the ban holds; `admin log` shows it.
func TestAdminBansAPlayerInTheMiddleOfAWerewolvesDay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	adminKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, dir, adminsFile)
	srv.app.NewSeed = func() uint64 { return 1 } // the first seat is a simple villager

	bob := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	bob.ExpectScreen(t, `bob`, 5*time.Second)
	bob.Type("n")
	bob.ExpectScreen(t, `New table`, 5*time.Second)
	bob.Type("l") // Werewolves
	bob.ExpectScreen(t, `Werewolves of Millers Hollow`, 5*time.Second)
	bob.Type("jjj" + "ll") // Timers: quick, fast nights
	bob.ExpectScreen(t, `▸ Timers\s+◂ quick, fast nights \[not in the rulebook\] ▸`, 5*time.Second)
	bob.Type("jj" + "lllllll") // 7 bot seats: bob and seven bots
	bob.ExpectScreen(t, `▸ Bot seats now\s+◂ 7 ▸`, 5*time.Second)
	bob.Type("\r")
	code := bob.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	bob.Type("s")
	bob.ExpectScreen(t, `DAY 1`, 20*time.Second)

	out, status := runAdmin(t, addr, adminKey, "ban BOB 2h insults the village")
	if status != 0 || !strings.Contains(out, "bob is banned for 2 hours, until") {
		t.Fatalf("admin ban: status %d, said:\n%s", status, out)
	}
	if status := bob.Wait(t, 5*time.Second); status != 0 && status != 1 {
		t.Errorf("the banned session ended with status %d", status)
	}
	banned := `You are banned from this server for 2 hours, until \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Reason:\s+insults\s+the\s+village`
	if why := leftClean(bob.Transcript(), "You are banned from this server for 2 hours"); why != "" {
		t.Errorf("the banned player's terminal: %s\n%s", why, bob.Text())
	}
	if !regexp.MustCompile(banned).MatchString(bob.Text()) {
		t.Errorf("the banned player was not told why and for how long:\n%s", bob.Text())
	}

	// A bot plays bob's seat and the game goes on without waiting for him.
	r := srv.hub.Local(code)
	if r == nil {
		t.Fatal("the table is gone")
	}
	seat0 := func() table.SeatInfo { return r.Summary().Seats[0] }
	waitUntil(t, "a bot to take bob's seat", func() bool { return seat0().Bot == table.StandIn })
	before := replayLen(t, srv, code)
	waitUntil(t, "the game to go on", func() bool { return replayLen(t, srv, code) > before || r.Summary().Status == table.StatusOver })

	// Coming back is refused at the door, with the time left.
	again := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	again.Expect(t, `You are banned from this server for 2 hours`, 5*time.Second)
	if status := again.Wait(t, 5*time.Second); status != 1 {
		t.Errorf("a banned reconnect ended with status %d, want 1", status)
	}

	// After a restart on the same data the ban still holds.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	_, addr = startModerated(t, dir, adminsFile)
	later := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	later.Expect(t, `You are banned from this server for 2 hours`, 5*time.Second)
	if status := later.Wait(t, 5*time.Second); status != 1 {
		t.Errorf("after a restart a banned command ended with status %d, want 1", status)
	}
	out, _ = runAdmin(t, addr, adminKey, "log")
	if !regexp.MustCompile(`ada: banned bob\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+insults\s+the\s+village`).MatchString(out) {
		t.Errorf("admin log does not show the ban:\n%s", out)
	}
	out, _ = runAdmin(t, addr, adminKey, "bans")
	if !strings.Contains(out, "ban  bob  until") {
		t.Errorf("admin bans:\n%s", out)
	}
}

// replayLen is how many steps the table's durable log holds.
func replayLen(t *testing.T, srv *Server, code string) int {
	t.Helper()
	log, err := srv.store.Log(code)
	if err != nil {
		t.Fatal(err)
	}
	return len(log)
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		if !cond() {
			return fmt.Errorf("no %s", what)
		}
		return nil
	})
}

// Every admin command over SSH, as a script runs them, and the console:
// names as players see them, durations and errors in sentences, a mute
// that silences, a notice, a kick that ends the sessions, a table closed,
// and nothing at all for someone who is not an admin.
func TestAdminCommandsOverSSH(t *testing.T) {
	t.Parallel()
	adminKey, rootKey, trollKey, trolleyKey, nobodyKey := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey, rootKey)
	srv, addr := startModerated(t, t.TempDir(), adminsFile)
	run := adminRun(t, addr, adminKey)

	c := sshtest.Dial(t, addr, sshtest.WithKey(nobodyKey), sshtest.WithUser("eve"), sshtest.WithoutPTY(), sshtest.WithCommand("admin who"))
	if status := c.Wait(t, 5*time.Second); status != 1 || strings.TrimSpace(c.Text()) != "Not permitted." {
		t.Errorf("a non-admin's `admin who`: status %d, said %q", status, c.Text())
	}
	guest := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("gus"), sshtest.WithoutPTY(), sshtest.WithCommand("admin bans"))
	if status := guest.Wait(t, 5*time.Second); status != 1 || strings.TrimSpace(guest.Text()) != "Not permitted." {
		t.Errorf("a guest's `admin bans`: status %d, said %q", status, guest.Text())
	}

	troll := sshtest.Dial(t, addr, sshtest.WithKey(trollKey), sshtest.WithUser("troll"), sshtest.WithPTY(80, 24))
	code := newTable(t, troll)
	trolley := sshtest.Dial(t, addr, sshtest.WithKey(trolleyKey), sshtest.WithUser("Trolley"), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code))
	trolley.ExpectScreen(t, `Trolley \(you\)`, 5*time.Second)
	root := sshtest.Dial(t, addr, sshtest.WithKey(rootKey), sshtest.WithUser("root"), sshtest.WithPTY(80, 24))
	root.ExpectScreen(t, `Bivouac`, 5*time.Second)

	run("who", 0, `Who is on:`, `troll\s+`+regexp.QuoteMeta(sshtest.Fingerprint(trollKey)), `Trolley`)
	run("tables", 0, code+`\s+The Grizzled`)
	run("ban tro 2h", 1, `Nobody called tro is known here\.`) // a name, never a prefix of one
	run("ban nobody-here 2h", 1, `Nobody called nobody-here is known here\.`)
	run("ban troll 7x", 1, `7x: x is not a unit; write m \(minutes\), h \(hours\), d \(days\) or w \(weeks\)\.`)
	run("ban", 1, `Usage: ban NAME\|ADDRESS DURATION \[--key-only\] \[REASON\]`)
	run("mute ROOT 1h", 1, `Admins cannot be banned, muted or kicked\.`)
	run("frobnicate", 1, `There is no admin command frobnicate\. Type: admin help`)
	run("help", 0, `ban NAME\|ADDRESS DURATION \[--key-only\] \[REASON\]\n\s+keep a player out`, `close CODE`,
		`invites\n`, `uninvite TAG`, `admitted\n`, `unadmit NAME\|KEY`, `allow \[add\|remove KEY\|NAME\]`,
		`admins \[add\|remove KEY\|NAME\]`, `history NAME\|KEY`, `over ssh, quote it twice:\n  ssh HOST 'admin ban "jean luc" 2h'`)

	run("mute troll 30m spam", 0, `troll is muted for 30 minutes, until`)
	troll.Type("t")
	troll.ExpectScreen(t, `> say something`, 5*time.Second)
	troll.Type("you all stink\r")
	troll.ExpectScreen(t, `You are muted for 30 minutes, until .*UTC: nobody sees`, 5*time.Second)
	if strings.Contains(troll.Screen(), "troll: “you all stink”") {
		t.Error("a muted player's line reached the table")
	}
	run("bans", 0, `mute\s+troll\s+until \S+ \S+ UTC\s+by ada\s+spam`)
	run("unmute troll", 0, `troll is no longer muted\.`)
	run("unmute troll", 1, `That player is not muted\.`)

	run("say The server restarts at noon", 0, `The notice went to 3 sessions\.`)
	troll.ExpectScreen(t, `Notice from the admins: The server restarts at noon`, 5*time.Second)
	trolley.ExpectScreen(t, `Notice from the admins: The server restarts at noon`, 5*time.Second)

	run("kick trolley flooding", 0, `Trolley is disconnected and keeps their seat\.`)
	trolley.Wait(t, 5*time.Second)
	if why := leftClean(trolley.Transcript(), "An admin disconnected you: flooding"); why != "" {
		t.Errorf("the kicked player's terminal: %s", why)
	}
	// The client hears the end before the server's register lets the
	// session go (its context ends after the channel closes).
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if n := len(srv.live.Of(sshtest.Fingerprint(trolleyKey))); n > 0 {
			return fmt.Errorf("%d sessions of trolley still registered", n)
		}
		return nil
	})
	run("kick trolley", 0, `Trolley is not connected here; nothing to end\.`)
	if !slices.Contains(srv.hub.Local(code).Summary().Players, sshtest.Fingerprint(trolleyKey)) {
		t.Error("a kicked player lost their seat")
	}

	run("close "+strings.ToLower(code), 0, `Table `+code+` is closed\.`)
	troll.ExpectScreen(t, `an admin closed it`, 5*time.Second)
	run("close ZZZZ", 1, `There is no table ZZZZ on this server\.`)
	out := run("invite 2 3d", 0, `Invite code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]), for 2 keys, until \S+ \S+ UTC\. Each newcomer types: ssh .*invite-`)
	invite := regexp.MustCompile(`Invite code (\S+),`).FindStringSubmatch(out)
	run("invite 0", 1, `An invite admits from 1 to 100 keys\.`)
	run("invite lots", 1, `Usage: invite \[USES\] \[DURATION\]`)

	if _, err := srv.Moderation().FileReport(moderation.Report{Reporter: sshtest.Fingerprint(rootKey), ReporterName: "root",
		Subject: sshtest.Fingerprint(trollKey), SubjectName: "troll", Table: code, Reason: "insults", Evidence: []string{"troll: you all stink"}}, ""); err != nil {
		t.Fatal(err)
	}
	run("reports", 0, `root reports troll at table `+code+`: insults\n\s+troll: you all stink`)

	log := run("log", 0, `ada: muted troll`, `ada: unmuted troll`, `ada: disconnected Trolley\s+flooding`, `ada: closed table `+code, `ada: said to everyone\s+The server restarts at noon`, `ada: made an invite`)
	if len(invite) < 2 || strings.Contains(log, invite[1]) || strings.Contains(log, strings.ReplaceAll(invite[1], "-", "")) {
		t.Errorf("the log shows the invite's code (or no code was made: %q):\n%s", invite, log)
	}

	// The console: an overview first, then commands with a prompt.
	con := sshtest.Dial(t, addr, sshtest.WithKey(adminKey), sshtest.WithUser("ada"), sshtest.WithPTY(80, 24), sshtest.WithCommand("admin"))
	con.Expect(t, `Admin console`, 5*time.Second)
	con.Expect(t, `Who is on:`, 5*time.Second)
	con.Expect(t, `1 open report: reports lists it\.`, 5*time.Second) // a count, not the queue
	con.Expect(t, `No bans or mutes\.`, 5*time.Second)
	con.Type("ban trol 2h\r")
	con.Expect(t, `Nobody called trol is known here`, 5*time.Second)
	con.Type("quit\r")
	con.Expect(t, `Admin console closed\.`, 5*time.Second)
	if status := con.Wait(t, 5*time.Second); status != 0 {
		t.Errorf("the console ended with status %d", status)
	}
}

// A ban made on one node of a cluster ends the player's session on
// another within seconds, and that node refuses them at the door.
func TestClusterBanHoldsOnEveryNode(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("2 embedded NATS nodes: about 10 s")
	}
	c := startTestCluster(t, 2)
	adminKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	for _, n := range c.nodes {
		n.srv.Moderation().SetAdmins(fixedAdmins{sshtest.Fingerprint(adminKey): true})
	}
	bob := sshtest.Dial(t, c.nodes[1].addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	bob.ExpectScreen(t, `bob`, 10*time.Second)

	out, status := runAdmin(t, c.nodes[0].addr, adminKey, "ban "+sshtest.Fingerprint(bobKey)+" 1h")
	if status != 0 {
		t.Fatalf("admin ban on node 1: status %d:\n%s", status, out)
	}
	bob.Wait(t, 10*time.Second)
	if why := leftClean(bob.Transcript(), "You are banned from this server for 1 hour"); why != "" {
		t.Errorf("bob's session on node 2: %s\n%s", why, bob.Text())
	}
	again := sshtest.Dial(t, c.nodes[1].addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	again.Expect(t, `You are banned from this server for 1 hour`, 5*time.Second)
	if status := again.Wait(t, 5*time.Second); status != 1 {
		t.Errorf("a banned reconnect to node 2 ended with status %d", status)
	}
}

type fixedAdmins map[string]bool

func (a fixedAdmins) IsAdmin(fp string) bool { return a[fp] }

// A banned player who is away gives up the seats they hold too: a waiting
// room frees theirs rather than keep it for someone who cannot come back.
func TestBanFreesTheSeatOfAnAbsentPlayer(t *testing.T) {
	t.Parallel()
	adminKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, t.TempDir(), adminsFile)
	bob := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	code := newTable(t, bob)
	bob.Close()
	r := srv.hub.Local(code)
	waitUntil(t, "bob to be away", func() bool { return !r.Summary().Seats[0].Connected })
	if out, status := runAdmin(t, addr, adminKey, "ban bob forever"); status != 0 {
		t.Fatalf("admin ban: %d\n%s", status, out)
	}
	waitUntil(t, "bob's seat to be freed", func() bool { return !slices.Contains(r.Summary().Players, sshtest.Fingerprint(bobKey)) })
}

// In plain mode too: a muted player's line is refused with until when, a
// notice is said, and a ban ends the session with its reason.
func TestPlainModeHearsTheAdmins(t *testing.T) {
	t.Parallel()
	adminKey, carlKey := sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	_, addr := startModerated(t, t.TempDir(), adminsFile)
	carl := dialPlain(t, addr, "carl", sshtest.WithKey(carlKey))
	carl.c.Type("new grizzled 3 2\r")
	expectRaw(t, carl.c, `Table [A-Z0-9]{4}`, 5*time.Second)
	if _, status := runAdmin(t, addr, adminKey, "mute carl 2h"); status != 0 {
		t.Fatal("mute refused")
	}
	carl.c.Type("say hello\r")
	expectRaw(t, carl.c, `You are muted for 2 hours, until`, 5*time.Second)
	if _, status := runAdmin(t, addr, adminKey, "say Closing soon"); status != 0 {
		t.Fatal("say refused")
	}
	expectRaw(t, carl.c, `Notice from the admins: Closing soon`, 5*time.Second)
	if _, status := runAdmin(t, addr, adminKey, "ban carl forever rude"); status != 0 {
		t.Fatal("ban refused")
	}
	expectRaw(t, carl.c, `You are banned from this server\. Reason: rude`, 5*time.Second)
	if status := carl.c.Wait(t, 5*time.Second); status != 1 {
		t.Errorf("the banned plain session ended with status %d, want 1", status)
	}
}
