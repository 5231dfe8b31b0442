package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/game"
)

// Hub keeps the server's rooms by code and tells lobby screens when the list
// changes. Rooms are independent actors; the Hub only finds them.
type Hub struct {
	ctx context.Context
	log *slog.Logger

	mu      sync.Mutex // guards rooms and pending
	rooms   map[string]*Room
	pending map[string]*pendingRoom // by code: rooms Create is making

	// CodeTaken reports codes a saved room holds, so a new room never
	// reuses the code, and so the log, of one. It may free the code of a
	// finished game (the server moves its record to an ID of its own) and
	// answer false: in a cluster it is called once Claim has the code's
	// lease, so no node runs that room any more. An error (the store does
	// not answer) fails Create at once. It is called without the hub's
	// lock and must answer within a few seconds.
	CodeTaken func(code string) (bool, error)
	// Claim, in a cluster, takes the lease of a new room's code before the
	// room starts; an error wrapping ErrCodeTaken means another node has
	// that code, any other fails Create at once. Nil: a single node,
	// which needs no lease. Called without the hub's lock; it must answer
	// within a few seconds.
	Claim func(code string) (Lease, error)
	// Limits bounds the open tables per player and per address.
	Limits Limits
	// Others, in a cluster, are the rooms other nodes run: the lobby lists
	// them with this node's and Room finds them by code. Call Changed when
	// they change.
	Others Others
	// Launched, if set, hears of each room this node starts running (made
	// here or restored), from the goroutine that started it: in a cluster,
	// it serves the room to the other nodes' sessions.
	Launched func(*Room)

	wmu      sync.Mutex // guards watchers, the list cache and the tell timer
	watchers map[chan struct{}]struct{}
	version  uint64    // bumped on every change
	cached   []Summary // List's answer at cachedAt (shared, read-only)
	cachedAt uint64
	telling  bool // a tell is scheduled

	wg sync.WaitGroup
}

// Others are the rooms other nodes of a cluster run.
type Others interface {
	List() []Summary
	// Has reports whether another node runs a room with code, without
	// asking that node.
	Has(code string) bool
	// Room is a handle on a room another node runs, or nil if none has
	// code. It may ask the cluster: call it off a session's event loop.
	Room(code string) RoomHandle
}

// NewHub returns an empty hub; its rooms stop when ctx ends.
func NewHub(ctx context.Context, log *slog.Logger) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{ctx: ctx, log: log, rooms: map[string]*Room{}, pending: map[string]*pendingRoom{}, watchers: map[chan struct{}]struct{}{}}
}

// Table codes: a public table is listed anyway, so its code only needs to
// be short; a private table's code is all that keeps strangers out, so it
// is long enough that guessing, at the rate the lobby allows
// (sshserver.Guesses), is hopeless (30^8 ≈ 6.6·10^11).
const (
	PublicCodeLen  = 4
	PrivateCodeLen = 8
)

// NormalizeCode upper-cases a typed code and drops spaces and dashes.
func NormalizeCode(s string) string { return codes.Normalize(s) }

// Errors Create gives a player.
var (
	// ErrCodeTaken is what Claim (or CodeTaken) says of a code another
	// node, or a saved room, holds: Create draws another.
	ErrCodeTaken = errors.New("table: code taken")
	// ErrNoFreeCode: createTries codes in a row were taken.
	ErrNoFreeCode = game.NewError("table.create.no_free_code")
	// ErrCannotCreate: the store or the cluster did not answer Create's
	// checks (a cluster without its majority): no table can start now.
	ErrCannotCreate = game.NewError("table.create.cannot_create")
	// ErrWatchOnly: the player may only watch (Player.WatchOnly); Join
	// says it as the notice of the watcher they become.
	ErrWatchOnly = game.NewError("table.guests_watch")
)

// createTries bounds the fresh codes Create draws before it gives up. A
// draw is taken only as often as the code space is full (30^4 = 810,000
// public codes, most of them free while finished games free theirs), so
// 8 taken draws in a row mean something is wrong, not bad luck.
const createTries = 8

// Limits bounds the tables one player, and one address, hold open
// (waiting or playing) at once; 0: no bound. See docs/ARCHITECTURE.md,
// "Security limits".
type Limits struct {
	PerPlayer int
	PerAddr   int
}

