package access

import (
	"bytes"
	"crypto/ed25519"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"

	gossh "golang.org/x/crypto/ssh"
)

// newKey makes a fresh ed25519 public key and its authorized_keys line.
func newKey(t testing.TB, comment string) (gossh.PublicKey, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(pk)))
	if comment != "" {
		line += " " + comment
	}
	return pk, line
}

func TestParseKeysReportsBadLinesByNumberAndKeepsTheRest(t *testing.T) {
	a, lineA := newKey(t, "anna@laptop")
	b, lineB := newKey(t, "")
	file := strings.Join([]string{
		"# the operators",
		lineA,
		"",
		"ssh-ed25519 AAAAnotbase64!!! broken",
		`no-pty,from="10.0.0.0/8" ` + lineB,
		"hello there",
		lineA, // twice: once in the list
	}, "\n")
	keys, bad := ParseKeys(strings.NewReader(file))
	if len(keys) != 2 {
		t.Fatalf("keys = %+v, want 2", keys)
	}
	if keys[0].Fingerprint != gossh.FingerprintSHA256(a) || keys[0].Line != 2 || keys[0].Comment != "anna@laptop" {
		t.Errorf("first key = %+v", keys[0])
	}
	if keys[1].Fingerprint != gossh.FingerprintSHA256(b) || keys[1].Line != 5 || keys[1].Type != "ssh-ed25519" {
		t.Errorf("second key (with options) = %+v", keys[1])
	}
	var lines []int
	for _, e := range bad {
		lines = append(lines, e.Line)
	}
	if len(lines) != 2 || lines[0] != 4 || lines[1] != 6 {
		t.Errorf("bad lines = %v, want [4 6]", lines)
	}
}

func TestBadLineIsLoggedWithItsNumber(t *testing.T) {
	_, line := newKey(t, "")
	path := filepath.Join(t.TempDir(), "admins")
	writeFile(t, path, line+"\nnonsense\n")
	var logBuf bytes.Buffer
	p, err := New(Config{AdminsFile: path, Log: slog.New(slog.NewTextHandler(&logBuf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Admins()) != 1 {
		t.Errorf("admins = %v, want the good line's key", p.Admins())
	}
	if !strings.Contains(logBuf.String(), "line=2") {
		t.Errorf("log does not name line 2:\n%s", logBuf.String())
	}
}

func TestMissingFileIsAnErrorAtStart(t *testing.T) {
	if _, err := New(Config{AllowFile: filepath.Join(t.TempDir(), "nope")}); err == nil {
		t.Fatal("a missing allow file was accepted")
	}
}

func TestAdminsFileIsReadAgainWhenItChanges(t *testing.T) {
	a, lineA := newKey(t, "")
	b, lineB := newKey(t, "")
	path := filepath.Join(t.TempDir(), "admins")
	writeFile(t, path, lineA+"\n")
	clk := clocktest.New()
	p, err := New(Config{AdminsFile: path, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	p.Watch()
	defer p.Close()
	fa, fb := gossh.FingerprintSHA256(a), gossh.FingerprintSHA256(b)
	if !p.IsAdmin(fa) || p.IsAdmin(fb) {
		t.Fatal("before the change: want a admin, b not")
	}

	writeFile(t, path, lineB+"\n# a is gone\n")
	if !p.IsAdmin(fa) {
		t.Fatal("the change took effect before the next poll")
	}
	clk.Advance(PollEvery)
	if p.IsAdmin(fa) || !p.IsAdmin(fb) {
		t.Fatal("after a poll: want b admin, a not")
	}

	// Removed by mistake: the last version stays in force.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	clk.Advance(PollEvery)
	if !p.IsAdmin(fb) {
		t.Fatal("a removed file dropped the admins")
	}
	writeFile(t, path, lineA+"\n")
	clk.Advance(PollEvery)
	if !p.IsAdmin(fa) || p.IsAdmin(fb) {
		t.Fatal("the file put back was not read")
	}
}

func TestReloadReadsNowWithoutAPoll(t *testing.T) {
	a, lineA := newKey(t, "")
	path := filepath.Join(t.TempDir(), "admins")
	writeFile(t, path, "")
	p, err := New(Config{AdminsFile: path, Clock: clocktest.New()})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, lineA+"\n")
	p.Reload()
	if !p.IsAdmin(gossh.FingerprintSHA256(a)) {
		t.Fatal("Reload did not read the new key")
	}
}

// writeFile writes content with a modification time one second later than
// the file had, so a rewrite within the same clock tick is still a change.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	mod := time.Now()
	if fi, err := os.Stat(path); err == nil && !fi.ModTime().Before(mod) {
		mod = fi.ModTime().Add(time.Second)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}
