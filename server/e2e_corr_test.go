package server

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"

	gossh "golang.org/x/crypto/ssh"
)

// hook is a webhook receiver on loopback that keeps what it was sent.
type hook struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []posted
	host string // 127.0.0.1:PORT
}

type posted struct {
	path   string
	query  string
	header http.Header
	body   string
	at     time.Time
}

func newHook(t *testing.T) *hook {
	h := &hook{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		h.mu.Lock()
		h.got = append(h.got, posted{path: r.URL.Path, query: r.URL.RawQuery, header: r.Header.Clone(), body: string(body), at: time.Now()})
		h.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(h.srv.Close)
	h.host = h.srv.Listener.Addr().String()
	return h
}

// to is what path was sent.
func (h *hook) to(path string) []posted {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []posted
	for _, p := range h.got {
		if p.path == path {
			out = append(out, p)
		}
	}
	return out
}

// command runs `ssh host CMD` without a terminal as the key's player and
// returns what it printed and its exit status.
func command(t *testing.T, addr string, key gossh.Signer, user, cmd string) (string, int) {
	t.Helper()
	c := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser(user), sshtest.WithoutPTY(), sshtest.WithCommand(cmd))
	code := c.Wait(t, 10*time.Second)
	c.Close() // not at cleanup: a test polling with commands would reach the per-address limit
	return string(c.Transcript()), code
}

