package server

import (
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"

	gossh "golang.org/x/crypto/ssh"
)

// Issue 37 item 6: anna makes a table and steps into the lobby (her seat
// kept); mallory joins. Mallory is not made the host, cannot remove anna
// or start, and anna, back, still hosts and starts her table.
func TestNewcomerCannotTakeAWaitingRoomFromItsCreator(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	annaKey := sshtest.NewKey(t)
	anna := sshtest.Dial(t, addr, sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithPTY(80, 24))
	code := newTable(t, anna)
	anna.Type("Q")
	anna.ExpectScreen(t, `Tables`, 5*time.Second)

	mallory := dialPlain(t, addr, "mallory", sshtest.WithKey(sshtest.NewKey(t)))
	got := strings.Join(mallory.do("join "+code), "\n")
	if strings.Contains(got, "mallory is the host now") {
		t.Fatalf("mallory was made the host of anna's table:\n%s", got)
	}
	if got := strings.Join(mallory.do("remove anna"), "\n"); !strings.Contains(got, "only the host can do that") {
		t.Fatalf("mallory removing anna: %q", got)
	}
	if got := strings.Join(mallory.do("start"), "\n"); !strings.Contains(got, "only the host can do that") {
		t.Fatalf("mallory starting anna's table: %q", got)
	}
	back := sshtest.Dial(t, addr, sshtest.WithUser("anna"), sshtest.WithKey(annaKey), sshtest.WithPTY(80, 24), sshtest.WithCommand("join "+code))
	back.ExpectScreen(t, `anna \(you\)`, 5*time.Second)
	if strings.Contains(string(mallory.c.Transcript()), "is the host now") {
		t.Fatalf("the host changed hands:\n%s", mallory.c.Transcript())
	}
	back.Type("s")
	expectRaw(t, mallory.c, `(?i)mission|round|game starts|begins`, 10*time.Second)
}

// Issue 37 item 7: each moderation action is one line of the server's
// log (who, what, whom, how long, why), a private table's code as a tag.
func TestModerationActionsReachTheServerLog(t *testing.T) {
	t.Parallel()
	adminKey := sshtest.NewKey(t)
	dir := t.TempDir()
	adminsFile := filepath.Join(dir, "admins")
	writeKeys(t, adminsFile, adminKey)
	var logs sshtest.Buffer
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: filepath.Join(dir, "data"), Guests: true,
		Access: access.Config{AdminsFile: adminsFile}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	addr := sshtest.Start(t, srv)
	run := adminRun(t, addr, adminKey)
	trollKey := sshtest.NewKey(t)
	troll := dialPlain(t, addr, "troll", sshtest.WithKey(trollKey))
	g := srv.app.Games[0]
	spec, err := g.BuildTable(g.FormDefaults())
	if err != nil {
		t.Fatal(err)
	}
	spec.Private = true
	r, err := srv.app.Create(g, spec, table.Player{ID: "SHA256:host", Name: "host"})
	if err != nil {
		t.Fatal(err)
	}
	private := r.Code()
	trollID := regexp.QuoteMeta(sshtest.Fingerprint(trollKey))
	_ = troll
	by := `by=` + regexp.QuoteMeta(sshtest.Fingerprint(adminKey)) + ` by_name=ada`

	run("mute troll 30m spam", 0)
	run("say Restart at noon", 0)
	run("close "+private, 0)
	run("ban troll 2h insults", 0)
	run("invite 3 1d", 0)
	for _, want := range []string{
		`msg=moderation action=mute ` + by + ` subject=` + trollID + ` subject_name=troll duration=30m0s until=\S+ reason=spam`,
		`msg=moderation action=say ` + by + ` reason="Restart at noon"`,
		`msg=moderation action=close ` + by + ` room=<[0-9a-f]{8}>`,
		`msg=moderation action=ban ` + by + ` subject=` + trollID + ` subject_name=troll duration=2h0m0s until=\S+ addr=127\.0\.0\.1/32 addr_until=\S+ reason=insults`,
		`msg=moderation action=invite ` + by + ` subject=[0-9a-f]{8} reason=3`,
	} {
		if !regexp.MustCompile(want).MatchString(logs.String()) {
			t.Errorf("the log has no line %s:\n%s", want, logs.String())
		}
	}
	if strings.Contains(logs.String(), private) {
		t.Error("a private table's code reached the log")
	}
}

