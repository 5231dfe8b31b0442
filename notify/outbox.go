package notify

// The outbox: one per node, holding what its tables owe their absent
// players, and sending it when it may.

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/heapx"
	"github.com/bivouac-ssh/bivouac/words"

	"golang.org/x/time/rate"
)

// The outbox's limits (docs/ARCHITECTURE.md, "Security limits").
const (
	// Bundle is the least time between two messages to one player about
	// one table: a move that comes sooner waits for it (and goes only if
	// it is still the player's move then). The reminder near a deadline
	// is not held back by it.
	Bundle = 30 * time.Minute
	// RemindAt is the part of a move's time left when its reminder goes:
	// a quarter (15 minutes of an hour, 6 hours of a day).
	RemindAt = 4
	// PresentAgain is how long a message waits while its player is
	// connected (they hear of the move in their terminal) before the
	// outbox looks again.
	PresentAgain = 5 * time.Minute
	// UnsureAgain is how long a message waits when whether its player is
	// connected could not be told in time (a node of the cluster slow to
	// answer): then the outbox asks again. After UnsureTries such answers
	// in a row it sends: a player away must still hear of their move, and
	// a node that cannot answer may be the one that lost them.
	UnsureAgain = time.Minute
	UnsureTries = 3
	// MaxQueued bounds the messages a node's outbox holds: one per player
	// and table at most, so this many players' tables. Past it a new one
	// is dropped and counted (ReasonQueueFull).
	MaxQueued = 10000
	// MaxAttempts is how often a message is tried before it is given up
	// (ReasonGaveUp); between tries the outbox waits backoff(n).
	MaxAttempts = 6
	// PlayerEvery and PlayerBurst bound what one player is sent: 10 at
	// once, then one every 2 minutes (30 an hour). DestEvery and DestBurst
	// bound what one destination host gets from this node: 30 at once,
	// then one every 2 s. TestEvery is the least time between two tests
	// a player asks for.
	PlayerEvery = 2 * time.Minute
	PlayerBurst = 10
	DestEvery   = 2 * time.Second
	DestBurst   = 30
	TestEvery   = 10 * time.Second
	// senders is how many messages are on their way at once.
	senders = 8
	// maxLimiters bounds the per-player and per-destination rate state
	// kept; past it the full (idle) ones are forgotten.
	maxLimiters = 20000
)

// backoff is the wait before try n+1 (n ≥ 1): 30 s, 2 min, 8 min, 30 min,
// 1 h.
func backoff(n int) time.Duration {
	d := 30 * time.Second
	for range n - 1 {
		d *= 4
	}
	return min(d, time.Hour)
}

// Turn is a table telling the outbox that it waits on a player.
type Turn struct {
	Player string // identity
	// Room names the table for its whole life (its code may be drawn again
	// by another table after it ends): what the ledger is kept by.
	Room  string
	Table string // the code players type
	// Decision numbers the move from 1 (1 + the table's actions so far): a
	// higher one is a new move. 0 is no move: a Mark's zero value.
	Decision int
	Deadline time.Time     // zero: none
	Window   time.Duration // the move's whole time, for the reminder
	Game     string        // the game's ID
	Title    words.Msg     // the table's title, in each player's words
	Private  bool
}

// Mark is what the ledger keeps of one player and table: when the last
// message went and which moves it told of.
type Mark struct {
	At       time.Time `json:"at"`
	Decision int       `json:"decision,omitempty"`
	Reminded int       `json:"reminded,omitempty"`
}

// Ledger keeps Marks durable (in the player's profile), so a restart or
// another node does not send what was sent.
type Ledger interface {
	Sent(player, room string) (Mark, error)
	Mark(player, room string, m Mark) error
}

// Metrics hears what the outbox does; any may be nil.
type Metrics struct {
	Sent   func(Format)
	Failed func(Reason)
}

// Config is what an Outbox needs.
type Config struct {
	Policy Policy
	Clock  clock.Clock // nil: the system's
	// Settings reads a player's choices (zero Settings: none).
	Settings func(player string) (Settings, error)
	Ledger   Ledger
	// Compose writes a message in the player's language.
	Compose func(kind Kind, t Turn, s Settings) Message
	// Present reports a player connected anywhere, on any node of a
	// cluster (their terminal tells them); nil: never. It may take a
	// moment (a cluster asks the player's other nodes): only the outbox's
	// senders wait for it, one message each. An error says it could not
	// tell in time: the message waits UnsureAgain (UnsureTries at most).
	Present func(player string) (bool, error)
	Metrics Metrics
	Log     *slog.Logger
	// Client overrides Policy.Client (tests).
	Client *http.Client
}

