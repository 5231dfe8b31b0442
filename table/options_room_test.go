package table_test

import (
	"reflect"
	"testing"

	"github.com/bivouac-ssh/bivouac/game/gametest"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/table/tabletest"
)

// A table's options go from its config to the lobby's summary, to each
// session's Update and to its saved record, and come back whole when the
// room is restored from that record: nothing between copies an option by
// hand, so every field of Options travels (tabletest.AllOptions sets each).
// A correspondence table has no turn clock and no abandon timer (Pace):
// its options say so from the start.
func TestEveryOptionTravelsFromConfigToRecordAndBack(t *testing.T) {
	all := tabletest.AllOptions()
	all.Allowed = []string{"alice", "carol"} // who may sit and watch here
	live := all
	live.Pace.Correspondence = false
	corr, corrWant := all, all
	corr.Pace.Correspondence = true
	corrWant.Pace.Correspondence, corrWant.TurnClock, corrWant.AbandonAfter = true, 0, 0
	for name, c := range map[string]struct{ in, want table.Options }{"live": {live, live}, "correspondence": {corr, corrWant}} {
		t.Run(name, func(t *testing.T) {
			j := table.NewMemJournal()
			r, err := table.NewHub(t.Context(), nil).Create(table.RoomConfig{Game: gametest.Coin{}, Seats: 2, Host: "alice", Journal: j, Options: c.in})
			if err != nil {
				t.Fatal(err)
			}
			box := table.NewMailbox()
			if _, err := r.Join(t.Context(), table.Player{ID: "alice", Name: "alice"}, box, false); err != nil {
				t.Fatal(err)
			}
			u := <-box.C()
			rec, ok := j.Room(r.Code())
			if !ok {
				t.Fatal("the room saved no record")
			}
			for what, got := range map[string]table.Options{"summary": r.Summary().Options, "update": u.Options, "record": rec.Options} {
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("the %s's options are %+v, want %+v", what, got, c.want)
				}
			}
			restored, err := table.NewHub(t.Context(), nil).Restore(table.RoomConfig{Game: gametest.Coin{}, Journal: table.NewMemJournal()}, rec, j.Log(r.Code()))
			if err != nil {
				t.Fatal(err)
			}
			if got := restored.Summary().Options; !reflect.DeepEqual(got, c.want) {
				t.Errorf("restored with options %+v, want %+v", got, c.want)
			}
		})
	}
}
