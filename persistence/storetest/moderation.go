package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// moderation is the store's moderation part: every store has one.
func moderation(t *testing.T, s persistence.Store) persistence.Moderation {
	t.Helper()
	m, ok := s.(persistence.Moderation)
	if !ok {
		t.Fatalf("%T keeps no sanctions, audit log or reports (persistence.Moderation)", s)
	}
	return m
}

func testSanctionsPutReplaceDelete(t *testing.T, open Opener) {
	m := moderation(t, open(t, tickClock()))
	if got, err := m.Sanctions(); err != nil || len(got) != 0 {
		t.Fatalf("a new store's sanctions = %v, %v; want none", got, err)
	}
	at := time.Date(2026, 11, 27, 21, 0, 0, 0, time.UTC)
	ban := persistence.Sanction{Kind: persistence.SanctionBan, Subject: "SHA256:troll", Name: "Troll",
		Reason: "insults", By: "SHA256:admin", ByName: "Ada", At: at, Until: at.Add(2 * time.Hour)}
	guest := persistence.Sanction{Kind: persistence.SanctionBan, Subject: "guest:abc", Name: "Guest-7",
		Addr: "192.0.2.7", By: "SHA256:admin", ByName: "Ada", At: at} // for good
	mute := persistence.Sanction{Kind: persistence.SanctionMute, Subject: "SHA256:troll", Name: "Troll",
		By: "SHA256:admin", ByName: "Ada", At: at, Until: at.Add(30 * time.Minute)}
	for _, s := range []persistence.Sanction{mute, ban, guest} {
		if err := m.PutSanction(s); err != nil {
			t.Fatal(err)
		}
	}
	want := []persistence.Sanction{ban, guest, mute} // by kind, then subject
	if got, err := m.Sanctions(); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Sanctions = %+v, %v;\nwant %+v", got, err, want)
	}
	longer := ban
	longer.Until, longer.Reason = time.Time{}, "again"
	if err := m.PutSanction(longer); err != nil {
		t.Fatal(err)
	}
	want = []persistence.Sanction{longer, guest, mute}
	if got, err := m.Sanctions(); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after a second ban of the same player: %+v, %v;\nwant %+v", got, err, want)
	}
	if got, err := m.DeleteSanction(persistence.SanctionBan, "SHA256:troll"); err != nil || !reflect.DeepEqual(got, longer) {
		t.Fatalf("DeleteSanction = %+v, %v; want the ban removed", got, err)
	}
	if _, err := m.DeleteSanction(persistence.SanctionBan, "SHA256:troll"); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("deleting it again: %v; want ErrNotFound", err)
	}
	if got, err := m.Sanctions(); err != nil || !reflect.DeepEqual(got, []persistence.Sanction{guest, mute}) {
		t.Fatalf("after unban: %+v, %v; want the guest's ban and the mute", got, err)
	}
	for _, bad := range []persistence.Sanction{{Kind: "exile", Subject: "SHA256:x"}, {Kind: persistence.SanctionBan}} {
		if err := m.PutSanction(bad); !errors.Is(err, persistence.ErrInvalid) {
			t.Errorf("PutSanction(%+v) = %v; want ErrInvalid", bad, err)
		}
	}
}

func testAuditKeepsEveryActionInOrder(t *testing.T, open Opener) {
	m := moderation(t, open(t, tickClock()))
	var made []persistence.AuditEntry
	for i, what := range []string{"ban", "mute", "kick", "unban", "close"} {
		e, err := m.AppendAudit(persistence.AuditEntry{By: "SHA256:admin", ByName: "Ada", Action: what,
			Subject: "SHA256:troll", SubjectName: "Troll", Reason: string(rune('a' + i))})
		if err != nil {
			t.Fatal(err)
		}
		if e.ID == "" || e.At.IsZero() {
			t.Fatalf("AppendAudit returned %+v; want an ID and a time", e)
		}
		made = append(made, e)
	}
	if got, err := m.Audit(0); err != nil || !reflect.DeepEqual(got, made) {
		t.Fatalf("Audit(0) = %+v, %v;\nwant %+v", got, err, made)
	}
	if got, err := m.Audit(2); err != nil || !reflect.DeepEqual(got, made[3:]) {
		t.Fatalf("Audit(2) = %+v, %v; want the last two, oldest first", got, err)
	}
}