// Issue 40 over real SSH: two keyed players, a Grizzled table by
// correspondence (an hour a decision, on a clock 240 times faster than the
// wall's), webhooks on a loopback receiver the operator lists. The player
// the table waits on, away, gets one ntfy message within 5 s, nothing
// more within the bundling interval, then the reminder; `ssh host games`
// says whose move it is; the deadline passes and a stand-in decides once.
// Addresses a player may not point the server at are refused, each with
// its reason.
func TestCorrespondenceTableNotifiesAnAwayPlayer(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	fast := clocktest.NewFast(240) // an hour in 15 s
	srv, addr := startGameServerWith(t, "a correspondence game over SSH", func(c *Config) {
		hosts, err := notify.ParseHosts("http://" + h.host)
		if err != nil {
			t.Fatal(err)
		}
		c.Notify, c.tableClock = notify.Policy{On: true, Hosts: hosts}, fast
	})
	annKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)

	for _, refused := range []struct{ url, why string }{
		{"http://169.254.169.254/latest/meta-data", "cloud metadata address: refused"},
		{"https://10.0.0.1/hook", "private network address: refused"},
		{"https://[::1]/hook", "this server itself: refused"},
		{"https://hooks.example.com/x", "hooks.example.com is not a host this server sends to"},
		{"http://ntfy.sh/topic", "not a host this server sends to"},
	} {
		out, code := command(t, addr, annKey, "ann", "notify "+refused.url)
		if code != 1 || !strings.Contains(out, refused.why) {
			t.Errorf("notify %s: exit %d, %q; want exit 1 and %q", refused.url, code, out, refused.why)
		}
	}
	for _, p := range []struct {
		key  gossh.Signer
		user string
	}{{annKey, "ann"}, {bobKey, "bob"}} {
		out, code := command(t, addr, p.key, p.user, "notify http://"+h.host+"/"+p.user)
		if code != 0 || !strings.Contains(out, "Webhook: http://"+h.host+"/… (ntfy)") || strings.Contains(out, "/"+p.user+" ") {
			t.Fatalf("notify for %s: exit %d, %q", p.user, code, out)
		}
	}

	ann, made := newCorrTable(t, addr, annKey)
	code := []string{"", made}
	bob := dialPlain(t, addr, "bob", sshtest.WithKey(bobKey))
	bob.do("join " + code[1])
	bob.do("leave") // to the lobby: the seat stays his

	bobID := sshtest.Fingerprint(bobKey)
	summary := func() table.Summary {
		for _, r := range srv.hub.List() {
			if r.Code == code[1] {
				return r
			}
		}
		t.Fatalf("table %s is gone", code[1])
		return table.Summary{}
	}
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 10*time.Second)
	// ann moves until the table waits on bob
	seen := 0
	clocktest.CheckFor(t, 30*time.Second, 20*time.Millisecond, func() error {
		if slices.Contains(summary().Waiting, bobID) {
			return nil
		}
		if ann.asked(&seen) {
			ann.move()
		}
		return fmt.Errorf("the table never waited on bob: %+v", summary())
	})
	// bob, in the lobby, hears it is his move there, with the bell; his
	// webhook waits while he is connected.
	bob.c.Expect(t, `Your move at `+code[1]+`: The Grizzled`, 5*time.Second)
	if !strings.Contains(string(bob.c.Transcript()), "\a") {
		t.Errorf("no bell with the notice")
	}
	if n := len(h.to("/bob")); n != 0 {
		t.Errorf("bob, connected, was sent %d messages", n)
	}
	bob.c.Close() // away now
	waitingSince := time.Now()
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if len(h.to("/bob")) == 0 {
			h.mu.Lock()
			defer h.mu.Unlock()
			return fmt.Errorf("no message to bob within 5 s (outbox %d, sent %d, here %v, summary %+v)", srv.outbox.Len(), len(h.got), srv.notices.Here(bobID), summary())
		}
		return nil
	})
	first := h.to("/bob")[0]
	if first.query != "" || strings.Contains(first.path, code[1]) {
		t.Errorf("the table's code went out in the URL: %s?%s", first.path, first.query)
	}
	if got := first.header.Get("Title"); !strings.Contains(got, "Your move: The Grizzled") {
		t.Errorf("Title %q", got)
	}
	_, port, _ := net.SplitHostPort(addr)
	host := srv.app.JoinHint[strings.LastIndexByte(srv.app.JoinHint, ' ')+1:] // ssh -p PORT host
	if got := first.header.Get("Click"); got != "ssh://"+host+":"+port {
		t.Errorf("Click %q", got)
	}
	if !strings.Contains(first.body, "ssh -t -p "+port+" "+host+" join "+code[1]) || !strings.Contains(first.body, "minutes left") {
		t.Errorf("body %q", first.body)
	}

	out, status := command(t, addr, bobKey, "bob", "games")
	if status != 0 || !regexp.MustCompile(`(?m)^`+code[1]+`\tmove\t\d{4}-\d\d-\d\dT[0-9:]+Z\tcorr/1h\t`).MatchString(out) {
		t.Errorf("bob's games: exit %d, %q", status, out)
	}
	out, status = command(t, addr, annKey, "ann", "games")
	if status != 0 || !strings.Contains(out, code[1]+"\twait\t") {
		t.Errorf("ann's games: exit %d, %q", status, out)
	}

	// Within the bundling interval nothing more goes out; the reminder
	// comes with a quarter of the hour left (45 min: 11 s of wall time).
	clocktest.CheckFor(t, 20*time.Second, 20*time.Millisecond, func() error {
		if got := h.to("/bob"); len(got) < 2 {
			return fmt.Errorf("no reminder: %d messages", len(got))
		}
		return nil
	})
	second := h.to("/bob")[1]
	if gap := fast.Factor * int(second.at.Sub(waitingSince)/time.Second); gap < int(notify.Bundle/time.Second) {
		t.Errorf("a second message %d s (fast) after the first, within the %v bundle", gap, notify.Bundle)
	}
	if second.header.Get("Priority") != "high" || !strings.Contains(second.header.Get("Title"), "Deadline near") {
		t.Errorf("the second message is not the reminder: %v %q", second.header, second.body)
	}
	if len(h.to("/ann")) != 0 {
		t.Errorf("ann, at the table, was sent %d messages", len(h.to("/ann")))
	}

	// The hour passes: bob's stand-in decides, once.
	clocktest.CheckFor(t, 20*time.Second, 20*time.Millisecond, func() error {
		if slices.Contains(summary().Waiting, bobID) && summary().Deadline.Sub(fast.Now()) > 0 && len(h.to("/bob")) == 2 {
			return fmt.Errorf("still waiting on bob until %v (now %v)", summary().Deadline, fast.Now())
		}
		return nil
	})
	if !strings.Contains(ann.text(), "bob") {
		t.Errorf("ann never read of bob:\n%s", ann.text())
	}
	out, status = command(t, addr, bobKey, "bob", "notify test")
	if status != 0 || !strings.Contains(out, "Sent: the webhook answered 200 OK") {
		t.Errorf("notify test: exit %d, %q", status, out)
	}
	out, status = command(t, addr, bobKey, "bob", "notify off")
	if status != 0 || !strings.Contains(out, "Notifications off") {
		t.Errorf("notify off: exit %d, %q", status, out)
	}
}