// Create starts a new room's actor. An empty cfg.Code gets a fresh code.
// For a campaign whose mission table is still open, it returns that table:
// a campaign has one mission under way at a time.
//
// It never holds the hub's lock while it asks the store (CodeTaken) or the
// cluster (Claim): those may take seconds, and every lobby would wait on
// them. A code taken elsewhere is drawn again, at most createTries times;
// any other error from them fails at once (ErrCannotCreate).
func (h *Hub) Create(cfg RoomConfig) (*Room, error) {
	if cfg.Game == nil || cfg.Seats < 1 {
		return nil, errors.New("a room needs a game and seats")
	}
	if cfg.Logger == nil {
		cfg.Logger = h.log
	}
	fresh := cfg.Code == ""
	elsewhere := h.othersOpen()
	h.mu.Lock()
	if cfg.Campaign != "" {
		// A campaign plays one mission at a time: whoever asks for its
		// table while one is open gets that one.
		if r := h.missionOf(cfg.Campaign); r != nil {
			h.mu.Unlock()
			return r, nil
		}
	}
	if err := h.overLimit(cfg, elsewhere); err != nil {
		h.mu.Unlock()
		return nil, err
	}
	h.mu.Unlock()
	for try := 0; try < createTries; try++ {
		if fresh {
			cfg.Code = codes.New(PublicCodeLen)
			if cfg.Private {
				cfg.Code = codes.New(PrivateCodeLen)
			}
		}
		r, err := h.createAs(cfg, elsewhere)
		if errors.Is(err, ErrCodeTaken) && fresh {
			continue
		}
		return r, err
	}
	h.log.Warn("no free table code after several draws", "tries", createTries)
	return nil, ErrNoFreeCode
}

// createAs starts the room cfg describes under cfg.Code, unless the code
// is taken (ErrCodeTaken) or cannot be checked (ErrCannotCreate).
func (h *Hub) createAs(cfg RoomConfig, elsewhere []Summary) (*Room, error) {
	code := cfg.Code
	h.mu.Lock()
	if h.rooms[code] != nil || h.pending[code] != nil {
		h.mu.Unlock()
		return nil, fmt.Errorf("room %s: %w", code, ErrCodeTaken)
	}
	if cfg.Campaign != "" {
		if r := h.missionOf(cfg.Campaign); r != nil { // made meanwhile
			h.mu.Unlock()
			return r, nil
		}
		if h.missionPending(cfg.Campaign) {
			h.mu.Unlock()
			return nil, ErrBusy // another member is making the table this moment
		}
	}
	if err := h.overLimit(cfg, elsewhere); err != nil { // others may have made tables meanwhile
		h.mu.Unlock()
		return nil, err
	}
	h.pending[code] = &pendingRoom{host: cfg.Host, addr: AddressGroup(cfg.Addr), campaign: cfg.Campaign}
	h.mu.Unlock()
	unpend := func() {
		h.mu.Lock()
		delete(h.pending, code)
		h.mu.Unlock()
	}
	if err := h.claimCode(&cfg); err != nil {
		unpend()
		return nil, err
	}
	r := newRoom(h.ctx, cfg)
	r.save()
	h.mu.Lock()
	delete(h.pending, code)
	h.launch(r)
	h.mu.Unlock()
	h.launched(r)
	return r, nil
}

// claimCode takes cfg.Code's lease, in a cluster, then checks the code is
// free in storage: in that order, so that CodeTaken may free the code of
// a finished game nobody runs any more. It runs without the hub's lock.
func (h *Hub) claimCode(cfg *RoomConfig) error {
	if h.Claim != nil {
		lease, err := h.Claim(cfg.Code)
		switch {
		case errors.Is(err, ErrCodeTaken):
			h.log.Info("a new room's code was taken on another node; drawing another")
			return err
		case err != nil:
			h.log.Warn("a new table's lease could not be taken", "err", err)
			return fmt.Errorf("%w: %w", ErrCannotCreate, err)
		}
		cfg.Lease = lease
	}
	if h.CodeTaken == nil {
		return nil
	}
	taken, err := h.CodeTaken(cfg.Code)
	if err == nil && !taken {
		return nil
	}
	if cfg.Lease != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = cfg.Lease.Release(ctx) // a lease not released lapses on its own
		cancel()
		cfg.Lease = nil
	}
	if err != nil {
		h.log.Warn("a new table's code could not be checked", "err", err)
		return fmt.Errorf("%w: %w", ErrCannotCreate, err)
	}
	return fmt.Errorf("room %s: %w", cfg.Code, ErrCodeTaken)
}

