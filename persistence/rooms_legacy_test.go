package persistence

import (
	"encoding/json"
	"testing"
)

// A room stored before rooms had a Hints option said it gave hints only
// in its title: it reads as giving them, and a room without them as not.
func TestARoomStoredBeforeTheHintsOptionKeepsItsHints(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`{"id":"r1","title":{"key":"form.grizzled.table_title_hints"}}`, true},
		{`{"id":"r2","title":{"key":"campaign.mission.title_hints"}}`, true},
		{`{"id":"r3","title":{"key":"form.grizzled.table_title"}}`, false},
		{`{"id":"r4","title":{"key":"form.grizzled.table_title"},"hints":true}`, true},
	} {
		var r RoomRecord
		if err := json.Unmarshal([]byte(c.raw), &r); err != nil {
			t.Fatal(err)
		}
		if r.Hints != c.want {
			t.Errorf("%s: hints %v, want %v", c.raw, r.Hints, c.want)
		}
	}
}
