package table

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// said is the chat lines in an update's log, as "channel:text".
func said(u Update) []string {
	var out []string
	for _, e := range u.Log {
		if e.Kind == game.Chat {
			out = append(out, e.Channel+":"+evText(e))
		}
	}
	return out
}

// Chat is journaled like actions: after a restart every seat has back
// exactly the lines it heard (table talk before the start, the game's
// public and private lines), and a replay shows each audience its own.
func TestChatSurvivesARestartPerAudience(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 3, Journal: j})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	carol, _ := join(t, r, "carol")
	if err := r.Say(alice, "ready when you are"); err != nil {
		t.Fatal(err)
	}
	r.Start(context.Background(), alice)
	waitFor(t, carol, "the start", func(u Update) bool { return u.Started })
	r.Act(alice, 0, 2)
	for _, line := range []struct {
		box  *Mailbox
		text string
	}{{bob, "good luck"}, {bob, "psst go low"}, {carol, "SECRET-0"}} {
		r.Say(line.box, line.text) // the last is refused by the game: never stored
	}
	r.Act(bob, 1, 1)
	want := map[string][]string{
		"alice": {"table:ready when you are", "table:good luck"},
		"bob":   {"table:ready when you are", "table:good luck", "whisper:go low"},
		"carol": {"table:ready when you are", "table:good luck", "whisper:go low"},
	}
	live := waitFor(t, carol, "move 2", func(u Update) bool { return u.Seq == 2 })
	if got := said(live); !slices.Equal(got, want["carol"]) {
		t.Fatalf("carol heard %q live, want %q", got, want["carol"])
	}
	if n := len(j.Log(r.Code())); n != 5 {
		t.Fatalf("the log has %d entries, want 5 (2 actions, 3 lines)", n)
	}

	rec, _ := j.Room(r.Code())
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j}, rec, j.Log(r.Code()))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"alice", "bob", "carol"} {
		box, _ := join(t, r2, id)
		u := waitFor(t, box, id+" restored", func(u Update) bool { return u.Started })
		if got := said(u); !slices.Equal(got, want[id]) {
			t.Errorf("%s hears %q after the restart, want %q", id, got, want[id])
		}
		if u.Seq != 2 {
			t.Errorf("%s: seq %d after the restart, want 2", id, u.Seq)
		}
	}
	// Play and talk go on, appended after what was there.
	a2 := mustMember(t, r2, "alice")
	r2.Say(a2, "back again")
	waitFor(t, a2, "the new line", func(u Update) bool { return len(said(u)) == 3 })
	if n := len(j.Log(r.Code())); n != 6 {
		t.Fatalf("the log has %d entries after one more line, want 6", n)
	}

	// A replay shows each seat what it heard; a watcher the public lines.
	for seat, w := range map[game.Seat][]string{0: {"table:ready when you are", "table:good luck", "table:back again"},
		2:              {"table:ready when you are", "table:good luck", "whisper:go low", "table:back again"},
		game.Spectator: {"table:ready when you are", "table:good luck", "table:back again"}} {
		steps, err := Replay(race{}, rec.Setup, rec.Seed, j.Log(r.Code()), seat)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, st := range steps {
			got = append(got, said(Update{Log: game.Refs(st.Events)})...)
		}
		if !slices.Equal(got, w) {
			t.Errorf("replay for seat %d shows %q, want %q", seat, got, w)
		}
		if len(steps) != 3 {
			t.Errorf("replay for seat %d has %d steps, want 3 (chat joins the step it was said in)", seat, len(steps))
		}
	}
}

// A waiting room's talk is there after a restart too.
func TestWaitingRoomChatSurvivesARestart(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 3, Journal: j})
	alice, _ := join(t, r, "alice")
	r.Say(alice, "anyone?")
	waitFor(t, alice, "the line", func(u Update) bool { return len(said(u)) == 1 })
	rec, _ := j.Room(r.Code())
	r2, err := NewHub(t.Context(), nil).Restore(RoomConfig{Game: race{}, Journal: j}, rec, j.Log(r.Code()))
	if err != nil {
		t.Fatal(err)
	}
	box, _ := join(t, r2, "alice")
	u := waitFor(t, box, "restored", func(u Update) bool { return u.Room != "" })
	if got := said(u); !slices.Equal(got, []string{"table:anyone?"}) {
		t.Fatalf("after the restart the waiting room shows %q", got)
	}
}

