package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
	"time"

	"bivouac/clock"
	"bivouac/game"
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
}

// Badge is a mark a player earned away from this table (a campaign's
// veteran star), shown after their name. Tables only carry it; the
// server gives it and the screens draw it.
type Badge string

// RoomConfig describes a new table.
type RoomConfig struct {
	Code    string // set by the Hub when empty
	Game    game.Game
	Bots    game.Bots // nil: no bots for this game
	Title   game.Msg  // game title and variant, for lobby and header
	Options []byte    // the game's options (its codec)
	Seats   int       // seats at the table, humans and bots
	Private bool      // not listed; joined by code
	Host    string    // identity of the creator
	// Addr is where the creator connected from, for Hub.Limits; not saved
	// (a restored room counts for its host only).
	Addr     string
	BotLevel string // level of bots that fill seats
	Seed     uint64
	Campaign string
	Allowed  []string // identities who may sit; empty: anyone
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
	// NoTakeover: no bot stands in for a player who is away (a Werewolves
	// table's choice: the seat waits); a seat given up with L still goes to
	// a bot. It overrides TakeoverAfter.
	NoTakeover bool
	// TurnClock is how long a person may leave a decision before a bot
	// (BotLevel, else the easiest) makes it for them this once; after two
	// in a row a bot plays their seat until they act again. Everyone sees
	// it count down. 0: no clock. Not while the game's own timer runs.
	TurnClock time.Duration
	// AbandonAfter ends a game in progress, unfinished and with no winner,
	// once every human player has been away this long (0: it waits for
	// them, as The Grizzled does; Werewolves: 10 minutes).
	AbandonAfter time.Duration
	// IdleClose closes a room nobody is attached to after this long, unless
	// a game is in progress (its players come back to it). 0: never.
	IdleClose time.Duration
	// DesertedAfter ends a game in progress no human player has been at
	// this long, as AbandonAfter does, for a game that sets no AbandonAfter
	// of its own: players come back to a game they stepped away from, but
	// not to one nobody has attended for this long (0: never).
	DesertedAfter time.Duration
	// Practice is a guided mission: it closes as soon as its player is
	// gone (nobody else plays at it), and its screen coaches the newcomer.
	Practice bool
	// Hints lets a seated player ask the game's bot for advice (the
	// game's screen answers; the title says so to everyone).
	Hints bool
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
	OnOver func(rec RoomRecord)
}

// Summary is what the lobby lists of a room.
type Summary struct {
	Code     string
	Game     string
	Title    game.Msg
	Seats    []SeatInfo
	Open     int // seats nobody holds yet
	Status   RoomStatus
	Private  bool
	Host     string
	Campaign string
	Allowed  []string // campaign members: they see a private campaign table listed
	Practice bool     // a guided mission (RoomConfig.Practice)
	Hints    bool     // the table gives hints (RoomConfig.Hints)
	Players  []string // identities seated (to find "your tables")
	Watchers int
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
	state     game.State
	started   bool
	over      bool
	result    *game.Result
	first     game.Seat  // the seat named to begin (game.Prelude); NoSeat: the draw
	setup     game.Setup // what the game was started with (names, picks, first)
	seq       int        // actions applied
	logged    int        // entries in the journal: actions and chat lines
	seats     []seatState
	members   map[*Mailbox]member
	logs      map[game.Seat][]*game.Event // recent events per seat; Spectator for watchers
	logEnds   map[game.Seat]int           // events ever filed in each seat's log (Update.LogEnd)
	notices   map[*Mailbox]notice
	legalSeq  map[game.Seat]int    // seq at which a seat's legal actions last changed
	legalKey  map[game.Seat]string // encoding of those legal actions
	botAsked  map[game.Seat]int    // 1 + the seq a bot was last asked to act at (0: never)
	hostSeen  bool                 // the host has been at the table (see hostIfNone)
	botSaid   map[game.Seat]string // a bot's last chat line (its Msg.String)
	timer     clock.Timer
	timerID   uint64
	timerEnd  time.Time
	resume    *TimerRecord // a restored room's saved step deadline, until the timer is armed
	idleTimer clock.Timer
	abandon   clock.Timer       // every human is away from the game: ends it at AbandonAfter
	turnClock clock.Timer       // the turn clock for the decision at turnSeq
	turnSeq   int               // the decision (r.seq) the clock runs for
	turnEnd   time.Time         // when it runs out
	timeouts  map[game.Seat]int // the clock ran out on a seat this many times in a row
	clockFor  map[game.Seat]int // 1 + the seq at which a bot decides for the seat this once
	closed    CloseReason
	removed   []string // identities the host removed before the game: kept out (relations.go)
	created   time.Time
	log       *slog.Logger

	// by and from are who made the room and from where (Hub.Limits):
	// set before the actor starts and never changed, unlike cfg.Host.
	by, from string
}