// newCorrTable has ann (plain mode) open a two-player Grizzled table by
// correspondence, an hour a decision, and returns her session and its code.
func newCorrTable(t *testing.T, addr string, annKey gossh.Signer) (*plainPlayer, string) {
	t.Helper()
	ann := dialPlain(t, addr, "ann", sshtest.WithKey(annKey))
	ann.answer("new grizzled", "Players")
	ann.answer("1", "Rules") // two players
	ann.answer("", "Bots")
	ann.answer("", "Bot seats")
	ann.answer("", "Private")
	ann.answer("", "Pace")
	made := strings.Join(ann.do("4"), "\n") // by correspondence: an hour a move
	if strings.Contains(made, "Hints") {
		made = strings.Join(ann.do(""), "\n")
	}
	code := regexp.MustCompile(`Table ([A-Z0-9]{4,}):`).FindStringSubmatch(made)
	if code == nil {
		t.Fatalf("no table made: %q", made)
	}
	return ann, code[1]
}

// bobAwayAtCorrTable: on the server at addr, bob sets his webhook to url,
// ann opens a correspondence table (newCorrTable), bob sits at it and goes
// away, ann starts it and moves until waiting says the table waits on bob.
func bobAwayAtCorrTable(t *testing.T, addr, url string, waiting func() bool) (*plainPlayer, string, gossh.Signer) {
	t.Helper()
	annKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	if out, code := command(t, addr, bobKey, "bob", "notify "+url); code != 0 {
		t.Fatalf("notify: exit %d, %q", code, out)
	}
	ann, code := newCorrTable(t, addr, annKey)
	bob := dialPlain(t, addr, "bob", sshtest.WithKey(bobKey))
	bob.do("join " + code)
	bob.c.Close()
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 10*time.Second)
	seen := 0
	clocktest.CheckFor(t, 30*time.Second, 20*time.Millisecond, func() error {
		if waiting() {
			return nil
		}
		if ann.asked(&seen) {
			ann.move()
		}
		return fmt.Errorf("the table never waited on bob")
	})
	return ann, code, bobKey
}

// untilWaitingOn has ann move until the table waits on the player id.
func untilWaitingOn(t *testing.T, ann *plainPlayer, srv *Server, code, id string) {
	t.Helper()
	seen := 0
	clocktest.CheckFor(t, 30*time.Second, 20*time.Millisecond, func() error {
		for _, r := range srv.hub.List() {
			if r.Code == code && slices.Contains(r.Waiting, id) {
				return nil
			}
		}
		if ann.asked(&seen) {
			ann.move()
		}
		return fmt.Errorf("the table never waited on %s", id)
	})
}

// The server process's test settings (TestMain, serveEnv): a fast clock
// from a start both processes share, and notifications to a receiver.
const (
	clockEnv  = "BIVOUAC_TEST_CLOCK"  // UNIX-NANOS,FACTOR
	notifyEnv = "BIVOUAC_TEST_NOTIFY" // http://127.0.0.1:PORT
)

