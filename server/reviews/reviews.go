// Package reviews runs the coach's post-game reviews off the room actors
// (tui.Reviews): one at a time, since a review keeps a core busy for
// seconds and the tables need the other; each stored once done, so a
// game is reviewed once whoever asks.
package reviews

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Reviewer reviews finished games for those who played them.
type Reviewer struct {
	store    persistence.Store
	finished func(code, key string) (persistence.RoomRecord, error)
	games    tui.Catalog
	log      *slog.Logger
	ctx      context.Context // ends with the server: running reviews stop
	slot     chan struct{}   // held by the review being computed
	wg       sync.WaitGroup

	mu      sync.Mutex
	running map[string]*reviewJob // by room ID
}

var _ tui.Reviews = (*Reviewer)(nil)

// New reviews the games of store with the coaches games offer, until ctx
// ends. finished reads a finished game by its code, or refuses it in
// words under key (records.Records.FinishedGame).
func New(ctx context.Context, store persistence.Store, finished func(code, key string) (persistence.RoomRecord, error),
	games tui.Catalog, log *slog.Logger) *Reviewer {
	return &Reviewer{store: store, finished: finished, games: games, log: log, ctx: ctx,
		slot: make(chan struct{}, 1), running: map[string]*reviewJob{}}
}

// Errors a player reads about reviews.
var (
	errReviewWhat = game.NewError("review.err.failed")
)

// Review implements tui.Reviews.
func (rv *Reviewer) Review(code string, p table.Player) (tui.ReviewJob, error) {
	rm, err := rv.finished(code, "review.err.no_game")
	if err != nil {
		return nil, err
	}
	coach := rv.games.Reviewer(rm.Setup.Game)
	switch {
	case coach == nil:
		return nil, game.Refuse(nil, game.M("review.err.no_coach", game.Text("Code", rm.Code)))
	case !satIn(rm, p):
		return nil, game.Refuse(nil, game.M("review.err.not_yours", game.Text("Code", rm.Code)))
	}
	job := &reviewJob{done: make(chan struct{}), review: tui.Review{Code: rm.ID, Title: rm.Title}}
	for _, s := range rm.Seats {
		job.review.Seats = append(job.review.Seats, table.SeatInfo{Seat: s.Seat, Name: s.Name, Bot: s.Bot, Badge: table.Badge(s.Badge)})
	}
	if raw, err := rv.store.Review(rm.ID); err == nil {
		r, current, err := coach.Decode(raw)
		switch {
		case err == nil && current:
			job.review.Coach = r
			job.total.Store(int32(r.Rated()))
			job.n.Store(job.total.Load())
			close(job.done)
			return job, nil
		case err == nil: // made before the coach said what it leaves out and why
			rv.log.Info("stored review outdated: computing it again", "room", rm.Code)
		default:
			rv.log.Error("stored review unreadable: computing it again", "room", rm.Code)
		}
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if j, ok := rv.running[rm.ID]; ok {
		return j, nil
	}
	rv.running[rm.ID] = job
	rv.wg.Add(1)
	go rv.run(rm, coach, job)
	return job, nil
}

// satIn reports whether p sat in the game (a person, not a bot).
func satIn(rm persistence.RoomRecord, p table.Player) bool {
	for _, s := range rm.Seats {
		if s.Bot == "" && s.Identity != "" && s.Identity == p.ID {
			return true
		}
	}
	return false
}

// run computes one review when the slot is free, stores it and wakes
// whoever waits. A panic is the review's failure, never the server's.
func (rv *Reviewer) run(rm persistence.RoomRecord, coach uikit.Reviewer, job *reviewJob) {
	defer rv.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			rv.log.Error("review panicked", "room", rm.Code, "panic", fmt.Sprint(r))
			job.err = errReviewWhat
		}
		rv.mu.Lock()
		delete(rv.running, rm.ID)
		rv.mu.Unlock()
		close(job.done)
	}()
	select {
	case rv.slot <- struct{}{}:
		defer func() { <-rv.slot }()
	case <-rv.ctx.Done():
		job.err = errReviewWhat
		return
	}
	r, err := rv.compute(rm, coach, job)
	if err != nil {
		if rv.ctx.Err() == nil { // else the server stopped it
			rv.log.Error("review failed", "room", rm.Code, "err", err)
		}
		job.err = errReviewWhat
		return
	}
	job.review.Coach = r
	raw, err := coach.Encode(r)
	if err == nil {
		err = rv.store.PutReview(rm.ID, raw)
	}
	if err != nil {
		rv.log.Error("review not stored", "room", rm.Code, "err", err)
	}
	rv.log.Info("game reviewed", "room", rm.Code, "decisions", r.Rated())
}

// compute replays the game's log and has the game's coach rate every
// decision of the people at the table.
func (rv *Reviewer) compute(rm persistence.RoomRecord, coach uikit.Reviewer, job *reviewJob) (uikit.Review, error) {
	entries, err := rv.store.Log(rm.ID)
	if err != nil {
		return nil, err
	}
	var moves []uikit.ReviewMove
	for i, b := range entries {
		e, err := table.DecodeEntry(b)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		if !e.IsChat() {
			moves = append(moves, uikit.ReviewMove{Seat: e.Seat, Action: e.Action, ByBot: e.StandIn})
		}
	}
	bot := func(seat game.Seat) string {
		for _, s := range rm.Seats {
			if s.Seat == seat {
				return s.Bot
			}
		}
		return "?" // no seat: nobody to rate
	}
	person := func(seat game.Seat) bool { return bot(seat) == "" }
	g := uikit.ReviewGame{Setup: rm.Setup, Seed: rm.Seed, Moves: moves, Person: person, Bot: bot,
		Hints: rm.Hints}
	return coach.Review(g, func(done, total int) bool {
		job.n.Store(int32(done))
		job.total.Store(int32(total))
		return rv.ctx.Err() == nil
	})
}

// Wait lets running reviews see the server stop (ctx) and end.
func (rv *Reviewer) Wait() { rv.wg.Wait() }

// reviewJob is one review under way or done (tui.ReviewJob).
type reviewJob struct {
	n, total atomic.Int32
	done     chan struct{}
	review   tui.Review // the header at once; Coach once done
	err      error
}

func (j *reviewJob) Progress() (done, total int) { return int(j.n.Load()), int(j.total.Load()) }
func (j *reviewJob) Done() <-chan struct{}       { return j.done }

func (j *reviewJob) Result() (tui.Review, error) {
	<-j.done
	return j.review, j.err
}
