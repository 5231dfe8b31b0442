package werewolfui

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden")

var clock0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// asciiTheme is a theme whose renderer writes plain text (NO_COLOR).
func asciiTheme() *uikit.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return uikit.New(r)
}

// newScreen is a standalone screen (its own help bar) on a fixed clock.
func newScreen(u table.Update, w, h int) *Screen {
	s := New(asciiTheme())
	s.now = func() time.Time { return clock0 }
	s.SetHelpBar(true)
	s.SetSize(w, h)
	s.SetUpdate(u)
	return s
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// checkFits: exactly h lines, none wider than w, no escape codes.
func checkFits(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide (max %d): %q", i+1, n, w, l)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("escape codes in Ascii output")
	}
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// goldenCase is one of the screens drawn by TestGoldenScreens (and, in
// every language, by TestEveryScreenFitsInEveryLanguage).
type goldenCase struct {
	name  string
	u     func(t *testing.T) table.Update
	later time.Duration // how long the screen has been showing this update
	want  []string
	not   []string
}

func goldenCases() []goldenCase {
	return []goldenCase{
		{"night-wolf", func(t *testing.T) table.Update { return starterWolves(t).update(4) },
			0, []string{"NIGHT 1 · The werewolves", "Your card: WEREWOLF", "pack: Bob", "◀ Bob", "enter devour",
				"[pack] Bob: Dee talks too much", "Picks: Bob → Dee · you → nobody yet"}, nil},
		{"night-asleep", func(t *testing.T) table.Update { return starterWolves(t).update(0) },
			0, []string{"You are asleep", "face down", "c look at card", "Seer · Villager ×5"},
			[]string{"VILLAGER", "Bob points", "talks too much", "Your card:"}},
		{"seer-result", func(t *testing.T) table.Update {
			tb := newTable(t, werewolf.DefaultOptions(), starterDeal())
			tb.until(werewolf.PhaseSeer)
			tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 1})
			return tb.update(2)
		}, 0, []string{"NIGHT 1 · The seer", "Vision: the card of Bob is Werewolf.", "seen: Werewolf", "You have acted"}, nil},
		{"witch", func(t *testing.T) table.Update { return classicWitch(t).update(0) },
			0, []string{"Tonight's victim: Cid.", "h heal Cid", "↑/↓ player", "x done", "potions: heal ✓ poison ✓",
				"♥ in love with Dee", "victim"}, nil},
		{"dawn", func(t *testing.T) table.Update { return starterDawn(t).update(0) },
			0, []string{"DAY 1 · Dawn", "Dee was devoured by the werewolves. Card:", "† Villager, devoured"}, nil},
		{"discussion", func(t *testing.T) table.Update {
			tb := starterDawn(t)
			tb.until(werewolf.PhaseDiscussion)
			tb.say(2, "I saw Bob's card last night. Bob is a werewolf!")
			tb.say(1, "Cid is lying, I am a simple villager")
			tb.do(2, ready())
			return tb.update(0)
		}, 0, []string{"DAY 1 · Discussion", "Ready to vote: 1/7 · r when you are ready", "r ready",
			"In the game: Werewolf ×2"}, nil},
		{"day-vote", func(t *testing.T) table.Update { return starterVote(t).update(0) },
			0, []string{"DAY 1 · The vote", "Your sealed ballot: Bob", "Ballots cast: 3/7", "◆ your vote", "x abstain",
				"Cid: I saw Bob's card last night"}, []string{"→"}},
		{"vote-reveal", func(t *testing.T) table.Update { return starterVerdict(t).update(0) },
			10 * time.Second, []string{"The ballots are opened 7/7", "Ann→Bob", "Tally: Bob 4 · Cid 3 ⇒ Bob is lynched",
				"→ Bob", "† Werewolf, lynched"}, nil},
		{"dead-chat", func(t *testing.T) table.Update { return starterNight2Dead(t).update(3) },
			0, []string{"in the graveyard", "You are dead", "[dead] Dee: They got me first", "[dead] Bob: Guilty",
				"Werewolf"}, []string{"face down"}},
		{"game-over", func(t *testing.T) table.Update { return starterOver(t).update(0) },
			0, []string{"GAME OVER", "The village wins", "✓", "Eve", "Werewolf", "Village", "Eve: well played, seer"}, nil},
		{"thief", func(t *testing.T) table.Update {
			tb := newTable(t, werewolf.ClassicOptions(), classicDeal())
			tb.until(werewolf.PhaseThief)
			return tb.update(7)
		}, 0, []string{"NIGHT 1 · The thief", "Middle cards: [1] Villager [2] Villager", "1/2 take card", "x keep card"}, nil},
		{"little-girl", func(t *testing.T) table.Update {
			o := werewolf.ClassicOptions()
			o.LittleGirlRelay, o.LittleGirlCatch = 1, 0
			tb := newTable(t, o, classicDeal())
			tb.until(werewolf.PhaseWolves)
			tb.do(6, werewolf.Action{Kind: werewolf.KindPeek, On: true})
			tb.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 2})
			tb.do(4, werewolf.Action{Kind: werewolf.KindSay, Text: "Cid, and quickly, Eve"})
			return tb.update(6)
		}, 0, []string{"Your eyes are half open", "glimpse: A werewolf points at Cid.", "[glimpse] A werewolf: Cid, and quickly,", "p close eyes"},
			[]string{"Bob points", "Eve:", "quickly, Eve"}},
		{"hunter", func(t *testing.T) table.Update {
			tb := classicWitch(t)
			tb.do(0, werewolf.Action{Kind: werewolf.KindWitchPoison, Target: 3})
			tb.until(werewolf.PhaseHunterShot)
			return tb.update(3)
		}, 0, []string{"The hunter's last shot", "You are dying: shoot a player", "↑/↓ player", "x lower rifle"}, []string{"enter shoot", "▸ 2 Bob"}},
		{"sheriff-campaign", func(t *testing.T) table.Update {
			tb := classicWitch(t)
			tb.do(0, werewolf.Action{Kind: werewolf.KindWitchHeal})
			tb.until(werewolf.PhaseSheriffCampaign)
			tb.do(1, werewolf.Action{Kind: werewolf.KindStand, On: true})
			tb.do(1, ready())
			return tb.update(2)
		}, 0, []string{"Sheriff campaign", "Candidates: Bob", "Ready: 1/8", "s stand for sheriff", "r ready", "candidate"}, nil},
		{"spectator", func(t *testing.T) table.Update { return starterVote(t).update(game.Spectator) },
			0, []string{"You are watching", "Ballots cast: 3/7", "Q leave"}, []string{"your vote"}},
	}
}

