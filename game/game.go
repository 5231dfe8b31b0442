package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// MaxChat is the longest chat line, in runes: the same for every game and
// channel (the session cuts what is typed to it; a game may not allow more).
const MaxChat = 200

// Seat is a place at a table, numbered 0..n-1 in turn order.
type Seat int

const (
	// Spectator is the seat of someone watching: views for it hold no hidden cards.
	Spectator Seat = -1
	// NoSeat is nobody: no target chosen, no victim, a first leader left
	// to the lot. (It has Spectator's number; the name says which is meant.)
	NoSeat Seat = -1
	// System is the seat the room actor acts as when it submits a timer expiry.
	System Seat = -2
)

// State, Action and View are a game's own types. The room actor, persistence and
// bots carry them without looking inside; only the game's package and its screen do.
type (
	State  any
	Action any
	View   any
)

// Setup is what a table is created from: it is stored with the seed and the
// action log, and is everything needed to replay a game.
type Setup struct {
	Game    string   `json:"game"`    // Game.ID()
	Names   []string `json:"names"`   // display names by seat (bots included)
	Options []byte   `json:"options"` // the game's own options, as its codec encodes them
	// Picks are the seats' own choices made before the game (a Grizzled
	// soldier; see Prelude), by seat; "" leaves it to the game.
	Picks []string `json:"picks,omitempty"`
	// First is 1 + the seat the table named to begin (the Grizzled first
	// leader); 0 leaves it to the game.
	First int `json:"first,omitempty"`
}

// Prelude is implemented by games whose players may choose something
// before the game begins, or whose table may name who begins: the rules
// let each Grizzled player pick a soldier and the group name the first
// leader. What is not chosen the game draws, as without a Prelude.
type Prelude interface {
	// Picks is what a seat may choose (each at most once at a table).
	Picks() []Pick
	// NamesFirst reports whether the table may name who begins.
	NamesFirst() bool
}

// Pick is one choice a seat may make before the game.
type Pick struct {
	ID    string // stored in Setup.Picks
	Label Msg    // what players read
}

// Audience says who may see an event. Narration can't leak because the room
// actor delivers each event only to the seats its audience names.
type Audience struct {
	All   bool   `json:"all,omitempty"`   // everyone, spectators included
	Seats []Seat `json:"seats,omitempty"` // otherwise exactly these seats
}

// Everyone is the audience of public events.
func Everyone() Audience { return Audience{All: true} }

// Only is an audience of the given seats.
func Only(seats ...Seat) Audience { return Audience{Seats: seats} }

// Includes reports whether seat s may see an event with this audience.
func (a Audience) Includes(s Seat) bool { return a.All || slices.Contains(a.Seats, s) }

// EventKind separates narration from chat so screens can style them.
type EventKind uint8

const (
	Narration EventKind = iota // the game says what happened
	Chat                       // a player said something
	Private                    // something only the audience learns (a role, a card)
)

// EventType says what happened, for code to match (a coach teaching
// after a failed mission, a screen marking the dawn): each game names its
// own, and leaves it empty on events no code looks for. Msg is for
// people; its key is never matched.
type EventType string

// Event is one line of what happened, safe to show to its audience.
// Narration is a Msg each viewer reads in their own language; a chat line
// is the speaker's own words, in Text, or a bot's line, a Msg like a
// narration (Talker).
type Event struct {
	Audience Audience  `json:"audience"`
	Kind     EventKind `json:"kind"`
	Type     EventType `json:"type,omitempty"`
	From     Seat      `json:"from"`    // speaker of a chat line; else -1
	Channel  string    `json:"channel"` // chat channel ("table", "wolves", "dead"); "" for narration
	Msg      Msg       `json:"msg,omitzero"`
	Text     string    `json:"text,omitempty"` // a player's words (chat only; a bot's line is Msg)
}

// Refs points to each of events, in order: a log as table.Update carries
// it, where one event is shared by every log that holds it.
func Refs(events []Event) []*Event {
	refs := make([]*Event, len(events))
	for i := range events {
		refs[i] = &events[i]
	}
	return refs
}

// Result is how a game ended.
type Result struct {
	Outcome string `json:"outcome"` // game-specific: "win"/"loss", "village"/"wolves"/"lovers"
	Winners []Seat `json:"winners"` // seats that won (all seats for a cooperative win)
	Summary Msg    `json:"summary"` // one line for lobby and history
}

// Timer asks the room actor to submit Action as System after After has
// passed, unless the state has moved on (its ID is no longer current). Time
// is thus an input: the expiry is an ordinary action in the log.
type Timer struct {
	ID     uint64        // changes whenever the timed step changes
	After  time.Duration // measured by the actor, never by the rules
	Action Action
}

// Bot chooses actions from what one seat may know. It never sees State.
type Bot interface {
	// Act returns the seat's next action given its view, or false if the seat
	// has nothing to decide now. It may take time (a strong bot searches);
	// the actor calls it off its own goroutine.
	Act(v View, seed uint64) (Action, bool)
}

// Talker is a Bot that also speaks at the table now and then (a claim, a
// suspicion). Its line is a Msg, which each viewer reads in their own
// language; the room passes it to the game's BotChat, as a player's words
// go to Say.
type Talker interface {
	Talk(v View, seed uint64) (Msg, bool)
}

// BotChat is implemented by games whose bots talk (Talker). BotLine is
// Say and ChatActions for a bot's line: the events it makes, as Say would
// (the state unchanged), and, when the line changes the state (see
// ChatActions), the action that says it, which the room applies instead.
// A line the game refuses (a key that is not a bot's line) is an error.
type BotChat interface {
	BotLine(s State, seat Seat, line Msg) (Action, []Event, error)
}

