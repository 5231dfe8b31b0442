package persistence

import (
	"time"

	"github.com/bivouac-ssh/bivouac/table"
)

// CampaignTable is the table options a campaign's members chose for its
// missions: kept with the campaign so that the next mission, on any node
// and after any restart, opens as the last one did. The store keeps what
// it is given; the server checks the values against what it offers.
type CampaignTable struct {
	BotLevel  string        `json:"bot,omitempty"`   // the bot that plays seats no member takes
	Hints     bool          `json:"hints,omitempty"` // a seated player's h asks the bot for advice
	TurnClock time.Duration `json:"clock,omitempty"` // a bot decides for a person this slow (0: no clock)
	Pace      table.Pace    `json:"pace,omitzero"`   // missions by correspondence, a deadline per decision
}