func TestGoldenScreens(t *testing.T) {
	tests := goldenCases()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(tt.u(t), 80, 24)
			if tt.later > 0 {
				s.now = func() time.Time { return clock0.Add(tt.later) }
			}
			out := s.View()
			checkFits(t, out, 80, 24)
			f := flat(out)
			for _, w := range tt.want {
				if !strings.Contains(f, w) {
					t.Errorf("screen lacks %q", w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(f, w) {
					t.Errorf("screen shows %q", w)
				}
			}
			golden(t, tt.name, out)
		})
	}
}

// TestSleepersSeeTheSameNight: in the wolves' step, Ann's screen is the same
// whether she is a simple villager or the seer who acted earlier tonight,
// and whatever the seer saw (spec §11.2, §16 scenario 48).
func TestSleepersSeeTheSameNight(t *testing.T) {
	run := func(annIsSeer bool, seen game.Seat) string {
		deal := starterDeal()
		if annIsSeer {
			deal[0], deal[2] = deal[2], deal[0]
		}
		tb := newTable(t, werewolf.DefaultOptions(), deal)
		tb.until(werewolf.PhaseSeer)
		seer := game.Seat(2)
		if annIsSeer {
			seer = 0
		}
		tb.do(seer, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: int(seen)})
		tb.until(werewolf.PhaseWolves)
		tb.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
		u := tb.update(0)
		u.Seq = 0 // the actor's count of actions differs; the screen never shows it
		return newScreen(u, 80, 24).View()
	}
	villager := run(false, 1)
	for _, c := range []struct {
		seer bool
		seen game.Seat
	}{{true, 1}, {true, 4}, {false, 4}} {
		if got := run(c.seer, c.seen); got != villager {
			t.Errorf("Ann seer=%v (saw seat %d): the sleeping screen differs\n--- villager ---\n%s\n--- this ---\n%s",
				c.seer, c.seen, villager, got)
		}
	}
	// The golden night-asleep is this same screen.
	golden(t, "night-asleep", villager)
}

