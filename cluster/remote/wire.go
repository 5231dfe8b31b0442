package remote

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// Operations: the last token of a room's request subject.
const (
	opSummary   = "summary"
	opJoin      = "join"
	opAct       = "act"
	opActNow    = "act-now"
	opSay       = "say"
	opLeave     = "leave"
	opDetach    = "detach"
	opStepAway  = "step-away"
	opStart     = "start"
	opSetBot    = "set-bot"
	opPick      = "pick"
	opNameFirst = "name-first"
	opPing      = "ping"
	opResync    = "resync"
	opRemove    = "remove"
)

// roomSubject is where requests about room code go: bivouac.room.<code>.<op>.
func roomSubject(code, op string) string { return "bivouac.room." + code + "." + op }

// sessionSubject is where the owner publishes one remote session's
// deliveries: bivouac.session.<id>.
func sessionSubject(id string) string { return "bivouac.session." + id }

// newSessionID is 128 random bits: a session's subject cannot be guessed,
// and, named in a request, it is what lets that request act for the seat.
func newSessionID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// request is every request's body; each operation reads its own fields.
type request struct {
	Session string       `json:"session,omitempty"`
	Player  table.Player `json:"player,omitzero"`
	Watch   bool         `json:"watch,omitempty"`
	Seq     int          `json:"seq,omitempty"`
	Action  []byte       `json:"action,omitempty"` // the game's action codec
	Text    string       `json:"text,omitempty"`   // a chat line, a pick
	Seat    game.Seat    `json:"seat,omitempty"`
	Level   string       `json:"level,omitempty"`
}

// reply answers a request that waits.
type reply struct {
	Err     *table.WireError `json:"err,omitempty"`
	Seat    game.Seat        `json:"seat,omitempty"`
	Summary *table.Summary   `json:"summary,omitempty"`
}

// delivery is what the owner publishes on a session's subject: the newest
// Update for it (table.EncodeUpdate, its logs as a delta: delta.go) with
// the room's summary, or the refusal of a request that did not wait for
// an answer.
type delivery struct {
	N          uint64 `json:"n,omitempty"`           // numbered per session, from 1
	Full       bool   `json:"full,omitempty"`        // Update holds its whole logs
	LogKeep    int    `json:"log_keep,omitempty"`    // else: keep this many of the last Log's events, then Update's
	PublicKeep int    `json:"public_keep,omitempty"` // and of the last Public's

	Update  json.RawMessage  `json:"update,omitempty"`
	Summary *table.Summary   `json:"summary,omitempty"`
	Refused *table.WireError `json:"refused,omitempty"`
}
