package sshserver

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"
	gossh "golang.org/x/crypto/ssh"
)

const wait = 5 * time.Second

// whoModel shows who the session belongs to and its window size; q quits,
// p panics in Update.
type whoModel struct {
	id   Identity
	w, h int
}

func (m whoModel) Init() tea.Cmd { return nil }

func (m whoModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		switch msg.String() {
		case "q":
			return m, tea.Quit
		case "p":
			panic("boom in Update")
		}
	}
	return m, nil
}

func (m whoModel) View() string {
	return fmt.Sprintf("who %s\nguest=%v code=%q user=%q\nsize %dx%d\n",
		m.id.ID, m.id.Guest, m.id.Code, m.id.User, m.w, m.h)
}

func testPrograms(ctx context.Context, s ssh.Session) *tea.Program {
	if s.User() == "panic-program" {
		panic("boom in Programs")
	}
	id, ok := IdentityOf(s)
	if !ok {
		panic("program without identity")
	}
	opts := append(bm.MakeOptions(s), tea.WithContext(ctx), tea.WithAltScreen())
	return tea.NewProgram(whoModel{id: id}, opts...)
}

func testCommand(s ssh.Session, args []string) int {
	switch args[0] {
	case "rooms":
		id, _ := IdentityOf(s)
		fmt.Fprintf(s, "no rooms yet, %s\n", id.ID)
		return 0
	case "fail":
		fmt.Fprintln(s.Stderr(), "failing as asked")
		return 3
	case "env":
		fmt.Fprintf(s, "%d vars: %s\n", len(s.Environ()), strings.Join(s.Environ(), " "))
		return 0
	case "panic":
		panic("boom in Command")
	case "flood":
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		for {
			if _, err := s.Write(chunk); err != nil {
				return 1
			}
			flooded.Add(int64(len(chunk)))
		}
	}
	fmt.Fprintf(s.Stderr(), "unknown command %q\n", args[0])
	return 2
}

var flooded atomic.Int64

type testServer struct {
	*Server
	addr string
	logs *sshtest.Buffer
}

func start(t *testing.T, cfg Config, deps ...Deps) *testServer {
	t.Helper()
	return startTuned(t, cfg, nil, deps...)
}

