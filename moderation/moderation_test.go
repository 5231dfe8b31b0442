package moderation_test

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
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

// A duration is a number and one unit of a fixed list; every other word
// is refused with a message naming what is wrong with it, never taken for
// a reason or for "for good".
func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"30m": 30 * time.Minute, "2h": 2 * time.Hour, "7d": 7 * 24 * time.Hour, "2W": 14 * 24 * time.Hour, " 1m ": time.Minute,
		"3650d": moderation.MaxDuration, "90m": 90 * time.Minute,
	} {
		if got, err := moderation.ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	en := i18n.For(i18n.English)
	for bad, says := range map[string]string{
		"":                      "Say for how long",
		"m":                     "m is not a duration",
		"spam":                  "spam is not a duration",
		"7":                     "7 has no unit",
		"42":                    "42 has no unit",
		"0d":                    "0d is no time at all",
		"-1h":                   "-1h: a duration cannot be negative",
		"2x":                    "2x: x is not a unit",
		"7days":                 "7days: days is not a unit",
		"1.5h":                  "1.5h: a duration is a whole number",
		"3651d":                 "3651d is longer than 10 years",
		"99999999999999999999d": "99999999999999999999d is longer than 10 years",
		"2h30m":                 "2h30m is not a duration",
		"h2":                    "h2 is not a duration",
		"forever":               "forever is not a duration",
	} {
		_, err := moderation.ParseDuration(bad)
		if !errors.Is(err, moderation.ErrDuration) {
			t.Errorf("ParseDuration(%q) = %v; want ErrDuration", bad, err)
			continue
		}
		if got := en.Error(err); !strings.Contains(got, says) {
			t.Errorf("ParseDuration(%q) says %q; want it to say %q", bad, got, says)
		}
	}
	for in, want := range map[string]time.Duration{"forever": moderation.Forever, "PERMANENT": moderation.Forever, "2h": 2 * time.Hour} {
		if got, err := moderation.ParseTerm(in); err != nil || got != want {
			t.Errorf("ParseTerm(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "for", "good", "-1h", "99999999999999999999d", "spam"} {
		if _, err := moderation.ParseTerm(bad); !errors.Is(err, moderation.ErrDuration) {
			t.Errorf("ParseTerm(%q) = %v; want ErrDuration", bad, err)
		}
	}
}

func TestBanHoldsUntilItExpiresAndIsAudited(t *testing.T) {
	s, clk, _ := newService(t)
	sn, err := s.Ban(ada, troll, 2*time.Hour, "insults", moderation.BanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Refused(moderation.Visitor{ID: troll.ID, Addr: "203.0.113.1"}); !ok || got.Reason != "insults" || !got.Until.Equal(sn.Until) {
		t.Fatalf("Refused = %+v, %v; want the 2h ban", got, ok)
	}
	en := i18n.For(i18n.English)
	if got := en.Msg(moderation.Explain(sn, clk.Now().Add(30*time.Minute))); got != "You are banned from this server for 2 hours, until 2026-01-01 02:00 UTC. Reason: insults" {
		t.Errorf("explained as %q", got)
	}
	clk.Advance(2*time.Hour + time.Second)
	if _, ok := s.Banned(troll.ID); ok {
		t.Fatal("the ban still holds after it expired")
	}
	log, err := s.Log(0)
	if err != nil || len(log) != 1 || log[0].Action != "ban" || log[0].ByName != "Ada" || log[0].SubjectName != "Troll" || log[0].Reason != "insults" {
		t.Fatalf("audit log = %+v, %v", log, err)
	}
}

func TestGuestBanHoldsItsAddress(t *testing.T) {
	s, clk, _ := newService(t)
	sn, err := s.Ban(ada, guest, moderation.Forever, "", moderation.BanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sn.Addr != "192.0.2.7/32" || !sn.AddrUntil.Equal(sn.At.Add(moderation.MaxAddressHold)) {
		t.Fatalf("a ban for good holds the address %q until %v; want a day", sn.Addr, sn.AddrUntil)
	}
	if _, ok := s.Refused(moderation.Visitor{ID: "guest:new-code", Guest: true, Addr: guest.Addr}); !ok {
		t.Fatal("a banned guest came back under a new code from the same address")
	}
	got, ok := s.Banned(guest.ID)
	if !ok || !got.Permanent() {
		t.Fatalf("Banned = %+v, %v; want a ban for good", got, ok)
	}
	if got := i18n.For(i18n.Polish).Msg(moderation.Explain(got, time.Now())); got != "Masz bana na tym serwerze." {
		t.Errorf("explained in Polish as %q", got)
	}
	clk.Advance(moderation.MaxAddressHold)
	if _, ok := s.Refused(moderation.Visitor{ID: "guest:new-code", Guest: true, Addr: guest.Addr}); ok {
		t.Fatal("the address is still held a day after the ban: addresses change hands")
	}
	if _, ok := s.Refused(moderation.Visitor{ID: guest.ID, Guest: true, Addr: "203.0.113.9"}); !ok {
		t.Fatal("the banned guest's own code came in once the address part ended")
	}
}

// A player's ban holds their identity and, for as long as the ban but a
// day at most, their last address (an IPv6 one by its /64): guests and
// keys the server first saw after the ban are kept out from there, keys
// it knew before come in, and --key-only leaves the address out.
func TestPlayerBanHoldsTheirAddressForNewcomers(t *testing.T) {
	s, clk, _ := newService(t)
	anna := moderation.Person{ID: "SHA256:anna", Name: "anna", Addr: "2001:db8:1:2::7"}
	housemate := moderation.Person{ID: "SHA256:housemate", Name: "hm", Addr: "2001:db8:1:2::8"}
	s.Saw(housemate, "")
	s.Saw(anna, "")
	s.Flush()
	clk.Advance(time.Minute)
	sn, err := s.Ban(ada, moderation.Person{ID: anna.ID, Name: anna.Name}, 2*time.Hour, "spam", moderation.BanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sn.Addr != "2001:db8:1:2::/64" || !sn.AddrUntil.Equal(sn.Until) {
		t.Fatalf("the offline player's ban holds %q until %v; want her last address's /64 for the 2 hours", sn.Addr, sn.AddrUntil)
	}
	for _, c := range []struct {
		v    moderation.Visitor
		kept bool
	}{
		{moderation.Visitor{ID: anna.ID, Addr: "198.51.100.1"}, true},                    // her key from anywhere
		{moderation.Visitor{ID: "SHA256:new", Addr: "2001:db8:1:2:aaaa::1"}, true},       // a new key, a privacy address of the /64
		{moderation.Visitor{ID: "guest:x", Guest: true, Addr: "2001:db8:1:2::99"}, true}, // a guest there
		{moderation.Visitor{ID: housemate.ID, Addr: housemate.Addr}, false},              // a key seen there before the ban
		{moderation.Visitor{ID: "SHA256:new", Addr: "2001:db8:1:3::1"}, false},           // a new key elsewhere
		{moderation.Visitor{ID: ada.ID, Addr: "2001:db8:1:2::1"}, false},                 // an admin
		{moderation.Visitor{ID: "guest:y", Guest: true, Addr: "not an address"}, false},  // nothing to match
	} {
		if _, got := s.Refused(c.v); got != c.kept {
			t.Errorf("Refused(%+v) = %v, want %v", c.v, got, c.kept)
		}
	}
	if _, err := s.Unban(ada, anna.ID); err != nil {
		t.Fatal(err)
	}
	sn, err = s.Ban(ada, anna, time.Hour, "", moderation.BanOptions{KeyOnly: true})
	if err != nil || sn.Addr != "" {
		t.Fatalf("--key-only: %+v, %v", sn, err)
	}
	if _, ok := s.Refused(moderation.Visitor{ID: "guest:x", Guest: true, Addr: anna.Addr}); ok {
		t.Error("a key-only ban kept a guest at the address out")
	}
	nobody := moderation.Person{ID: "SHA256:ghost", Name: "ghost"}
	if sn, err := s.Ban(ada, nobody, time.Hour, "", moderation.BanOptions{}); err != nil || sn.Addr != "" {
		t.Errorf("a player never seen: %+v, %v; want the key alone", sn, err)
	}
}

// A key an admin let in by name after the ban (an invite, the allowlist)
// is no stranger: the banned player's address does not keep it out. An
// address ban still does.
func TestVouchedKeysPassABannedPlayersAddress(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clocktest.New()
	vouched := map[string]bool{}
	s := moderation.New(moderation.Options{Store: st, Admins: admins{ada.ID: true}, Clock: clk,
		Vouched: func(id string) bool { return vouched[id] }})
	troll := moderation.Person{ID: "SHA256:troll", Name: "troll", Addr: "192.0.2.7"}
	s.Saw(troll, "")
	s.Flush()
	clk.Advance(time.Minute)
	if _, err := s.Ban(ada, moderation.Person{ID: troll.ID, Name: troll.Name}, 2*time.Hour, "", moderation.BanOptions{}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	friend := moderation.Visitor{ID: "SHA256:invited", Addr: "192.0.2.7"}
	if _, ok := s.Refused(friend); !ok {
		t.Fatal("a new key at the banned address came in before anyone vouched for it")
	}
	vouched[friend.ID] = true
	if _, ok := s.Refused(friend); ok {
		t.Error("a key an admin invited after the ban was kept out by the banned player's address")
	}
	if _, err := s.BanAddress(ada, netip.MustParsePrefix("192.0.2.0/24"), time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Refused(friend); !ok {
		t.Error("an address ban let a vouched key in")
	}
}

// An address ban holds everyone from the address or range but admins,
// for as long as it lasts; too wide a range, and too many, are refused.
func TestAddressBans(t *testing.T) {
	s, clk, _ := newService(t)
	p, err := moderation.ParseAddress("203.0.113.0/24")
	if err != nil {
		t.Fatal(err)
	}
	sn, err := s.BanAddress(ada, p, 3*24*time.Hour, "botnet")
	if err != nil || !moderation.IsAddressBan(sn) || sn.Name != "203.0.113.0/24" {
		t.Fatalf("BanAddress = %+v, %v", sn, err)
	}
	for v, kept := range map[moderation.Visitor]bool{
		{ID: "SHA256:old", Addr: "203.0.113.200"}:         true,
		{ID: "guest:g", Guest: true, Addr: "203.0.113.1"}: true,
		{ID: "SHA256:old", Addr: "203.0.114.1"}:           false,
		{ID: ada.ID, Addr: "203.0.113.5"}:                 false,
	} {
		if _, got := s.Refused(v); got != kept {
			t.Errorf("Refused(%+v) = %v, want %v", v, got, kept)
		}
	}
	clk.Advance(3 * 24 * time.Hour)
	if _, ok := s.Refused(moderation.Visitor{ID: "SHA256:old", Addr: "203.0.113.200"}); ok {
		t.Error("the address ban holds after it ended")
	}
	for _, wide := range []string{"10.0.0.0/8", "2001:db8::/16", "0.0.0.0/0"} {
		p, _ := moderation.ParseAddress(wide)
		if _, err := s.BanAddress(ada, p, time.Hour, ""); !errors.Is(err, moderation.ErrAddressTooWide) {
			t.Errorf("banning %s: %v", wide, err)
		}
	}
	for _, word := range []string{"203.0.113", "carl", "fe80::1%eth0", "2001:db8::/129"} {
		if _, err := moderation.ParseAddress(word); !errors.Is(err, moderation.ErrNotAnAddress) {
			t.Errorf("ParseAddress(%q) = %v", word, err)
		}
	}
	if p, err := moderation.ParseAddress("::ffff:192.0.2.1"); err != nil || p.String() != "192.0.2.1/32" {
		t.Errorf("a mapped IPv4 address: %v, %v", p, err)
	}
}

func TestAdminsAndSelfCannotBeSanctioned(t *testing.T) {
	s, _, _ := newService(t)
	other := moderation.Person{ID: "SHA256:bob", Name: "Bob"}
	s.SetAdmins(admins{ada.ID: true, other.ID: true})
	if _, err := s.Ban(ada, other, 0, "", moderation.BanOptions{}); !errors.Is(err, moderation.ErrAdminImmune) {
		t.Errorf("banning an admin: %v", err)
	}
	if _, err := s.Mute(ada, other, 0, ""); !errors.Is(err, moderation.ErrAdminImmune) {
		t.Errorf("muting an admin: %v", err)
	}
	if _, err := s.Ban(ada, ada, 0, "", moderation.BanOptions{}); !errors.Is(err, moderation.ErrSelf) {
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
	if _, ok := s.Banned(troll.ID); ok {
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
	if _, ok := s.Banned(troll.ID); ok {
		t.Fatal("banned before anything happened")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan moderation.Sanction, 1)
	set := clk.Live() // the sightings' prune timer, set by New
	go s.Watch(ctx, func(sn moderation.Sanction) { got <- sn })
	clk.WaitTimers(t, set+1) // Watch's refresh: the clock moves only once it is set
	other := moderation.New(moderation.Options{Store: st, Clock: clk})
	if _, err := other.Ban(ada, troll, 0, "spam", moderation.BanOptions{}); err != nil {
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
	if _, ok := s.Banned(troll.ID); !ok {
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