func TestCupidPicksTwo(t *testing.T) {
	tb := newTable(t, werewolf.ClassicOptions(), classicDeal())
	tb.until(werewolf.PhaseCupid)
	s := newScreen(tb.update(5), 80, 24)
	if got := keys(s, "enter"); len(got) != 0 {
		t.Fatalf("enter with nobody chosen acts: %#v", got)
	}
	if got := keys(s, "down", "enter"); len(got) != 0 {
		t.Fatalf("the first pick acts: %#v", got)
	}
	if strings.Contains(flat(s.View()), "▸ 2 Bob") {
		t.Fatal("the cursor jumped after the first pick")
	}
	keys(s, "down")
	out := s.View()
	checkFits(t, out, 80, 24)
	for _, w := range []string{"First lover: Ann", "enter link Ann+Bob", "esc undo pick", "▸ 2 Bob", "1 Ann ♥"} {
		if !strings.Contains(flat(out), w) {
			t.Errorf("screen lacks %q", w)
		}
	}
	golden(t, "cupid", out)
	if got := keys(s, "enter"); len(got) != 0 {
		t.Fatalf("the link went out without a confirmation: %#v", got)
	}
	if f := flat(s.View()); !strings.Contains(f, "Link Ann and Bob? This cannot be") || !strings.Contains(f, "esc cancel") {
		t.Errorf("no confirmation asked:\n%s", s.View())
	}
}

// TestIrreversibleChoicesAskTwice: the hunter's prompt opens with nobody in
// his sights, so a stray enter (meant for a vote that just closed) shoots
// nobody; a target asks for a second enter; esc or a move of the cursor
// cancels (issue 19 item 3).
func TestIrreversibleChoicesAskTwice(t *testing.T) {
	tb := classicWitch(t)
	tb.do(0, werewolf.Action{Kind: werewolf.KindWitchPoison, Target: 3})
	tb.until(werewolf.PhaseHunterShot)
	u := tb.update(3)
	s := newScreen(u, 80, 24)
	if got := keys(s, "enter", "enter"); len(got) != 0 {
		t.Fatalf("stray enters shot: %#v", got)
	}
	if got := keys(s, "down", "enter"); len(got) != 0 {
		t.Fatalf("one enter shot: %#v", got)
	}
	if f := flat(s.View()); !strings.Contains(f, "Shoot Bob? This cannot") {
		t.Fatalf("no confirmation on screen:\n%s", s.View())
	}
	if got := keys(s, "esc", "enter"); len(got) != 0 {
		t.Fatalf("esc did not cancel: %#v", got)
	}
	if got := keys(s, "down", "up", "enter"); len(got) != 0 {
		t.Fatalf("moving should cancel, then one enter asks again: %#v", got)
	}
	if got := keys(s, "down", "enter"); len(got) != 0 {
		t.Fatalf("a move after the question cancels it: %#v", got)
	}
	want := actMsg(u.Seq, werewolf.Action{Kind: werewolf.KindHunterShoot, Target: 4}) // Eve: Cid and Dee are dead
	if got := keys(s, "enter"); !reflect.DeepEqual(got, want) {
		t.Fatalf("the confirmed shot: %#v, want %#v", got, want)
	}
}

func TestLogScrolls(t *testing.T) {
	s := newScreen(starterVote(t).update(0), 80, 24)
	newest := s.View()
	keys(s, "[")
	if older := s.View(); older == newest || !strings.Contains(older, "(older; ] for newer)") {
		t.Errorf("[ should scroll the log back:\n%s", older)
	}
	keys(s, "]")
	if s.View() != newest {
		t.Errorf("] should come back to the newest lines:\n%s", s.View())
	}
}