func testReportsAreKept(t *testing.T, open Opener) {
	m := moderation(t, open(t, tickClock()))
	r, err := m.FileReport(persistence.Report{Reporter: "SHA256:victim", ReporterName: "Vic", Subject: "SHA256:troll",
		SubjectName: "Troll", Table: "K7QX", Reason: "insults everyone", Evidence: []string{"Troll: you all stink", "Vic: stop"}})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := m.FileReport(persistence.Report{Reporter: "SHA256:other", Subject: "SHA256:troll", Reason: "spam"})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == "" || r.At.IsZero() || r.ID == r2.ID {
		t.Fatalf("reports got IDs %q, %q and time %v; want distinct IDs and a time", r.ID, r2.ID, r.At)
	}
	if got, err := m.Reports(); err != nil || !reflect.DeepEqual(got, []persistence.Report{r, r2}) {
		t.Fatalf("Reports = %+v, %v; want both, in order", got, err)
	}
	if _, err := m.FileReport(persistence.Report{Subject: "SHA256:troll"}); !errors.Is(err, persistence.ErrInvalid) {
		t.Fatalf("a report with no reporter: %v; want ErrInvalid", err)
	}

	res := persistence.Resolution{By: "SHA256:admin", ByName: "Ada", At: time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC), Note: "warned"}
	got, err := m.ResolveReport(r.ID, res)
	if err != nil || got.Resolved == nil || *got.Resolved != res {
		t.Fatalf("ResolveReport = %+v, %v; want it resolved by Ada", got, err)
	}
	again := persistence.Resolution{By: "SHA256:other", ByName: "Bo", At: res.At.Add(time.Minute)}
	if _, err := m.ResolveReport(r.ID, again); !errors.Is(err, persistence.ErrExists) {
		t.Fatalf("resolving a resolved report: %v; want ErrExists", err)
	}
	if _, err := m.ResolveReport("no-such-report", res); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("resolving an unknown report: %v; want ErrNotFound", err)
	}
	r.Resolved = &res
	if all, err := m.Reports(); err != nil || !reflect.DeepEqual(all, []persistence.Report{r, r2}) {
		t.Fatalf("Reports after resolving = %+v, %v; want the first resolved by Ada (the first resolution stands), the second open", all, err)
	}

	// Repeats count into the open report; a resolved one takes none.
	at := res.At.Add(time.Hour)
	if got, err := m.RepeatReport(r2.ID, at); err != nil || got.Times() != 2 || !got.LastAt.Equal(at) {
		t.Fatalf("RepeatReport = %+v, %v; want it twice, last at %v", got, err, at)
	}
	if got, err := m.RepeatReport(r2.ID, at.Add(time.Minute)); err != nil || got.Times() != 3 {
		t.Fatalf("RepeatReport again = %+v, %v; want it three times", got, err)
	}
	if _, err := m.RepeatReport(r.ID, at); !errors.Is(err, persistence.ErrExists) {
		t.Fatalf("repeating a resolved report: %v; want ErrExists", err)
	}
	if _, err := m.RepeatReport("no-such-report", at); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("repeating an unknown report: %v; want ErrNotFound", err)
	}
	// Resolved reports are forgotten once old enough; open ones never.
	if n, err := m.ForgetReports(res.At); err != nil || n != 0 {
		t.Fatalf("ForgetReports(the moment it was resolved) = %d, %v; want none", n, err)
	}
	if n, err := m.ForgetReports(res.At.Add(time.Second)); err != nil || n != 1 {
		t.Fatalf("ForgetReports(after) = %d, %v; want the resolved one", n, err)
	}
	if all, err := m.Reports(); err != nil || len(all) != 1 || all[0].ID != r2.ID || all[0].Times() != 3 {
		t.Fatalf("Reports after forgetting = %+v, %v; want the open one, three times", all, err)
	}
}
