package table

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game"
)

// Errors a session may get back from a room.
var (
	ErrBusy       = game.NewError("table.err.busy")
	ErrClosed     = game.NewError("table.err.closed")
	ErrStale      = game.NewError("table.err.stale")
	ErrNotSeated  = game.NewError("table.err.not_seated")
	ErrFull       = game.NewError("table.err.full")
	ErrNotHost    = game.NewError("table.err.not_host")
	ErrStarted    = game.NewError("table.err.started")
	ErrNotStarted = game.NewError("table.err.not_started")
	ErrNotAllowed = game.NewError("table.err.not_allowed")
	// ErrNotOwner wraps a Journal error that says another node appended to
	// the room's log first (a fenced append): this node no longer runs it.
	ErrNotOwner = errors.New("table: another node runs this room")
	// ErrUnconfirmed wraps a Journal error after which nobody knows whether
	// the entry was stored: in a cluster an unanswered write may be taken
	// later. The room stops (Unconfirmed) rather than say the move failed.
	ErrUnconfirmed = errors.New("table: the store did not confirm the write")
)

// Lease is this node's right to run a room, in a cluster
// (cluster/lease.Held satisfies it). The actor checks Valid before it
// accepts a move or a chat line, and stops, saving nothing more, once the
// lease is lost. ValidUntil is when Valid turns false unless a renewal
// comes first: a write the store has not answered is tried again only
// until then (patiently).
type Lease interface {
	Valid() bool
	ValidUntil() time.Time
	Lost() <-chan struct{}
	Release(ctx context.Context) error
}

// Player is who asks to sit down: an identity and what to call them.
type Player struct {
	ID    string // key fingerprint or "guest:CODE"
	Name  string
	Guest bool
	Badge Badge
	// Gender is how the player asked to be addressed: sentences naming
	// them agree with it (game.Gender).
	Gender game.Gender `json:",omitempty"`
	// Addr is where the session connected from (Hub.Limits); it stays on
	// this node (never sent to another).
	Addr string `json:"-"`
	// WatchOnly: the player may watch tables, not sit at them (a guest on
	// a server started with --guests watch). Join watches instead of
	// seating them, and says why; App.Create refuses them a table.
	WatchOnly bool `json:",omitempty"`
}

// Badge is a mark a player earned away from this table (a campaign's
// veteran star), shown after their name. Tables only carry it; the
// server gives it and the screens draw it.
type Badge string

// RoomConfig describes a new table.
type RoomConfig struct {
	Code        string // set by the Hub when empty
	Game        game.Game
	Bots        game.Bots // nil: no bots for this game
	Title       game.Msg  // game title and variant, for lobby and header
	GameOptions []byte    // the game's options (its codec)
	Seats       int       // seats at the table, humans and bots
	// Options are the table's (Options): kept in its record, shown in the
	// lobby and carried in each Update.
	Options
	Host string // identity of the creator
	// Addr is where the creator connected from, for Hub.Limits; not saved
	// (a restored room counts for its host only).
	Addr string
	Seed uint64
	// IsMember, when set, decides who may sit at a campaign's table (read
	// afresh at each join, so a player who joined the campaign after the
	// table opened is welcome); Allowed is then only what the lobby shows.
	IsMember func(campaign, id string) bool
	// Blocked, when set, keeps a player out of a table whose host has
	// blocked them (Blocks; read afresh at each join).
	Blocked Blocks
	// MayChat, when set, is asked before a seated player's line is said,
	// before and during the game, a line the game takes as a move too (a
	// werewolf's word to the pack): an error (a mute) refuses the line and
	// is the player's notice. Moves and the rules' own lines are never
	// asked about.
	MayChat func(identity string) error
	// Banned, when set, is asked as a player's last session leaves their
	// seat: a banned player's seat is given up (as GiveUpSeat), not kept
	// for them. A ban that ended a session whose join was still under way
	// (the seat taken after the ban looked for it) frees the seat so.
	Banned func(identity string) bool
	// Meter, when set, hears each move a player made that the room took
	// (see Meter).
	Meter    Meter
	FillBots int // a new room's last FillBots seats start with bots of BotLevel

	// BotDelay is the pause before a bot acts, so people can follow it.
	BotDelay time.Duration
	// TakeoverAfter hands a disconnected player's seat to a bot after this
	// long, while at least one other human is connected (0: never).
	TakeoverAfter time.Duration
	// OnTurn, at a correspondence table, hears whom the table waits on
	// each time that changes (and when it is restored): on the actor, so
	// it must not block.
	OnTurn func(Turn)
	// MaySit, when set, is asked before a player takes a new seat at a
	// correspondence table (a player's limit of them, read afresh): an
	// error refuses the seat.
	MaySit func(identity string) error
	// IdleClose closes a room nobody is attached to after this long, unless
	// a game is in progress (its players come back to it). 0: never.
	IdleClose time.Duration
	// DesertedAfter ends a game in progress no human player has been at
	// this long, as AbandonAfter does, for a game that sets no AbandonAfter
	// of its own: players come back to a game they stepped away from, but
	// not to one nobody has attended for this long (0: never).
	DesertedAfter time.Duration
	// LogSize is how many recent events each seat's Update carries.
	LogSize int

	Journal Journal // nil: nothing is persisted
	// Lease, in a cluster, is this node's claim on the room; nil: a single
	// node, which always owns its rooms. The room releases it when it stops.
	Lease  Lease
	Logger *slog.Logger
	// Clock times the game's steps, takeovers and idle closing (nil: the
	// real clock).
	Clock clock.Clock
	// Stopped, for a restored room, is when the server that ran it was
	// last known to be alive: a timed step resumes with the time it had
	// left then, plus RestartGrace. Zero: the deadline is taken as saved.
	Stopped time.Time
	// OnOver runs on the actor after a finished game has been saved
	// (profiles, stats, campaigns). It must not call back into the room.
	// What it returns is told to the whole table after the game's own end
	// (e.g. what the game changed in its campaign), and the badges its
	// players earned by it are theirs at once (Over).
	OnOver func(rec RoomRecord) Over
}