func TestSleepersCardTurnsUpOnRequest(t *testing.T) {
	s := newScreen(starterWolves(t).update(2), 80, 24)
	if out := flat(s.View()); strings.Contains(out, "SEER") || !strings.Contains(out, "face down") {
		t.Fatalf("asleep, the seer's card should lie face down:\n%s", s.View())
	}
	keys(s, "c")
	if out := flat(s.View()); !strings.Contains(out, "Your card: SEER") || strings.Contains(out, "seen: Werewolf") {
		t.Errorf("c should turn up the card alone:\n%s", s.View())
	}
	keys(s, "c")
	if out := flat(s.View()); strings.Contains(out, "SEER") {
		t.Errorf("c again should turn it down:\n%s", s.View())
	}
}

func TestVoteRevealedVoterByVoter(t *testing.T) {
	u := starterVerdict(t).update(0)
	s := newScreen(u, 80, 24)
	for i, want := range []string{"1/7", "2/7", "3/7"} {
		s.now = func() time.Time { return clock0.Add(time.Duration(i) * revealEvery) }
		out := flat(s.View())
		if !strings.Contains(out, "The ballots are opened "+want) {
			t.Errorf("after %d steps: want %s revealed:\n%s", i, want, s.View())
		}
		if strings.Contains(out, "Tally:") {
			t.Errorf("tally shown before every ballot is open:\n%s", s.View())
		}
	}
	// The reveal ticks while it runs, and the tick chain stops after.
	s.now = func() time.Time { return clock0 }
	if cmd := s.Update(uikit.UpdateMsg{Update: &u}); cmd == nil {
		t.Error("no tick while revealing")
	}
}

func TestCountdownTicksOnlyWhileATimerRuns(t *testing.T) {
	u := starterVote(t).update(0)
	s := newScreen(u, 80, 24)
	if !strings.Contains(s.View(), "0:45 left") {
		t.Errorf("countdown missing:\n%s", s.View())
	}
	cmd := s.Update(uikit.UpdateMsg{Update: &u})
	if cmd == nil {
		t.Fatal("no tick with a timer running")
	}
	if cmd := s.Update(uikit.UpdateMsg{Update: &u}); cmd != nil {
		t.Error("a second Update of the same phase started a second timer")
	}
	u.Deadline = 0
	if cmd := s.Update(uikit.UpdateMsg{Update: &u}); cmd != nil {
		t.Error("ticking without a timer")
	}
	over := starterOver(t).update(0)
	over.Deadline = 12
	if cmd := s.Update(uikit.UpdateMsg{Update: &over}); cmd != nil {
		t.Error("ticking after the game")
	}
}

func TestWindowTooSmall(t *testing.T) {
	u := starterVote(t).update(0)
	out := newScreen(u, 30, 6).View()
	checkFits(t, out, 30, 6)
	if got := flat(out); !strings.Contains(got, "window too small: need 80×24, have 30×6") {
		t.Errorf("too-small message missing: %q", out)
	}
	golden(t, "too-small", out)
	if out := newScreen(u, 79, 24).View(); !strings.Contains(out, "too small") {
		t.Error("79×24 should be too small")
	}
	if out := newScreen(u, 80, 23).View(); !strings.Contains(out, "too small") {
		t.Error("80×23 with the help bar should be too small")
	}
	s := newScreen(u, 80, 23)
	s.SetHelpBar(false) // the root draws the help bar on the 24th line
	if out := s.View(); strings.Contains(out, "too small") {
		t.Error("80×23 without the help bar should fit")
	} else {
		checkFits(t, out, 80, 23)
	}
}

func TestLargeWindow(t *testing.T) {
	out := newScreen(classicWitch(t).update(0), 120, 36).View()
	checkFits(t, out, 120, 36)
	golden(t, "witch-120x36", out)
}