// Issue 37 item 8: a muted player keeps their name (no "visit evil dot
// com" in every lobby list), and `admin who` lists a player under the
// name they renamed themselves to.
func TestMutedPlayerCannotRenameAndWhoFollowsRenames(t *testing.T) {
	t.Parallel()
	_, addr, run := startWithAdmin(t)
	bob := dialPlain(t, addr, "bob", sshtest.WithKey(sshtest.NewKey(t)))
	if got := strings.Join(bob.do("name robert"), "\n"); !strings.Contains(got, "robert") {
		t.Fatalf("renaming: %q", got)
	}
	run("who", 0, `\n  robert  `)
	if out := run("who", 0); strings.Contains(out, "  bob  ") {
		t.Errorf("admin who keeps the old name:\n%s", out)
	}
	run("mute robert 1h", 0)
	if got := strings.Join(bob.do("name visit evil dot com"), "\n"); !strings.Contains(got, "You are muted until") {
		t.Fatalf("a muted player renaming: %q", got)
	}
	run("who", 0, `\n  robert  `)
	run("mute robert forever", 0)
	if got := strings.Join(bob.do("name evil"), "\n"); !strings.Contains(got, "You are muted: your name stays as it is.") {
		t.Fatalf("a player muted for good renaming: %q", got)
	}
}

// Issue 37 item 9: `admin history` shows what the server saw of a player:
// key, when, the names and addresses they used, the moderation about
// them and the reports, and others seen under their name.
func TestAdminHistory(t *testing.T) {
	t.Parallel()
	srv, addr, run := startWithAdmin(t)
	carlKey := sshtest.NewKey(t)
	carl := dialPlain(t, addr, "carl", sshtest.WithKey(carlKey))
	carl.do("name karol")
	run("mute karol 10m flood", 0)
	run("unmute karol", 0)
	run("history nobody", 1, `Nobody called nobody is known here\.`)
	fp := regexp.QuoteMeta(sshtest.Fingerprint(carlKey))
	srv.Moderation().Flush()
	run("history karol", 0,
		`History of karol:\n  Key: `+fp+`\n  Seen first \S+ \S+, last \S+ \S+\.\n  Names: karol and carl\n  Addresses:\n    127\.0\.0\.1  \S+ \S+ – \S+ \S+\n`,
		`  Moderation:\n    \S+ \S+  ada: muted karol  \S+ \S+ UTC  flood\n    \S+ \S+  ada: unmuted karol\n`,
		`  No reports about them\.`)
	run("history carl", 0, `History of karol:`) // an old name finds them too
	run("history "+sshtest.Fingerprint(carlKey), 0, `History of karol:`)
}

// Issue 37: the new commands over SSH in every language: no catalog key
// shows through, and each answers in the admin's words.
func TestNewAdminCommandsInEveryLanguage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	keys := []gossh.Signer{sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)} // a command budget each
	admins, allow := filepath.Join(dir, "admins"), filepath.Join(dir, "allow")
	writeKeys(t, admins, keys...)
	writeKeys(t, allow)
	_, addr, logs := accessServer(t, filepath.Join(dir, "data"), false, access.Config{AdminsFile: admins, AllowFile: allow})
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	})
	key := regexp.MustCompile(`\b(moderation|access)\.[a-z_.]+\b`)
	for i, lang := range []struct {
		env  string
		l    i18n.Lang
		word string // a word of that language the answers hold
	}{{"en_US.UTF-8", i18n.English, "Allowlist"}, {"pl_PL.UTF-8", i18n.Polish, "Lista dopuszczonych"},
		{"ru_RU.UTF-8", i18n.Russian, "Список допуска"}, {"de_DE.UTF-8", i18n.German, "Zulassungsliste"}} {
		var all strings.Builder
		for _, cmd := range []string{"help", "invite 2 1d", "invites", "admitted", "allow", "admins", "history ada",
			"ban ada 1h", "ban x -1h", "who now", "uninvite 00000000", "unadmit SHA256:nobody"} {
			c := sshtest.Dial(t, addr, sshtest.WithKey(keys[i]), sshtest.WithUser("ada"), sshtest.WithoutPTY(),
				sshtest.WithCommand("admin "+cmd), sshtest.WithEnv("LANG", lang.env))
			c.Wait(t, 10*time.Second)
			c.Close()
			all.WriteString(string(c.Transcript()))
		}
		out := all.String()
		if k := key.FindString(out); k != "" {
			t.Errorf("%s: the key %s shows through:\n%s", lang.env, k, out)
		}
		if !strings.Contains(out, lang.word) {
			t.Errorf("%s: no %q in the answers:\n%s", lang.env, lang.word, out)
		}
		if lang.l != i18n.English && strings.Contains(out, "is one word too many") {
			t.Errorf("%s: English in the answers:\n%s", lang.env, out)
		}
	}
}