// startTuned is start with a hook to set unexported knobs before Serve.
func startTuned(t *testing.T, cfg Config, tune func(*Server), deps ...Deps) *testServer {
	t.Helper()
	keyPath, _, err := hostkeys.Ensure(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.HostKeyPath = keyPath
	d := Deps{Programs: testPrograms, Command: testCommand}
	if len(deps) > 0 {
		d = deps[0]
	}
	logs := &sshtest.Buffer{}
	d.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := New(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	if tune != nil {
		tune(srv)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	return &testServer{Server: srv, addr: sshtest.Start(t, srv), logs: logs}
}

func TestKeyPlayerGetsProgramWithVerifiedFingerprint(t *testing.T) {
	srv := start(t, Config{})
	key := sshtest.NewKey(t)
	c := sshtest.Dial(t, srv.addr, sshtest.WithKey(key), sshtest.WithUser("Zażółć"), sshtest.WithPTY(80, 24))
	m := c.ExpectScreen(t, `who (SHA256:\S+)\nguest=false code="" user="(.*)"\nsize 80x24`, wait)
	if m[1] != sshtest.Fingerprint(key) {
		t.Errorf("identity %s, want the key's %s", m[1], sshtest.Fingerprint(key))
	}
	if m[2] != "Zażółć" {
		t.Errorf("user %q", m[2])
	}
	c.Resize(100, 30)
	c.ExpectScreen(t, `size 100x30`, wait)
	c.Type("q")
	if code := c.Wait(t, wait); code != 0 {
		t.Errorf("exit status %d", code)
	}
	logs := srv.logs.String()
	for _, want := range []string{"connect", "disconnect", "duration", sshtest.Fingerprint(key)} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

func TestUserNameIsSanitised(t *testing.T) {
	srv := start(t, Config{})
	c := sshtest.Dial(t, srv.addr, sshtest.WithUser("evil\x1b[2J\u202ename"))
	c.ExpectScreen(t, `user="evilname"`, wait)
}

func TestGuestGetsCodeAndReclaimsIt(t *testing.T) {
	srv := start(t, Config{AllowGuests: true})
	a := sshtest.Dial(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser("alice"))
	m := a.ExpectScreen(t, `who (guest:\S+)\nguest=true code="(\S+)" user="alice"`, wait)
	id, code := m[1], m[2]
	if id != GuestID(code) || strings.Contains(id, code) {
		t.Fatalf("ID %s for code %s: want the code's hash, with no trace of it", id, code)
	}
	if len(code) != GuestCodeLen {
		t.Fatalf("code %q is not a reclaim code", code)
	}
	a.Close()

	b := sshtest.Dial(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser(FormatGuestCode(code)))
	b.ExpectScreen(t, `who `+id+`\nguest=true code="`+code+`" user=""`, wait)
	up := sshtest.Dial(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser("G-"+code))
	up.ExpectScreen(t, `who `+id+`\n`, wait)

	other := sshtest.Dial(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser("bob"))
	m = other.ExpectScreen(t, `who (guest:\S+)`, wait)
	if m[1] == id {
		t.Fatal("two guests got the same code")
	}
	if logs := srv.logs.String(); strings.Contains(strings.ToUpper(logs), code) {
		t.Errorf("the reclaim code is in the server log:\n%s", logs)
	}
}

// Names that merely look like codes are first logins: two keyless people
// called kate22 are two guests (issue 12 item 6).
func TestCodeLikeUserNamesAreFirstLogins(t *testing.T) {
	srv := start(t, Config{AllowGuests: true})
	var ids []string
	for range 2 {
		c := sshtest.Dial(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser("kate22"))
		ids = append(ids, c.ExpectScreen(t, `who (guest:\S+)\nguest=true code="\S+" user="kate22"`, wait)[1])
		c.Close()
	}
	if ids[0] == ids[1] {
		t.Fatalf("two keyless kate22 logins share the identity %s", ids[0])
	}
}

// A made-up code gets nobody's seat, and wrong guesses from one address
// make it wait longer and longer (issue 12 item 7).
func TestWrongGuestCodesAreRefusedAndSlowed(t *testing.T) {
	srv := start(t, Config{AllowGuests: true})
	guess := FormatGuestCode(NewGuestCode())
	start := time.Now()
	if c, err := sshtest.DialE(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser(guess)); err == nil {
		c.Close()
		t.Fatal("an unknown reclaim code logged in")
	}
	if first := time.Since(start); first < GuessBase/2 {
		t.Errorf("a wrong code was refused after %v, without a delay", first)
	}
	// A second wrong guess (as from a parallel connection) waits twice as
	// long: the first one was counted.
	if w := srv.Guesses().Wrong("127.0.0.1"); w != 2*GuessBase {
		t.Fatalf("the second wrong guess waits %v, want %v", w, 2*GuessBase)
	}
	// While the address must wait, even a right code is refused.
	a := sshtest.Dial(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser("alice"))
	code := a.ExpectScreen(t, `code="(\S+)"`, wait)[1]
	if c, err := sshtest.DialE(t, srv.addr, sshtest.AsGuest(), sshtest.WithUser(FormatGuestCode(code))); err == nil {
		c.Close()
		t.Fatal("a guess went through while the address had to wait")
	}
}

func TestGuessesGrowAndAreForgotten(t *testing.T) {
	now := time.Unix(1e9, 0)
	g := NewGuesses(func() time.Time { return now })
	var waits []time.Duration
	for range 12 {
		waits = append(waits, g.Wrong("192.0.2.1:5000"))
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] < waits[i-1] || waits[i] > GuessMax {
			t.Fatalf("waits %v do not grow up to %v", waits, GuessMax)
		}
	}
	if waits[0] != GuessBase || waits[len(waits)-1] != GuessMax {
		t.Fatalf("waits %v: want %v first and %v at the end", waits, GuessBase, GuessMax)
	}
	if w := g.Wait("192.0.2.1"); w != GuessMax {
		t.Errorf("same address without port waits %v", w)
	}
	if w := g.Wait("[2001:db8::1]:22"); w != 0 {
		t.Errorf("another address waits %v", w)
	}
	g.Wrong("2001:db8::1")
	if w := g.Wait("[2001:db8::ffff]:9"); w != GuessBase {
		t.Errorf("the same IPv6 /64 waits %v, want %v", w, GuessBase)
	}
	now = now.Add(GuessForget + time.Second)
	if w := g.Wait("192.0.2.1"); w != 0 {
		t.Errorf("after an hour without guesses the address still waits %v", w)
	}
	for i := range guessEntries + 50 {
		g.Wrong(fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
	}
	if n := len(g.by); n > guessEntries {
		t.Errorf("%d addresses remembered, the bound is %d", n, guessEntries)
	}
}

func TestGuestsRefusedWhenNotAllowed(t *testing.T) {
	srv := start(t, Config{AllowGuests: false})
	if c, err := sshtest.DialE(t, srv.addr, sshtest.AsGuest()); err == nil {
		c.Close()
		t.Fatal("keyless login accepted with AllowGuests false")
	}
}

// maliciousSigner offers one public key but signs with another private key.
type maliciousSigner struct {
	offered gossh.PublicKey
	signer  gossh.Signer
}

func (m maliciousSigner) PublicKey() gossh.PublicKey { return m.offered }
func (m maliciousSigner) Sign(r io.Reader, data []byte) (*gossh.Signature, error) {
	return m.signer.Sign(r, data)
}

func TestMaliciousSignerNeverGetsTheOfferedIdentity(t *testing.T) {
	srv := start(t, Config{})
	victim := sshtest.NewKey(t) // its public key is all the attacker has
	attacker := sshtest.NewKey(t)
	evil := maliciousSigner{offered: victim.PublicKey(), signer: attacker}

	if c, err := sshtest.DialE(t, srv.addr, sshtest.WithKey(evil)); err == nil {
		c.Close()
		t.Fatal("a client that cannot sign for the offered key was let in")
	}

	// Offer the victim's key first, then fall back to the attacker's own:
	// if anything gets in, it must be as the attacker.
	c, err := sshtest.DialE(t, srv.addr, sshtest.WithKey(evil, attacker))
	if err != nil {
		return // refused outright: fine
	}
	m := c.ExpectScreen(t, `who (SHA256:\S+)`, wait)
	if m[1] != sshtest.Fingerprint(attacker) {
		t.Fatalf("got identity %s; attacker is %s, victim %s", m[1],
			sshtest.Fingerprint(attacker), sshtest.Fingerprint(victim))
	}
}

// fakeSession is just enough of ssh.Session for identify.
type fakeSession struct {
	ssh.Session
	key   ssh.PublicKey
	perms ssh.Permissions
	user  string
}

func (f fakeSession) PublicKey() ssh.PublicKey     { return f.key }
func (f fakeSession) Permissions() ssh.Permissions { return f.perms }
func (f fakeSession) User() string                 { return f.user }
func (f fakeSession) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 5555}
}

func perms(kv ...string) ssh.Permissions {
	p := &gossh.Permissions{Extensions: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		p.Extensions[kv[i]] = kv[i+1]
	}
	return ssh.Permissions{Permissions: p}
}

func TestIdentifyReverifiesTheKey(t *testing.T) {
	a, b := sshtest.NewKey(t).PublicKey(), sshtest.NewKey(t).PublicKey()
	fa, fb := gossh.FingerprintSHA256(a), gossh.FingerprintSHA256(b)
	tests := []struct {
		name   string
		s      fakeSession
		guests bool
		want   string // ID, or "" for refused
	}{
		{"verified key", fakeSession{key: a, perms: perms(extOffered, fa, extVerified, fa)}, false, fa},
		{"offered B, session key A", fakeSession{key: a, perms: perms(extOffered, fb, extVerified, fa)}, false, ""},
		{"verified B, session key A", fakeSession{key: a, perms: perms(extOffered, fa, extVerified, fb)}, false, ""},
		{"offered but never verified", fakeSession{key: a, perms: perms(extOffered, fa)}, false, ""},
		{"key plus guest record", fakeSession{key: a, perms: perms(extOffered, fa, extVerified, fa, extGuest, "K7QX2MK7QX2M")}, true, ""},
		{"key records without a key", fakeSession{perms: perms(extOffered, fa, extVerified, fa)}, true, ""},
		{"guest", fakeSession{perms: perms(extGuest, "K7QX2MK7QX2M")}, true, GuestID("K7QX2MK7QX2M")},
		{"guest when not allowed", fakeSession{perms: perms(extGuest, "K7QX2MK7QX2M")}, false, ""},
		{"old short guest code", fakeSession{perms: perms(extGuest, "K7QX2M")}, true, ""},
		{"bad guest code", fakeSession{perms: perms(extGuest, "nope")}, true, ""},
		{"nothing at all", fakeSession{perms: ssh.Permissions{}}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.user = "u"
			id, err := identify(tt.s, tt.guests, SecretUser)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("accepted as %+v", id)
				}
				return
			}
			if err != nil || id.ID != tt.want || id.RemoteIP != "192.0.2.7" {
				t.Fatalf("identify = %+v, %v; want %s", id, err, tt.want)
			}
		})
	}
}