// Views is implemented by games that make several seats' views of one
// state at once, sharing between them what every seat sees alike (in The
// Grizzled, each soldier's public row). The room asks for all its members'
// views this way after each change: one copy of the public part per move
// instead of one per seat. Views(s, seats)[i] must equal View(s, seats[i])
// (the conformance suite checks it); the views are read only.
type Views interface {
	Views(s State, seats []Seat) []View
}

// Presence is implemented by games where not everyone may hear that a
// player came back or went away. In Werewolves the dead must not signal
// the living by leaving and rejoining, so only the dead hear about the dead.
// Without it, everyone at the table hears.
type Presence interface {
	// PresenceAudience is who may hear that seat's player came or went.
	PresenceAudience(s State, seat Seat) Audience
}

// ChatActions is implemented by games where some lines change the state:
// in Werewolves a wolf's line in the wolves' step may reach the peeking
// little girl and get her caught. Such a line is applied as the returned
// action (logged and replayed like any move) instead of going through Say.
type ChatActions interface {
	ChatAction(s State, seat Seat, text string) (Action, bool)
}

// Abandoner is implemented by games with a rule for a game every human
// has left (table.RoomConfig.AbandonAfter): the room applies the returned
// action as System, logged like any other (Werewolves §13: the game ends
// with no winner, marked abandoned). Without it, the room closes the table
// unfinished.
type Abandoner interface {
	AbandonAction(s State) Action
}

// Progress is implemented by games that can say how far a game is, for
// friends who see where a player sits ("mission 2", "night 3"). Stage
// reads any seat's view (a spectator's too) and gives a catalog key of
// the game's with one number, {{.N}}; "" while the game says nothing (it
// has not begun). A key and a number, not a Msg: sessions ask after
// every move, and only build the words when the stage changes.
type Progress interface {
	Stage(v View) (key string, n int)
}

// Overdue is implemented by games whose timed steps, at a table played by
// correspondence that allows stand-ins, end with each seat that has not
// decided having its stand-in bot decide for it first: Overdue lists those
// seats now (the Werewolves: a night step's role actions, never a vote,
// whose absence the rules count as an abstention; The Grizzled: the answers
// to a speech). Without it, or for the seats it leaves out, the step ends
// as its timer's action says.
type Overdue interface {
	Overdue(s State) []Seat
}

// ViewCodec is implemented by games whose views may travel: a session on
// one node of a cluster at a table whose actor runs on another gets its
// seat's view as bytes. DecodeView(EncodeView(v)) must be v again, to
// everything a screen or a bot reads (the conformance suite checks it on
// every view of its random games).
type ViewCodec interface {
	EncodeView(v View) ([]byte, error)
	DecodeView(b []byte) (View, error)
}

// EncodeJSONView is EncodeView for a game whose views are all of type V,
// as JSON; game names the game in errors.
func EncodeJSONView[V any](game string, v View) ([]byte, error) {
	sv, ok := v.(V)
	if !ok {
		return nil, fmt.Errorf("%s: not a %T: %T", game, *new(V), v)
	}
	return json.Marshal(sv)
}

// DecodeJSONView reads what EncodeJSONView wrote; it returns a V.
func DecodeJSONView[V any](game string, b []byte) (View, error) {
	var v V
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: decoding a view: %w", game, err)
	}
	return v, nil
}

// Bots makes bots for one game. It lives beside the rules package (bots
// import the rules, never the reverse), and the server pairs it with the Game.
type Bots interface {
	Levels() []string // fastest first, e.g. "easy", "strong"
	New(level string) (Bot, error)
}

// Game is all the room actor, lobby, persistence, replays and bots know of a
// game. Adding a game means implementing this in a folder of its own,
// games/ID, with its module and one registry line: docs/ADDING-A-GAME.md
// walks through the smallest, games/pebbles.
//
// Apply contract: on error the state is unchanged and no events are returned;
// on success the returned state replaces s, which must not be used again
// (engines may update in place to stay cheap). Use Clone to keep a copy.
type Game interface {
	ID() string    // stable identifier stored in logs: "grizzled", "werewolf"
	Title() string // shown in the lobby

	// New builds the initial state. All randomness comes from seed.
	New(setup Setup, seed uint64) (State, []Event, error)
	Apply(s State, seat Seat, a Action) (State, []Event, error)
	Clone(s State) State

	// Legal lists what seat may do now (empty when nothing is asked of it).
	Legal(s State, seat Seat) []Action
	// Waiting lists the seats the game waits on now (bots act for these).
	Waiting(s State) []Seat
	// View is the only door out for hidden information: what seat may know.
	// Spectator gets the public view. The value never aliases State.
	View(s State, seat Seat) View
	// Timer is the pending timed step, if the game has one now.
	Timer(s State) (Timer, bool)
	// Say turns a chat line from seat into events (the game decides the
	// channel and its audience), or refuses it with a reason.
	Say(s State, seat Seat, text string) ([]Event, error)
	Result(s State) (Result, bool)

	EncodeAction(a Action) ([]byte, error)
	DecodeAction(b []byte) (Action, error)
}

// Errors shared by every game's Apply.
var (
	ErrNotYourTurn = NewError("game.err.not_your_turn")
	ErrGameOver    = NewError("game.err.over")
	ErrBadAction   = NewError("game.err.bad_action")
)