func newRoom(ctx context.Context, cfg RoomConfig) *Room {
	if cfg.LogSize == 0 {
		cfg.LogSize = 40
	}
	if cfg.NoTakeover {
		cfg.TakeoverAfter = 0
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
		created:  cfg.Clock.Now(),
		log:      cfg.Logger.With("room", cfg.Code),
		by:       cfg.Host,
		from:     AddressGroup(cfg.Addr),
	}
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

// submit hands c to the actor without waiting: a full inbox is ErrBusy.
func (r *Room) submit(c command) error {
	if r.away != nil {
		return r.away
	}
	select {
	case <-r.done:
		return ErrClosed
	default:
	}
	select {
	case r.inbox <- c:
		return nil
	default:
		return ErrBusy
	}
}

// call submits c and waits for the actor's answer (or ctx).
func (r *Room) call(ctx context.Context, c command) error {
	c.reply = make(chan error, 1)
	if err := r.submit(c); err != nil {
		return err
	}
	select {
	case err := <-c.reply:
		return err
	case <-r.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Join attaches a session: it takes the player's own seat back, or an open
// seat, or (watch, or when no seat is free and the game has started) watches.
// The session's Updates arrive in box from now on.
func (r *Room) Join(ctx context.Context, p Player, box *Mailbox, watch bool) (game.Seat, error) {
	c := command{kind: cmdJoin, player: p, box: box, watch: watch, seatCh: make(chan game.Seat, 1)}
	if err := r.call(ctx, c); err != nil {
		return game.Spectator, err
	}
	return <-c.seatCh, nil
}

// Leave gives up the session's seat for good (a bot may take it over) and detaches.
func (r *Room) Leave(box *Mailbox) error { return r.submit(command{kind: cmdLeave, box: box}) }

// Detach tells the room a session has gone (disconnected); its seat stays its own.
func (r *Room) Detach(box *Mailbox) error { return r.submit(command{kind: cmdDetach, box: box}) }

// StepAway is Detach for a player who left on purpose (to the lobby, or
// quitting): the seat is kept just the same, and the table is told so
// rather than that the connection was lost.
func (r *Room) StepAway(box *Mailbox) error { return r.submit(command{kind: cmdStepAway, box: box}) }

// Act submits a game action made on the view numbered seq.
func (r *Room) Act(box *Mailbox, seq int, a game.Action) error {
	return r.submit(command{kind: cmdAct, box: box, seq: seq, action: a})
}

// ActNow is Act for a caller that waits for the outcome (plain mode, where
// the answer to a move is what it did): it returns once the action is
// durable and the view after it is in box, or with the refusal as its error
// rather than as a notice.
func (r *Room) ActNow(ctx context.Context, box *Mailbox, seq int, a game.Action) error {
	return r.call(ctx, command{kind: cmdAct, box: box, seq: seq, action: a})
}

// Say submits a chat line.
func (r *Room) Say(box *Mailbox, text string) error {
	return r.submit(command{kind: cmdSay, box: box, text: text})
}

// Start begins the game (host only); empty seats are filled with bots.
func (r *Room) Start(ctx context.Context, box *Mailbox) error {
	return r.call(ctx, command{kind: cmdStart, box: box})
}

// SetBot puts a bot of level in an open seat, or clears it (level "") (host only).
func (r *Room) SetBot(ctx context.Context, box *Mailbox, seat game.Seat, level string) error {
	return r.call(ctx, command{kind: cmdSetBot, box: box, seat: seat, level: level})
}

// Pick sets the session's own choice before the game (game.Prelude: a
// Grizzled soldier); "" leaves it to the draw. A refusal (taken, started)
// comes back as the session's notice.
func (r *Room) Pick(box *Mailbox, id string) error {
	return r.submit(command{kind: cmdPick, box: box, text: id})
}

// NameFirst is the host naming the seat that begins (game.Prelude), or
// game.NoSeat for the draw.
func (r *Room) NameFirst(box *Mailbox, seat game.Seat) error {
	return r.submit(command{kind: cmdNameFirst, box: box, seat: seat})
}

// Close stops the room, telling every session why.
func (r *Room) Close(reason CloseReason) {
	select {
	case r.inbox <- command{kind: cmdClose, reason: reason}:
	case <-r.done:
	case <-time.After(time.Second):
		r.stop() // the actor is wedged; stop it anyway
	}
}

// run is the actor: the only goroutine that touches the table's state.
func (r *Room) run(onExit func()) {
	defer close(r.done)
	defer onExit()
	defer r.stopTimers()
	var lost <-chan struct{} // nil, and never ready, without a lease
	if r.cfg.Lease != nil {
		lost = r.cfg.Lease.Lost()
	}
	for {
		select {
		case <-r.ctx.Done():
			r.closeAll(Restarting)
			return
		case <-lost:
			r.log.Warn("room lease lost: another node may run the room now; stopping", "why", leaseErr(r.cfg.Lease))
			r.closeAll(Moved)
			return
		case c := <-r.inbox:
			if !r.handleSafely(c) {
				return
			}
		}
	}
}

// handleSafely runs one command; a panic is logged with its stack and closes
// only this room. It reports whether the actor should go on.
func (r *Room) handleSafely(c command) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("room panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if c.reply != nil {
				c.reply <- game.NewError("table.err.internal")
			}
			r.closeAll(InternalError)
			ok = false
		}
	}()
	r.handle(c)
	return r.closed == Open
}

