package server

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// A table an admin closed stays closed: after a restart on the same data
// it is not among the rooms, and the log still shows who closed it.
func TestAdminClosedTableDoesNotComeBackAfterARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	adminKey, bobKey := sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, dir, adminsFile)
	bob := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	code := newTable(t, bob)
	other := sshtest.Dial(t, addr, sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithUser("carl"), sshtest.WithPTY(80, 24))
	kept := newTable(t, other) // a table nobody closed comes back: the restart itself is sound

	if out, status := runAdmin(t, addr, adminKey, "close "+code); status != 0 {
		t.Fatalf("admin close: status %d:\n%s", status, out)
	}
	bob.ExpectScreen(t, `an admin closed it`, 5*time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	srv, addr = startModerated(t, dir, adminsFile)
	if srv.hub.Room(code) != nil {
		t.Errorf("the closed table %s is back after a restart", code)
	}
	if srv.hub.Room(kept) == nil {
		t.Errorf("the table %s nobody closed did not come back", kept)
	}
	rooms := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithoutPTY(), sshtest.WithCommand("rooms"))
	rooms.Wait(t, 5*time.Second)
	if strings.Contains(rooms.Text(), code) {
		t.Errorf("`rooms` lists the closed table %s after a restart:\n%s", code, rooms.Text())
	}
	out, _ := runAdmin(t, addr, adminKey, "log")
	if !regexp.MustCompile(`ada: closed table ` + code).MatchString(out) {
		t.Errorf("admin log does not show the close after a restart:\n%s", out)
	}
}

// `admin who` says where each player sits: the table's code (admins may
// see private codes), or the lobby.
func TestAdminWhoSaysWhereEachPlayerSits(t *testing.T) {
	adminKey, bobKey, carlKey := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	_, addr := startModerated(t, t.TempDir(), adminsFile)
	bob := sshtest.Dial(t, addr, sshtest.WithKey(bobKey), sshtest.WithUser("bob"), sshtest.WithPTY(80, 24))
	code := newTable(t, bob)
	carl := sshtest.Dial(t, addr, sshtest.WithKey(carlKey), sshtest.WithUser("carl"), sshtest.WithPTY(80, 24))
	carl.ExpectScreen(t, `Bivouac`, 5*time.Second)

	out, status := runAdmin(t, addr, adminKey, "who")
	if status != 0 {
		t.Fatalf("admin who: status %d:\n%s", status, out)
	}
	if !regexp.MustCompile(`bob\s+` + regexp.QuoteMeta(sshtest.Fingerprint(bobKey)) + `.*at table ` + code + `\n`).MatchString(out) {
		t.Errorf("admin who does not say bob is at table %s:\n%s", code, out)
	}
	if !regexp.MustCompile(`carl\s+` + regexp.QuoteMeta(sshtest.Fingerprint(carlKey)) + `.*in the lobby\n`).MatchString(out) {
		t.Errorf("admin who does not say carl is in the lobby:\n%s", out)
	}
}

// Reports are numbered, resolved with a note, kept in the log, and then
// listed only with `reports all`; a wrong number or a second resolve of
// the same report is refused in a sentence.
func TestAdminResolvesReports(t *testing.T) {
	dir := t.TempDir()
	adminKey := sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, dir, adminsFile)
	for _, r := range []moderation.Report{
		{Reporter: "SHA256:vic", ReporterName: "vic", Subject: "SHA256:troll", SubjectName: "troll", Table: "K7QX", Reason: "insults"},
		{Reporter: "SHA256:amy", ReporterName: "amy", Subject: "SHA256:spam", SubjectName: "spammer", Reason: "spam"},
	} {
		if _, err := srv.Moderation().FileReport(r, ""); err != nil {
			t.Fatal(err)
		}
	}
	run := adminRun(t, addr, adminKey)
	run("reports", 0, `#1\s+\S+ \S+\s+vic reports troll at table K7QX: insults`, `#2\s+\S+ \S+\s+amy reports spammer: spam`)
	run("resolve 1 warned them", 0, `Report 1 is resolved\.`)
	run("resolve 1", 1, `There is no open report 1`)
	run("resolve 9", 1, `There is no open report 9`)
	run("resolve x", 1, `Usage: resolve N \[NOTE\]`)
	if out := run("reports", 0, `#2`); strings.Contains(out, "#1") {
		t.Errorf("a resolved report is still listed as open:\n%s", out)
	}
	run("reports close 2", 0, `Report 2 is resolved\.`)
	run("reports", 0, `No open reports\.`)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	_, addr = startModerated(t, dir, adminsFile)
	run = adminRun(t, addr, adminKey)
	run("reports", 0, `No open reports\.`)
	run("reports all", 0, `#1 .*insults\n\s+resolved by ada, \S+ \S+: warned them`, `#2 .*spam\n\s+resolved by ada, \S+ \S+\n`)
	run("log", 0, `ada: resolved report #1\s+warned them`, `ada: resolved report #2`)
}

// Issue 36 item 3: `admin reports` printed the whole queue (3.19 MB after
// a flood). It shows a page of 20 and how to see the next; repeats about
// one player at one table are one report with a count.
func TestAdminReportsArePaged(t *testing.T) {
	dir := t.TempDir()
	adminKey := sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, dir, adminsFile)
	for i := range 25 {
		r := moderation.Report{Reporter: fmt.Sprint("SHA256:r", i), ReporterName: fmt.Sprint("r", i),
			Subject: fmt.Sprint("SHA256:s", i), SubjectName: fmt.Sprint("s", i), Table: "K7QX", Reason: "spam"}
		if _, err := srv.Moderation().FileReport(r, fmt.Sprint("192.0.2.", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 { // three more about s0 at K7QX: one report
		r := moderation.Report{Reporter: fmt.Sprint("SHA256:x", i), ReporterName: "x", Subject: "SHA256:s0",
			SubjectName: "s0", Table: "K7QX", Reason: "again"}
		if _, err := srv.Moderation().FileReport(r, fmt.Sprint("198.51.100.", i)); err != nil {
			t.Fatal(err)
		}
	}
	run := adminRun(t, addr, adminKey)
	out := run("reports", 0, `Reports, page 1 of 2:`, `#1\s.*r0 reports s0`, `reported 4 times, the last at`, `#20\s`, `More: reports 2`)
	if strings.Contains(out, "#21") {
		t.Errorf("page 1 goes past 20:\n%s", out)
	}
	out = run("reports 2", 0, `Reports, page 2 of 2:`, `#21\s`, `#25\s`)
	if strings.Contains(out, "More:") || strings.Contains(out, "#20 ") {
		t.Errorf("page 2:\n%s", out)
	}
	run("reports x", 1, `Usage: reports \[all\] \[PAGE\]`)
}
