package lease

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// The simulation below runs the protocol's rules (Options.holdUntil for the
// holder, Options.takeoverAt for a claimant, a holder suspended when its
// validity runs out and valid again after a renewal succeeds, and a refused
// renewal that finds the holder's own write) over a linearizable register,
// with random message delays, drifting and skewed clocks, crashes,
// partitions and releases, and records every stretch of validity as a
// real-time interval. Two nodes' intervals must never overlap.

type simOp int

const (
	opGet simOp = iota
	opCreate
	opUpdate
	opDelete
)

// simServer is the KV entry of one room: a linearizable register whose
// revisions come from one counter, as a JetStream stream's sequence does.
type simServer struct {
	seq     uint64
	rev     uint64 // latest revision, 0 if never written
	present bool   // false when absent or deleted
	term    uint64
}

type simReply struct {
	ok      bool
	rev     uint64
	present bool
	term    uint64 // of the entry, when a compare-and-set was refused
}

func (s *simServer) apply(op simOp, expect, term uint64) simReply {
	switch op {
	case opGet:
		return simReply{ok: true, rev: s.rev, present: s.present}
	case opCreate:
		if s.present {
			return simReply{}
		}
	case opUpdate, opDelete:
		if !s.present || s.rev != expect {
			return simReply{rev: s.rev, present: s.present, term: s.term}
		}
	}
	s.seq++
	s.rev = s.seq
	s.present = op != opDelete
	if op == opCreate {
		term = s.seq
	}
	s.term = term
	return simReply{ok: true, rev: s.rev}
}

type simEvent struct {
	at  time.Duration // real time
	seq int
	fn  func()
}

type simQueue []simEvent

