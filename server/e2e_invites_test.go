package server

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// Issue 37 item 2: an invite's number of keys is a bare number, its
// length a duration, in either order, each once: 1, 9, 10, 99 and 100
// keys are made, 101 refused; nothing else is taken for either.
func TestInviteForOneToAHundredKeys(t *testing.T) {
	t.Parallel()
	srv, _, run := startWithAdmin(t)
	run("invite", 0, `Invite code \S+, for one key, until`)
	for _, n := range []int{1, 9, 10, 99, 100} {
		want := fmt.Sprintf(`Invite code \S+, for %d keys, until`, n)
		if n == 1 {
			want = `Invite code \S+, for one key, until`
		}
		run(fmt.Sprint(n), 1, `There is no admin command`) // not a command on its own
		run(fmt.Sprintf("invite %d", n), 0, want)
	}
	run("invite 10 3d", 0, `for 10 keys, until`)
	run("invite 3d 10", 0, `for 10 keys, until`)
	run("invite 101", 1, `An invite admits from 1 to 100 keys\.`)
	run("invite 0", 1, `An invite admits from 1 to 100 keys\.`)
	run("invite 99999999999999999999", 1, `An invite admits from 1 to 100 keys\.`)
	run("invite 91d", 1, `An invite lasts at most 90 days\.`)
	run("invite 99999999999999999999d", 1, `An invite lasts at most 90 days\.`)
	run("invite -3", 1, `-3: a duration cannot be negative\.`)
	invs, _ := srv.Access().Invites()
	uses := map[int]int{}
	for _, inv := range invs {
		uses[inv.Uses]++
	}
	if len(invs) != 8 || uses[1] != 2 || uses[9] != 1 || uses[10] != 3 || uses[99] != 1 || uses[100] != 1 {
		t.Errorf("invites made: %v", uses)
	}
}

// Issue 37 items 4 and 5: invites are listed (tag, maker, keys left,
// until when) and revoked; the keys they admitted are listed (who
// invited them, with which invite, when) and taken back, which ends their
// sessions in their own language; redemptions are in `admin log`. A key
// taken off the admins and a SIGHUP close that admin's console, refuse
// their next command, and void the invites they made.
func TestInvitesAreListedAndRevoked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ada, bert, newcomer, late := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	admins, allow := filepath.Join(dir, "admins"), filepath.Join(dir, "allow")
	writeKeys(t, admins, ada, bert)
	writeKeys(t, allow, bert) // a player too, once no longer an admin
	srv, addr, logs := accessServer(t, filepath.Join(dir, "data"), false, access.Config{AdminsFile: admins, AllowFile: allow})
	run := adminRun(t, addr, ada)
	run("invites", 0, `^No open invites\.\n$`)
	run("admitted", 0, `^No keys were admitted by invite\.\n$`)
	out := run("invite 2 1d", 0, `Invite code (\S+),`)
	code := regexp.MustCompile(`Invite code (\S+),`).FindStringSubmatch(out)[1]
	canon, _ := access.NormalizeCode(code)
	tag := access.TagOf(canon)
	run("invites", 0, `Open invites:\n  `+tag+`  made by ada  keys left: 2 of 2  until \S+ \S+ UTC\n`)

	user := sshserver.InvitePrefix + code
	if !runs(t, addr, sshtest.WithKey(newcomer), sshtest.WithUser(user)) {
		t.Fatal("the invite did not let the newcomer in")
	}
	nowak := sshtest.Dial(t, addr, sshtest.WithKey(newcomer), sshtest.WithUser("nowak"), sshtest.WithPTY(80, 24),
		sshtest.WithEnv("LANG", "pl_PL.UTF-8"))
	nowak.ExpectScreen(t, `nowak`, 5*time.Second)
	run("invites", 0, `  `+tag+`  made by ada  keys left: 1 of 2`)
	run("admitted", 0, `Keys admitted by invite:\n  nowak  `+regexp.QuoteMeta(sshtest.Fingerprint(newcomer))+`  invited by ada \(`+tag+`\), \S+ \S+\n`)
	run("log", 0, regexp.QuoteMeta(sshtest.Fingerprint(newcomer))+`: used invite `+tag+`\s+ada`)
	run("history nowak", 0, `Admitted by invite `+tag+` of ada, `)

	// Taken back: nowak's session ends in Polish, and the door is shut.
	run("unadmit nowak", 0, `nowak \(`+regexp.QuoteMeta(sshtest.Fingerprint(newcomer))+`\) is no longer admitted by invite\.\n1 session of theirs was ended\.`)
	nowak.Wait(t, 5*time.Second)
	if why := leftClean(nowak.Transcript(), "Ten serwer już nie wpuszcza twojego klucza."); why != "" {
		t.Errorf("nowak's terminal: %s\n%s", why, nowak.Text())
	}
	if got := refusal(t, addr, sshtest.WithKey(newcomer)); !strings.Contains(got, "lets in only the players it knows") {
		t.Errorf("nowak after unadmit: %q", got)
	}
	run("unadmit "+sshtest.Fingerprint(newcomer), 1, `was not admitted by an invite\.`)

	// bert's invite dies with bert's rights: his console closes on SIGHUP.
	bertRun := adminRun(t, addr, bert)
	out = bertRun("invite 5 1d", 0, `Invite code (\S+),`)
	bertCode := regexp.MustCompile(`Invite code (\S+),`).FindStringSubmatch(out)[1]
	con := sshtest.Dial(t, addr, sshtest.WithKey(bert), sshtest.WithUser("bert"), sshtest.WithPTY(80, 24), sshtest.WithCommand("admin"))
	con.Expect(t, `Admin console`, 5*time.Second)
	writeKeys(t, admins, ada)
	srv.ReloadAccess()
	con.Expect(t, `Your key is no longer an admin's: the console is closed\.`, 5*time.Second)
	if status := con.Wait(t, 5*time.Second); status != 1 {
		t.Errorf("the revoked admin's console ended with status %d, want 1", status)
	}
	bertRun("who", 1, `^Not permitted\.\n$`)
	bertCanon, _ := access.NormalizeCode(bertCode)
	bertTag := access.TagOf(bertCanon)
	run("invites", 0, `  `+bertTag+`  made by bert, no longer an admin: admits nobody \(uninvite `+bertTag+` deletes it\)`)
	if got := refusal(t, addr, sshtest.WithKey(late), sshtest.WithUser(sshserver.InvitePrefix+bertCode)); !strings.Contains(got, "That invite code is not valid") {
		t.Errorf("the revoked admin's invite at the door: %q", got)
	}

	// Revoked: the code admits nobody, and the listing forgets it.
	run("uninvite "+tag, 0, `Invite `+tag+` is revoked: its code admits nobody now\.`)
	run("uninvite "+tag, 1, `There is no invite `+tag+`\.`)
	if got := refusal(t, addr, sshtest.WithKey(late), sshtest.WithUser(user)); !strings.Contains(got, "That invite code is not valid") {
		t.Errorf("a revoked invite at the door: %q", got)
	}
	run("log", 0, `ada: revoked invite `+tag, `ada: took back the admission of nowak`)
	if strings.Contains(logs.String(), canon) || strings.Contains(logs.String(), code) {
		t.Error("an invite's code reached the log")
	}
	if !regexp.MustCompile(`msg=moderation action=redeem by=` + regexp.QuoteMeta(sshtest.Fingerprint(newcomer))).MatchString(logs.String()) {
		t.Errorf("the redemption is not a line of the server log:\n%s", logs.String())
	}
}

