package server

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// noSanctions fails unless `admin bans` lists none: a refused command
// changed nothing.
func noSanctions(t *testing.T, run func(string, int, ...string) string) {
	t.Helper()
	run("bans", 0, `^No bans or mutes\.\n$`)
}

// Issue 37 item 1: a bad duration is an error naming what was wrong, with
// a non-zero exit status and nobody banned or muted; "for good" only when
// the admin writes forever; a name matches exactly, never by prefix, and
// one that lost its quotes in the admin's shell is pointed at; every
// command refuses a word beyond its grammar.
func TestBadDurationsAndNamesBanNobody(t *testing.T) {
	t.Parallel()
	adminKey, otherAdmin := sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey, otherAdmin)
	srv, addr := startModerated(t, t.TempDir(), adminsFile)
	run := adminRun(t, addr, adminKey)
	carl := sshtest.Dial(t, addr, sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithUser("carl"), sshtest.WithPTY(80, 24))
	carl.ExpectScreen(t, `carl`, 5*time.Second)
	jean := sshtest.Dial(t, addr, sshtest.WithKey(sshtest.NewKey(t)), sshtest.WithUser("jean luc"), sshtest.WithPTY(80, 24))
	jean.ExpectScreen(t, `jean luc`, 5*time.Second)

	for cmd, says := range map[string]string{
		"ban carl -1h":                    `-1h: a duration cannot be negative\.`,
		"ban carl 99999999999999999999d":  `99999999999999999999d is longer than 10 years: for no end, write forever\.`,
		"mute carl 99999999999999999999d": `is longer than 10 years`,
		"ban carl 42 spam":                `42 has no unit: write 30m, 2h, 7d or 2w`,
		"ban carl spam":                   `spam is not a duration: say for how long before the reason, .* or forever\.`,
		"ban carl 1.5h":                   `1\.5h: a duration is a whole number; write 90m rather than 1\.5h\.`,
		"ban carl 0m":                     `0m is no time at all`,
		"mute carl 7 days":                `7 has no unit`,
		"ban ca 2h":                       `Nobody called ca is known here\.`,
		"ban jean luc 30m":                `Nobody called jean is known here; did you mean jean luc\? A name with spaces goes in quotes, and over ssh in quotes again: ssh HOST 'admin ban "jean luc" …'\.`,
		"ban 203.0.113.7 2x":              `2x: x is not a unit`,
		"ban carl":                        `Usage: ban NAME\|ADDRESS DURATION`,
	} {
		out := run(cmd, 1, says)
		if strings.Contains(out, "banned") || strings.Contains(out, "muted") {
			t.Errorf("%s: %s", cmd, out)
		}
	}
	noSanctions(t, run)

	run = adminRun(t, addr, otherAdmin) // a fresh budget of commands: these are many
	for cmd, extra := range map[string]string{
		"who now":            `now is one word too many\. Usage: who`,
		"tables all":         `all is one word too many\. Usage: tables`,
		"bans please":        `please is one word too many\. Usage: bans`,
		"log 100":            `100 is one word too many\. Usage: log`,
		"help ban":           `ban is one word too many\. Usage: help`,
		"unban carl now":     `now is one word too many\. Usage: unban NAME\|ADDRESS`,
		"unmute carl now":    `now is one word too many\. Usage: unmute NAME`,
		"close ABCD EFGH":    `EFGH is one word too many\. Usage: close CODE`,
		"invite 3 7d 5":      `5 is one word too many\. Usage: invite \[USES\] \[DURATION\]`,
		"invite 3 5":         `5 is one word too many`,
		"invite 7d 3d":       `3d is one word too many`,
		"invites all":        `all is one word too many\. Usage: invites`,
		"uninvite ab cd":     `cd is one word too many\. Usage: uninvite TAG`,
		"admitted x":         `x is one word too many\. Usage: admitted`,
		"unadmit carl x":     `x is one word too many\. Usage: unadmit NAME\|KEY`,
		"history carl x":     `x is one word too many\. Usage: history NAME\|KEY`,
		"reports all 2 more": `more is one word too many\. Usage: reports \[all\] \[PAGE\]`,
		"reports lots":       `Usage: reports \[all\] \[PAGE\]`,
	} {
		run(cmd, 1, extra)
	}
	if invs, _ := srv.Access().Invites(); len(invs) != 0 {
		t.Errorf("a refused invite command made %d invites", len(invs))
	}

	// The name with its quotes kept (`ssh host 'admin ban "jean luc" 30m'`),
	// and for good only when written.
	run(`ban "jean luc" 30m`, 0, `jean luc is banned for 30 minutes, until`)
	run("ban carl forever spam", 0, `carl is banned for good\.`)
	run("bans", 0, `ban\s+carl\s+for good\s+by ada\s+spam`, `ban\s+jean luc\s+until`)
	carl.Wait(t, 5*time.Second)
	if why := leftClean(carl.Transcript(), "You are banned from this server. Reason: spam"); why != "" {
		t.Errorf("carl's terminal: %s", why)
	}
}

