package people

import (
	"path/filepath"
	"testing"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// TestTextReplaysLeaveOutIgnoredChat: the check a text replay makes of each
// chat line: bob's, whom ann ignores, goes; cid's stays; and a guest's own
// list counts too.
func TestTextReplaysLeaveOutIgnoredChat(t *testing.T) {
	t.Parallel()
	store, err := persistence.Open(filepath.Join(t.TempDir(), "bivouac.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rel := NewRelations(store)
	ann, guest := table.Player{ID: "SHA256:ann", Name: "ann"}, table.Player{ID: "guest:0011", Name: "g", Guest: true}
	bob := tui.Person{ID: "SHA256:bob", Name: "bob"}
	for _, p := range []table.Player{ann, guest} {
		if err := rel.Set(p, tui.IgnoreList, bob, true); err != nil {
			t.Fatal(err)
		}
	}
	seats := []table.SeatInfo{{Seat: 0, ID: "SHA256:cid", Name: "cid"}, {Seat: 1, ID: bob.ID, Name: "bob"}, {Seat: 2, Name: "Ada (bot)", Bot: "easy"}}
	for _, who := range []string{ann.ID, guest.ID} {
		ignores := Ignores(rel, who)
		if !ignores(seats, 1) || ignores(seats, 0) || ignores(seats, 2) || ignores(seats, -1) {
			t.Fatalf("%s: bob %v, cid %v, the bot %v", who, ignores(seats, 1), ignores(seats, 0), ignores(seats, 2))
		}
	}
	if Ignores(rel, "SHA256:cid")(seats, 1) {
		t.Fatal("cid ignores nobody, yet bob's line would go")
	}
}
