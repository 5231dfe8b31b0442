package table

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// A person who leaves a decision past the turn clock has a bot make it
// once; the second time in a row a bot plays their seat until they act
// again. Everyone sees the clock count down (issue 18 item 6).
func TestTurnClockKeepsTheTableMoving(t *testing.T) {
	clk, j := clocktest.New(), NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Clock: clk, Bots: raceBots{}, Options: Options{BotLevel: "easy", TurnClock: time.Minute}, Journal: j})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	u := waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	if u.Deadline != 60 {
		t.Fatalf("bob sees %d s on alice's clock, want 60", u.Deadline)
	}
	clk.WaitTimers(t, 1)
	clk.Advance(59 * time.Second)
	stillAt(t, bob, 0, "the clock ran out a second early")
	clk.Advance(time.Second)
	u = waitFor(t, bob, "a bot's move for alice", func(u Update) bool { return u.Seq == 1 })
	if lastWith(u, "alice took longer than a minute") == "" || u.View.(raceView).Counter != 3 {
		t.Fatalf("after alice's clock ran out: counter %d, log %v", u.View.(raceView).Counter, u.Log)
	}
	if u.Seats[0].Bot != "" {
		t.Fatal("one timeout gave alice's seat away")
	}

	// bob plays in time; alice lets it run out again: a bot takes her seat.
	r.Act(bob, 1, 1)
	waitFor(t, bob, "bob's move", func(u Update) bool { return u.Seq == 2 })
	clk.WaitTimers(t, 1)
	clk.Advance(time.Minute)
	u = waitFor(t, bob, "the bot takes alice's seat", func(u Update) bool { return u.Seq == 3 })
	if lastWith(u, "alice let the clock run out again") == "" || u.Seats[0].Bot == "" {
		t.Fatalf("after two timeouts: seat %+v, log %v", u.Seats[0], u.Log)
	}
	// alice presses a key: her seat is hers again.
	r.Act(alice, 3, 1)
	u = waitFor(t, bob, "alice back", func(u Update) bool { return lastWith(u, "alice is back in control") != "" })
	if u.Seats[0].Bot != "" {
		t.Fatalf("alice acted but the bot kept her seat: %+v", u.Seats[0])
	}
	// The log says which moves a bot made in alice's place (the coach
	// rates only her own): the first and the third, not bob's.
	var standIn []bool
	for _, b := range j.Log(r.Code()) {
		e, err := DecodeEntry(b)
		if err != nil {
			t.Fatal(err)
		}
		standIn = append(standIn, e.StandIn)
	}
	if want := []bool{true, false, true}; !slices.Equal(standIn, want) {
		t.Fatalf("stand-in marks %v, want %v", standIn, want)
	}
}

// No clock while the game's own timer runs, nor when only bots are waited on.
func TestTurnClockStaysOutOfTheGamesTimers(t *testing.T) {
	clk := clocktest.New()
	_, r := newTestRoom(t, race{turn: 30 * time.Second}, RoomConfig{Seats: 2, Clock: clk, Bots: raceBots{}, Options: Options{TurnClock: time.Minute}})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	r.Start(context.Background(), alice)
	u := waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	if u.Deadline != 30 {
		t.Fatalf("the game's 30 s timer shows as %d", u.Deadline)
	}
	clk.WaitTimers(t, 1)
	if live := clk.Live(); live != 1 {
		t.Fatalf("%d alarms set, want only the game's timer", live)
	}
}

// The turn clock's sentence takes its duration in the case "longer than"
// wants, with plural forms of its own (issue 30 item 5): not table.wait's,
// which other sentences decline otherwise.
func TestTurnClockSentenceDeclinesItsMinutes(t *testing.T) {
	for _, c := range []struct {
		lang i18n.Lang
		d    time.Duration
		want string
	}{
		{i18n.Polish, time.Minute, "Ann myśli dłużej niż minutę: tym razem decyduje bot."},
		{i18n.Polish, 3 * time.Minute, "Ann myśli dłużej niż 3 minuty: tym razem decyduje bot."},
		{i18n.Polish, 5 * time.Minute, "Ann myśli dłużej niż 5 minut: tym razem decyduje bot."},
		{i18n.Russian, time.Minute, "Ann думает дольше 1 минуты: на этот раз решает бот."},
		{i18n.Russian, 3 * time.Minute, "Ann думает дольше 3 минут: на этот раз решает бот."},
		{i18n.German, time.Minute, "Ann brauchte länger als eine Minute: ein Bot entscheidet dieses eine Mal."},
		{i18n.German, 90 * time.Second, "Ann brauchte länger als 90 Sekunden: ein Bot entscheidet dieses eine Mal."},
	} {
		got := i18n.For(c.lang).Msg(game.M("table.clock.once", game.Text("Player", "Ann"), waitIn("table.clock.longer.", c.d)))
		if got != c.want {
			t.Errorf("%s %v: %q, want %q", c.lang, c.d, got, c.want)
		}
	}
}
