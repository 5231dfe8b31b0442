package table

import (
	"context"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// talkingRace is the race whose bots talk: a line is a message (say.N),
// which the race lets any seated player's bot say at the table.
type talkingRace struct{ race }

func (talkingRace) BotLine(s game.State, seat game.Seat, line game.Msg) (game.Action, []game.Event, error) {
	if !strings.HasPrefix(line.Key, "say.") {
		return nil, nil, game.ErrBadAction
	}
	return nil, []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Msg: line}}, nil
}

type talkingBots struct{}

func (talkingBots) Levels() []string { return []string{"easy"} }
func (talkingBots) New(string) (game.Bot, error) {
	b, _ := raceBots{}.New("easy")
	return talker{b}, nil
}

// talker says which counter it saw, once per turn.
type talker struct{ game.Bot }

func (talker) Talk(v game.View, _ uint64) (game.Msg, bool) {
	return game.M("say.counter", game.Num("N", v.(raceView).Counter)), true
}

// A bot's line reaches the table as a message (each screen renders it in
// its viewer's language), is kept in the log as one, and a replay shows it
// again as a message.
func TestBotLinesReachTheTableAsMessages(t *testing.T) {
	j := NewMemJournal()
	_, r := newTestRoom(t, talkingRace{}, RoomConfig{Seats: 3, Bots: talkingBots{}, Options: Options{BotLevel: "easy"}, Journal: j})
	alice, _ := join(t, r, "alice")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	said := func(u Update) bool {
		for _, e := range u.Log {
			if e.Kind == game.Chat && e.Msg.Key == "say.counter" && e.Text == "" && e.From > 0 {
				return true
			}
		}
		return false
	}
	u := waitFor(t, alice, "the start", func(u Update) bool { return u.Started })
	if err := r.Act(alice, u.Seq, 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, alice, "a bot's line", said)
	rec, _ := j.Room(r.Code())
	entries := j.Log(r.Code()) // bots may still be playing: one reading
	var lines int
	for _, b := range entries {
		e, err := DecodeEntry(b)
		if err != nil {
			t.Fatal(err)
		}
		if e.IsChat() && e.Line.Key == "say.counter" && e.Chat == "" {
			lines++
		}
	}
	if lines == 0 {
		t.Fatal("no bot's line in the log")
	}
	steps, err := Replay(talkingRace{}, rec.Setup, rec.Seed, entries, 0)
	if err != nil {
		t.Fatal(err)
	}
	replayed := 0
	for _, s := range steps {
		for _, e := range s.Events {
			if e.Kind == game.Chat && e.Msg.Key == "say.counter" {
				replayed++
			}
		}
	}
	if replayed != lines {
		t.Fatalf("the replay shows %d bot lines, the log holds %d", replayed, lines)
	}
}

func TestBotLineEntryRoundTrip(t *testing.T) {
	line := game.M("say.x", game.Text("Player", "Ewa"), game.Count(3))
	e, err := DecodeEntry(EncodeBotLine(4, line))
	if err != nil || e.Seat != 4 || !e.IsChat() || e.Chat != "" || e.Before || !e.Line.Equal(line) {
		t.Fatalf("came back as %+v, %v", e, err)
	}
	for _, bad := range [][]byte{{chatMark, chatBot, 2}, {chatMark, chatBot, 2, '{', '}'}, {chatMark, chatBot + 1, 2}} {
		if _, err := DecodeEntry(bad); err == nil {
			t.Errorf("DecodeEntry(%v) accepted", bad)
		}
	}
}