type key struct{ player, room string }

type stage uint8

const (
	stageTurn stage = iota
	stageReminder
)

// progress is how far a message has come: its stage, the failed tries
// of this stage and the answers in a row that could not tell whether its
// player is connected.
type progress struct {
	stage   stage
	attempt int
	unsure  int
}

type item struct {
	key
	turn Turn
	progress
	due      time.Time
	index    int  // in the queue; -1 while on its way or gone
	inFlight bool // a sender has it
	again    bool // posted anew while on its way
	gone     bool // withdrawn while on its way
}

// Outbox is a node's notifications on their way out. Post and Withdraw
// never block; the outbox sends from its own goroutines.
type Outbox struct {
	cfg    Config
	clock  clock.Clock
	client *http.Client
	log    *slog.Logger

	mu      sync.Mutex
	items   map[key]*item
	queue   heapx.Heap[*item] // by when each falls due
	timer   clock.Timer
	timerAt time.Time
	players map[string]*rate.Limiter
	dests   map[string]*rate.Limiter
	tests   map[string]time.Time
	closed  bool

	kick   chan struct{}
	work   chan *item
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New starts an outbox; Close it when the node stops.
func New(cfg Config) *Outbox {
	o := &Outbox{cfg: cfg, clock: cfg.Clock, client: cfg.Client, log: cfg.Log, items: map[key]*item{},
		players: map[string]*rate.Limiter{}, dests: map[string]*rate.Limiter{}, tests: map[string]time.Time{},
		kick: make(chan struct{}, 1), work: make(chan *item)}
	if o.clock == nil {
		o.clock = clock.System{}
	}
	if o.client == nil {
		o.client = cfg.Policy.Client()
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	o.ctx, o.cancel = context.WithCancel(context.Background())
	o.wg.Add(1 + senders)
	go o.run()
	for range senders {
		go o.sender()
	}
	return o
}

// Close stops the outbox, waiting for messages on their way (each
// bounded by Timeout). What it held is not kept: each table posts again
// what it owes when it is restored.
func (o *Outbox) Close() {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.closed = true
	if o.timer != nil {
		o.timer.Stop()
	}
	o.mu.Unlock()
	o.cancel()
	o.wg.Wait()
}

// Len is how many messages the outbox holds.
func (o *Outbox) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.items)
}

// Post tells the outbox that table t.Room waits on t.Player for move
// t.Decision. A later move replaces an earlier one of the same table.
func (o *Outbox) Post(t Turn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	k := key{t.Player, t.Room}
	it := o.items[k]
	if it == nil {
		if len(o.items) >= MaxQueued {
			o.failed(ReasonQueueFull)
			return
		}
		it = &item{key: k, index: -1}
		o.items[k] = it
	} else if t.Decision < it.turn.Decision {
		return // an older move: the table has moved on
	}
	it.turn, it.progress, it.gone = t, progress{}, false
	if it.inFlight {
		it.again = true
		return
	}
	o.schedule(it, o.clock.Now())
}

// Withdraw: the table no longer waits on player (they moved, or the move
// was made for them): nothing more is sent about it.
func (o *Outbox) Withdraw(player, room string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	it := o.items[key{player, room}]
	if it == nil {
		return
	}
	if it.inFlight {
		it.gone, it.again = true, false
		return
	}
	o.drop(it)
}

// schedule puts it in the queue for at; o.mu is held.
func (o *Outbox) schedule(it *item, at time.Time) {
	it.due = at
	if heapx.Has(it) {
		o.queue.Fix(it)
	} else {
		o.queue.Push(it)
	}
	o.signal()
}

// drop forgets it; o.mu is held.
func (o *Outbox) drop(it *item) {
	if heapx.Has(it) {
		o.queue.Remove(it)
	}
	if o.items[it.key] == it {
		delete(o.items, it.key)
	}
}