// Over is what a finished game changed beyond its table (OnOver).
type Over struct {
	Said []game.Msg // told to the whole table after the game's own end
	// Badges are marks players earned by this game (the veteran title of
	// a campaign's win at 30), by identity: their seats carry them from
	// the same update on, so the table, the lobby's row and each player's
	// session show them without a new login.
	Badges map[string]Badge
}

// Summary is what the lobby lists of a room.
type Summary struct {
	Code   string
	Game   string
	Title  game.Msg
	Seats  []SeatInfo
	Open   int // seats nobody holds yet
	Status RoomStatus
	Host   string
	// Options are the table's; a private campaign table is listed to
	// its members (Allowed).
	Options
	Players  []string // identities seated (to find "your tables")
	Watchers int
	// Waiting and Deadline, at a correspondence table under way, are the
	// identities it waits on and until when (zero: no deadline runs): the
	// lobby's "your move" lines. A live table leaves them empty, so that
	// its moves do not wake every lobby.
	Waiting  []string
	Deadline time.Time
}

type cmdKind uint8

const (
	cmdJoin cmdKind = iota
	cmdLeave
	cmdDetach
	cmdStepAway
	cmdAct
	cmdBotAct
	cmdBotSay
	cmdSay
	cmdStart
	cmdSetBot
	cmdPick
	cmdNameFirst
	cmdTimer
	cmdTakeover
	cmdIdle
	cmdRefresh
	cmdAbandon
	cmdTurnClock
	cmdClose
	cmdRemove
	cmdGiveUp
	cmdCreatorGrace
	cmdDeadline
	cmdOverdue
)

type command struct {
	kind   cmdKind
	box    *Mailbox
	player Player
	watch  bool
	seat   game.Seat
	seq    int
	action game.Action
	text   string
	line   game.Msg // a bot's chat line (cmdBotSay)
	reason CloseReason
	level  string
	id     uint64
	reply  chan error // buffered, so the actor never blocks on it
	seatCh chan game.Seat
	claim  *atomic.Int32 // a call's (see Room.call); nil for a command nobody waits for
}

// seatState is one seat at the table.
type seatState struct {
	rec       SeatRecord
	takeover  bool      // a bot plays for an absent human
	awaySince time.Time // when the last session of this seat detached
}

type member struct {
	seat game.Seat
	id   string
}