// mustMember joins id again (its seat) and returns the mailbox.
func mustMember(t *testing.T, r *Room, id string) *Mailbox {
	t.Helper()
	box, _ := join(t, r, id)
	waitFor(t, box, id+" joined", func(u Update) bool { return u.Room != "" })
	return box
}

func TestEntriesRoundTrip(t *testing.T) {
	for _, e := range []Entry{
		{Seat: 0, Action: []byte(`{"a":1}`)},
		{Seat: game.System, Action: []byte{}},
		{Seat: 17, Chat: "привет, wolves"},
		{Seat: 3, Chat: "", Before: true},
		{Seat: 2, Action: []byte(`{"a":2}`), StandIn: true},
		{Seat: 0, Action: []byte{}, StandIn: true},
		{Seat: 1, Action: []byte(`{"a":3}`), StandIn: true, Late: true},
		{Seat: 4, Action: []byte(`{"a":4}`), StandIn: true, Late: true, At: time.UnixMilli(1772359200123)},
		{Seat: 2, Chat: "later", At: time.UnixMilli(1772359200000)},
		{Seat: game.System, Action: []byte{}, At: time.UnixMilli(1)},
	} {
		var b []byte
		switch {
		case e.IsChat():
			b = EncodeChat(e.Seat, e.Before, e.Chat)
		case e.Late:
			b = EncodeLate(e.Seat, e.Action)
		case e.StandIn:
			b = EncodeStandIn(e.Seat, e.Action)
		default:
			b = EncodeEntry(e.Seat, e.Action)
		}
		if !e.At.IsZero() {
			b = EncodeTimed(e.At, b)
		}
		got, err := DecodeEntry(b)
		if err != nil || got.Seat != e.Seat || string(got.Action) != string(e.Action) || got.IsChat() != e.IsChat() || got.Chat != e.Chat ||
			got.Before != e.Before || got.StandIn != e.StandIn || got.Late != e.Late || !got.At.Equal(e.At) {
			t.Errorf("%+v came back as %+v, %v", e, got, err)
		}
	}
	for _, bad := range [][]byte{{}, {chatMark}, {chatMark, 9, 0}, {chatMark, 0}, {standInMark}, {lateMark}, {timeMark}, {timeMark, 2}, {timeMark, 2, chatMark}} {
		if _, err := DecodeEntry(bad); err == nil {
			t.Errorf("DecodeEntry(%v) accepted", bad)
		}
	}
}

// A refusal is about its moment: once the game moves on it is gone from
// the refused player's screen, though they did nothing since.
func TestARefusalIsNotShownOnceTheGameMovesOn(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.Say(bob, "my SECRET is")
	waitFor(t, bob, "the refusal", func(u Update) bool { return noticeText(u.Notice) == "no telling secrets" })
	r.Act(alice, 0, 1)
	if u := waitFor(t, bob, "alice's move", func(u Update) bool { return u.Seq == 1 }); !u.Notice.IsZero() {
		t.Fatalf("bob still reads %q after the game moved on", u.Notice)
	}
}

// loudRace is race where "+N" said at the table is a move: a line the
// game wants as an action (game.ChatActions).
type loudRace struct{ race }

func (loudRace) ChatAction(_ game.State, _ game.Seat, text string) (game.Action, bool) {
	if len(text) == 2 && text[0] == '+' && text[1] >= '1' && text[1] <= '3' {
		return int(text[1] - '0'), true
	}
	return nil, false
}

// A line the game takes as an action is applied, logged and replayed as
// one; other lines stay chat.
func TestALineTheGameTakesAsAMoveIsAMove(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, loudRace{}, RoomConfig{Seats: 2, Journal: j})
	alice, _ := join(t, r, "alice")
	join(t, r, "bob")
	r.Start(context.Background(), alice)
	r.Say(alice, "+3")
	u := waitFor(t, alice, "the spoken move", func(u Update) bool { return u.Seq == 1 })
	if c := u.View.(raceView).Counter; c != 3 {
		t.Fatalf("counter %d after saying +3", c)
	}
	r.Say(alice, "hello")
	waitFor(t, alice, "the line", func(u Update) bool { return len(said(u)) == 1 })
	log := j.Log(r.Code())
	first, _ := DecodeEntry(log[0])
	second, _ := DecodeEntry(log[1])
	if len(log) != 2 || first.IsChat() || string(first.Action) != "3" || !second.IsChat() {
		t.Fatalf("log %+v %+v (%d entries), want the move then the line", first, second, len(log))
	}
}