func (o *Outbox) signal() {
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// run hands due messages to the senders and sleeps until the next is due.
func (o *Outbox) run() {
	defer o.wg.Done()
	for {
		select {
		case <-o.ctx.Done():
			return
		case <-o.kick:
		}
		for {
			it := o.next()
			if it == nil {
				break
			}
			select {
			case o.work <- it:
			case <-o.ctx.Done():
				return
			}
		}
	}
}

// next takes the first due message off the queue (nil: none is due; the
// timer is set for the next one).
func (o *Outbox) next() *item {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.queue.Len() == 0 {
		return nil
	}
	now := o.clock.Now()
	first := o.queue.Peek()
	if first.due.After(now) {
		if o.timer == nil || !o.timerAt.Equal(first.due) {
			if o.timer != nil {
				o.timer.Stop()
			}
			o.timerAt = first.due
			var t clock.Timer
			t = o.clock.AfterFunc(first.due.Sub(now), func() {
				// A clock's timer may fire a moment before its Now reaches
				// due (a fast test clock rounds): forgotten, it is set again.
				o.mu.Lock()
				if o.timer == t {
					o.timer = nil
				}
				o.mu.Unlock()
				o.signal()
			})
			o.timer = t
		}
		return nil
	}
	o.queue.Pop()
	first.inFlight = true
	return first
}

func (o *Outbox) sender() {
	defer o.wg.Done()
	for {
		select {
		case <-o.ctx.Done():
			return
		case it := <-o.work:
			o.mu.Lock()
			t, pr := it.turn, it.progress
			o.mu.Unlock()
			next, pr := o.handle(t, pr)
			o.done(it, next, pr)
		}
	}
}

// done takes a message back from a sender: again at next (zero: it is
// finished), unless it was posted anew or withdrawn meanwhile.
func (o *Outbox) done(it *item, next time.Time, pr progress) {
	o.mu.Lock()
	defer o.mu.Unlock()
	it.inFlight = false
	switch {
	case it.gone:
		o.drop(it)
	case it.again:
		it.again = false
		o.schedule(it, o.clock.Now())
	case next.IsZero():
		o.drop(it)
	default:
		it.progress = pr
		o.schedule(it, next)
	}
}

// handle looks at one message when it falls due: it sends it, or says
// when to look again (zero: never) and how far it has come.
func (o *Outbox) handle(t Turn, pr progress) (time.Time, progress) {
	set, err := o.cfg.Settings(t.Player)
	if err != nil {
		o.log.Warn("notify: reading a player's settings", "err", err)
		return o.retry(pr, 0)
	}
	if !set.On() {
		return time.Time{}, progress{stage: pr.stage}
	}
	u, err := o.cfg.Policy.Check(set.URL)
	if err != nil {
		var ref *Refusal
		if errors.As(err, &ref) {
			o.failed(ref.Reason) // the operator's list changed since the player set it
		}
		return time.Time{}, progress{stage: pr.stage}
	}
	mark, err := o.cfg.Ledger.Sent(t.Player, t.Room)
	if err != nil {
		o.log.Warn("notify: reading what was sent", "err", err)
		return o.retry(pr, 0)
	}
	now := o.clock.Now()
	if pr.stage == stageTurn && mark.Decision >= t.Decision {
		pr.stage = stageReminder // told of this move already (before a restart, or by another node)
	}
	if pr.stage == stageTurn {
		if next := mark.At.Add(Bundle); !mark.At.IsZero() && now.Before(next) {
			return next, pr
		}
	} else {
		if t.Window <= 0 || t.Deadline.IsZero() || mark.Reminded >= t.Decision || !now.Before(t.Deadline) {
			return time.Time{}, progress{stage: pr.stage}
		}
		if at := t.Deadline.Add(-t.Window / RemindAt); now.Before(at) {
			return at, pr
		}
	}
	if end := set.Quiet.Until(now, set.Location()); end.After(now) {
		return end, pr
	}
	unsure := pr.unsure
	pr.unsure = 0 // a told answer starts the count again
	if o.cfg.Present != nil {
		here, err := o.cfg.Present(t.Player)
		now = o.clock.Now() // the question may have taken a moment
		switch {
		case err != nil:
			pr.unsure = unsure + 1
			if pr.unsure < UnsureTries {
				o.log.Info("notify: could not tell whether a player is connected; asking again", "err", err)
				return now.Add(UnsureAgain), pr
			}
			o.log.Info("notify: could not tell whether a player is connected; sending", "tries", pr.unsure, "err", err)
		case here:
			return now.Add(PresentAgain), pr
		}
	}
	if wait := o.reserve(t.Player, u.Hostname(), now); wait > 0 {
		return now.Add(wait), pr
	}
	kind := KindTurn
	if pr.stage == stageReminder {
		kind = KindReminder
	}
	m := o.cfg.Compose(kind, t, set)
	m.Kind, m.At = kind, now
	out := o.send(set, u.String(), m)
	if !out.OK() {
		if !out.transient() {
			return time.Time{}, progress{stage: pr.stage}
		}
		return o.retry(pr, out.retryAfter)
	}
	if kind == KindTurn {
		mark.Decision = t.Decision
	} else {
		mark.Reminded = t.Decision
	}
	mark.At = now
	if err := o.cfg.Ledger.Mark(t.Player, t.Room, mark); err != nil {
		o.log.Warn("notify: keeping what was sent", "err", err) // it may go again after a restart
	}
	if kind == KindTurn && t.Window > 0 && !t.Deadline.IsZero() {
		return now, progress{stage: stageReminder} // the reminder stage looks when it falls due
	}
	return time.Time{}, progress{stage: pr.stage}
}

// retry is when to try again after a failed try (pr.attempt+1), or
// zero once MaxAttempts have failed.
func (o *Outbox) retry(pr progress, asked time.Duration) (time.Time, progress) {
	pr.attempt++
	if pr.attempt >= MaxAttempts {
		o.failed(ReasonGaveUp)
		return time.Time{}, progress{stage: pr.stage}
	}
	return o.clock.Now().Add(max(backoff(pr.attempt), asked)), pr
}

// reserve takes one message from the player's and the destination's
// allowances, or says how long until both have one (taking none).
func (o *Outbox) reserve(player, host string, now time.Time) time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	pl := limiter(o.players, player, PlayerEvery, PlayerBurst, now)
	dl := limiter(o.dests, host, DestEvery, DestBurst, now)
	pr := pl.ReserveN(now, 1)
	dr := dl.ReserveN(now, 1)
	wait := max(pr.DelayFrom(now), dr.DelayFrom(now))
	if wait > 0 {
		pr.CancelAt(now)
		dr.CancelAt(now)
	}
	return wait
}