// Eighteen players fit at 80×24.
func TestEighteenPlayers(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea",
		"Max", "Ned", "Oda", "Pia", "Quin", "Rosalind-Longname"}
	st, evs, err := werewolf.NewState(names, werewolf.ClassicOptions(), 3)
	if err != nil {
		t.Fatal(err)
	}
	g := werewolf.Game{}
	v := g.View(st, 0).(werewolf.SeatView)
	u := table.Update{Room: "BIG1", Title: game.Raw("Werewolves · classic · 18 players"), Game: werewolf.ID, Seat: 0, View: v,
		Log: game.Refs(evs), Started: true, Deadline: v.Deadline}
	out := newScreen(u, 80, 24).View()
	checkFits(t, out, 80, 24)
	for _, n := range []string{"Ann", "Quin", "Rosalind-Lo"} {
		if !strings.Contains(out, n) {
			t.Errorf("%s missing from the players list:\n%s", n, out)
		}
	}
	_ = st
}

func TestNotAWerewolfView(t *testing.T) {
	s := newScreen(starterVote(t).update(0), 80, 24)
	s.SetUpdate(table.Update{Seat: 0, Started: true, View: "something else"})
	if out := s.View(); !strings.Contains(out, "Waiting for the table") {
		t.Errorf("a foreign view should leave the table empty:\n%s", out)
	}
	if got := keys(s, "enter", "x", "r", "up", "p", "h", "1"); len(got) != 0 {
		t.Errorf("keys on an empty table: %#v", got)
	}
}

// TestHiddenActionsDoNotMoveTheCountdown: while Ann sleeps, the seer's
// action brings a new Update whose deadline, rounded by the room to a whole
// second, differs a little from Ann's running countdown; her screen must not
// change at all (no "someone acted" signal, spec §11.2).
func TestHiddenActionsDoNotMoveTheCountdown(t *testing.T) {
	tb := newTable(t, werewolf.DefaultOptions(), starterDeal())
	tb.until(werewolf.PhaseSeer)
	now := clock0
	s := newScreen(tb.update(0), 80, 24)
	s.now = func() time.Time { return now }
	u := tb.update(0)
	u.Deadline = 30
	s.SetUpdate(u)
	now = now.Add(10*time.Second + 400*time.Millisecond)
	before := s.View()
	if !strings.Contains(before, "0:20 left") {
		t.Fatalf("countdown: want 0:20 left\n%s", before)
	}
	tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 1})
	u = tb.update(0)
	u.Deadline = 19 // the room rounds 19.6 s to 20 or 19: either way, no jump
	u.Seq = 0
	s.SetUpdate(u)
	if after := s.View(); after != before {
		t.Errorf("the seer's action changed Ann's screen\n--- before ---\n%s\n--- after ---\n%s", before, after)
	}
	// The tick comes when the number changes: 0.6 s later, not 1 s after the Update.
	s.Update(uikit.UpdateMsg{Update: &u})
	if d := s.count.Next(now); d != 605*time.Millisecond {
		t.Errorf("the next redraw is in %v, want 0.6 s (on the whole second)", d)
	}
	// A new phase takes the room's deadline as it comes.
	tb.tick()
	u = tb.update(0)
	u.Deadline = 60
	s.SetUpdate(u)
	if !strings.Contains(s.View(), "1:00 left") {
		t.Errorf("new phase: want 1:00 left\n%s", s.View())
	}
}