func testProcessConfig(cfg *Config) error {
	if v := os.Getenv(clockEnv); v != "" {
		var nanos int64
		var factor int
		if _, err := fmt.Sscanf(v, "%d,%d", &nanos, &factor); err != nil {
			return fmt.Errorf("%s: %w", clockEnv, err)
		}
		cfg.tableClock = clocktest.NewFastFrom(time.Unix(0, nanos), factor)
	}
	if v := os.Getenv(notifyEnv); v != "" {
		hosts, err := notify.ParseHosts(v)
		if err != nil {
			return err
		}
		cfg.Notify = notify.Policy{On: true, Hosts: hosts}
	}
	return nil
}

// startProcessWith is startProcess with more environment.
func startProcessWith(t *testing.T, dir string, env ...string) *serverProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), serveEnv+"="+dir), env...)
	return &serverProcess{cmd: cmd, addr: sshtest.StartProcess(t, cmd)}
}

func (p *serverProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// gamesLine is the player's `ssh host games` line for code ("" if none).
func gamesLine(t *testing.T, addr string, key gossh.Signer, user, code string) string {
	t.Helper()
	out, status := command(t, addr, key, user, "games")
	if status != 0 {
		t.Fatalf("games: exit %d, %q", status, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, code+"\t") {
			return strings.TrimRight(l, "\r")
		}
	}
	return ""
}

// deadlineOf is a games line's deadline column.
func deadlineOf(line string) string {
	if f := strings.Split(line, "\t"); len(f) > 2 {
		return f[2]
	}
	return ""
}

// A correspondence deadline outlives its server: the server is killed
// (kill -9) while the table waits on an away player, another process on
// the same data comes up on the same (fast) clock, and the deadline fires
// there, once: the log holds one late stand-in decision, and a third
// process restored after it adds none.
func TestCorrespondenceDeadlineFiresOnceAfterKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("server processes killed and started")
	}
	t.Parallel()
	h := newHook(t)
	dir := t.TempDir()
	env := []string{fmt.Sprintf("%s=%d,%d", clockEnv, time.Now().UnixNano(), 240), notifyEnv + "=http://" + h.host}
	p1 := startProcessWith(t, dir, env...)
	ann, code, bobKey := bobAwayAtCorrTable(t, p1.addr, "http://"+h.host+"/bob", func() bool { return len(h.to("/bob")) > 0 })
	before := gamesLine(t, p1.addr, bobKey, "bob", code)
	if !strings.Contains(before, "\tmove\t") {
		t.Fatalf("bob's games line: %q", before)
	}
	ann.c.Close()
	p1.kill(t)

	p2 := startProcessWith(t, dir, env...)
	clocktest.CheckFor(t, 40*time.Second, 200*time.Millisecond, func() error {
		// "": not restored yet. The deadline, not the state, says the stand-in
		// decided: a table just restored may list whom it waits on a moment
		// after its deadline.
		if now := gamesLine(t, p2.addr, bobKey, "bob", code); now == "" || deadlineOf(now) == deadlineOf(before) {
			return fmt.Errorf("bob's deadline has not passed: %q", now)
		}
		return nil
	})
	t.Logf("before the kill: %q; after: %q", before, gamesLine(t, p2.addr, bobKey, "bob", code))
	p2.kill(t)
	p3 := startProcessWith(t, dir, env...)
	if gamesLine(t, p3.addr, bobKey, "bob", code) == "" {
		t.Fatalf("the table is gone after a restart")
	}
	p3.kill(t)

	store, err := persistence.Open(filepath.Join(dir, DatabaseFile), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	saved, err := persistence.Journal{Store: store}.Restorable()
	if err != nil {
		t.Fatal(err)
	}
	late := -1
	for _, sr := range saved {
		if sr.Record.Code != code {
			continue
		}
		late = 0
		for _, raw := range sr.Log {
			e, err := table.DecodeEntry(raw)
			if err != nil {
				t.Fatal(err)
			}
			if e.Late {
				late++
				if e.Seat != 1 {
					t.Errorf("a late decision for seat %d, not bob's", e.Seat)
				}
			}
		}
	}
	if late != 1 {
		t.Errorf("%d late decisions for bob's deadline, want 1", late)
	}
}