// Room is one table's actor: a single goroutine owns its state. Sessions
// talk to it through Submit-style methods that never block the actor, and
// hear back through their Mailbox.
type Room struct {
	clock clock.Clock // cfg.Clock, never nil
	cfg   RoomConfig
	inbox chan command
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{}
	sum   atomic.Pointer[Summary]
	onSum func() // tells the hub the summary changed
	// away, for a room another node runs (Unreachable), is every call's answer.
	away error

	// Owned by the actor goroutine:
	state      game.State
	started    bool
	over       bool
	result     *game.Result
	first      game.Seat  // the seat named to begin (game.Prelude); NoSeat: the draw
	setup      game.Setup // what the game was started with (names, picks, first)
	seq        int        // actions applied
	logged     int        // entries in the journal: actions and chat lines
	seats      []seatState
	members    map[*Mailbox]member
	logs       map[game.Seat][]*game.Event // recent events per seat; Spectator for watchers
	logEnds    map[game.Seat]int           // events ever filed in each seat's log (Update.LogEnd)
	notices    map[*Mailbox]notice
	legalSeq   map[game.Seat]int    // seq at which a seat's legal actions last changed
	legalKey   map[game.Seat]string // encoding of those legal actions
	legalBuf   []byte               // trackLegal's scratch: a seat's key is built here, kept only when it changed
	seatsBuf   []SeatInfo           // currentSeats' scratch
	seatsOut   []SeatInfo           // the seats last published: shared by the Summary and the Updates, never written
	playersBuf []string             // refreshSummary's scratch
	botAsked   map[game.Seat]int    // 1 + the seq a bot was last asked to act at (0: never)
	hostSeen   bool                 // the host has been at the table (see hostIfNone)
	botSaid    map[game.Seat]string // a bot's last chat line (its Msg.String)
	timer      clock.Timer
	timerID    uint64
	timerEnd   time.Time
	resume     *TimerRecord // a restored room's saved step deadline, until the timer is armed
	idleTimer  clock.Timer
	abandon    clock.Timer       // every human is away from the game: ends it at AbandonAfter
	turnClock  clock.Timer       // the turn clock for the decision at turnSeq
	turnSeq    int               // the decision (r.seq) the clock runs for
	turnEnd    time.Time         // when it runs out
	timeouts   map[game.Seat]int // the clock ran out on a seat this many times in a row
	clockFor   map[game.Seat]int // 1 + the seq at which a bot decides for the seat this once
	corr       correspondence    // a correspondence table's deadlines (deadline.go)
	closed     CloseReason
	removed    []string // identities the host removed before the game: kept out (relations.go)
	created    time.Time
	log        *slog.Logger

	// by and from are who made the room and from where (Hub.Limits):
	// set before the actor starts and never changed, unlike cfg.Host.
	by, from string
	// creator made the room: its host while they hold a seat in it
	// (seats.go); creatorGone is since when they hold none (the room's
	// start or restore, until they sit).
	creator     string
	creatorGone time.Time
	graceTimer  clock.Timer
}

func newRoom(ctx context.Context, cfg RoomConfig) *Room {
	if cfg.LogSize == 0 {
		cfg.LogSize = 40
	}
	if cfg.NoTakeover {
		cfg.TakeoverAfter = 0
	}
	if cfg.Pace.Correspondence {
		// Deadlines and the stand-ins' ladder take the place of a live
		// table's clocks; nobody is expected to stay at the table.
		cfg.TurnClock, cfg.TakeoverAfter, cfg.AbandonAfter, cfg.DesertedAfter = 0, 0, 0, 0
		if cfg.IdleClose > 0 {
			cfg.IdleClose = CorrespondenceIdle
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	ctx, stop := context.WithCancel(ctx)
	r := &Room{
		cfg:      cfg,
		clock:    cfg.Clock,
		inbox:    make(chan command, 64),
		ctx:      ctx,
		stop:     stop,
		done:     make(chan struct{}),
		members:  map[*Mailbox]member{},
		logs:     map[game.Seat][]*game.Event{},
		logEnds:  map[game.Seat]int{},
		notices:  map[*Mailbox]notice{},
		legalSeq: map[game.Seat]int{},
		legalKey: map[game.Seat]string{},
		botAsked: map[game.Seat]int{},
		botSaid:  map[game.Seat]string{},
		first:    game.NoSeat,
		timeouts: map[game.Seat]int{},
		clockFor: map[game.Seat]int{},
		corr:     correspondence{misses: map[game.Seat]int{}, late: map[game.Seat]bool{}},
		created:  cfg.Clock.Now(),
		log:      cfg.Logger.With("room", cfg.Code),
		by:       cfg.Host,
		from:     AddressGroup(cfg.Addr),
		creator:  cfg.Host,
	}
	r.creatorGone = r.created
	r.seats = make([]seatState, cfg.Seats)
	for i := range r.seats {
		r.seats[i].rec = SeatRecord{Seat: game.Seat(i)}
		if cfg.Bots != nil && cfg.BotLevel != "" && i >= cfg.Seats-cfg.FillBots {
			r.seats[i].rec = SeatRecord{Seat: game.Seat(i), Bot: cfg.BotLevel, Name: botName(game.Seat(i))}
		}
	}
	return r
}

// Code is the room's code.
func (r *Room) Code() string { return r.cfg.Code }

// Summary is the room as the lobby lists it (a snapshot, safe from any goroutine).
func (r *Room) Summary() Summary {
	if s := r.sum.Load(); s != nil {
		return *s
	}
	return Summary{Code: r.cfg.Code, Title: r.cfg.Title}
}

// Done is closed when the actor has stopped.
func (r *Room) Done() <-chan struct{} { return r.done }

// Unreachable is a room this node knows of (sum, from the cluster's room
// directory) but cannot reach: every call on it answers why, and it has no
// actor (Done is closed).
func Unreachable(sum Summary, why error) *Room {
	r := &Room{away: why, done: make(chan struct{})}
	close(r.done)
	r.cfg.Code, r.cfg.Title = sum.Code, sum.Title
	r.sum.Store(&sum)
	return r
}