// TestSleepingWolfLooksLikeASleepingVillager: on night 2, in the seer's
// step, Ann sleeps. Whether she is a simple villager or a werewolf who knows
// her pack and chose last night's victim, her screen is the same (the
// public story of both games is the same).
func TestSleepingWolfLooksLikeASleepingVillager(t *testing.T) {
	run := func(annIsWolf bool) string {
		deal := starterDeal() // Bob and Eve are the wolves
		wolves := []game.Seat{1, 4}
		if annIsWolf {
			deal[0], deal[1] = deal[1], deal[0]
			wolves = []game.Seat{0, 4}
		}
		tb := newTable(t, werewolf.DefaultOptions(), deal)
		tb.until(werewolf.PhaseWolves)
		for _, w := range wolves {
			tb.do(w, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
		}

		tb.until(werewolf.PhaseDiscussion)
		for _, s := range []game.Seat{0, 1, 2, 4, 5, 6, 7} {
			tb.do(s, ready())
		}
		for _, s := range []game.Seat{0, 1, 2, 4, 5, 6} {
			tb.do(s, ballot(7)) // Hal, a villager in both games
		}
		tb.do(7, ballot(0))
		tb.until(werewolf.PhaseSeer)
		u := tb.update(0)
		u.Seq = 0
		return newScreen(u, 80, 24).View()
	}
	villager, wolf := run(false), run(true)
	if wolf != villager {
		t.Errorf("a sleeping wolf's screen differs from a sleeping villager's\n--- villager ---\n%s\n--- wolf ---\n%s", villager, wolf)
	}
	if !strings.Contains(villager, "You are asleep") || !strings.Contains(villager, "NIGHT 2 · The seer") {
		t.Errorf("not the night-2 asleep screen:\n%s", villager)
	}
}

// A wolf's chatter is private: asleep in the witch's step right after it,
// the wolf's screen is the same whether the pack said nothing or more than
// a seat's log holds (issue 18 item 16).
func TestAChattyPackSleepsLikeAQuietOne(t *testing.T) {
	run := func(lines int) string {
		tb := newTable(t, werewolf.ClassicOptions(), classicDeal()) // Bob and Eve are the wolves
		tb.until(werewolf.PhaseWolves)
		for i := range lines {
			tb.do(game.Seat(1+3*(i%2)), werewolf.Action{Kind: werewolf.KindSay, Text: fmt.Sprintf("psst %d", i)})
		}
		tb.until(werewolf.PhaseWitch)
		u := tb.update(1)
		u.Seq = 0
		return newScreen(u, 80, 24).View()
	}
	quiet, chatty := run(0), run(45)
	if quiet != chatty {
		t.Errorf("a chatty wolf's asleep screen differs\n--- quiet ---\n%s\n--- chatty ---\n%s", quiet, chatty)
	}
	if !strings.Contains(quiet, "You are asleep") {
		t.Errorf("not asleep in the witch's step:\n%s", quiet)
	}
}

// A wolf's pack list marks a dead packmate († before the name).
func TestPackListMarksTheDead(t *testing.T) {
	tb := newTable(t, werewolf.DefaultOptions(), starterDeal()) // Bob and Eve are the wolves
	tb.until(werewolf.PhaseWolves)
	tb.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	tb.do(4, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	tb.until(werewolf.PhaseDiscussion)
	for _, s := range []game.Seat{0, 1, 2, 4, 5, 6, 7} {
		tb.do(s, ready())
	}
	for _, s := range []game.Seat{0, 2, 4, 5, 6, 7} {
		tb.do(s, ballot(1)) // Bob is lynched
	}
	tb.do(1, ballot(0))
	tb.until(werewolf.PhaseWolves)
	u := tb.update(4)
	u.Seq = 0
	if v := newScreen(u, 80, 24).View(); !strings.Contains(v, "pack: †Bob") {
		t.Fatalf("Eve's pack list does not mark Bob dead:\n%s", v)
	}
}

// A card the player turned up stays up from one step to the next: the
// choice is theirs for the game, not undone at every phase change.
func TestTurnedUpCardStaysUp(t *testing.T) {
	tb := newTable(t, werewolf.ClassicOptions(), classicDeal())
	tb.until(werewolf.PhaseSeer) // Bob (a wolf) sleeps through the seer's step
	s := newScreen(tb.update(1), 80, 24)
	if strings.Contains(s.View(), "Your card: WEREWOLF") {
		t.Fatalf("the card starts face up:\n%s", s.View())
	}
	s.Update(press("c"))
	if !strings.Contains(s.View(), "WEREWOLF") {
		t.Fatalf("c did not turn the card up:\n%s", s.View())
	}
	tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 4})
	tb.until(werewolf.PhaseWitch) // through the wolves' step to another sleep
	first := tb.update(1)
	s.Update(uikit.UpdateMsg{Update: &first})
	if !strings.Contains(s.View(), "WEREWOLF") {
		t.Fatalf("the card flipped back at the phase change:\n%s", s.View())
	}
}