// Every seat gets the same public log, whatever it was told privately.
func TestPublicLogIsTheSameForEverySeat(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 3})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	carol, _ := join(t, r, "carol")
	r.Start(context.Background(), alice)
	r.Act(alice, 0, 2) // "you added SECRET…" goes to alice alone
	r.Say(bob, "psst hi carol")
	c := waitFor(t, carol, "the whisper", func(u Update) bool { return len(said(u)) == 1 && u.Seq == 1 })
	a := waitFor(t, alice, "move 1", func(u Update) bool { return u.Seq == 1 })
	if len(a.Public) == 0 || fmt.Sprint(a.Public) != fmt.Sprint(c.Public) {
		t.Fatalf("public logs differ:\n%v\n%v", a.Public, c.Public)
	}
	for _, e := range a.Public {
		if !e.Audience.All {
			t.Errorf("a private event in the public log: %+v", e)
		}
	}
}

// The room keeps an event once: every seat that hears it points to the
// same one (each seat's log held its own copy, a sixth of the live heap
// at 2,000 tables).
func TestSeatsShareOneCopyOfAnEvent(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	if err := r.Say(alice, "one line"); err != nil {
		t.Fatal(err)
	}
	heard := func(u Update) bool { return len(u.Log) > 0 && u.Log[len(u.Log)-1].Text == "one line" }
	a, b := waitFor(t, alice, "alice hears", heard), waitFor(t, bob, "bob hears", heard)
	if a.Log[len(a.Log)-1] != b.Log[len(b.Log)-1] {
		t.Error("alice's and bob's logs each hold a copy of the line")
	}
}

// Updates share the room's recent events instead of each carrying a copy:
// an Update still says what it said after the room has logged many more
// (and dropped the oldest), and a reader appending to its log changes
// nothing for the room or anyone else.
func TestUpdatesKeepTheirLogWhileTheRoomGoesOn(t *testing.T) {
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, LogSize: 3})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	type kept struct {
		u    Update
		said []string
	}
	var got []kept
	for i := range 12 {
		line := fmt.Sprintf("line %d", i)
		if err := r.Say(alice, line); err != nil {
			t.Fatal(err)
		}
		u := waitFor(t, bob, line, func(u Update) bool { return len(u.Log) > 0 && u.Log[len(u.Log)-1].Text == line })
		if len(u.Log) > 3 {
			t.Fatalf("an Update carries %d events, LogSize is 3", len(u.Log))
		}
		got = append(got, kept{u, said(u)})
		u.Log = append(u.Log, &game.Event{Kind: game.Chat, Channel: "table", Text: "written by a reader"})
	}
	for i, k := range got {
		if now := said(k.u); !slices.Equal(now, k.said) {
			t.Errorf("Update %d said %q, now %q", i, k.said, now)
		}
	}
	last := waitFor(t, alice, "line 11", func(u Update) bool { return len(u.Log) > 0 && u.Log[len(u.Log)-1].Text == "line 11" })
	if want := []string{"table:line 9", "table:line 10", "table:line 11"}; !slices.Equal(said(last), want) {
		t.Errorf("alice's log %q, want %q", said(last), want)
	}
}

// A player MayChat refuses (muted) says nothing, before the game or in
// it, a line the game would take as a move included; they read why, and
// the others at the table go on talking.
func TestMayChatRefusesAMutedPlayersLines(t *testing.T) {
	muted := game.NewError("moderation.mute.for_good")
	cfg := RoomConfig{Seats: 2, MayChat: func(id string) error {
		if id == "bob" {
			return muted
		}
		return nil
	}}
	_, r := newTestRoom(t, loudRace{}, cfg)
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	r.Say(bob, "before the game")
	waitFor(t, bob, "the refusal", func(u Update) bool { return u.Notice.Key == "moderation.mute.for_good" })
	r.Start(context.Background(), alice)
	waitFor(t, bob, "the start", func(u Update) bool { return u.Started })
	r.Say(bob, "+3")
	r.Say(bob, "in the game")
	r.Say(alice, "hello")
	u := waitFor(t, alice, "alice's line", func(u Update) bool { return len(said(u)) > 0 })
	if got := said(u); len(got) != 1 || u.Seq != 0 {
		t.Fatalf("alice's table heard %q at seq %d; want only her own line and no move", got, u.Seq)
	}
}
