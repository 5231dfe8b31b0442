package table

import (
	"testing"
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
	h, local := newTestRoom(t, race{}, RoomConfig{Campaign: "HERE"})
	h.Others = otherNode{rooms: []Summary{
		{Code: "DONE", Campaign: "AWAY", Status: StatusOver},
		{Code: "ELSE", Campaign: "OTHER", Status: StatusPlaying},
		{Code: "AWAY", Campaign: "AWAY", Status: StatusWaiting},
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