// Werewolves by correspondence over SSH: days of 4 hours and nights of 2
// (on a clock 3,600 times faster than the wall's), one keyed player who
// never acts and seven bots. The game plays through a night and a day
// by the deadlines alone: the player's ballots not cast are abstentions.
func TestWerewolvesByCorrespondencePlayANightAndADay(t *testing.T) {
	t.Parallel()
	srv, addr := startGameServerWith(t, "a werewolf day over SSH", func(c *Config) {
		c.tableClock = clocktest.NewFast(3600) // a 4-hour day in 4 s
	})
	srv.app.NewSeed = func() uint64 { return 1 } // seat 1 is a simple villager
	vic := dialPlain(t, addr, "vic")
	vic.answer("new werewolf", "Players")
	vic.answer("", "Cards")
	vic.answer("", "Timers")
	vic.answer("4", "Bots") // by correspondence: 4 h days, 2 h nights
	vic.answer("", "Bot seats")
	vic.answer("8", "Private") // seven bots
	vic.answer("", "Stand-ins")
	vic.do("2") // stand-ins: yes
	vic.c.Expect(t, `1\. vic \(you\)`, 5*time.Second)
	sum := srv.app.Hub.List()[0]
	if !sum.Pace.Correspondence {
		t.Fatalf("the table is not by correspondence: %+v", sum)
	}
	vic.do("start")
	vic.c.Expect(t, `Night 1 falls`, 10*time.Second)
	vic.c.Expect(t, `Day 1 dawns`, 30*time.Second)
	vic.c.Expect(t, `Night 2 falls|GAME OVER`, 60*time.Second)
	st := replayState(t, srv, sum.Code, werewolf.Game{}).(*werewolf.State)
	for _, v := range st.Votes {
		for _, b := range v.Ballots {
			if b.Voter == 0 && b.Target >= 0 {
				t.Errorf("vic, who never voted, has a ballot for %d", b.Target)
			}
		}
	}
	noEscapes(t, vic)
}

func TestClientZone(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"LANG=pl_PL.UTF-8", "TZ=Europe/Warsaw"}, "Europe/Warsaw"},
		{[]string{"TZ=:Europe/Moscow"}, "Europe/Moscow"},
		{[]string{"TZ=UTC"}, ""},
		{[]string{"TZ=Mars/Olympus"}, ""},
		{[]string{"TZ=../../etc/passwd"}, ""},
		{nil, ""},
	} {
		if got := clientZone(c.env); got != c.want {
			t.Errorf("clientZone(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}

// A webhook set from a terminal in Russian speaks Russian: the language
// came from the client's LANG, which no profile keeps, and the messages
// went out in English. `notify test` from an English terminal later
// still sends Russian (the webhook's language is the one it was set in).
func TestAWebhookSpeaksTheLanguageItWasSetIn(t *testing.T) {
	t.Parallel()
	h := newHook(t)
	_, addr := startGameServerWith(t, "a webhook in Russian", func(c *Config) {
		hosts, err := notify.ParseHosts("http://" + h.host)
		if err != nil {
			t.Fatal(err)
		}
		c.Notify = notify.Policy{On: true, Hosts: hosts}
	})
	key := sshtest.NewKey(t)
	c := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser("vera"), sshtest.WithoutPTY(),
		sshtest.WithEnv("LANG", "ru_RU.UTF-8"), sshtest.WithCommand("notify http://"+h.host+"/vera"))
	if code := c.Wait(t, 10*time.Second); code != 0 {
		t.Fatalf("notify URL in Russian: exit %d, %q", code, c.Transcript())
	}
	c.Close()
	if out, code := command(t, addr, key, "vera", "notify test"); code != 0 {
		t.Fatalf("notify test: exit %d, %q", code, out)
	}
	got := h.to("/vera")
	if len(got) != 1 {
		t.Fatalf("%d messages, want 1", len(got))
	}
	want := i18n.For(i18n.Russian).T("notify.msg.test", game.Text("Server", "Bivouac"))
	if !strings.Contains(got[0].body, want) {
		t.Errorf("the test message %q, want %q", got[0].body, want)
	}
}
