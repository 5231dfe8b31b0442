package table

import (
	"bivouac/game"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"time"
)

// Errors a session may get back from a room.
var (
	ErrBusy       = errors.New("the table is busy, try again")
	ErrClosed     = errors.New("this table is closed")
	ErrStale      = errors.New("the table changed before your key arrived: look again")
	ErrNotSeated  = errors.New("you are watching this table, not playing at it")
	ErrFull       = errors.New("every seat at this table is taken")
	ErrNotHost    = errors.New("only the host can do that")
	ErrStarted    = errors.New("the game has already started")
	ErrNotStarted = errors.New("the game has not started yet")
	ErrNotAllowed = errors.New("this table is for its campaign's members")
)

// Player is who asks to sit down: an identity and what to call them.
type Player struct {
	ID      string // key fingerprint or "guest:CODE"
	Name    string
	Guest   bool
	Veteran bool
}

// RoomConfig describes a new table.
type RoomConfig struct {
	Code     string // set by the Hub when empty
	Game     game.Game
	Bots     game.Bots // nil: no bots for this game
	Title    string    // game title and variant, for lobby and header
	Options  []byte    // the game's options (its codec)
	Seats    int       // seats at the table, humans and bots
	Private  bool      // not listed; joined by code
	Host     string    // identity of the creator
	BotLevel string    // level of bots that fill seats
	Seed     uint64
	Campaign string
	Allowed  []string // identities who may sit; empty: anyone
	FillBots int      // a new room's last FillBots seats start with bots of BotLevel

	// BotDelay is the pause before a bot acts, so people can follow it.
	BotDelay time.Duration
	// TakeoverAfter hands a disconnected player's seat to a bot after this
	// long, while at least one other human is connected (0: never).
	TakeoverAfter time.Duration
	// IdleClose closes a room nobody is attached to after this long, unless
	// a game is in progress (its players come back to it). 0: never.
	IdleClose time.Duration
	// LogSize is how many recent events each seat's Update carries.
	LogSize int

	Journal Journal // nil: nothing is persisted
	Logger  *slog.Logger
	// OnOver runs on the actor after a finished game has been saved
	// (profiles, stats, campaigns). It must not call back into the room.
	OnOver func(rec RoomRecord)
}

// Summary is what the lobby lists of a room.
type Summary struct {
	Code     string
	Game     string
	Title    string
	Seats    []SeatInfo
	Open     int // seats nobody holds yet
	Status   RoomStatus
	Private  bool
	Host     string
	Campaign string
	Allowed  []string // campaign members: they see a private campaign table listed
	Players  []string // identities seated (to find "your tables")
	Watchers int
}

type cmdKind uint8

const (
	cmdJoin cmdKind = iota
	cmdLeave
	cmdDetach
	cmdAct
	cmdBotAct
	cmdBotSay
	cmdSay
	cmdStart
	cmdSetBot
	cmdTimer
	cmdTakeover
	cmdIdle
	cmdRefresh
	cmdClose
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
	cfg   RoomConfig
	inbox chan command
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{}
	sum   atomic.Pointer[Summary]
	onSum func() // tells the hub the summary changed

	// Owned by the actor goroutine:
	state     game.State
	started   bool
	over      bool
	result    *game.Result
	seq       int
	seats     []seatState
	members   map[*Mailbox]member
	logs      map[game.Seat][]game.Event // recent events per seat; Spectator for watchers
	notices   map[*Mailbox]string
	legalSeq  map[game.Seat]int    // seq at which a seat's legal actions last changed
	legalKey  map[game.Seat]string // encoding of those legal actions
	botAsked  map[game.Seat]int    // 1 + the seq a bot was last asked to act at (0: never)
	botSaid   map[game.Seat]string // a bot's last chat line
	timer     *time.Timer
	timerID   uint64
	timerEnd  time.Time
	idleTimer *time.Timer
	closed    string
	created   time.Time
	log       *slog.Logger
}

