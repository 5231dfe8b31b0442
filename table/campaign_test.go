package table

import (
	"context"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// otherNode is a cluster's other node as the hub sees it: rooms listed by
// summary, handed out by code.
type otherNode struct{ rooms []Summary }

func (o otherNode) List() []Summary { return o.rooms }
func (o otherNode) Has(code string) bool {
	for _, s := range o.rooms {
		if s.Code == code {
			return true
		}
	}
	return false
}
func (o otherNode) Room(code string) RoomHandle {
	for _, s := range o.rooms {
		if s.Code == code {
			return Unreachable(s, nil)
		}
	}
	return nil
}

// A campaign plays one mission at a time, wherever its members connect:
// its open table is found here first, then on other nodes; finished
// missions and other campaigns' tables are not it.
func TestCampaignTableIsFoundWhereverItRuns(t *testing.T) {
	h, local := newTestRoom(t, race{}, RoomConfig{Options: Options{Campaign: "HERE"}})
	h.Others = otherNode{rooms: []Summary{
		{Code: "DONE", Options: Options{Campaign: "AWAY"}, Status: StatusOver},
		{Code: "ELSE", Options: Options{Campaign: "OTHER"}, Status: StatusPlaying},
		{Code: "AWAY", Options: Options{Campaign: "AWAY"}, Status: StatusWaiting},
	}}
	if got := h.CampaignTable("HERE"); got == nil || got.Code() != local.Code() {
		t.Fatalf("campaign HERE: got %v, want the local room %s", got, local.Code())
	}
	if got := h.CampaignTable("AWAY"); got == nil || got.Code() != "AWAY" {
		t.Fatalf("campaign AWAY: got %v, want the other node's room AWAY", got)
	}
	if got := h.CampaignTable("NONE"); got != nil {
		t.Fatalf("campaign NONE: got %s, want none", got.Code())
	}
	if got := h.CampaignTable(""); got != nil {
		t.Fatalf("no campaign: got %s, want none", got.Code())
	}
}

// What OnOver returns (a campaign's news) is told to the whole table with
// the game's end, in the same update that says the game is over, with the
// badges it gave on their players' seats.
func TestWhatTheEndChangedIsToldToEveryone(t *testing.T) {
	var got []RoomRecord
	_, r := newTestRoom(t, race{}, RoomConfig{Seats: 2, Options: Options{Campaign: "C1"}, OnOver: func(rec RoomRecord) Over {
		got = append(got, rec)
		return Over{Said: []game.Msg{game.M("raw", game.Text("Text", "the campaign moved on"))}, Badges: map[string]Badge{"alice": "veteran"}}
	}})
	alice, _ := join(t, r, "alice")
	bob, _ := join(t, r, "bob")
	w := watch(t, r, "carol")
	if err := r.Start(context.Background(), alice); err != nil {
		t.Fatal(err)
	}
	boxes := []*Mailbox{alice, bob}
	ends := map[*Mailbox]Update{}
	for seat := 0; ; seat = 1 - seat {
		u := waitFor(t, boxes[seat], "my turn or the end", func(u Update) bool {
			return u.Over || (u.Started && len(u.View.(raceView).Legal) > 0)
		})
		if u.Over {
			ends[boxes[seat]] = u
			break
		}
		if err := r.Act(boxes[seat], u.Seq, 3); err != nil {
			t.Fatal(err)
		}
	}
	for name, box := range map[string]*Mailbox{"alice": alice, "bob": bob, "carol (watching)": w} {
		u, seen := ends[box]
		if !seen {
			u = waitFor(t, box, "the end", func(u Update) bool { return u.Over })
		}
		if lastWith(u, "the campaign moved on") == "" {
			t.Fatalf("%s saw the end without the campaign's news: %v", name, u.Log)
		}
		// The badge alice earned is on her seat in that same update (issue
		// 42: the lobby showed the veteran title only after a new login).
		if u.Seats[0].Badge != "veteran" || u.Seats[1].Badge != "" {
			t.Fatalf("%s saw the end with the seats' badges %q and %q", name, u.Seats[0].Badge, u.Seats[1].Badge)
		}
	}
	settle(t, r)
	if len(got) != 1 || got[0].Campaign != "C1" || got[0].Result == nil {
		t.Fatalf("OnOver ran with %+v", got)
	}
}