func TestVerifiedKeyCallbackRefusesMismatch(t *testing.T) {
	a, b := sshtest.NewKey(t).PublicKey(), sshtest.NewKey(t).PublicKey()
	p := perms(extOffered, gossh.FingerprintSHA256(b)).Permissions
	if _, err := verifiedKey(nil, a, p, ""); err == nil {
		t.Fatal("verified A with B's offer record")
	}
	p = perms(extOffered, gossh.FingerprintSHA256(a)).Permissions
	out, err := verifiedKey(nil, a, p, "")
	if err != nil || out.Extensions[extVerified] != gossh.FingerprintSHA256(a) {
		t.Fatalf("%v %v", out, err)
	}
	if _, ok := p.Extensions[extVerified]; ok {
		t.Error("callback mutated the offer's permissions")
	}
}

func TestGuestCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 500 {
		c := NewGuestCode()
		for _, typed := range []string{FormatGuestCode(c), "G-" + c, "g-" + strings.ToLower(c)} {
			if got, ok := ParseGuestCode(typed); !ok || got != c {
				t.Fatalf("%q does not parse as %q", typed, c)
			}
		}
		seen[c] = true
	}
	if len(seen) != 500 {
		t.Errorf("only %d distinct codes in 500", len(seen))
	}
	for _, s := range []string{"", "kate22", "K7QX2M", "JASPER", "g-", "g-7kqm-x4tr-9pz", "g-7kqm-x4tr-9pzcc",
		"g-7kqm-x4tr-9p0c", "x-7kqm-x4tr-9pzc", "7kqm-x4tr-9pzc", "guest-7kqm"} {
		if _, ok := ParseGuestCode(s); ok {
			t.Errorf("ParseGuestCode(%q) accepted", s)
		}
	}
}