func newRoom(ctx context.Context, cfg RoomConfig) *Room {
	if cfg.LogSize == 0 {
		cfg.LogSize = 40
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, stop := context.WithCancel(ctx)
	r := &Room{
		cfg:      cfg,
		inbox:    make(chan command, 64),
		ctx:      ctx,
		stop:     stop,
		done:     make(chan struct{}),
		members:  map[*Mailbox]member{},
		logs:     map[game.Seat][]game.Event{},
		notices:  map[*Mailbox]string{},
		legalSeq: map[game.Seat]int{},
		legalKey: map[game.Seat]string{},
		botAsked: map[game.Seat]int{},
		botSaid:  map[game.Seat]string{},
		created:  time.Now(),
		log:      cfg.Logger.With("room", cfg.Code),
	}
	r.seats = make([]seatState, cfg.Seats)
	for i := range r.seats {
		r.seats[i].rec = SeatRecord{Seat: game.Seat(i)}
		if cfg.Bots != nil && cfg.BotLevel != "" && i >= cfg.Seats-cfg.FillBots {
			r.seats[i].rec = SeatRecord{Seat: game.Seat(i), Bot: cfg.BotLevel, Name: botName(game.Seat(i), cfg.BotLevel)}
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

// submit hands c to the actor without waiting: a full inbox is ErrBusy.
func (r *Room) submit(c command) error {
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

// Act submits a game action made on the view numbered seq.
func (r *Room) Act(box *Mailbox, seq int, a game.Action) error {
	return r.submit(command{kind: cmdAct, box: box, seq: seq, action: a})
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

// Close stops the room, telling every session why.
func (r *Room) Close(reason string) {
	select {
	case r.inbox <- command{kind: cmdClose, text: reason}:
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
	for {
		select {
		case <-r.ctx.Done():
			r.closeAll("the server is restarting: your seat is saved, come back in a moment")
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
				c.reply <- errors.New("internal error")
			}
			r.closeAll("this table hit an internal error and was closed; the game so far is saved")
			ok = false
		}
	}()
	r.handle(c)
	return r.closed == ""
}

func (r *Room) handle(c command) {
	var err error
	switch c.kind {
	case cmdJoin:
		var seat game.Seat
		seat, err = r.join(c)
		c.seatCh <- seat
	case cmdLeave:
		r.leave(c.box)
	case cmdDetach:
		r.detach(c.box)
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
	case cmdTimer:
		if r.started && !r.over && c.id == r.timerID {
			r.timerID = 0
			err = r.apply(game.System, c.action)
		}
	case cmdTakeover:
		r.takeover(c.seat)
	case cmdIdle:
		if len(r.members) == 0 && (!r.started || r.over) {
			r.closeAll("closed after standing empty")
			r.save() // closed for good: not restored after a restart
		}
	case cmdRefresh:
		r.afterChange()
	case cmdClose:
		r.closeAll(c.text)
	}
	if c.reply != nil {
		c.reply <- err
	} else if err != nil && c.box != nil {
		r.notices[c.box] = err.Error()
		r.publishTo(c.box)
	}
}

func (r *Room) memberSeat(box *Mailbox) (game.Seat, bool) {
	m, ok := r.members[box]
	return m.seat, ok
}

func (r *Room) join(c command) (game.Seat, error) {
	p := c.player
	// The same identity takes its seat back; an older session is closed.
	for i := range r.seats {
		s := &r.seats[i]
		if s.rec.Identity != "" && s.rec.Identity == p.ID {
			for box, m := range r.members {
				if m.id == p.ID && m.seat == game.Seat(i) {
					box.Put(Update{Room: r.cfg.Code, Closed: "you joined this table from another terminal"})
					delete(r.members, box)
					delete(r.notices, box)
				}
			}
			s.takeover = false
			s.awaySince = time.Time{}
			if !r.started {
				s.rec.Name, s.rec.Veteran = p.Name, p.Veteran
			}
			r.attach(c.box, game.Seat(i), p.ID)
			r.narrate(fmt.Sprintf("%s is back at the table.", s.rec.Name))
			r.afterChange()
			return game.Seat(i), nil
		}
	}
	if !c.watch && !r.started {
		if len(r.cfg.Allowed) > 0 && !slices.Contains(r.cfg.Allowed, p.ID) {
			return game.Spectator, ErrNotAllowed
		}
		for i := range r.seats {
			s := &r.seats[i]
			if s.rec.Identity == "" && s.rec.Bot == "" {
				s.rec = SeatRecord{Seat: game.Seat(i), Identity: p.ID, Name: p.Name, Guest: p.Guest, Veteran: p.Veteran}
				r.attach(c.box, game.Seat(i), p.ID)
				r.narrate(fmt.Sprintf("%s sits down.", p.Name))
				r.save()
				r.afterChange()
				return game.Seat(i), nil
			}
		}
		if !c.watch {
			// No open seat: watch rather than refuse, and say so.
			r.notices[c.box] = ErrFull.Error() + "; you are watching"
		}
	}
	r.attach(c.box, game.Spectator, p.ID)
	r.afterChange()
	return game.Spectator, nil
}

func (r *Room) attach(box *Mailbox, seat game.Seat, id string) {
	r.members[box] = member{seat: seat, id: id}
	if r.idleTimer != nil {
		r.idleTimer.Stop()
		r.idleTimer = nil
	}
}

func (r *Room) leave(box *Mailbox) {
	seat, ok := r.memberSeat(box)
	if !ok {
		return
	}
	delete(r.members, box)
	delete(r.notices, box)
	if seat >= 0 {
		s := &r.seats[seat]
		if !r.started {
			r.narrate(fmt.Sprintf("%s leaves the table.", s.rec.Name))
			s.rec = SeatRecord{Seat: seat}
			r.save()
		} else if !r.over && !r.seatConnected(seat) {
			r.narrate(fmt.Sprintf("%s has left the table.", s.rec.Name))
			if r.cfg.Bots != nil {
				s.takeover = true
			}
		}
	}
	r.afterDetach()
}

func (r *Room) detach(box *Mailbox) {
	seat, ok := r.memberSeat(box)
	if !ok {
		return
	}
	delete(r.members, box)
	delete(r.notices, box)
	if seat >= 0 && !r.seatConnected(seat) {
		s := &r.seats[seat]
		s.awaySince = time.Now()
		if r.started && !r.over {
			r.narrate(fmt.Sprintf("%s lost the connection; the seat is kept.", s.rec.Name))
			if r.cfg.TakeoverAfter > 0 && r.cfg.Bots != nil {
				seat := seat
				time.AfterFunc(r.cfg.TakeoverAfter, func() { r.retrySubmit(command{kind: cmdTakeover, seat: seat}) })
			}
		}
	}
	r.afterDetach()
}

func (r *Room) afterDetach() {
	if len(r.members) == 0 && r.cfg.IdleClose > 0 && r.idleTimer == nil {
		r.idleTimer = time.AfterFunc(r.cfg.IdleClose, func() { r.retrySubmit(command{kind: cmdIdle}) })
	}
	r.afterChange()
}

func (r *Room) takeover(seat game.Seat) {
	s := &r.seats[seat]
	if !r.started || r.over || r.seatConnected(seat) || s.takeover || s.awaySince.IsZero() {
		return
	}
	if time.Since(s.awaySince) < r.cfg.TakeoverAfter {
		return // they came back and left again since; a newer timer is due
	}
	s.takeover = true
	r.narrate(fmt.Sprintf("A bot plays for %s until they come back.", s.rec.Name))
	r.afterChange()
}

// retrySubmit is for timer goroutines: it keeps trying while the inbox is
// full, and gives up when the room is gone.
func (r *Room) retrySubmit(c command) {
	for {
		switch err := r.submit(c); err {
		case nil, ErrClosed:
			return
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-r.done:
			return
		}
	}
}

func (r *Room) seatConnected(seat game.Seat) bool {
	for _, m := range r.members {
		if m.seat == seat {
			return true
		}
	}
	return false
}

func (r *Room) isHost(box *Mailbox) bool {
	m, ok := r.members[box]
	return ok && m.id == r.cfg.Host
}

func (r *Room) setBot(c command) error {
	if !r.isHost(c.box) {
		return ErrNotHost
	}
	if r.started {
		return ErrStarted
	}
	if c.seat < 0 || int(c.seat) >= len(r.seats) {
		return fmt.Errorf("no seat %d", c.seat+1)
	}
	s := &r.seats[c.seat]
	if s.rec.Identity != "" {
		return fmt.Errorf("%s sits there", s.rec.Name)
	}
	if c.level != "" {
		if r.cfg.Bots == nil {
			return errors.New("this game has no bots")
		}
		if !slices.Contains(r.cfg.Bots.Levels(), c.level) {
			return fmt.Errorf("no bot level %q", c.level)
		}
		s.rec = SeatRecord{Seat: c.seat, Bot: c.level, Name: botName(c.seat, c.level)}
	} else {
		s.rec = SeatRecord{Seat: c.seat}
	}
	r.save()
	r.afterChange()
	return nil
}

var botNames = []string{"Ada", "Bruno", "Celine", "Dmitri", "Ewa", "Fabien", "Greta", "Hugo", "Irena", "Jules",
	"Kasia", "Louis", "Marta", "Nils", "Olga", "Pierre", "Quentin", "Rosa"}

func botName(seat game.Seat, level string) string {
	return fmt.Sprintf("%s (bot·%s)", botNames[int(seat)%len(botNames)], level)
}

func (r *Room) start(box *Mailbox) error {
	if !r.isHost(box) {
		return ErrNotHost
	}
	if r.started {
		return ErrStarted
	}
	names := make([]string, len(r.seats))
	for i := range r.seats {
		s := &r.seats[i]
		if s.rec.Identity == "" && s.rec.Bot == "" {
			if r.cfg.Bots == nil || r.cfg.BotLevel == "" {
				return fmt.Errorf("seat %d is still empty", i+1)
			}
			s.rec = SeatRecord{Seat: game.Seat(i), Bot: r.cfg.BotLevel, Name: botName(game.Seat(i), r.cfg.BotLevel)}
		}
		names[i] = s.rec.Name
	}
	setup := game.Setup{Game: r.cfg.Game.ID(), Names: names, Options: r.cfg.Options}
	st, events, err := r.cfg.Game.New(setup, r.cfg.Seed)
	if err != nil {
		return err
	}
	r.state, r.started = st, true
	r.record(events)
	r.save()
	r.afterChange()
	return nil
}

func (r *Room) act(c command) error {
	seat, ok := r.memberSeat(c.box)
	if !ok {
		return ErrClosed
	}
	if seat < 0 {
		return ErrNotSeated
	}
	if !r.started {
		return ErrNotStarted
	}
	if c.seq < r.legalSeq[seat] {
		return ErrStale
	}
	delete(r.notices, c.box)
	return r.apply(seat, c.action)
}

// apply runs one action through the rules, makes it durable, then publishes.
func (r *Room) apply(seat game.Seat, a game.Action) error {
	if r.over {
		return game.ErrGameOver
	}
	enc, err := r.cfg.Game.EncodeAction(a)
	if err != nil {
		return err
	}
	next, events, err := r.cfg.Game.Apply(r.state, seat, a)
	if err != nil {
		return err
	}
	r.state = next
	r.seq++
	if r.cfg.Journal != nil {
		if err := r.cfg.Journal.Append(r.cfg.Code, uint64(r.seq), EncodeEntry(seat, enc)); err != nil {
			// Never publish what is not on disk.
			r.log.Error("journal append failed; halting room", "err", err)
			r.closeAll("the table could not save the last move and was stopped; it resumes from the last saved move")
			return err
		}
	}
	r.record(events)
	if res, done := r.cfg.Game.Result(r.state); done && !r.over {
		r.over, r.result = true, &res
		r.save()
		if r.cfg.OnOver != nil {
			r.cfg.OnOver(r.record0())
		}
	}
	r.afterChange()
	return nil
}

func (r *Room) say(c command) error {
	seat, ok := r.memberSeat(c.box)
	if !ok {
		return ErrClosed
	}
	if !r.started || seat < 0 {
		// Before the game the table talk is plain; watchers only listen.
		if seat < 0 {
			return errors.New("watchers cannot talk to the players: take a seat to talk")
		}
		r.record([]game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: c.text}})
		r.afterChange()
		return nil
	}
	events, err := r.cfg.Game.Say(r.state, seat, c.text)
	if err != nil {
		return err
	}
	r.record(events)
	r.publish()
	return nil
}

// record files events into each audience member's recent log.
func (r *Room) record(events []game.Event) {
	for _, e := range events {
		for i := range r.seats {
			if e.Audience.Includes(game.Seat(i)) {
				r.logs[game.Seat(i)] = r.appendLog(r.logs[game.Seat(i)], e)
			}
		}
		if e.Audience.All {
			r.logs[game.Spectator] = r.appendLog(r.logs[game.Spectator], e)
		}
	}
}

func (r *Room) appendLog(l []game.Event, e game.Event) []game.Event {
	if len(l) >= r.cfg.LogSize {
		l = slices.Delete(l, 0, len(l)-r.cfg.LogSize+1)
	}
	return append(l, e)
}

func (r *Room) narrate(text string) {
	r.record([]game.Event{{Audience: game.Everyone(), Kind: game.Narration, From: -1, Text: text}})
}

// afterChange re-arms timers and bots, refreshes the lobby summary and
// publishes the views.
func (r *Room) afterChange() {
	if r.started && !r.over {
		r.trackLegal()
		r.armTimer()
		r.askBots()
	} else {
		r.stopTimers()
	}
	r.refreshSummary()
	r.publish()
}

// trackLegal notes, per seat, when what it may do last changed: a key
// pressed on an older view is refused only if its choices have changed since.
func (r *Room) trackLegal() {
	for i := range r.seats {
		seat := game.Seat(i)
		key := ""
		for _, a := range r.cfg.Game.Legal(r.state, seat) {
			if b, err := r.cfg.Game.EncodeAction(a); err == nil {
				key += string(b) + "\x00"
			}
		}
		if key != r.legalKey[seat] {
			r.legalKey[seat], r.legalSeq[seat] = key, r.seq
		}
	}
}

func (r *Room) armTimer() {
	t, ok := r.cfg.Game.Timer(r.state)
	if !ok {
		r.stopTimers()
		return
	}
	if t.ID == r.timerID && r.timer != nil {
		return
	}
	if r.timer != nil {
		r.timer.Stop()
	}
	r.timerID, r.timerEnd = t.ID, time.Now().Add(t.After)
	id, action := t.ID, t.Action
	r.timer = time.AfterFunc(t.After, func() { r.retrySubmit(command{kind: cmdTimer, id: id, action: action}) })
}

func (r *Room) stopTimers() {
	if r.timer != nil {
		r.timer.Stop()
		r.timer, r.timerID = nil, 0
	}
}

// askBots starts a bot turn for every waiting seat a bot plays. The bot
// thinks off the actor (a strong bot searches) and submits like a player.
func (r *Room) askBots() {
	if r.cfg.Bots == nil {
		return
	}
	for _, seat := range r.cfg.Game.Waiting(r.state) {
		if seat < 0 || int(seat) >= len(r.seats) {
			continue
		}
		s := r.seats[seat]
		level := s.rec.Bot
		if s.takeover {
			level = r.cfg.BotLevel
			if level == "" {
				level = r.cfg.Bots.Levels()[0]
			}
		}
		if level == "" || r.botAsked[seat] == r.seq+1 {
			continue
		}
		if s.takeover && !r.otherHumanConnected(seat) {
			continue // nobody is watching: the table waits for its players
		}
		bot, err := r.cfg.Bots.New(level)
		if err != nil {
			r.log.Error("bot", "level", level, "err", err)
			continue
		}
		r.botAsked[seat] = r.seq + 1
		view, seq, legal := r.cfg.Game.View(r.state, seat), r.seq, r.cfg.Game.Legal(r.state, seat)
		seed := r.cfg.Seed ^ uint64(seq)<<8 ^ uint64(seat)
		go r.runBot(bot, seat, view, seq, legal, seed)
	}
}

func (r *Room) otherHumanConnected(seat game.Seat) bool {
	for _, m := range r.members {
		if m.seat >= 0 && m.seat != seat {
			return true
		}
	}
	return false
}

func (r *Room) runBot(bot game.Bot, seat game.Seat, view game.View, seq int, legal []game.Action, seed uint64) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("bot panic", "seat", seat, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	start := time.Now()
	a, ok := bot.Act(view, seed)
	if !ok {
		if len(legal) == 0 {
			return
		}
		a = legal[0]
	}
	if t, ok := bot.(game.Talker); ok {
		if line, ok := t.Talk(view, seed); ok {
			r.retrySubmit(command{kind: cmdBotSay, seat: seat, seq: seq, text: line})
		}
	}
	if d := r.cfg.BotDelay - time.Since(start); d > 0 {
		select {
		case <-time.After(d):
		case <-r.done:
			return
		}
	}
	r.retrySubmit(command{kind: cmdBotAct, seat: seat, seq: seq, action: a})
}

// botSay passes a bot's line to the game's chat rules, as for a player.
func (r *Room) botSay(c command) {
	if !r.started || r.over || int(c.seat) >= len(r.seats) || c.seq != r.seq {
		return
	}
	if s := r.seats[c.seat]; s.rec.Bot == "" && !s.takeover {
		return
	}
	if r.botSaid[c.seat] == c.text {
		return // a bot asked again after a refused move repeats itself: say it once
	}
	r.botSaid[c.seat] = c.text
	events, err := r.cfg.Game.Say(r.state, c.seat, c.text)
	if err != nil {
		return // the phase moved on (no talking now): the line is simply not said
	}
	r.record(events)
	r.publish()
}

// botAct applies a bot's choice if the table is still where the bot saw it
// (otherwise the bot has already been asked again). A refused choice falls
// back to the first legal action, so a faulty bot can never stall a table.
func (r *Room) botAct(c command) {
	if !r.started || r.over || c.seq != r.seq || int(c.seat) >= len(r.seats) {
		return
	}
	if s := r.seats[c.seat]; s.rec.Bot == "" && !s.takeover {
		return // its player came back
	}
	err := r.apply(c.seat, c.action)
	if err == nil || r.closed != "" {
		return
	}
	r.log.Warn("bot chose an illegal action", "seat", c.seat, "err", err)
	if legal := r.cfg.Game.Legal(r.state, c.seat); len(legal) > 0 {
		if err := r.apply(c.seat, legal[0]); err != nil {
			r.log.Error("bot fallback refused", "seat", c.seat, "err", err)
		}
	}
}

// refreshSummary publishes the lobby's snapshot of this room.
func (r *Room) refreshSummary() {
	s := &Summary{Code: r.cfg.Code, Game: r.cfg.Game.ID(), Title: r.cfg.Title, Private: r.cfg.Private,
		Host: r.cfg.Host, Campaign: r.cfg.Campaign, Allowed: r.cfg.Allowed, Seats: r.seatInfos(), Status: r.status()}
	for _, st := range r.seats {
		if st.rec.Identity == "" && st.rec.Bot == "" {
			s.Open++
		}
		if st.rec.Identity != "" {
			s.Players = append(s.Players, st.rec.Identity)
		}
	}
	for _, m := range r.members {
		if m.seat < 0 {
			s.Watchers++
		}
	}
	// Only a change the lobby shows wakes the lobby: a move at a table
	// changes nothing there, and 2,000 sessions redrawing per move would.
	if prev := r.sum.Swap(s); (prev == nil || !prev.equal(s)) && r.onSum != nil {
		r.onSum()
	}
}

func (a *Summary) equal(b *Summary) bool {
	return a.Code == b.Code && a.Game == b.Game && a.Title == b.Title && a.Open == b.Open &&
		a.Status == b.Status && a.Private == b.Private && a.Host == b.Host && a.Campaign == b.Campaign &&
		a.Watchers == b.Watchers && slices.Equal(a.Seats, b.Seats) && slices.Equal(a.Allowed, b.Allowed) &&
		slices.Equal(a.Players, b.Players)
}

func (r *Room) status() RoomStatus {
	switch {
	case r.closed != "":
		return StatusClosed
	case r.over:
		return StatusOver
	case r.started:
		return StatusPlaying
	}
	return StatusWaiting
}

func (r *Room) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(r.seats))
	for i, s := range r.seats {
		bot := s.rec.Bot
		if s.takeover {
			bot = "standing in"
		}
		out[i] = SeatInfo{Seat: game.Seat(i), Name: s.rec.Name, Bot: bot, Connected: r.seatConnected(game.Seat(i)), Veteran: s.rec.Veteran}
	}
	return out
}

// publish puts a fresh Update in every attached session's mailbox. Views are
// computed once per seat.
func (r *Room) publish() {
	views := map[game.Seat]game.View{}
	seats := r.seatInfos()
	for box := range r.members {
		r.put(box, views, seats)
	}
}

func (r *Room) publishTo(box *Mailbox) {
	if _, ok := r.members[box]; ok {
		r.put(box, map[game.Seat]game.View{}, r.seatInfos())
	}
}

func (r *Room) put(box *Mailbox, views map[game.Seat]game.View, seats []SeatInfo) {
	m := r.members[box]
	u := Update{Room: r.cfg.Code, Title: r.cfg.Title, Game: r.cfg.Game.ID(), Seat: m.seat, Seq: r.seq,
		Seats: seats, Notice: r.notices[box], Started: r.started, Over: r.over, Result: r.result,
		Log: slices.Clone(r.logs[m.seat])}
	if r.started {
		v, ok := views[m.seat]
		if !ok {
			v = r.cfg.Game.View(r.state, m.seat)
			views[m.seat] = v
		}
		u.View = v
		if r.timer != nil {
			if left := time.Until(r.timerEnd); left > 0 {
				u.Deadline = int(left.Seconds() + 0.5)
			}
		}
	}
	box.Put(u)
}

func (r *Room) record0() RoomRecord {
	rec := RoomRecord{Code: r.cfg.Code, Game: r.cfg.Game.ID(), Title: r.cfg.Title, Options: r.cfg.Options,
		Seed: r.cfg.Seed, Status: r.status(), Private: r.cfg.Private, Host: r.cfg.Host, BotLevel: r.cfg.BotLevel,
		Campaign: r.cfg.Campaign, Allowed: r.cfg.Allowed, Seq: uint64(r.seq), Result: r.result,
		Created: r.created, Updated: time.Now()}
	rec.Setup = game.Setup{Game: rec.Game, Options: r.cfg.Options}
	for _, s := range r.seats {
		rec.Seats = append(rec.Seats, s.rec)
		if r.started {
			rec.Setup.Names = append(rec.Setup.Names, s.rec.Name)
		}
	}
	return rec
}

func (r *Room) save() {
	if r.cfg.Journal == nil {
		return
	}
	if err := r.cfg.Journal.SaveRoom(r.record0()); err != nil {
		r.log.Error("saving room", "err", err)
	}
}

func (r *Room) closeAll(reason string) {
	if r.closed != "" {
		return
	}
	r.closed = reason
	r.stopTimers()
	if r.idleTimer != nil {
		r.idleTimer.Stop()
	}
	for box := range r.members {
		box.Put(Update{Room: r.cfg.Code, Closed: reason})
	}
	r.members = map[*Mailbox]member{}
	r.refreshSummary()
	r.stop()
}
