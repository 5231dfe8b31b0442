package table

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// Journal is where rooms make themselves durable. The room actor appends an
// accepted action before any session sees its result, and saves its record
// whenever seats or status change. persistence.Store implements it (through a
// small adapter in the server wiring, so table imports no storage code).
type Journal interface {
	Append(room string, seq uint64, entry []byte) error
	SaveRoom(rec RoomRecord) error
}

// RoomStatus is where a room is in its life.
type RoomStatus string

const (
	StatusWaiting RoomStatus = "waiting" // seats open, not started
	StatusPlaying RoomStatus = "playing"
	StatusOver    RoomStatus = "over"
	StatusClosed  RoomStatus = "closed" // abandoned or halted
)

// SeatRecord is who holds a seat.
type SeatRecord struct {
	Seat     game.Seat `json:"seat"`
	Identity string    `json:"identity,omitempty"` // key fingerprint or "guest:CODE"; "" for an open or bot seat
	Name     string    `json:"name"`
	Bot      string    `json:"bot,omitempty"` // level when a bot holds the seat
	Guest    bool      `json:"guest,omitempty"`
	Badge    Badge     `json:"badge,omitempty"`
	Pick     string    `json:"pick,omitempty"` // the seat's own choice before the game (game.Prelude)
	Left     bool      `json:"left,omitempty"` // the player gave the seat to a bot for the rest of the game
	// Gender is how the seat's player asked to be addressed (a bot's
	// comes with its name: botGender).
	Gender game.Gender `json:"gender,omitempty"`
}