// limiter is the rate state of name in m, made when missing; past
// maxLimiters, full ones are forgotten first. o.mu is held.
func limiter(m map[string]*rate.Limiter, name string, every time.Duration, burst int, now time.Time) *rate.Limiter {
	l := m[name]
	if l != nil {
		return l
	}
	if len(m) >= maxLimiters {
		for n, x := range m {
			if x.TokensAt(now) >= float64(burst) {
				delete(m, n)
			}
		}
	}
	l = rate.NewLimiter(rate.Every(every), burst)
	m[name] = l
	return l
}

// send posts m to rawURL in the player's format.
func (o *Outbox) send(set Settings, rawURL string, m Message) Outcome {
	u, err := o.cfg.Policy.Check(rawURL)
	if err != nil {
		return failure(err)
	}
	f := set.Format
	if f == "" {
		f = GuessFormat(u)
	}
	ctx, cancel := context.WithTimeout(o.ctx, Timeout)
	defer cancel()
	req, err := Request(ctx, f, u, m)
	if err != nil {
		o.failed(ReasonInvalid)
		return Outcome{Reason: ReasonInvalid, Msg: words.M("notify.err.not_url")}
	}
	out := do(o.client, req, o.clock.Now)
	if out.OK() {
		if o.cfg.Metrics.Sent != nil {
			o.cfg.Metrics.Sent(f)
		}
	} else {
		o.failed(out.Reason)
		// The destination's host and the reason only: the URL is a secret.
		o.log.Info("notification not sent", "host", u.Hostname(), "reason", string(out.Reason), "status", out.Status)
	}
	return out
}

func (o *Outbox) failed(r Reason) {
	if o.cfg.Metrics.Failed != nil {
		o.cfg.Metrics.Failed(r)
	}
}

// Errors Test gives.
var (
	ErrNoURL    = words.NewError("notify.err.no_url")
	ErrTestWait = words.NewError("notify.err.test_wait")
	ErrBusy     = words.NewError("notify.err.busy")
)

// Test sends player one message at once, whatever the hour, and says what
// came back. A player may test once every TestEvery.
func (o *Outbox) Test(player string) (Outcome, error) {
	set, err := o.cfg.Settings(player)
	if err != nil {
		return Outcome{}, err
	}
	if !set.On() {
		return Outcome{}, ErrNoURL
	}
	u, err := o.cfg.Policy.Check(set.URL)
	if err != nil {
		return Outcome{}, err
	}
	now := o.clock.Now()
	o.mu.Lock()
	if last, ok := o.tests[player]; ok && now.Sub(last) < TestEvery {
		o.mu.Unlock()
		return Outcome{}, ErrTestWait
	}
	if len(o.tests) >= maxLimiters {
		for p, at := range o.tests {
			if now.Sub(at) >= TestEvery {
				delete(o.tests, p)
			}
		}
	}
	o.tests[player] = now
	o.mu.Unlock()
	if wait := o.reserve(player, u.Hostname(), now); wait > 0 {
		return Outcome{}, ErrBusy
	}
	m := o.cfg.Compose(KindTest, Turn{Player: player}, set)
	m.Kind, m.At = KindTest, now
	return o.send(set, set.URL, m), nil
}

// Before and HeapIndex place messages in the queue (heapx), by when they
// fall due.
func (it *item) Before(o *item) bool { return it.due.Before(o.due) }
func (it *item) HeapIndex() *int     { return &it.index }
