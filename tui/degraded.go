package tui

import "github.com/bivouac-ssh/bivouac/table"

// ClosedWhy is the catalog key of why a table closed: a table whose node
// lost it while the server is degraded does not carry on elsewhere in a
// few seconds, whatever table.Moved usually means.
func (a *App) ClosedWhy(c table.CloseReason) string {
	if c == table.Moved && a.Degraded != nil && a.Degraded() {
		return "ui.degraded.table_closed"
	}
	return c.Key()
}