// pendingRoom is a room Create is making: its code is being checked and
// claimed, without the hub's lock.
type pendingRoom struct {
	host, addr, campaign string
}

// missionOf is the campaign's open mission table here (nil: none); h.mu is held.
func (h *Hub) missionOf(campaign string) *Room {
	for _, r := range h.rooms {
		if openMission(r.Summary(), campaign) {
			return r
		}
	}
	return nil
}

// missionPending reports a table of the campaign being made; h.mu is held.
func (h *Hub) missionPending(campaign string) bool {
	for _, p := range h.pending {
		if p.campaign == campaign {
			return true
		}
	}
	return false
}

// othersOpen is the open tables other nodes of a cluster run (nil on a
// single node), read without the hub's lock.
func (h *Hub) othersOpen() []Summary {
	if h.Others == nil || h.Limits.PerPlayer <= 0 {
		return nil
	}
	var out []Summary
	for _, s := range h.Others.List() {
		if s.Status == StatusWaiting || s.Status == StatusPlaying {
			out = append(out, s)
		}
	}
	return out
}

// overLimit refuses a table past Limits for cfg's host or address (a
// campaign's table that is already open is returned before this); h.mu
// is held. Tables other nodes run (elsewhere) count for their host: the
// cluster's directory does not say where they were made from.
func (h *Hub) overLimit(cfg RoomConfig, elsewhere []Summary) error {
	byHost, byAddr, from := 0, 0, AddressGroup(cfg.Addr)
	count := func(host, addr string) {
		if cfg.Host != "" && host == cfg.Host {
			byHost++
		}
		if from != "" && addr == from {
			byAddr++
		}
	}
	for _, r := range h.rooms {
		if st := r.Summary().Status; st == StatusWaiting || st == StatusPlaying {
			count(r.by, r.from)
		}
	}
	for _, p := range h.pending {
		count(p.host, p.addr)
	}
	for _, s := range elsewhere {
		if h.rooms[s.Code] == nil {
			count(s.Host, "")
		}
	}
	switch {
	case h.Limits.PerPlayer > 0 && byHost >= h.Limits.PerPlayer:
		h.log.Info("table refused: the player's open tables are at the limit", "limit", h.Limits.PerPlayer)
		return game.Refuse(ErrTooManyTables, game.M("table.create.too_many", game.Count(h.Limits.PerPlayer)))
	case h.Limits.PerAddr > 0 && byAddr >= h.Limits.PerAddr:
		h.log.Info("table refused: the address's open tables are at the limit", "limit", h.Limits.PerAddr)
		return game.Refuse(ErrTooManyTables, game.M("table.create.too_many_here", game.Count(h.Limits.PerAddr)))
	}
	return nil
}