// RoomRecord is the durable description of a room: with the action log it is
// everything needed to rebuild the table after a restart.
type RoomRecord struct {
	Code        string       `json:"code"`
	Game        string       `json:"game"`
	Title       game.Msg     `json:"title"`
	GameOptions []byte       `json:"game_options"`
	Setup       game.Setup   `json:"setup"` // Names are filled when the game starts
	Seed        uint64       `json:"seed"`
	Seats       []SeatRecord `json:"seats"`
	Status      RoomStatus   `json:"status"`
	Host        string       `json:"host"`
	Creator     string       `json:"creator,omitempty"` // who made the room; older records: Host
	Options                  // the table's (RoomConfig.Options)
	Seq         uint64       `json:"seq"` // actions applied when saved
	Result      *game.Result `json:"result,omitempty"`
	Timer       *TimerRecord `json:"timer,omitempty"`   // the timed step under way, if any
	First       int          `json:"first,omitempty"`   // 1 + the seat named to begin; 0: the draw
	Removed     []string     `json:"removed,omitempty"` // identities the host removed before the game: kept out
	// Started is when the game began, at a correspondence table: its
	// first decision's deadline counts from it.
	Started time.Time `json:"started,omitzero"`
	// Waiting and Deadline are, at a correspondence table, whom it waits
	// on and until when, as of this save: what another node's lobby shows
	// (the log is the truth).
	Waiting  []string  `json:"waiting,omitempty"`
	Deadline time.Time `json:"deadline,omitzero"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
}

// A room's log holds two kinds of entry, in the order they happened:
// actions (the acting seat, then the game's action bytes) and chat lines
// (chatMark, a flag byte, the speaking seat, then the line). A chat line is
// stored, like an action, before anyone sees it, so a restart gives every
// seat back what it was told. An action entry starts with its seat as a
// varint; no seat is -64, so chatMark (its one-byte varint) starts only
// chat lines. standInMark (seat -63's varint, no seat either) comes before
// an action a bot made for a human seat (the turn clock, a takeover), so a
// review does not take it for the player's own; lateMark (seat -61's)
// before one it made because the seat's deadline passed at a table played
// by correspondence. timeMark (seat -62's) before any entry says when it
// was made: a correspondence table stamps every entry, so that its
// deadlines can be derived from the log alone (see deadline.go).
const (
	chatMark    = 0x7f
	standInMark = 0x7d
	timeMark    = 0x7b
	lateMark    = 0x79
)

// Chat line flags.
const (
	chatInGame = 0 // said through the game's Say: it decides who hears it
	chatBefore = 1 // said before the game began: plain talk, for everyone
	chatBot    = 2 // a bot's line (game.BotChat): a game.Msg as JSON
)

// Entry is one decoded log entry.
type Entry struct {
	Seat   game.Seat
	Action []byte // the game's encoded action; nil for a chat line
	Chat   string // a chat line (Action is nil)
	// Line is a bot's chat line (Action is nil, Chat empty): a message
	// each viewer reads in their own language.
	Line game.Msg
	// Before marks a chat line said before the game began, which no game
	// rule heard: everyone at the table saw it.
	Before bool
	// StandIn marks an action a bot made for the seat's human player.
	StandIn bool
	// Late marks a stand-in's action made because the seat's deadline
	// passed (StandIn is set too).
	Late bool
	// At is when the entry was made, for a table that stamps its entries
	// (played by correspondence); zero otherwise.
	At time.Time
}

// IsChat reports whether the entry is a chat line.
func (e Entry) IsChat() bool { return e.Action == nil }

// TimerRecord is a timed step's deadline, saved when the step begins so
// that a restart resumes it with the time it had left.
type TimerRecord struct {
	ID       uint64    `json:"id"` // game.Timer.ID
	Deadline time.Time `json:"deadline"`
}

// EncodeEntry frames one action: the acting seat, then the game's action bytes.
func EncodeEntry(seat game.Seat, action []byte) []byte {
	b := binary.AppendVarint(make([]byte, 0, len(action)+2), int64(seat))
	return append(b, action...)
}

// EncodeStandIn frames an action a bot made for a human seat.
func EncodeStandIn(seat game.Seat, action []byte) []byte {
	return append([]byte{standInMark}, EncodeEntry(seat, action)...)
}

// EncodeLate frames an action a bot made for a human seat whose deadline
// passed.
func EncodeLate(seat game.Seat, action []byte) []byte {
	return append([]byte{lateMark}, EncodeEntry(seat, action)...)
}

// EncodeTimed stamps entry (any of the others) with when it was made, to
// the millisecond.
func EncodeTimed(at time.Time, entry []byte) []byte {
	b := binary.AppendVarint(append(make([]byte, 0, len(entry)+8), timeMark), at.UnixMilli())
	return append(b, entry...)
}

// EncodeChat frames one chat line; before is true for talk before the game began.
func EncodeChat(seat game.Seat, before bool, text string) []byte {
	flag := byte(chatInGame)
	if before {
		flag = chatBefore
	}
	b := binary.AppendVarint(append(make([]byte, 0, len(text)+4), chatMark, flag), int64(seat))
	return append(b, text...)
}

// EncodeBotLine frames a bot's chat line said in the game.
func EncodeBotLine(seat game.Seat, line game.Msg) []byte {
	js, _ := json.Marshal(line) // a Msg always encodes
	b := binary.AppendVarint(append(make([]byte, 0, len(js)+4), chatMark, chatBot), int64(seat))
	return append(b, js...)
}

// DecodeEntry reads a log entry made by EncodeEntry, EncodeStandIn,
// EncodeLate, EncodeChat or EncodeBotLine, stamped by EncodeTimed or not.
func DecodeEntry(entry []byte) (Entry, error) {
	if len(entry) > 0 && entry[0] == timeMark {
		ms, n := binary.Varint(entry[1:])
		if n <= 0 {
			return Entry{}, errors.New("log entry: bad time")
		}
		e, err := decodeEntry(entry[1+n:])
		e.At = time.UnixMilli(ms)
		return e, err
	}
	return decodeEntry(entry)
}

func decodeEntry(entry []byte) (Entry, error) {
	if len(entry) > 0 && entry[0] == chatMark {
		if len(entry) < 2 || entry[1] > chatBot {
			return Entry{}, errors.New("log entry: bad chat line")
		}
		v, n := binary.Varint(entry[2:])
		if n <= 0 {
			return Entry{}, errors.New("log entry: bad chat seat")
		}
		e := Entry{Seat: game.Seat(v), Before: entry[1] == chatBefore}
		if entry[1] != chatBot {
			e.Chat = string(entry[2+n:])
			return e, nil
		}
		if err := json.Unmarshal(entry[2+n:], &e.Line); err != nil || e.Line.IsZero() {
			return Entry{}, errors.New("log entry: bad bot line")
		}
		return e, nil
	}
	standIn := len(entry) > 0 && (entry[0] == standInMark || entry[0] == lateMark)
	late := standIn && entry[0] == lateMark
	if standIn {
		entry = entry[1:]
	}
	v, n := binary.Varint(entry)
	if n <= 0 {
		return Entry{}, errors.New("log entry: bad seat")
	}
	return Entry{Seat: game.Seat(v), Action: append([]byte{}, entry[n:]...), StandIn: standIn, Late: late}, nil
}

// MemJournal keeps everything in memory: for tests and for a server run
// without a data dir. It is safe for concurrent use.
type MemJournal struct {
	mu    sync.Mutex
	logs  map[string][][]byte
	rooms map[string]RoomRecord
}

// NewMemJournal returns an empty in-memory journal.
func NewMemJournal() *MemJournal {
	return &MemJournal{logs: map[string][][]byte{}, rooms: map[string]RoomRecord{}}
}

// Append implements Journal.
func (j *MemJournal) Append(room string, seq uint64, entry []byte) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if uint64(len(j.logs[room]))+1 != seq {
		return errors.New("journal: out of sequence")
	}
	j.logs[room] = append(j.logs[room], append([]byte(nil), entry...))
	return nil
}

// SaveRoom implements Journal.
func (j *MemJournal) SaveRoom(rec RoomRecord) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.rooms[rec.Code] = rec
	return nil
}

// Forget implements Forgetter.
func (j *MemJournal) Forget(room string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.rooms, room)
	delete(j.logs, room)
	return nil
}

// Log returns a copy of a room's entries.
func (j *MemJournal) Log(room string) [][]byte {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([][]byte(nil), j.logs[room]...)
}

// Room returns the last saved record of a room.
func (j *MemJournal) Room(code string) (RoomRecord, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	r, ok := j.rooms[code]
	return r, ok
}