// Names are matched exactly, case and look-alikes folded: a name two
// players have gone by is refused with both, by key, and nobody is
// banned; the key then names the one meant.
func TestAmbiguousNameBansNobody(t *testing.T) {
	t.Parallel()
	srv, _, run := startWithAdmin(t)
	// Two players seen as anna (the name changed hands): one as "Аnna",
	// with a Cyrillic А.
	srv.Moderation().Saw(moderation.Person{ID: "SHA256:first-anna", Name: "anna", Addr: "192.0.2.1"}, "")
	srv.Moderation().Saw(moderation.Person{ID: "SHA256:second-anna", Name: "Аnna", Addr: "192.0.2.2"}, "")
	srv.Moderation().Flush()
	run("ban ANNA 2h", 1, `ANNA could be any of anna \(SHA256:first-anna\) and Аnna \(SHA256:second-anna\): nothing was done\. Name one by the key or ID that admin who shows\.`)
	noSanctions(t, run)
	run("ban SHA256:second-anna 2h", 0, `Аnna is banned for 2 hours`, `until \S+ \S+ UTC their address 192\.0\.2\.2`)
}

// Issue 37 item 3: a ban holds the player's key, and for the ban (a day
// at most) their last address for guests and keys the server never saw:
// the troll is refused coming back with a new key or as a guest, with the
// ban's message; a key known before the ban comes in from the same
// address; --key-only leaves the address alone; a guest banned offline
// has their last address held; an address ban holds everyone but admins.
// After a restart it all still holds.
func TestBanHoldsTheKeyAndTheAddress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	adminKey, trollKey, housemate, fresh := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	adminsFile := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, adminsFile, adminKey)
	srv, addr := startModerated(t, dir, adminsFile)
	run := adminRun(t, addr, adminKey)
	if !runs(t, addr, sshtest.WithKey(housemate)) { // seen before the ban, from the same address
		t.Fatal("the housemate did not get in")
	}
	troll := sshtest.Dial(t, addr, sshtest.WithKey(trollKey), sshtest.WithUser("troll"), sshtest.WithPTY(80, 24))
	troll.ExpectScreen(t, `troll`, 5*time.Second)
	srv.Moderation().Flush()

	run("ban troll 2h insults", 0, `troll is banned for 2 hours, until \S+ \S+ UTC\.\nThe ban holds their key, and until \S+ \S+ UTC their address 127\.0\.0\.1 for guests and for keys new to this server\.`)
	troll.Wait(t, 5*time.Second)
	banned := `You are banned from this server for 2 hours, until \S+ \S+ UTC\. Reason: insults`
	for what, opts := range map[string][]sshtest.Option{
		"with a new key":   {sshtest.WithKey(fresh), sshtest.WithUser("notatroll")},
		"as a guest":       {sshtest.AsGuest(), sshtest.WithUser("guest")},
		"with the old key": {sshtest.WithKey(trollKey)},
	} {
		got := refusal(t, addr, opts...)
		if !regexp.MustCompile(banned).MatchString(got) {
			t.Errorf("the troll back %s was told %q", what, got)
		}
		if what != "with the old key" && !strings.Contains(got, "The ban holds this address for guests and new keys") {
			t.Errorf("the troll back %s was not told the ban holds the address: %q", what, got)
		}
	}
	if !runs(t, addr, sshtest.WithKey(housemate)) {
		t.Error("a key known before the ban was kept out of the banned address")
	}
	if !runs(t, addr, sshtest.WithKey(adminKey)) {
		t.Error("an admin was kept out of the banned address")
	}
	run("unban troll", 0, `troll is no longer banned\.`)
	if !runs(t, addr, sshtest.AsGuest()) {
		t.Fatal("a guest is still kept out after the unban")
	}

	// --key-only: the address stays open.
	run("ban troll 2h --key-only shared school", 0, `The ban holds their key only \(--key-only\): others at their address still come in\.`)
	if !runs(t, addr, sshtest.AsGuest()) {
		t.Error("a key-only ban kept a guest out")
	}
	refusal(t, addr, sshtest.WithKey(trollKey))
	run("unban troll", 0)

	// A guest banned while offline: their last address is held.
	gus := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("gus"), sshtest.WithPTY(80, 24))
	gus.ExpectScreen(t, `gus`, 5*time.Second)
	gus.Close()
	waitUntil(t, "gus to be gone", func() bool { return len(srv.live.Of(guestOf(t, srv, "gus"))) == 0 })
	run("ban gus 1h", 0, `gus is banned for 1 hour`, `The ban holds this guest, and until \S+ \S+ UTC their address 127\.0\.0\.1`)
	if got := refusal(t, addr, sshtest.AsGuest()); !strings.Contains(got, "You are banned from this server for 1 hour") {
		t.Errorf("a new guest from the banned guest's address: %q", got)
	}
	run("unban gus", 0)

	// An address ban: everyone but admins.
	run("ban 127.0.0.0/24 1h botnet", 0, `127\.0\.0\.0/24 is banned for 1 hour, until \S+ \S+ UTC: nobody but admins comes in from there\.`)
	for _, opts := range [][]sshtest.Option{{sshtest.WithKey(housemate)}, {sshtest.AsGuest()}} {
		if got := refusal(t, addr, opts...); !strings.Contains(got, "Reason: botnet") {
			t.Errorf("from a banned range: %q", got)
		}
	}
	if !runs(t, addr, sshtest.WithKey(adminKey)) {
		t.Error("an admin was kept out by an address ban")
	}
	run("ban 10.0.0.0/8 1h", 1, `An address ban covers at most an IPv4 /16 or an IPv6 /32\.`)
	run("bans", 0, `ban\s+127\.0\.0\.0/24\s+until`)
	run("log", 0, `ada: banned 127\.0\.0\.0/24`, `ada: banned troll\s+\S+ \S+ UTC\s+insults\s+\+127\.0\.0\.1`)

	// A restart keeps the address ban.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	_, addr = startModerated(t, dir, adminsFile)
	if got := refusal(t, addr, sshtest.AsGuest()); !strings.Contains(got, "Reason: botnet") {
		t.Errorf("after a restart, from the banned range: %q", got)
	}
	run = adminRun(t, addr, adminKey)
	run("unban 127.0.0.0/24", 0, `127\.0\.0\.0/24 is no longer banned\.`)
	run("unban 127.0.0.0/24", 1, `127\.0\.0\.0/24 is not banned\.`)
	if !runs(t, addr, sshtest.AsGuest()) {
		t.Error("a guest is kept out after the address ban was lifted")
	}
}