// AddressGroup is the part of a client's address that Limits counts by:
// an IPv4 address, or an IPv6 /64 (what one household or one attacker
// holds). Anything else is taken as it is.
func AddressGroup(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		addr = h
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	if ip = ip.Unmap(); ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// ErrTooManyTables: the player, or their address, holds Limits' number of
// open tables already.
var ErrTooManyTables = errors.New("table: too many open tables")

// Restore rebuilds a saved room by replaying its log, then starts its actor.
// Every seat starts disconnected; players take their seats back by joining.
func (h *Hub) Restore(cfg RoomConfig, rec RoomRecord, entries [][]byte) (*Room, error) {
	cfg.Code, cfg.GameOptions, cfg.Seed, cfg.Seats = rec.Code, rec.GameOptions, rec.Seed, len(rec.Seats)
	cfg.Host, cfg.Options = rec.Host, rec.Options

	cfg.FillBots = 0 // the saved seats say who sits where
	if cfg.Title.IsZero() {
		cfg.Title = rec.Title
	}
	if cfg.Logger == nil {
		cfg.Logger = h.log
	}
	r := newRoom(h.ctx, cfg)
	r.created, r.first, r.setup = rec.Created, game.Seat(rec.First-1), rec.Setup // First 0 (older records too): the draw
	r.removed = rec.Removed
	if r.creator = rec.Creator; r.creator == "" {
		r.creator = rec.Host // a record from before creators were kept
	}
	for i, s := range rec.Seats {
		r.seats[i].rec = s
		r.seats[i].awaySince = r.clock.Now()
		r.seats[i].takeover = s.Left && r.cfg.Bots != nil
		if s.Identity == r.creator && rec.Status == StatusWaiting {
			r.cfg.Host = r.creator // seated, the creator hosts their waiting room
		}
	}
	r.logged, r.resume = len(entries), rec.Timer
	if rec.Status == StatusWaiting {
		before, _, err := chatBeforeStart(entries)
		if err != nil {
			return nil, fmt.Errorf("room %s: %w", rec.Code, err)
		}
		r.record(before)
	}
	if rec.Status == StatusPlaying || rec.Status == StatusOver {
		var acts []Entry // a correspondence table's actions: when each was made, and by whom
		corr := r.byCorrespondence()
		if corr {
			var err error
			if acts, err = actions(entries); err != nil {
				return nil, fmt.Errorf("room %s: %w", rec.Code, err)
			}
			r.corr.startedAt = rec.Started
		}
		st, err := ReplayEach(cfg.Game, rec.Setup, rec.Seed, entries, func(i int, _ game.Seat, s game.State, events []game.Event) {
			if corr && (i == 0 && r.seq == 0 || i > r.seq) { // (acts is nil before the first action)
				r.corr.rederive(cfg.Game, s, i, acts)
			}
			r.seq = i
			r.record(events)
		})
		if err != nil {
			return nil, fmt.Errorf("room %s: %w", rec.Code, err)
		}
		r.state, r.started = st, true
		if res, done := cfg.Game.Result(r.state); done {
			r.over, r.result = true, &res
		}
		for seat, n := range r.corr.misses {
			if n >= MissesToBot && cfg.Bots != nil {
				r.seats[seat].takeover = true // until its player comes back and acts
			}
		}
	}
	if r.byCorrespondence() && r.started && !r.over {
		// Whom it waits on, in the summary the lobby reads from the first
		// (it listed nobody until the actor's first refresh). OnTurn still
		// hears it from that refresh: nothing is reported yet.
		for _, seat := range r.clockSeats() {
			r.corr.told = append(r.corr.told, r.seats[seat].rec.Identity)
		}
	}
	h.mu.Lock()
	if h.rooms[rec.Code] != nil {
		h.mu.Unlock()
		return nil, fmt.Errorf("room %s exists", rec.Code)
	}
	h.launch(r)
	h.mu.Unlock()
	h.launched(r)
	r.retrySubmit(command{kind: cmdRefresh}) // arm timers and bots, on the actor
	return r, nil
}

// launch registers r and starts its actor; h.mu is held. The caller then
// calls launched, once it has let the lock go.
func (h *Hub) launch(r *Room) {
	h.rooms[r.cfg.Code] = r
	r.onSum = h.changed
	r.refreshSummary()
	h.wg.Add(1)
	go r.run(func() {
		h.mu.Lock()
		if h.rooms[r.cfg.Code] == r {
			delete(h.rooms, r.cfg.Code)
		}
		h.mu.Unlock()
		if r.cfg.Lease != nil {
			// Free at once for another node (a no-op if it was lost).
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if err := r.cfg.Lease.Release(ctx); err != nil {
				h.log.Warn("room lease not released; it lapses on its own", "room", r.cfg.Code, "err", err)
			}
			cancel()
		}
		h.changed()
		h.wg.Done()
	})
}

// launched tells Launched of r, without the hub's lock (it may ask the
// cluster).
func (h *Hub) launched(r *Room) {
	if h.Launched != nil {
		h.Launched(r)
	}
}

// Room finds a room by code (nil if none).
func (h *Hub) Room(code string) RoomHandle {
	code = NormalizeCode(code)
	if r := h.Local(code); r != nil {
		return r
	}
	if h.Others != nil {
		return h.Others.Room(code)
	}
	return nil
}

// CampaignTable finds the campaign's mission table under way, here or, in
// a cluster, on another node (nil if none): a campaign plays one mission
// at a time, wherever its members connect. It may ask the cluster: call
// it off a session's event loop.
func (h *Hub) CampaignTable(campaign string) RoomHandle {
	h.mu.Lock()
	if r := h.missionOf(campaign); r != nil {
		h.mu.Unlock()
		return r
	}
	h.mu.Unlock()
	if h.Others == nil {
		return nil
	}
	for _, s := range h.Others.List() {
		if openMission(s, campaign) {
			return h.Others.Room(s.Code)
		}
	}
	return nil
}

func openMission(s Summary, campaign string) bool {
	return campaign != "" && s.Campaign == campaign && (s.Status == StatusWaiting || s.Status == StatusPlaying)
}

// Has reports whether a room with code runs here or, in a cluster, on
// another node, without asking the other node.
func (h *Hub) Has(code string) bool {
	code = NormalizeCode(code)
	return h.Local(code) != nil || h.Others != nil && h.Others.Has(code)
}

// Local finds a room this node runs, by code (nil if none).
func (h *Hub) Local(code string) *Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rooms[NormalizeCode(code)]
}

