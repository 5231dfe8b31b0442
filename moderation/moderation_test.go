package moderation_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/words"
)

type admins map[string]bool

func (a admins) IsAdmin(fp string) bool { return a[fp] }

var (
	ada   = moderation.Person{ID: "SHA256:ada", Name: "Ada"}
	troll = moderation.Person{ID: "SHA256:troll", Name: "Troll", Addr: "198.51.100.9"}
	guest = moderation.Person{ID: "guest:7", Name: "Guest-7", Addr: "192.0.2.7", Guest: true}
)

func newService(t *testing.T) (*moderation.Service, *clocktest.Manual, *persistence.Bolt) {
	t.Helper()
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clocktest.New()
	return moderation.New(moderation.Options{Store: st, Admins: admins{ada.ID: true}, Clock: clk}), clk, st
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"30m": 30 * time.Minute, "2h": 2 * time.Hour, "7d": 7 * 24 * time.Hour, "2W": 14 * 24 * time.Hour, " 1m ": time.Minute,
		"3650d": moderation.MaxDuration,
	} {
		if got, err := moderation.ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "m", "7", "0d", "-2h", "2x", "1.5h", "3651d", "99999999999999999999d", "h2"} {
		if _, err := moderation.ParseDuration(bad); !errors.Is(err, moderation.ErrDuration) {
			t.Errorf("ParseDuration(%q) = %v; want ErrDuration", bad, err)
		}
	}
	for s, want := range map[string]bool{"7x": true, "30m": true, "idiot": false, "2": false, "x7": false} {
		if moderation.LooksLikeDuration(s) != want {
			t.Errorf("LooksLikeDuration(%q) = %v", s, !want)
		}
	}
}

func TestBanHoldsUntilItExpiresAndIsAudited(t *testing.T) {
	s, clk, _ := newService(t)
	sn, err := s.Ban(ada, troll, 2*time.Hour, "insults")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Banned(troll.ID, "203.0.113.1"); !ok || got.Reason != "insults" || !got.Until.Equal(sn.Until) {
		t.Fatalf("Banned = %+v, %v; want the 2h ban", got, ok)
	}
	if _, ok := s.Banned("SHA256:someone", troll.Addr); ok {
		t.Fatal("a key holder's ban held their address: everyone behind it would be out")
	}
	en := i18n.For(i18n.English)
	if got := en.Msg(moderation.Explain(sn, clk.Now().Add(30*time.Minute))); got != "You are banned from this server for 2 hours, until 2026-01-01 02:00 UTC. Reason: insults" {
		t.Errorf("explained as %q", got)
	}
	clk.Advance(2*time.Hour + time.Second)
	if _, ok := s.Banned(troll.ID, ""); ok {
		t.Fatal("the ban still holds after it expired")
	}
	log, err := s.Log(0)
	if err != nil || len(log) != 1 || log[0].Action != "ban" || log[0].ByName != "Ada" || log[0].SubjectName != "Troll" || log[0].Reason != "insults" {
		t.Fatalf("audit log = %+v, %v", log, err)
	}
}

