package tui

import (
	"reflect"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table/tabletest"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// What a game's form sets of the table's options reaches the room whole:
// App.Create passes TableSpec.Options on as one value, so an option added
// to table.Options needs no line here. The form's standard fields (here
// only the seats) fill in their own options from the player's choices.
func TestTheFormsOptionsReachTheTable(t *testing.T) {
	a := testApp(t)
	all := tabletest.AllOptions()
	all.Allowed = []string{"fp-alice"} // who may sit: the one who opens it
	all.Pace.Correspondence = false    // live: its turn clock stands (table/options_room_test.go has both)
	a.Games[0].Form.Build = func(uikit.Choices) (uikit.TableSpec, error) {
		return uikit.TableSpec{Title: game.Raw("Coin"), Options: all}, nil
	}
	alice := newSession(t, a, "fp-alice", "alice")
	alice.keys("n", "enter")
	alice.pump(`alice \(you\)`)
	want := all
	want.Private, want.BotLevel = false, "" // no such field on this form: its default
	rooms := a.Hub.List()
	if len(rooms) != 1 {
		t.Fatalf("%d tables, want the one alice opened", len(rooms))
	}
	if !reflect.DeepEqual(rooms[0].Options, want) {
		t.Errorf("the table's options are %+v, want %+v", rooms[0].Options, want)
	}
	if got := alice.m.at.upd.Options; !reflect.DeepEqual(got, want) {
		t.Errorf("alice's screen got options %+v, want %+v", got, want)
	}
}
