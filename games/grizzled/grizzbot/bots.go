package grizzbot

import (
	"errors"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// Level names, fastest first.
const (
	LevelEasy   = "easy"
	LevelStrong = "strong"
)

// Bots makes Grizzled bots; it implements game.Bots.
type Bots struct {
	// Strong configures the "strong" level; the zero value means
	// DefaultTuned.
	Strong StrongConfig
}

var _ game.Bots = Bots{}

// ErrLevel is returned by New for a level it does not know.
var ErrLevel = errors.New("grizzbot: unknown bot level")

// Levels lists the levels, fastest first.
func (Bots) Levels() []string { return []string{LevelEasy, LevelStrong} }

// New makes a bot of the given level.
func (b Bots) New(level string) (game.Bot, error) {
	switch level {
	case LevelEasy:
		return NewEasy(), nil
	case LevelStrong:
		if b.Strong == (StrongConfig{}) {
			return NewTuned(DefaultTuned), nil
		}
		return NewStrong(b.Strong), nil
	}
	return nil, fmt.Errorf("%w %q (have %q, %q)", ErrLevel, level, LevelEasy, LevelStrong)
}

// mix derives independent seeds from one (splitmix64 finaliser).
func mix(a, b uint64) uint64 {
	z := a ^ (b+0x9e3779b97f4a7c15)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// firstWaiting is the lowest seat the game waits on, or -1 (no allocation).
func firstWaiting(s *g.State) game.Seat {
	for i := range s.Seats() {
		if s.WaitsOn(game.Seat(i)) {
			return game.Seat(i)
		}
	}
	return -1
}

// ErrStuck is returned by Play when a game waits on nobody or a bot has no
// answer, which a correct engine never causes.
var ErrStuck = errors.New("grizzbot: the game is stuck")

// MaxActions bounds a game in Play; real games take a few hundred actions.
const MaxActions = 20000

// Play plays s to its end with one bot per seat (bots[i] acts for seat i;
// the chaplain's entry is never used). Each bot gets the seat's view,
// exactly as over the network; a seat whose only legal action is forced
// (a speech it cannot answer but by passing, a single tile) is not asked,
// since any bot must answer with that action. Each decision's seed is
// derived from seed, so a game is reproducible. It returns the number of
// actions applied.
func Play(s *g.State, bots []game.Bot, seed uint64) (int, error) {
	var buf []g.Action
	for n := 0; ; n++ {
		if _, over := s.Over(); over {
			return n, nil
		}
		if n >= MaxActions {
			return n, fmt.Errorf("%w: no end after %d actions", ErrStuck, n)
		}
		seat := firstWaiting(s)
		if seat < 0 || int(seat) >= len(bots) || bots[seat] == nil {
			return n, fmt.Errorf("%w: waiting on seat %d in phase %d", ErrStuck, seat, s.Phase())
		}
		var act g.Action
		if buf = s.AppendLegal(buf[:0], seat); len(buf) == 1 {
			act = buf[0]
		} else {
			a, ok := bots[seat].Act(s.View(seat), mix(seed, uint64(n)))
			if !ok {
				return n, fmt.Errorf("%w: seat %d has nothing to do in phase %d", ErrStuck, seat, s.Phase())
			}
			if act, ok = a.(g.Action); !ok {
				return n, fmt.Errorf("%w: seat %d answered %T", ErrStuck, seat, a)
			}
		}
		if err := s.Step(seat, act); err != nil {
			return n, fmt.Errorf("seat %d: %s: %w", seat, act.String(), err)
		}
	}
}

// playOut finishes s with the rule-based policy for every seat (the
// strong bot's rollouts). It stops early after limit actions. v is
// scratch space for the views (see playUntil).
func playOut(s *g.State, v *g.SeatView, seed uint64, limit int) {
	playUntil(s, v, seed, limit, -1, nil)
}

// playUntil plays s on with the rule-based policy for every seat until
// the game is over, limit actions have been applied, or (if endRound >= 0)
// the game waits for the intensity of mission endRound. Each move's view
// is built in *v, whose storage one search reuses from playout to playout:
// allocating a view per move was most of a playout's time. watch, when
// not nil, notes whether its mission failed on the way.
func playUntil(s *g.State, v *g.SeatView, seed uint64, limit, endRound int, watch *failWatch) {
	p := paramsFor(s.Humans())
	for n := 0; n < limit; n++ {
		if _, over := s.Over(); over {
			return
		}
		if endRound >= 0 && s.Round() >= endRound && s.Phase() == g.PhaseIntensity {
			return
		}
		seat := firstWaiting(s)
		if seat < 0 {
			return
		}
		s.ViewInto(seat, v)
		i := 0 // a single legal action needs no choosing
		if len(v.Legal) != 1 {
			if i = choose(v, mix(seed, uint64(n)), p); i < 0 {
				return
			}
		}
		if s.Step(seat, v.Legal[i]) != nil {
			return
		}
		if watch != nil {
			watch.see(s)
		}
	}
}

// failWatch notes whether mission round failed during a playout.
type failWatch struct {
	round        int
	failed, done bool
}

// see looks at s after a move: a third threat while the mission lasts,
// or, once it is over, its support's outcome (a mission may fail and
// its support pass within one move).
func (w *failWatch) see(s *g.State) {
	if w.done {
		return
	}
	_, over := s.Over()
	if s.Round() == w.round && !over {
		w.failed = w.failed || s.Failed()
		return
	}
	w.done = true
	if r, success, ok := s.LastSupport(); ok && r == w.round {
		w.failed = !success
	}
}