func TestGuestBanHoldsItsAddress(t *testing.T) {
	s, _, _ := newService(t)
	if _, err := s.Ban(ada, guest, 0, ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Banned("guest:new-code", guest.Addr); !ok {
		t.Fatal("a banned guest came back under a new code from the same address")
	}
	sn, ok := s.Banned(guest.ID, "")
	if !ok || !sn.Permanent() {
		t.Fatalf("Banned = %+v, %v; want a ban for good", sn, ok)
	}
	if got := i18n.For(i18n.Polish).Msg(moderation.Explain(sn, time.Now())); got != "Masz bana na tym serwerze." {
		t.Errorf("explained in Polish as %q", got)
	}
}

func TestAdminsAndSelfCannotBeSanctioned(t *testing.T) {
	s, _, _ := newService(t)
	other := moderation.Person{ID: "SHA256:bob", Name: "Bob"}
	s.SetAdmins(admins{ada.ID: true, other.ID: true})
	if _, err := s.Ban(ada, other, 0, ""); !errors.Is(err, moderation.ErrAdminImmune) {
		t.Errorf("banning an admin: %v", err)
	}
	if _, err := s.Mute(ada, other, 0, ""); !errors.Is(err, moderation.ErrAdminImmune) {
		t.Errorf("muting an admin: %v", err)
	}
	if _, err := s.Ban(ada, ada, 0, ""); !errors.Is(err, moderation.ErrSelf) {
		t.Errorf("banning oneself: %v", err)
	}
	if got, _ := s.InForce(); len(got) != 0 {
		t.Fatalf("sanctions in force: %+v", got)
	}
}

func TestMuteAndUnmute(t *testing.T) {
	s, clk, _ := newService(t)
	if _, err := s.Mute(ada, troll, 30*time.Minute, ""); err != nil {
		t.Fatal(err)
	}
	sn, ok := s.Muted(troll.ID)
	if !ok {
		t.Fatal("not muted")
	}
	var ge *words.Error
	if err := moderation.MutedError(sn, clk.Now()); !errors.As(err, &ge) || ge.Msg.Key != "moderation.mute.for" {
		t.Fatalf("MutedError = %v", err)
	}
	if _, ok := s.Banned(troll.ID, ""); ok {
		t.Fatal("a mute bans")
	}
	if _, err := s.Unmute(ada, troll.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Muted(troll.ID); ok {
		t.Fatal("still muted after unmute")
	}
	if _, err := s.Unmute(ada, troll.ID); !errors.Is(err, moderation.ErrNotMuted) {
		t.Fatalf("unmuting again: %v", err)
	}
	if _, err := s.Unban(ada, troll.ID); !errors.Is(err, moderation.ErrNotBanned) {
		t.Fatalf("unbanning who is not banned: %v", err)
	}
	if log, _ := s.Log(0); len(log) != 2 || log[1].Action != "unmute" {
		t.Fatalf("audit log = %+v; want mute, unmute", log)
	}
}

// A ban written by another node (straight into the shared store) holds
// here once the view is older than Refresh, and Watch reports it.
func TestBanFromAnotherNodeHoldsWithinRefresh(t *testing.T) {
	s, clk, st := newService(t)
	if _, ok := s.Banned(troll.ID, ""); ok {
		t.Fatal("banned before anything happened")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan moderation.Sanction, 1)
	go s.Watch(ctx, func(sn moderation.Sanction) { got <- sn })
	clk.WaitTimers(t, 1)
	other := moderation.New(moderation.Options{Store: st, Clock: clk})
	if _, err := other.Ban(ada, troll, 0, "spam"); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	select {
	case sn := <-got:
		if sn.Subject != troll.ID {
			t.Fatalf("Watch told of %+v", sn)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not tell of the ban made elsewhere")
	}
	if _, ok := s.Banned(troll.ID, ""); !ok {
		t.Fatal("the ban made elsewhere does not hold here")
	}
}

func TestFileReportCleansAndRequiresAReason(t *testing.T) {
	s, _, _ := newService(t)
	if _, err := s.FileReport(moderation.Report{Reporter: ada.ID, Subject: troll.ID, Reason: "  "}, ""); !errors.Is(err, moderation.ErrNoReason) {
		t.Fatalf("a report without a reason: %v", err)
	}
	var ev []string
	for range moderation.MaxEvidenceLines + 5 {
		ev = append(ev, "Troll: \x1b[2Jboo")
	}
	r, err := s.FileReport(moderation.Report{Reporter: ada.ID, ReporterName: "Ada", Subject: troll.ID, SubjectName: "Troll",
		Table: "K7QX", Reason: "insults\nand more", Evidence: ev}, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Evidence) != moderation.MaxEvidenceLines || r.Evidence[0] != "Troll: boo" || r.Reason != "insults and more" {
		t.Fatalf("report kept as %+v", r)
	}
	if all, err := s.Reports(); err != nil || len(all) != 1 || all[0].ID != r.ID {
		t.Fatalf("Reports = %+v, %v", all, err)
	}
}

func TestLeftSaysTheLargestUnit(t *testing.T) {
	en := i18n.For(i18n.English)
	for d, want := range map[time.Duration]string{
		time.Second:                     "1 minute",
		30 * time.Minute:                "30 minutes",
		59*time.Minute + 58*time.Second: "1 hour",
		time.Hour:                       "1 hour",
		61 * time.Minute:                "1 hour",
		2*time.Hour - time.Second:       "2 hours",
		23*time.Hour + 59*time.Minute:   "1 day",
		7*24*time.Hour - time.Minute:    "7 days",
		36 * time.Hour:                  "2 days",
		moderation.MaxDuration:          "3650 days",
		45*time.Minute + 10*time.Second: "46 minutes",
		100*time.Hour + 10*time.Minute:  "4 days",
	} {
		arg := moderation.LeftArg(d)
		if got := en.Msg(arg.Msgs[0]); got != want {
			t.Errorf("LeftArg(%v) reads %q, want %q", d, got, want)
		}
	}
}

// Issue 36 item 3: one report a minute a session was no limit (a fresh
// guest session filed another: 772 reports in 80 s from four addresses).
// Reports are capped per reporter and per address, repeats about one
// player at one table count into one report, and resolved reports are
// forgotten after ReportsKept.
func TestReportsAreBoundedAndMerged(t *testing.T) {
	s, clk, st := newService(t)
	report := func(reporter, addr, subject, table string) (moderation.Report, error) {
		return s.FileReport(moderation.Report{Reporter: reporter, ReporterName: reporter, Subject: subject,
			SubjectName: subject, Table: table, Reason: "spam"}, addr)
	}
	// One guest after another from one address: the address's budget.
	for i := range moderation.ReportsPerAddress {
		if _, err := report(fmt.Sprint("guest:", i), "192.0.2.1", fmt.Sprint("SHA256:victim", i), "K7QX"); err != nil {
			t.Fatalf("report %d: %v", i+1, err)
		}
	}
	if _, err := report("guest:fresh", "192.0.2.1", "SHA256:victim", "K7QX"); !errors.Is(err, moderation.ErrTooManyReports) {
		t.Fatalf("past the address's budget: %v", err)
	}
	// One player from many addresses: the reporter's budget.
	for i := range moderation.ReportsPerReporter {
		if _, err := report("SHA256:angry", fmt.Sprint("198.51.100.", i), fmt.Sprint("SHA256:other", i), "ABCD"); err != nil {
			t.Fatalf("report %d: %v", i+1, err)
		}
	}
	if _, err := report("SHA256:angry", "198.51.100.99", "SHA256:other", "ABCD"); !errors.Is(err, moderation.ErrTooManyReports) {
		t.Fatalf("past the reporter's budget: %v", err)
	}
	clk.Advance(moderation.ReportWindow)
	if _, err := report("guest:fresh", "192.0.2.1", "SHA256:x", "K7QX"); err != nil {
		t.Fatalf("a window later: %v", err)
	}
	// Many reporters about one player at one table: one report, counted.
	before, _ := s.Reports()
	for i := range 30 {
		if _, err := report(fmt.Sprint("guest:mob", i), fmt.Sprint("203.0.113.", i), "SHA256:troll", "ZZZZ"); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := s.Reports()
	if len(after) != len(before)+1 || after[len(after)-1].Times() != 30 {
		t.Fatalf("30 reports about one player at one table: %d new records, the last %d times", len(after)-len(before), after[len(after)-1].Times())
	}
	// At many tables: at most MaxOpenReportsAbout records about them.
	for i := range 40 {
		if _, err := report(fmt.Sprint("guest:roam", i), fmt.Sprint("203.0.114.", i), "SHA256:roamer", fmt.Sprint("T", i)); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := s.Reports()
	about := 0
	for _, r := range all {
		if r.Subject == "SHA256:roamer" {
			about++
		}
	}
	if about != moderation.MaxOpenReportsAbout {
		t.Errorf("%d open reports about one player, want %d", about, moderation.MaxOpenReportsAbout)
	}
	// Resolved ones go after ReportsKept, at the next report an hour on.
	if _, err := s.Resolve(moderation.Person{ID: ada.ID, Name: "Ada"}, 1, "done"); err != nil {
		t.Fatal(err)
	}
	clk.Advance(moderation.ReportsKept + time.Hour)
	if _, err := report("guest:late", "192.0.2.200", "SHA256:y", "K7QX"); err != nil {
		t.Fatal(err)
	}
	if rs, _ := st.Reports(); len(rs) != len(all) { // one resolved gone, one new
		t.Errorf("%d reports kept, want %d", len(rs), len(all))
	}
}