// Issue 37 item 9: admins change the allowlist and the admins from the
// console: a pasted key or a player's name, written back to the file
// (its comments kept), in force at once; taking a key off ends its
// sessions; the last admin and oneself stay.
func TestAllowlistAndAdminsChangeFromTheConsole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ada, zofia, kuba := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	admins, allow := filepath.Join(dir, "admins"), filepath.Join(dir, "allow")
	writeKeys(t, admins, ada)
	if err := os.WriteFile(allow, []byte("# the squad\n"+authorizedLine(zofia)+" zofia@home\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	_, addr, _ := accessServer(t, filepath.Join(dir, "data"), false, access.Config{AdminsFile: admins, AllowFile: allow})
	run := adminRun(t, addr, ada)
	run("allow", 0, `Allowlist, `+regexp.QuoteMeta(allow)+`:\n  `+regexp.QuoteMeta(sshtest.Fingerprint(zofia))+`  `)
	refusal(t, addr, sshtest.WithKey(kuba))
	run(`allow add "`+authorizedLine(kuba)+` kuba@laptop"`, 0,
		regexp.QuoteMeta(sshtest.Fingerprint(kuba))+` is on the allowlist now\.\nWritten to `+regexp.QuoteMeta(allow)+`\.`)
	run("allow add "+authorizedLine(kuba), 1, `That key is on the list already\.`)
	if !runs(t, addr, sshtest.WithKey(kuba)) {
		t.Fatal("kuba, added from the console, is refused")
	}
	text, _ := os.ReadFile(allow)
	if !strings.HasPrefix(string(text), "# the squad\n") || !strings.Contains(string(text), authorizedLine(kuba)+" kuba@laptop\n") {
		t.Errorf("the allowlist file after add:\n%s", text)
	}
	if fi, _ := os.Stat(allow); fi.Mode().Perm() != 0o640 {
		t.Errorf("the file's mode became %v", fi.Mode().Perm())
	}

	z := sshtest.Dial(t, addr, sshtest.WithKey(zofia), sshtest.WithUser("zofia"), sshtest.WithPTY(80, 24))
	z.ExpectScreen(t, `zofia`, 5*time.Second)
	run("admins add zofia", 0, `zofia \(`+regexp.QuoteMeta(sshtest.Fingerprint(zofia))+`\) is an admin now\.\nWritten to `+regexp.QuoteMeta(admins))
	adminRunAs(t, addr, zofia, "zofia")("who", 0, `Who is on:`)
	run("admins remove zofia", 0, `is no longer an admin\.`)
	adminRunAs(t, addr, zofia, "zofia")("who", 1, `Not permitted\.`)
	run("admins remove ada", 1, `You cannot do that to yourself\.`)
	run("allow remove zofia", 0, `zofia \(`+regexp.QuoteMeta(sshtest.Fingerprint(zofia))+`\) is off the allowlist now\.`)
	z.Wait(t, 5*time.Second)
	if why := leftClean(z.Transcript(), "This server no longer lets your key in."); why != "" {
		t.Errorf("zofia's terminal: %s", why)
	}
	refusal(t, addr, sshtest.WithKey(zofia))
	run("allow remove zofia", 1, `That key is not on the list\.`)
	run("allow add nobody-here", 1, `Nobody called nobody-here is known here\.`)
	run("allow frobnicate x", 1, `Usage: allow \[add\|remove KEY\|NAME\]`)
	run("log", 0, `ada: put on the allowlist `, `ada: made an admin of zofia`, `ada: took admin rights from zofia`, `ada: took off the allowlist zofia`)
}
