package server

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// serverProcess is the server running as its own process.
type serverProcess struct {
	cmd  *exec.Cmd
	addr string
}

func startProcess(t *testing.T, dir string) *serverProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+dir)
	return &serverProcess{cmd: cmd, addr: sshtest.StartProcess(t, cmd)}
}

var (
	headerRe = regexp.MustCompile(`Mission \d+ · Trials \d+ · Morale \d+`)
)

// handCodes is the "Your hand" part of a Grizzled screen, up to the prompt
// line, with the cursor marks taken out: the cards, as the player sees them.
func handCodes(screen string) string {
	i := strings.Index(screen, "Your hand")
	if i < 0 {
		return ""
	}
	part := screen[i:]
	if j := strings.Index(part, "\n▸ "); j > 0 {
		part = part[:j]
	}
	return strings.ReplaceAll(part, "▸", " ")
}

// soldierRowShows reports whether name's row in a Grizzled screen's
// soldiers shows what (a hard knock's name). The row is the marks column
// (▶ whose move, ★ who leads), a space, then the name (the log's lines
// start with the name after two spaces), and the lines its hard knocks
// wrap onto, far indented. No such row fails the test.
func soldierRowShows(t *testing.T, screen, name, what string) bool {
	t.Helper()
	row := regexp.MustCompile(`(?m)^[▶★ ]{2} ` + regexp.QuoteMeta(name) + `\b.*(\n {20,}\S.*)*`).FindString(screen)
	if row == "" {
		t.Fatalf("no soldier row for %s:\n%s", name, screen)
	}
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(what) + `\b`).MatchString(row)
}

// settle waits until a client's screen stops changing for a moment.
func settle(c *sshtest.Client) string {
	last, since := c.Screen(), time.Now()
	for time.Since(since) < 400*time.Millisecond {
		time.Sleep(50 * time.Millisecond)
		if s := c.Screen(); s != last {
			last, since = s, time.Now()
		}
	}
	return last
}

func TestKilledServerLosesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dir := t.TempDir()
	aliceKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	srv := startProcess(t, dir)

	alice := sshtest.Dial(t, srv.addr, sshtest.WithKey(aliceKey), sshtest.WithUser("alice"))
	alice.ExpectScreen(t, `Bivouac`, 10*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, `New table`, 5*time.Second)
	alice.Type("jhh") // 2 players (with the chaplain)
	alice.Type("jj")
	alice.Type("h") // no bots: only the two of us
	alice.ExpectScreen(t, `Bots\s+◂ none ▸`, 5*time.Second)
	alice.Type("\r")
	code := alice.ExpectScreen(t, `Table ([A-Z0-9]{4})`, 5*time.Second)[1]
	bob := sshtest.Dial(t, srv.addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithCommand("join "+code))
	bob.ExpectScreen(t, `bob \(you\)`, 10*time.Second)
	alice.Type("s")
	alice.ExpectScreen(t, `Mission 1`, 5*time.Second)

	// Play a few moves so the log has some length: the leader deals, then
	// both act once or twice.
	bob.ExpectScreen(t, `Mission 1`, 5*time.Second)
	for moves := 0; moves < 3; {
		for _, c := range []*sshtest.Client{alice, bob} {
			if k := playerMove(helpBar(settle(c))); k != "" {
				c.Type(k)
				moves++
			}
		}
	}
	// And say something: table talk is kept like moves. A soldier with
	// the hard knock Mute (H08) in front of them may not speak, and the
	// deal decides whether alice played it above: then bob speaks.
	bobSpeaks := soldierRowShows(t, settle(alice), "alice", "Mute")
	speaker, listener, said := alice, bob, "alice: “hold the line”"
	if bobSpeaks {
		speaker, listener, said = bob, alice, "bob: “hold the line”"
		t.Log("alice played Mute: bob speaks")
	}
	speaker.Type("t")
	speaker.ExpectScreen(t, `> say something`, 5*time.Second)
	speaker.Type("hold the line\r")
	listener.ExpectScreen(t, said, 5*time.Second)
	beforeA, beforeB := settle(alice), settle(bob)
	handA, handB := handCodes(beforeA), handCodes(beforeB)
	header := headerRe.FindString(beforeA)
	// Both hand panels are on screen (what they show varies with the deal
	// and the moment: codes, names, or a leader's question between missions).
	if !strings.Contains(handA, "Your hand") || !strings.Contains(handB, "Your hand") || header == "" {
		t.Fatalf("nothing to compare:\n%s\n--- bob ---\n%s", beforeA, beforeB)
	}

	// kill -9: no shutdown, no flush beyond what every action already did.
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	alice.Close()
	bob.Close()

	srv2 := startProcess(t, dir)
	back := func(key gossh.Signer, user string) *sshtest.Client {
		c := sshtest.Dial(t, srv2.addr, sshtest.WithKey(key), sshtest.WithUser(user))
		c.ExpectScreen(t, `Your hand`, 10*time.Second) // straight back at the table
		return c
	}
	alice, bob = back(aliceKey, "alice"), back(bobKey, "bob")
	afterA, afterB := settle(alice), settle(bob)
	heard := afterB
	if bobSpeaks {
		heard = afterA
	}
	if !strings.Contains(heard, said) {
		t.Errorf("the table talk was lost in the crash:\n%s", heard)
	}
	if got := headerRe.FindString(afterA); got != header {
		t.Errorf("piles after restart %q, before %q", got, header)
	}
	if handCodes(afterA) != handA || handCodes(afterB) != handB {
		t.Errorf("hands after restart:\n%s\n%s\nbefore:\n%s\n%s", handCodes(afterA), handCodes(afterB), handA, handB)
	}
	turn := func(s string) string { return regexp.MustCompile(`▶\S*\s+(\S+)`).FindString(s) }
	if turn(afterA) != turn(beforeA) {
		t.Errorf("turn after restart %q, before %q", turn(afterA), turn(beforeA))
	}

	// And the game plays on to its end.
	done := make(chan string, 2)
	go play(t, alice, done)
	go play(t, bob, done)
	for i := 0; i < 2; i++ {
		if end := <-done; !gameOverRe.MatchString(end) {
			t.Fatalf("the restored game did not finish:\n%s", end)
		}
	}
}

func TestSecondServerOnTheSameDataIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	start := time.Now()
	_, err = New(Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second server: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("the second server hung instead of failing")
	}
}

func TestForeignDatabaseFileIsRefusedAndKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "bivouac.db")
	junk := []byte("this is not a database, it is a shopping list\n")
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err == nil {
		t.Fatal("a foreign file was accepted")
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(junk) {
		t.Fatal("the foreign file was changed")
	}
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("unexpected error kind: %v", err)
	}
}

// serveEnv, set to a data directory, makes the test binary a server process
// on that directory (see TestMain): the process the crash test kills.
const serveEnv = "BIVOUAC_TEST_SERVE"

// wideParallel lets more parallel tests run at once than -parallel's
// default of GOMAXPROCS, unless -parallel was given: this package's tests
// spend their time waiting on SSH sessions, timers and NATS, not on a CPU
// (12 s of CPU in a minute without the race detector). Under it each
// test needs several times the CPU, so fewer run at once (parallelRace).
func wideParallel() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(max(parallelTests, 4*runtime.GOMAXPROCS(0))))
	}
}

// TestMain runs the tests, or, with serveEnv set, serves until killed.
func TestMain(m *testing.M) {
	dir := os.Getenv(serveEnv)
	if dir == "" {
		flag.Parse()
		wideParallel()
		os.Exit(m.Run())
	}
	cfg := Config{Addr: "127.0.0.1:0", DataDir: dir, Guests: true}
	if raw := os.Getenv(clusterEnv); raw != "" { // a node of a cluster (freeze_test.go)
		cfg.Cluster = new(node.Config)
		if err := json.Unmarshal([]byte(raw), cfg.Cluster); err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
			os.Exit(1)
		}
	}
	if err := testProcessConfig(&cfg); err != nil { // e2e_corr_test.go
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
	srv, err := New(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
	if cfg.Cluster != nil { // its /readyz, for the cluster tests
		ops, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
			os.Exit(1)
		}
		go func() { _ = http.Serve(ops, srv.OpsHandler()) }()
		fmt.Printf("operator's endpoints on %s\n", ops.Addr())
	}
	fmt.Printf("Bivouac is listening on %s\n", l.Addr())
	if err := srv.Serve(l); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
