package tui

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
)

// A table its node lost while the server is degraded is not said to carry
// on elsewhere in a few seconds; other closings say what they always said.
func TestTableLostWhileDegradedSaysSo(t *testing.T) {
	degraded := true
	a := &App{Degraded: func() bool { return degraded }}
	if got := a.ClosedWhy(table.Moved); got != "ui.degraded.table_closed" {
		t.Errorf("moved while degraded: %s", got)
	}
	if got := a.ClosedWhy(table.Restarting); got != table.Restarting.Key() {
		t.Errorf("restarting while degraded: %s", got)
	}
	degraded = false
	if got := a.ClosedWhy(table.Moved); got != table.Moved.Key() {
		t.Errorf("moved with the cluster whole: %s", got)
	}
	if got := (&App{}).ClosedWhy(table.Moved); got != table.Moved.Key() {
		t.Errorf("moved on a single node: %s", got)
	}
}