// In a quick verdict (3 s) every ballot is out before the step ends: the
// reveal speeds up rather than outlast it (issue 18 item 22).
func TestVoteRevealFitsAQuickVerdict(t *testing.T) {
	u := starterVerdict(t).update(0)
	u.Deadline = 3
	s := newScreen(u, 80, 24)
	s.now = func() time.Time { return clock0.Add(2 * time.Second) }
	if shown, total := s.revealShown(), len(s.v.Votes[len(s.v.Votes)-1].Ballots); shown != total {
		t.Fatalf("2 s into a 3 s verdict, %d of %d ballots are out", shown, total)
	}
	u.Deadline = 30 // a long verdict keeps the usual pace
	s = newScreen(u, 80, 24)
	s.now = func() time.Time { return clock0.Add(2 * time.Second) }
	if shown := s.revealShown(); shown != 4 {
		t.Fatalf("2 s into a 30 s verdict, %d ballots are out, want 4 at the usual pace", shown)
	}
}

// P shows a wolf the whole pack channel, lines the table's short log has
// long dropped included (issue 18 item 16).
func TestPackChannelReadableAllGame(t *testing.T) {
	tb := newTable(t, werewolf.ClassicOptions(), classicDeal()) // Bob and Eve are the wolves
	tb.until(werewolf.PhaseWolves)
	for i := range 50 {
		tb.do(game.Seat(1+3*(i%2)), werewolf.Action{Kind: werewolf.KindSay, Text: fmt.Sprintf("plan %d", i)})
	}
	s := newScreen(tb.update(1), 80, 24)
	if strings.Contains(s.View(), "plan 0") {
		t.Fatal("the first line should be out of the short log")
	}
	s.Update(press("P"))
	for range 30 {
		s.Update(press("["))
	}
	if v := s.View(); !strings.Contains(v, "plan 0") || !strings.Contains(v, "The pack, night 1") {
		t.Fatalf("P and [ do not reach the pack's first line:\n%s", v)
	}
	villager := newScreen(tb.update(3), 80, 24) // Dee, the hunter
	villager.Update(press("P"))
	if strings.Contains(villager.View(), "plan") {
		t.Fatal("a villager reads the pack channel")
	}
}

// TestEveryScreenFitsInEveryLanguage draws every golden screen in every
// language the server speaks, at 80×24 and 120×36: no line wider than the
// window (display cells), never more lines than it has.
func TestEveryScreenFitsInEveryLanguage(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, tt := range goldenCases() {
			u := tt.u(t)
			for _, size := range [][2]int{{80, 24}, {120, 36}} {
				th := asciiTheme()
				th.SetLang(l)
				s := New(th)
				s.SetHelpBar(true)
				s.SetSize(size[0], size[1])
				s.SetUpdate(u)
				if tt.later > 0 {
					s.now = func() time.Time { return clock0.Add(tt.later) }
				}
				t.Run(fmt.Sprintf("%s/%s/%dx%d", l, tt.name, size[0], size[1]), func(t *testing.T) {
					checkFits(t, s.View(), size[0], size[1])
				})
			}
		}
	}
}

// The session's notice (the coach's hint, a problem) gets a line of its
// own at the smallest window, under the table, and the table's last line
// stays: a notice shrank the screen by a line and it said the window was
// too small.
func TestANoticeFitsTheSmallestWindow(t *testing.T) {
	s := newScreen(starterVote(t).update(0), 80, 23)
	s.SetHelpBar(false) // the root draws the help bar on the 24th line
	s.SetNotice("NOTICE")
	out := s.View()
	if strings.Contains(out, "too small") {
		t.Fatalf("a notice made the window too small:\n%s", out)
	}
	checkFits(t, out, 80, 23)
	lines := strings.Split(out, "\n")
	if len(lines) != 23 || lines[22] != "NOTICE" {
		t.Fatalf("the notice is not the 23rd and last line:\n%s", out)
	}
	for _, w := range []string{"Whom does the village lynch?", "Ballots cast: 3/7"} {
		if !strings.Contains(flat(out), w) {
			t.Fatalf("%q is gone under the notice:\n%s", w, out)
		}
	}
}