// owns reports whether this node may change the room now: always on a
// single node; in a cluster, while its lease is valid. A lease may be
// suspended for a while (the cluster electing a leader after losing a
// node): the room then refuses changes (ErrBusy) and goes on, and stops
// only when the lease is lost (run).
func (r *Room) owns() bool {
	return r.cfg.Lease == nil || r.cfg.Lease.Valid()
}

// suspendedRetry is how soon a step the room makes by itself (a timed
// step, a bot's move, a turn clock) is tried again while its lease is
// suspended.
const suspendedRetry = 250 * time.Millisecond

// setsUp reports the commands that change what the room's record keeps
// (who sits where, the game's setup), refused while the lease is suspended.
func (c command) setsUp() bool {
	switch c.kind {
	case cmdJoin, cmdStart, cmdSetBot, cmdPick, cmdNameFirst, cmdRemove:
		return true
	}
	return false
}

// madeByItself reports the commands the room gives itself (timers, bots),
// which a suspended lease postpones rather than refuses: no player is
// there to try again.
func (c command) madeByItself() bool {
	switch c.kind {
	case cmdBotAct, cmdBotSay, cmdTimer, cmdTakeover, cmdTurnClock, cmdIdle, cmdAbandon:
		return true
	}
	return false
}

func leaseErr(l Lease) any {
	if e, ok := l.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

func (r *Room) handle(c command) {
	if c.madeByItself() && !r.owns() {
		r.clock.AfterFunc(suspendedRetry, func() { r.retrySubmit(c) })
		return
	}
	if c.setsUp() && !r.owns() {
		// A join or a start is kept in the room's record, which cannot be
		// saved while the lease is suspended: the player tries again.
		if c.kind == cmdJoin {
			c.seatCh <- game.NoSeat
		}
		r.answer(c, ErrBusy)
		return
	}
	var err error
	switch c.kind {
	case cmdJoin:
		var seat game.Seat
		seat, err = r.join(c)
		c.seatCh <- seat
	case cmdLeave:
		r.leave(c.box)
	case cmdDetach:
		r.detach(c.box, false)
	case cmdStepAway:
		r.detach(c.box, true)
	case cmdAct:
		err = r.act(c)
	case cmdBotAct:
		r.botAct(c)
	case cmdBotSay:
		r.botSay(c)
	case cmdSay:
		err = r.say(c)
	case cmdStart:
		err = r.start(c.box)
	case cmdSetBot:
		err = r.setBot(c)
	case cmdRemove:
		err = r.remove(c)
	case cmdGiveUp:
		r.giveUp(c.text)
	case cmdPick:
		err = r.pick(c)
	case cmdNameFirst:
		err = r.nameFirst(c)
	case cmdTimer:
		if r.started && !r.over && c.id == r.timerID {
			r.timerID = 0
			err = r.apply(game.System, c.action)
		}
	case cmdTakeover:
		r.takeover(c.seat)
	case cmdIdle:
		r.idleTimer = nil
		if len(r.members) == 0 && (!r.started || r.over || r.cfg.Practice) {
			r.closeForGood(Abandoned)
		}
	case cmdAbandon:
		r.abandonIfEmpty()
	case cmdTurnClock:
		r.turnClockRanOut(c.seq)
	case cmdRefresh: // a restored room, nobody at it yet: its closes are armed as for one just left
		r.armAbandon()
		r.armIdle()
		r.afterChange()
	case cmdClose:
		r.closeAll(c.reason)
		if c.reason == ClosedByAdmin {
			r.save() // closed for good: not restored after a restart
		}
	}
	r.answer(c, err)
}

// answer gives c's caller err: the reply it waits for, or, to a session
// that does not wait, a notice on its screen.
func (r *Room) answer(c command, err error) {
	if c.reply != nil {
		c.reply <- err
	} else if err != nil && c.box != nil {
		r.notices[c.box] = notice{msg: noticeOf(err), seq: r.seq}
		r.publishTo(c.box)
	}
}

// notice is why a session's last request was refused. It is about the
// moment it was made: once the game moves on it is no longer shown (a
// "you can't speak at night" must not stay up into the day), unless it is
// sticky (it describes the session's place at the table).
type notice struct {
	msg    game.Msg
	seq    int // actions applied when it was given
	sticky bool
}

// noticeOf is what a player reads of a refusal: the rules' own words, or
// the error's text wrapped for the catalog.
func noticeOf(err error) game.Msg {
	var e *game.Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return game.M("ui.error_text", game.Text("Text", err.Error()))
}

func (n notice) current(seq int) game.Msg {
	if n.sticky || n.seq == seq {
		return n.msg
	}
	return game.Msg{}
}
