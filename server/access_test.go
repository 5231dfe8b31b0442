package server

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// authorizedLine is a signer's public key as a line of an authorized_keys file.
func authorizedLine(s gossh.Signer) string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
}

// writeKeys writes an authorized_keys file of the signers' keys.
func writeKeys(t *testing.T, path string, signers ...gossh.Signer) {
	t.Helper()
	var b strings.Builder
	for _, s := range signers {
		b.WriteString(authorizedLine(s) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The server holds the admins named by --admins, by the fingerprint a
// session's identity carries; without the file it says how to name them.
func TestServerKnowsItsAdmins(t *testing.T) {
	t.Parallel()
	admin, player := sshtest.NewKey(t), sshtest.NewKey(t)
	file := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, file, admin)
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Access: access.Config{AdminsFile: file}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !srv.Access().IsAdmin(sshtest.Fingerprint(admin)) || srv.Access().IsAdmin(sshtest.Fingerprint(player)) {
		t.Fatal("IsAdmin does not follow the admins file")
	}

	var logs sshtest.Buffer
	bare, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if !strings.Contains(logs.String(), "--admins FILE") {
		t.Fatalf("no hint at start about naming admins:\n%s", logs.String())
	}
}

// anAdmin writes an admins file in dir with one key, and returns its path
// and that key's fingerprint (an invite is as good as its maker's rights).
func anAdmin(t *testing.T, dir string) (string, string) {
	t.Helper()
	key := sshtest.NewKey(t)
	path := filepath.Join(dir, "admins")
	writeKeys(t, path, key)
	return path, sshtest.Fingerprint(key)
}

// accessServer starts a server on dir with the access settings given; its
// log is returned for leak checks.
func accessServer(t *testing.T, dir string, guests bool, cfg access.Config) (*Server, string, *sshtest.Buffer) {
	t.Helper()
	logs := &sshtest.Buffer{}
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir, Guests: guests, Access: cfg,
		Log: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return srv, sshtest.Start(t, srv), logs
}

// runs reports whether a key gets in: `rooms` runs and exits 0.
func runs(t *testing.T, addr string, opts ...sshtest.Option) bool {
	t.Helper()
	opts = append([]sshtest.Option{sshtest.WithoutPTY(), sshtest.WithCommand("rooms"), sshtest.LikeOpenSSH()}, opts...)
	c, err := sshtest.DialE(t, addr, opts...)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	if code := c.Wait(t, 10*time.Second); code != 0 {
		t.Logf("refused (exit %d): %s", code, c.Text())
		return false
	}
	return strings.Contains(c.Text(), "CODE")
}

// refusal dials as opts say and returns what the client was told; the
// session must end with status 1 and nothing run.
func refusal(t *testing.T, addr string, opts ...sshtest.Option) string {
	t.Helper()
	opts = append([]sshtest.Option{sshtest.WithoutPTY(), sshtest.WithCommand("rooms"), sshtest.LikeOpenSSH()}, opts...)
	c, err := sshtest.DialE(t, addr, opts...)
	if err != nil {
		t.Fatalf("dial: %v (a refusal must reach the client as a sentence)", err)
	}
	if code := c.Wait(t, 10*time.Second); code != 1 {
		t.Fatalf("exit %d, want 1; output:\n%s", code, c.Text())
	}
	out := strings.TrimSpace(string(c.Transcript()))
	if strings.Contains(out, "CODE") {
		t.Fatalf("a refused client ran a command:\n%s", out)
	}
	return out
}

// With --allow, only the listed keys and the admins come in; a stranger's
// key is refused at authentication with one sentence in the client's
// language that says nothing of who is on the list; a stranger whose
// second key is listed comes in with it; guests are refused.
func TestAllowlistLetsInOnlyListedKeys(t *testing.T) {
	t.Parallel()
	friend, admin, stranger := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	dir := t.TempDir()
	allow, admins := filepath.Join(dir, "allow"), filepath.Join(dir, "admins")
	if err := os.WriteFile(allow, []byte(authorizedLine(friend)+" zofia@home\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeKeys(t, admins, admin)
	_, addr, logs := accessServer(t, filepath.Join(dir, "data"), true, access.Config{AllowFile: allow, AdminsFile: admins})

	if !runs(t, addr, sshtest.WithKey(friend)) || !runs(t, addr, sshtest.WithKey(admin)) {
		t.Fatal("a listed key or an admin's was refused")
	}
	if !runs(t, addr, sshtest.WithKey(stranger, friend)) {
		t.Fatal("a client whose second key is listed was refused: a refused key must let it offer the next")
	}

	en := refusal(t, addr, sshtest.WithKey(stranger))
	if want := i18n.For(i18n.English).T("access.not_allowed"); en != want {
		t.Fatalf("stranger told:\n%q\nwant:\n%q", en, want)
	}
	pl := refusal(t, addr, sshtest.WithKey(stranger), sshtest.WithEnv("LANG", "pl_PL.UTF-8"))
	if want := i18n.For(i18n.Polish).T("access.not_allowed"); pl != want {
		t.Fatalf("stranger with LANG=pl told:\n%q\nwant:\n%q", pl, want)
	}
	for _, leak := range []string{"SHA256:", "zofia", sshtest.Fingerprint(friend)[7:15]} {
		if strings.Contains(en+pl, leak) {
			t.Fatalf("the refusal gives away %q", leak)
		}
	}
	if _, err := sshtest.DialE(t, addr, sshtest.WithKey(stranger), sshtest.WithoutPTY(), sshtest.WithCommand("rooms")); err == nil {
		t.Fatal("a stranger's key was accepted by a client that offers nothing else")
	}

	guest := refusal(t, addr, sshtest.AsGuest())
	if want := i18n.For(i18n.English).T("access.no_guests"); guest != want {
		t.Fatalf("guest told %q, want %q", guest, want)
	}
	if !strings.Contains(logs.String(), "refused=allowlist") {
		t.Errorf("the log does not say why the stranger was refused:\n%s", logs.String())
	}
}

// --no-guests (Guests false): keyless clients are told to come with a key;
// keys come in.
func TestNoGuestsRefusesKeylessClientsWithASentence(t *testing.T) {
	t.Parallel()
	_, addr, _ := accessServer(t, t.TempDir(), false, access.Config{})
	got := refusal(t, addr, sshtest.AsGuest(), sshtest.WithEnv("LANG", "de_DE.UTF-8"))
	if want := i18n.For(i18n.German).T("access.no_guests"); got != want {
		t.Fatalf("guest told %q, want %q", got, want)
	}
	if !runs(t, addr) {
		t.Fatal("a key was refused without an allowlist")
	}
}

// An allowlist edited while the server runs takes effect at the next poll.
func TestAllowlistIsReadAgainWhenItChanges(t *testing.T) {
	t.Parallel()
	friend, later := sshtest.NewKey(t), sshtest.NewKey(t)
	dir := t.TempDir()
	allow := filepath.Join(dir, "allow")
	writeKeys(t, allow, friend)
	clk := clocktest.New()
	_, addr, _ := accessServer(t, filepath.Join(dir, "data"), true, access.Config{AllowFile: allow, Clock: clk})
	refusal(t, addr, sshtest.WithKey(later))
	writeKeys(t, allow, friend, later)
	touchLater(t, allow)
	clk.Advance(access.PollEvery)
	if !runs(t, addr, sshtest.WithKey(later)) {
		t.Fatal("a key added to the allowlist is still refused after a poll")
	}
}

// touchLater moves a file's modification time a second on, so a rewrite
// within the same clock tick reads as a change.
func touchLater(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	mod := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// An invite lets one new key in for good, once: the newcomer logs in as
// invite-CODE with their own key, comes back later under any name, and
// keeps their place after a restart; a second newcomer with the same code
// is refused like a wrong code. The code never reaches the log.
func TestInviteAdmitsOneNewKeyForGood(t *testing.T) {
	t.Parallel()
	newcomer, second := sshtest.NewKey(t), sshtest.NewKey(t)
	dir := t.TempDir()
	allow := filepath.Join(dir, "allow")
	writeKeys(t, allow)
	data := filepath.Join(dir, "data")
	admins, by := anAdmin(t, dir)
	srv, addr, logs := accessServer(t, data, true, access.Config{AllowFile: allow, AdminsFile: admins})
	code, err := srv.Access().CreateInvite(by, 1, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	user := sshserver.InvitePrefix + strings.ToLower(access.FormatCode(code))

	refusal(t, addr, sshtest.WithKey(newcomer)) // not yet
	if !runs(t, addr, sshtest.WithKey(newcomer), sshtest.WithUser(user)) {
		t.Fatal("the invite did not let the newcomer in")
	}
	if !runs(t, addr, sshtest.WithKey(newcomer), sshtest.WithUser("nowak")) {
		t.Fatal("the invited key was not admitted for good")
	}
	got := refusal(t, addr, sshtest.WithKey(second), sshtest.WithUser(user))
	if want := i18n.For(i18n.English).T("access.invite_bad"); got != want {
		t.Fatalf("second use told %q, want %q", got, want)
	}
	invs, _ := srv.Access().Invites()
	if len(invs) != 1 || invs[0].Used != 1 || len(invs[0].Keys) != 1 || invs[0].Keys[0] != sshtest.Fingerprint(newcomer) {
		t.Fatalf("invites after use: %+v", invs)
	}
	for _, form := range []string{code, strings.ToLower(code), access.FormatCode(code), strings.ToLower(access.FormatCode(code))} {
		if strings.Contains(logs.String(), form) {
			t.Fatalf("the invite code reached the log as %q", form)
		}
	}
	srv.Close()

	_, addr2, _ := accessServer(t, data, true, access.Config{AllowFile: allow, AdminsFile: admins})
	if !runs(t, addr2, sshtest.WithKey(newcomer)) {
		t.Fatal("the invited key was forgotten across a restart")
	}
	refusal(t, addr2, sshtest.WithKey(second))
}

// An expired invite is refused like a wrong code, and a keyless client
// with a live invite is told to come with a key.
func TestExpiredInviteIsRefused(t *testing.T) {
	t.Parallel()
	newcomer := sshtest.NewKey(t)
	dir := t.TempDir()
	allow := filepath.Join(dir, "allow")
	writeKeys(t, allow)
	clk := clocktest.NewAt(time.Now())
	admins, by := anAdmin(t, dir)
	srv, addr, _ := accessServer(t, filepath.Join(dir, "data"), true, access.Config{AllowFile: allow, AdminsFile: admins, Clock: clk})
	code, err := srv.Access().CreateInvite(by, 3, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	user := sshserver.InvitePrefix + code
	keyless := refusal(t, addr, sshtest.AsGuest(), sshtest.WithUser(user))
	if want := i18n.For(i18n.English).T("access.invite_needs_key"); keyless != want {
		t.Fatalf("keyless invitee told %q, want %q", keyless, want)
	}
	clk.Advance(time.Hour)
	got := refusal(t, addr, sshtest.WithKey(newcomer), sshtest.WithUser(user))
	if want := i18n.For(i18n.English).T("access.invite_bad"); got != want {
		t.Fatalf("expired invite told %q, want %q", got, want)
	}
}

// The server's name and message of the day, in the reader's language: in
// `ssh host help`, in plain mode's help and as the lobby's first screen,
// which any key turns into the tables.
func TestMOTDShownByLanguageInHelpAndLobby(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	motd := filepath.Join(dir, "motd")
	for path, text := range map[string]string{motd: "Welcome to the Somme.\nBe kind at the table.\n",
		motd + ".pl": "Witajcie nad Sommą.\n"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, addr, _ := accessServer(t, filepath.Join(dir, "data"), true, access.Config{MOTDFile: motd, Name: "Trench Nine"})

	help := func(opts ...sshtest.Option) string {
		c := sshtest.Dial(t, addr, append([]sshtest.Option{sshtest.WithoutPTY(), sshtest.WithCommand("help")}, opts...)...)
		c.Wait(t, 5*time.Second)
		return string(c.Transcript())
	}
	en, pl := help(), help(sshtest.WithEnv("LANG", "pl_PL.UTF-8"))
	if !strings.HasPrefix(en, "Trench Nine\n") || !strings.Contains(en, "Welcome to the Somme.\nBe kind at the table.") {
		t.Fatalf("help in English:\n%s", en)
	}
	if !strings.Contains(pl, "Witajcie nad Sommą.") || strings.Contains(pl, "Welcome to the Somme") {
		t.Fatalf("help in Polish:\n%s", pl)
	}

	lobby := sshtest.Dial(t, addr, sshtest.WithEnv("LANG", "pl_PL.UTF-8"))
	lobby.ExpectScreen(t, `Witajcie nad Sommą\.`, 5*time.Second)
	if !strings.Contains(lobby.Screen(), "Trench Nine") {
		t.Fatalf("the lobby does not name the server:\n%s", lobby.Screen())
	}
	lobby.Type(" ")
	lobby.ExpectScreen(t, i18n.For(i18n.Polish).T("ui.lobby.tables"), 5*time.Second)
	if strings.Contains(lobby.Screen(), "Witajcie nad Sommą") {
		t.Fatalf("the message stays after a key:\n%s", lobby.Screen())
	}

	plain := sshtest.Dial(t, addr, sshtest.WithoutPTY(), sshtest.WithCommand("plain"))
	plain.Expect(t, `Somme`, 5*time.Second) // on arrival
	plain.Type("help\r")
	plain.Expect(t, `Players: \n?i\n?g\n?n\n?o\n?r\n?e`, 5*time.Second) // the 80-column screen may wrap it anywhere
	if n := strings.Count(string(plain.Transcript()), "Be kind at the table."); n != 2 {
		t.Fatalf("plain mode said the message %d times, want on arrival and with help:\n%s", n, plain.Transcript())
	}
}