// Locals is every room this node runs.
func (h *Hub) Locals() []*Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		out = append(out, r)
	}
	return out
}

// Running is how many rooms this node runs.
func (h *Hub) Running() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms)
}

// Changed tells the lobby the room list changed (Others calls it).
func (h *Hub) Changed() { h.changed() }

// List returns every room's summary, ordered waiting, playing, over, then
// by code. Sessions share one list per change: treat it as read-only.
func (h *Hub) List() []Summary {
	h.wmu.Lock()
	if h.cached != nil && h.cachedAt == h.version {
		defer h.wmu.Unlock()
		return h.cached
	}
	version := h.version
	h.wmu.Unlock()
	out := h.list()
	h.wmu.Lock()
	if h.version == version {
		h.cached, h.cachedAt = out, version
	}
	h.wmu.Unlock()
	return out
}

func (h *Hub) list() []Summary {
	var others []Summary
	if h.Others != nil {
		others = h.Others.List()
	}
	h.mu.Lock()
	out := make([]Summary, 0, len(h.rooms)+len(others))
	for _, r := range h.rooms {
		out = append(out, r.Summary())
	}
	for _, s := range others {
		if h.rooms[s.Code] == nil {
			out = append(out, s)
		}
	}
	h.mu.Unlock()
	rank := map[RoomStatus]int{StatusWaiting: 0, StatusPlaying: 1, StatusOver: 2, StatusClosed: 3}
	slices.SortFunc(out, func(a, b Summary) int {
		if d := rank[a.Status] - rank[b.Status]; d != 0 {
			return d
		}
		return strings.Compare(a.Code, b.Code)
	})
	return out
}

// Watch returns a channel that receives (at most one pending) signal each
// time the room list changes, and a function to stop watching.
func (h *Hub) Watch() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.wmu.Lock()
	h.watchers[ch] = struct{}{}
	h.wmu.Unlock()
	return ch, func() {
		h.wmu.Lock()
		delete(h.watchers, ch)
		h.wmu.Unlock()
	}
}

// LobbyEvery is how often, at most, lobby screens hear that rooms changed:
// with thousands of sessions, telling each one per join would be the
// server's main work.
const LobbyEvery = 250 * time.Millisecond

func (h *Hub) changed() {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.version++
	if !h.telling {
		h.telling = true
		time.AfterFunc(LobbyEvery, h.tell)
	}
}

func (h *Hub) tell() {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.telling = false
	for ch := range h.watchers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Shutdown closes every room with reason and waits for the actors (or ctx).
func (h *Hub) Shutdown(ctx context.Context, reason CloseReason) error {
	h.mu.Lock()
	rooms := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	h.mu.Unlock()
	for _, r := range rooms {
		go r.Close(reason)
	}
	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SummaryOf is what the lobby lists of a room known only by its record (a
// room another node runs): who sits where, not who is connected.
func SummaryOf(rec RoomRecord) Summary {
	s := Summary{Code: rec.Code, Game: rec.Game, Title: rec.Title, Status: rec.Status, Host: rec.Host, Options: rec.Options,
		Waiting: rec.Waiting, Deadline: rec.Deadline}
	for _, st := range rec.Seats {
		s.Seats = append(s.Seats, SeatInfo{Seat: st.Seat, Name: st.Name, Bot: st.Bot, Badge: st.Badge, Pick: st.Pick,
			First: rec.First > 0 && int(st.Seat) == rec.First-1})
		if st.Identity == "" && st.Bot == "" {
			s.Open++
		}
		if st.Identity != "" {
			s.Players = append(s.Players, st.Identity)
		}
	}
	return s
}
