package persistence

import (
	"encoding/json"
	"slices"
)

// hintsTitles are the table titles that gave a table hints before a room
// had a Hints option: a room stored then reads as giving them.
var hintsTitles = []string{"form.grizzled.table_title_hints", "campaign.mission.title_hints"}

// UnmarshalJSON reads a stored room, older ones included (see hintsTitles).
func (r *RoomRecord) UnmarshalJSON(b []byte) error {
	type plain RoomRecord // without this method
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	if !r.Hints && slices.Contains(hintsTitles, r.Title.Key) {
		r.Hints = true
	}
	return nil
}