func (q simQueue) Len() int { return len(q) }
func (q simQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q simQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)   { *q = append(*q, x.(simEvent)) }
func (q *simQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type tenure struct {
	node       int
	takeover   bool // won by overwriting a lapsed entry, not by creating one
	term       uint64
	start, end float64 // real nanoseconds; end is +Inf while open
}

type simNode struct {
	id     int
	rate   float64       // local seconds per real second
	offset time.Duration // skew: clocks need not agree
	up     bool
	cut    bool
	epoch  int // bumped at a crash: callbacks of the old life are ignored
	req    int // id of the request whose answer we wait for, 0 if none

	holding   bool // from the claim until lost, released or given up
	rev, term uint64
	until     time.Time
	ten       *tenure // the open stretch of validity; nil while suspended

	seenRev uint64
	seenAt  time.Time
	seenOK  bool
}

type sim struct {
	rng      *rand.Rand
	opt      Options
	base     time.Time
	now      time.Duration
	q        simQueue
	qseq     int
	server   simServer
	nodes    []*simNode
	reqs     int
	tenures  []*tenure
	revivals int // suspended holders that became valid again
}

func (s *sim) at(d time.Duration, fn func()) {
	s.qseq++
	heap.Push(&s.q, simEvent{at: s.now + d, seq: s.qseq, fn: fn})
}

func (s *sim) local(n *simNode) time.Time {
	return s.base.Add(n.offset + time.Duration(float64(s.now)*n.rate))
}

// realOf is the real time at which n's clock reads l.
func (s *sim) realOf(n *simNode, l time.Time) float64 {
	return float64(l.Sub(s.base)-n.offset) / n.rate
}

// afterLocal schedules fn when d has passed on n's clock, within n's current life.
func (s *sim) afterLocal(n *simNode, d time.Duration, fn func()) {
	epoch := n.epoch
	s.at(time.Duration(float64(d)/n.rate)+1, func() {
		if n.up && n.epoch == epoch {
			fn()
		}
	})
}

func (s *sim) delay() time.Duration {
	if s.rng.IntN(20) == 0 { // now and then a request or answer arrives very late
		return time.Duration(s.rng.Int64N(int64(2 * s.opt.TTL)))
	}
	return time.Duration(s.rng.Int64N(int64(5 * time.Millisecond)))
}

// send delivers a request to the server and its answer back to n, unless a
// partition drops either; n gives up waiting after timeout on its clock.
func (s *sim) send(n *simNode, op simOp, expect uint64, timeout time.Duration, done func(r simReply, answered bool)) {
	s.reqs++
	id, epoch := s.reqs, n.epoch
	n.req = id
	term := n.term
	if n.cut {
		s.afterLocal(n, timeout, func() { s.giveUp(n, id, done) })
		return
	}
	s.at(s.delay(), func() {
		if n.cut {
			return
		}
		r := s.server.apply(op, expect, term)
		s.at(s.delay(), func() {
			if n.up && n.epoch == epoch && !n.cut && n.req == id {
				n.req = 0
				done(r, true)
			}
		})
	})
	s.afterLocal(n, timeout, func() { s.giveUp(n, id, done) })
}

func (s *sim) giveUp(n *simNode, id int, done func(simReply, bool)) {
	if n.req == id {
		n.req = 0
		done(simReply{}, false)
	}
}

// suspended closes n's stretch of validity if its clock has reached the
// deadline, and ends the tenure once it has been suspended for
// Options.Suspend. It reports whether n may not act now.
func (s *sim) suspended(n *simNode) bool {
	if !n.holding {
		return true
	}
	now := s.local(n)
	if now.Before(n.until) {
		return false
	}
	s.closeStretch(n, s.realOf(n, n.until))
	if now.Sub(n.until) >= s.opt.Suspend {
		s.end(n, s.realOf(n, n.until))
	}
	return true
}

// closeStretch ends n's open stretch of validity at real time at, or
// earlier if its deadline passed unnoticed: Valid reads the clock, so it
// needs no event to turn false.
func (s *sim) closeStretch(n *simNode, at float64) {
	if n.ten != nil {
		n.ten.end = min(at, float64(s.now), s.realOf(n, n.until))
		n.ten = nil
	}
}

// openStretch starts a stretch of validity now, if n is valid now.
func (s *sim) openStretch(n *simNode, takeover bool) {
	if n.ten == nil && s.local(n).Before(n.until) {
		n.ten = &tenure{node: n.id, takeover: takeover, term: n.term, start: float64(s.now), end: inf}
		s.tenures = append(s.tenures, n.ten)
	}
}

// end closes n's tenure at real time at, or earlier if its deadline passed
// unnoticed: Valid reads the clock, so it needs no event to turn false.
func (s *sim) end(n *simNode, at float64) {
	n.holding = false
	s.closeStretch(n, at)
	s.idle(n)
}

// idle makes n try to claim again after a while.
func (s *sim) idle(n *simNode) {
	s.afterLocal(n, time.Duration(s.rng.Int64N(int64(s.opt.TTL))), func() { s.claim(n) })
}

func (s *sim) claim(n *simNode) {
	if n.holding {
		return
	}
	if n.req != 0 { // still waiting for an earlier answer
		s.idle(n)
		return
	}
	s.send(n, opGet, 0, s.opt.Renew, func(r simReply, answered bool) {
		if !answered {
			s.idle(n)
			return
		}
		if !r.present {
			s.take(n, opCreate, 0)
			return
		}
		now := s.local(n)
		if !n.seenOK || n.seenRev != r.rev {
			n.seenOK, n.seenRev, n.seenAt = true, r.rev, now
		}
		wait := s.opt.takeoverAt(n.seenAt).Sub(now)
		s.afterLocal(n, max(wait, 0), func() {
			if n.holding {
				return
			}
			if n.req != 0 {
				s.idle(n)
				return
			}
			s.take(n, opUpdate, r.rev)
		})
	})
}

func (s *sim) take(n *simNode, op simOp, expect uint64) {
	start := s.local(n)
	s.send(n, op, expect, s.opt.Renew, func(r simReply, answered bool) {
		if !answered || !r.ok {
			s.idle(n)
			return
		}
		n.holding, n.rev, n.term, n.seenOK = true, r.rev, r.rev, false
		n.until = s.opt.holdUntil(start)
		s.openStretch(n, op == opUpdate) // not if the answer came too late: suspended from the start
		s.afterLocal(n, s.opt.Renew, func() { s.renew(n) })
	})
}

func (s *sim) renew(n *simNode) {
	s.suspended(n)
	if !n.holding {
		return
	}
	if s.rng.IntN(50) == 0 { // release: stop at once, then free the entry
		s.end(n, float64(s.now))
		s.send(n, opDelete, n.rev, s.opt.Renew, func(simReply, bool) {})
		return
	}
	start := s.local(n)
	s.send(n, opUpdate, n.rev, s.opt.Renew, func(r simReply, answered bool) {
		s.suspended(n)
		if !n.holding {
			return
		}
		switch {
		case answered && r.ok:
			n.rev, n.until = r.rev, s.opt.holdUntil(start)
			if n.ten == nil && s.local(n).Before(n.until) {
				s.revivals++ // valid again after a suspension
			}
			s.openStretch(n, false)
			s.afterLocal(n, s.opt.Renew, func() { s.renew(n) })
		case answered && r.present && r.term == n.term:
			// Our own earlier write, whose answer was lost: carry on from it.
			n.rev = r.rev
			s.afterLocal(n, 0, func() { s.renew(n) })
		case answered:
			s.end(n, float64(s.now)) // lost to another
		default:
			s.afterLocal(n, s.opt.Renew/2, func() { s.renew(n) })
		}
	})
}

func (s *sim) crash(n *simNode) {
	if !n.up {
		return
	}
	if n.holding {
		s.end(n, float64(s.now))
	}
	n.up, n.epoch, n.req, n.seenOK = false, n.epoch+1, 0, false
	s.at(time.Duration(s.rng.Int64N(int64(3*s.opt.TTL))), func() {
		n.up = true
		s.idle(n)
	})
}

var inf = float64(1 << 62)

// runSim plays one random schedule and returns the pairs of tenures that
// overlap and how many tenures began by taking over a lapsed lease.
func runSim(t *testing.T, seed uint64, opt Options, drift float64) (overlaps []string, takeovers, revivals int) {
	opt, err := opt.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	s := &sim{rng: rand.New(rand.NewPCG(seed, 17)), opt: opt, base: time.Unix(1e9, 0)}
	for i := range 3 {
		rate := 1 + drift*(2*s.rng.Float64()-1)
		if s.rng.IntN(2) == 0 { // the worst case: clocks at the ends of the bound
			rate = 1 + drift*float64(2*s.rng.IntN(2)-1)
		}
		n := &simNode{id: i, rate: rate, offset: time.Duration(s.rng.Int64N(int64(time.Hour))), up: true}
		s.nodes = append(s.nodes, n)
		s.idle(n)
	}
	end := 200 * opt.TTL
	for d := time.Duration(0); d < end; d += opt.TTL / 2 { // faults, now and then
		s.qseq++
		heap.Push(&s.q, simEvent{at: d, seq: s.qseq, fn: func() {
			n := s.nodes[s.rng.IntN(len(s.nodes))]
			switch s.rng.IntN(6) {
			case 0:
				s.crash(n)
			case 1, 2:
				n.cut = !n.cut
			}
		}})
	}
	for s.q.Len() > 0 {
		e := heap.Pop(&s.q).(simEvent)
		if e.at > end {
			break
		}
		s.now = e.at
		e.fn()
	}
	for _, n := range s.nodes { // close open stretches at their deadline or the end
		if n.ten != nil {
			n.ten.end = min(s.realOf(n, n.until), float64(s.now))
		}
	}
	for i, a := range s.tenures {
		if a.takeover {
			takeovers++
		}
		for _, b := range s.tenures[i+1:] {
			if a.node != b.node && a.start < b.end && b.start < a.end {
				overlaps = append(overlaps, fmt.Sprintf("node %d term %d [%.0f,%.0f) and node %d term %d [%.0f,%.0f)",
					a.node, a.term, a.start, a.end, b.node, b.term, b.start, b.end))
			}
		}
	}
	if len(s.tenures) < 10 {
		t.Fatalf("seed %d: only %d tenures: the schedule exercised nothing", seed, len(s.tenures))
	}
	return overlaps, takeovers, s.revivals
}

func TestSimulatedSchedulesNeverHaveTwoValidHolders(t *testing.T) {
	opt := Options{TTL: 300 * time.Millisecond, Renew: 100 * time.Millisecond, Margin: 30 * time.Millisecond}
	// Margin TTL/10 covers drift up to 0.1/1.9 ≈ 5.3% (see the package doc).
	takeovers, revivals := 0, 0
	for seed := range uint64(300) {
		o, n, r := runSim(t, seed, opt, 0.05)
		if len(o) > 0 {
			t.Fatalf("seed %d: two valid holders at once: %s", seed, o[0])
		}
		takeovers += n
		revivals += r
	}
	if takeovers < 1000 || revivals < 100 {
		t.Fatalf("only %d takeovers of lapsed leases and %d suspended holders valid again in 300 schedules", takeovers, revivals)
	}
	t.Logf("%d takeovers of lapsed leases, %d suspended holders valid again, none overlapping", takeovers, revivals)
}

// The same schedules with more drift than the margin covers do find overlaps:
// the check above can fail, and the margin is what makes it pass.
func TestSimulationFindsOverlapsWhenDriftExceedsMargin(t *testing.T) {
	opt := Options{TTL: 300 * time.Millisecond, Renew: 100 * time.Millisecond, Margin: 30 * time.Millisecond}
	found := 0
	for seed := range uint64(100) {
		if o, _, _ := runSim(t, seed, opt, 0.15); len(o) > 0 {
			found++
		}
	}
	if found == 0 {
		t.Fatal("no overlap found with 15% drift against a 10% margin")
	}
	t.Logf("%d of 100 schedules overlapped at 15%% drift", found)
}