func TestCommandWithoutPTY(t *testing.T) {
	srv := start(t, Config{})
	key := sshtest.NewKey(t)
	c := sshtest.Dial(t, srv.addr, sshtest.WithKey(key), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	c.Expect(t, `no rooms yet, `+regexp.QuoteMeta(sshtest.Fingerprint(key)), wait)
	if code := c.Wait(t, wait); code != 0 {
		t.Errorf("exit status %d", code)
	}

	c = sshtest.Dial(t, srv.addr, sshtest.WithoutPTY(), sshtest.WithCommand("fail"))
	c.Expect(t, `failing as asked`, wait)
	if code := c.Wait(t, wait); code != 3 {
		t.Errorf("exit status %d, want 3", code)
	}
}

func TestNoPTYNoCommandGetsHint(t *testing.T) {
	srv := start(t, Config{})
	c := sshtest.Dial(t, srv.addr, sshtest.WithoutPTY())
	c.Expect(t, `Bivouac needs an interactive terminal: ssh -t -p \d+ <host>`, wait)
	if code := c.Wait(t, wait); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if bytes.Contains(c.Transcript(), []byte("\r")) {
		t.Errorf("CR in output without a PTY: %q", c.Transcript())
	}
}

func TestPTYWithoutProgramIsTold(t *testing.T) {
	srv := start(t, Config{}, Deps{Programs: func(context.Context, ssh.Session) *tea.Program { return nil }})
	c := sshtest.Dial(t, srv.addr)
	c.Expect(t, `Nothing to run`, wait)
	if code := c.Wait(t, wait); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
}

func TestPerIPCap(t *testing.T) {
	srv := start(t, Config{MaxPerIP: 2})
	a := sshtest.Dial(t, srv.addr)
	a.ExpectScreen(t, `who SHA256`, wait)
	b := sshtest.Dial(t, srv.addr)
	b.ExpectScreen(t, `who SHA256`, wait)

	c := sshtest.Dial(t, srv.addr)
	c.Expect(t, `Too many connections from your address \(the limit is 2\)`, wait)
	if code := c.Wait(t, wait); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	c.Close()

	a.Close() // frees a slot once the server sees the connection go
	eventually(t, func() bool { total, _ := srv.limits.counts("127.0.0.1"); return total == 1 })
	d := sshtest.Dial(t, srv.addr)
	d.ExpectScreen(t, `who SHA256`, wait)
	if logs := srv.logs.String(); !strings.Contains(logs, "refused=per_address") {
		t.Errorf("refusal not logged:\n%s", logs)
	}
}

func TestGlobalCap(t *testing.T) {
	srv := start(t, Config{MaxSessions: 1})
	a := sshtest.Dial(t, srv.addr)
	a.ExpectScreen(t, `who SHA256`, wait)
	b := sshtest.Dial(t, srv.addr)
	b.Expect(t, `Bivouac is full right now \(1 players\)\. Please try again in a few minutes\.`, wait)
	if code := b.Wait(t, wait); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
}

func TestRefusedFloodIsDroppedSilently(t *testing.T) {
	srv := start(t, Config{MaxPerIP: 1})
	a := sshtest.Dial(t, srv.addr)
	a.ExpectScreen(t, `who SHA256`, wait)
	// refusedPerIP players over the cap are told why and keep their
	// connections open; the next one is cut as it authenticates.
	for range refusedPerIP {
		c := sshtest.Dial(t, srv.addr, sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
		c.Expect(t, `Too many connections from your address`, wait)
	}
	if _, err := sshtest.DialE(t, srv.addr, sshtest.WithoutPTY(), sshtest.WithCommand("rooms")); err == nil {
		t.Fatal("a connection beyond the refused ones was let in")
	}
	a.Type("q") // the admitted player is unaffected
	if code := a.Wait(t, wait); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestPanicsAreContained(t *testing.T) {
	srv := start(t, Config{})
	bystander := sshtest.Dial(t, srv.addr)
	bystander.ExpectScreen(t, `who SHA256`, wait)

	p := sshtest.Dial(t, srv.addr, sshtest.WithUser("panic-program"))
	p.Expect(t, `internal error`, wait)
	if code := p.Wait(t, wait); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}

	c := sshtest.Dial(t, srv.addr, sshtest.WithoutPTY(), sshtest.WithCommand("panic"))
	c.Expect(t, `internal error`, wait)
	if code := c.Wait(t, wait); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}

	// A panic inside the program is Bubble Tea's to catch: that session ends.
	u := sshtest.Dial(t, srv.addr)
	u.ExpectScreen(t, `who SHA256`, wait)
	u.Type("p")
	u.Wait(t, wait)

	logs := srv.logs.String()
	for _, want := range []string{"panic in session", "boom in Programs", "boom in Command", "goroutine"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	bystander.Resize(90, 20)
	bystander.ExpectScreen(t, `size 90x20`, wait)
	fresh := sshtest.Dial(t, srv.addr)
	fresh.ExpectScreen(t, `who SHA256`, wait)
}

func TestAbandonedHandshakesAreContained(t *testing.T) {
	srv := start(t, Config{HandshakeTimeout: 300 * time.Millisecond})

	// Says hello, then hangs up mid-handshake.
	nc, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = nc.Write([]byte("SSH-2.0-half\r\n"))
	nc.Close()

	// Connects and says nothing: closed by the handshake timeout.
	silent, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	start := time.Now()
	_ = silent.SetReadDeadline(time.Now().Add(wait))
	if _, err := io.ReadAll(silent); err != nil {
		t.Fatalf("silent connection not closed by the server: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("closed after %v; handshake timeout is 300ms", d)
	}

	c := sshtest.Dial(t, srv.addr)
	c.ExpectScreen(t, `who SHA256`, wait)
	eventually(t, func() bool { total, _ := srv.limits.counts("127.0.0.1"); return total == 1 })
}

func TestHundredChannelsAreContained(t *testing.T) {
	srv := start(t, Config{MaxChannelsPerConn: 4})
	c := sshtest.Dial(t, srv.addr)
	c.ExpectScreen(t, `who SHA256`, wait)

	opened, refused := 0, 0
	var sessions []*gossh.Session
	for range 100 {
		s, err := c.Conn.NewSession()
		if err != nil {
			var oce *gossh.OpenChannelError
			if !errors.As(err, &oce) || oce.Reason != gossh.ResourceShortage {
				t.Fatalf("channel refused with %v, want resource shortage", err)
			}
			refused++
			continue
		}
		opened++
		sessions = append(sessions, s)
	}
	if opened != 3 || refused != 97 {
		t.Errorf("opened %d, refused %d; want 3 more than the shell, 97 refused", opened, refused)
	}
	for _, s := range sessions {
		s.Close()
	}
	other := sshtest.Dial(t, srv.addr)
	other.ExpectScreen(t, `who SHA256`, wait)
	c.Type("q")
	c.Wait(t, wait)
}

func TestShutdownWithNeverReadingClients(t *testing.T) {
	keyPath, _, err := hostkeys.Ensure(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	logs := &sshtest.Buffer{}
	srv, err := New(Config{HostKeyPath: keyPath}, Deps{
		Programs: testPrograms, Command: testCommand, Log: slog.New(slog.NewTextHandler(logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	addr := l.Addr().String()

	flooded.Store(0)
	stuck := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("flood"), sshtest.NeverRead())
	eventually(t, func() bool { return flooded.Load() >= 1<<20 }) // the window is filling
	tui := sshtest.Dial(t, addr, sshtest.NeverRead())
	mid, err := net.Dial("tcp", addr) // and one stuck before its handshake
	if err != nil {
		t.Fatal(err)
	}
	defer mid.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	begin := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v after %v", err, time.Since(begin))
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Fatalf("Shutdown took %v", d)
	}
	select {
	case err := <-served:
		if !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	case <-time.After(wait):
		t.Fatal("Serve did not return")
	}
	_ = mid.SetReadDeadline(time.Now().Add(wait))
	if _, err := io.ReadAll(mid); err != nil {
		t.Errorf("mid-handshake connection not closed: %v", err)
	}
	stuck.Close()
	tui.Close()
	if err := srv.Serve(mustListen(t)); !errors.Is(err, ErrServerClosed) {
		t.Errorf("Serve after Shutdown = %v", err)
	}
}

func TestNewChecksHostKey(t *testing.T) {
	if _, err := New(Config{}, Deps{}); err == nil {
		t.Error("New without a host key path succeeded")
	}
	path, _, err := hostkeys.Ensure(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{HostKeyPath: path + ".missing"}, Deps{}); err == nil {
		t.Error("New with a missing host key succeeded")
	}
}

func TestIPKey(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.1:22":             "192.0.2.1",
		"[::ffff:192.0.2.1]:22":    "192.0.2.1",
		"[2001:db8:1:2:3::4]:22":   "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::]:22": "2001:db8:1:2::/64",
	} {
		a, _ := net.ResolveTCPAddr("tcp", addr)
		if got := ipKey(a); got != want {
			t.Errorf("ipKey(%s) = %s, want %s", addr, got, want)
		}
	}
}

func mustListen(t *testing.T) net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// eventually polls cond (for server-side effects a client cannot observe,
// such as a slot being released) for up to 5 s.
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	clocktest.CheckFor(t, wait, 5*time.Millisecond, func() error {
		if !cond() {
			return errors.New("condition not met")
		}
		return nil
	})
}

var _ crypto.Signer = ed25519.PrivateKey(nil)
var _ = rand.Reader

// Admit refuses a verified identity before any program or command runs,
// with its own sentence and exit status 1; others come in.
func TestAdmitRefusesWithItsSentence(t *testing.T) {
	banned := sshtest.NewKey(t)
	ran := atomic.Bool{}
	srv := start(t, Config{}, Deps{
		Programs: testPrograms,
		Command:  func(s ssh.Session, args []string) int { ran.Store(true); return testCommand(s, args) },
		Admit: func(_ ssh.Session, id Identity) (Refusal, string) {
			if id.ID == sshtest.Fingerprint(banned) {
				return RefusedBan, "You are banned from this server."
			}
			return "", ""
		},
	})
	c := sshtest.Dial(t, srv.addr, sshtest.WithKey(banned), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	c.Expect(t, `You are banned from this server\.`, wait)
	if code := c.Wait(t, wait); code != 1 || ran.Load() {
		t.Fatalf("exit status %d, command ran: %v; want 1 and nothing run", code, ran.Load())
	}
	ok := sshtest.Dial(t, srv.addr, sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	ok.Expect(t, `no rooms yet`, wait)
}