// A newcomer an admin invites after a ban is no stranger: the banned
// player's address does not keep their new key out (it did: the invite
// was spent and the newcomer refused for the troll's ban).
func TestInvitedKeyPassesABannedPlayersAddress(t *testing.T) {
	t.Parallel()
	trollKey, invited := sshtest.NewKey(t), sshtest.NewKey(t)
	srv, addr, run := startWithAdmin(t)
	troll := sshtest.Dial(t, addr, sshtest.WithKey(trollKey), sshtest.WithUser("troll"), sshtest.WithPTY(80, 24))
	troll.ExpectScreen(t, `troll`, 5*time.Second)
	srv.Moderation().Flush()
	run("ban troll 2h", 0, `their address 127\.0\.0\.1 for guests and for keys new to this server`)
	out := run("invite 1 1d", 0, `Invite code (\S+),`)
	code := regexp.MustCompile(`Invite code (\S+),`).FindStringSubmatch(out)[1]
	if !runs(t, addr, sshtest.WithKey(invited), sshtest.WithUser(sshserver.InvitePrefix+code)) {
		t.Error("an invite made after the ban did not let a new key in from the banned address")
	}
	if !runs(t, addr, sshtest.WithKey(invited)) {
		t.Error("a key admitted by invite after the ban was kept out of the banned address")
	}
	if got := refusal(t, addr, sshtest.AsGuest()); !strings.Contains(got, "You are banned from this server") {
		t.Errorf("a guest from the banned address: %q", got)
	}
}

// guestOf is the identity of the guest this server knows as name.
func guestOf(t *testing.T, srv *Server, name string) string {
	t.Helper()
	for _, id := range srv.Moderation().SeenAs(name) {
		if strings.HasPrefix(id, "guest:") {
			return id
		}
	}
	t.Fatalf("no guest seen as %s", name)
	return ""
}
