package plain

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// Plain mode's tables list says where each table is: only a waiting table
// is "waiting" with open seats; one playing or over says so (issue 30
// item 6: every table said "waiting").
func TestPlainTablesSayWhereEachTableIs(t *testing.T) {
	a := testApp(t)
	th := a.Theme(nil, i18n.Polish, false)
	waiting := th.T("cmd.rooms.status.waiting")
	for status, want := range map[table.RoomStatus]string{
		table.StatusWaiting: th.T("ui.lobby.waiting_open", game.Num("N", 2)),
		table.StatusPlaying: th.T("cmd.rooms.status.playing"),
		table.StatusOver:    th.T("cmd.rooms.status.over"),
	} {
		got := plainStatus(th, table.Summary{Status: status, Open: 2})
		if got != want {
			t.Errorf("%s: %q, want %q", status, got, want)
		}
		if status != table.StatusWaiting && strings.Contains(got, waiting) {
			t.Errorf("%s reads as waiting: %q", status, got)
		}
	}
	corr := table.Summary{Status: table.StatusWaiting, Open: 2, Options: table.Options{Pace: table.Pace{Correspondence: true, Decision: time.Hour}}}
	if got, want := plainStatus(th, corr), th.T("ui.lobby.waiting_open", game.Num("N", 2))+", "+th.T("ui.lobby.correspondence"); got != want {
		t.Errorf("a correspondence table: %q, want %q", got, want)
	}
}
