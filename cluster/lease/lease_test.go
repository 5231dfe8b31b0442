package lease

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// Every test here runs against a real embedded JetStream server. Those with a
// fake clock are deterministic: renewals and deadlines run inside Advance.

var testOpt = Options{TTL: 3 * time.Second, Renew: time.Second, Margin: 300 * time.Millisecond}

func withClock(o Options, c clock.Clock) Options { o.Clock = c; return o }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestClaimRenewRelease(t *testing.T) {
	ctx, clock := ctxT(t), clocktest.New()
	a := newManager(t, connect(t, startNATS(t)).kv, "a", withClock(testOpt, clock))

	h, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	own, err := a.Owner(ctx, "ROOM")
	if err != nil || own.Node != "a" || own.Term != h.Token() || own.Revision != h.Token() {
		t.Fatalf("owner after claim = %+v, %v; want a at term %d", own, err, h.Token())
	}
	if _, err := a.Claim(ctx, "ROOM"); !errors.Is(err, ErrAlreadyHeld) {
		t.Fatalf("second claim by the holder: %v, want ErrAlreadyHeld", err)
	}

	// Ten TTLs of renewals: the entry moves on, the term and validity stay.
	for range 10 * 3 {
		clock.Advance(testOpt.Renew)
		if !h.Valid() {
			t.Fatalf("lost at %v: %v", clock.Now(), h.Err())
		}
	}
	own, err = a.Owner(ctx, "ROOM")
	if err != nil || own.Node != "a" || own.Term != h.Token() || own.Revision != h.Token()+30 {
		t.Fatalf("owner after 30 renewals = %+v, %v; want term %d at revision %d", own, err, h.Token(), h.Token()+30)
	}
	if got, want := h.ValidUntil(), clock.Now().Add(testOpt.TTL-testOpt.Margin); !got.Equal(want) {
		t.Fatalf("valid until %v, want %v (TTL-Margin after the last renewal)", got, want)
	}

	if err := h.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if h.Valid() || !errors.Is(h.Err(), ErrReleased) {
		t.Fatalf("after release: valid %v, err %v", h.Valid(), h.Err())
	}
	select {
	case <-h.Lost():
	default:
		t.Fatal("Lost not closed by Release")
	}
	if _, err := a.Owner(ctx, "ROOM"); !errors.Is(err, ErrNoOwner) {
		t.Fatalf("owner after release: %v, want ErrNoOwner", err)
	}
}

func TestLiveLeaseCannotBeClaimed(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	a := newManager(t, connect(t, url).kv, "a", withClock(testOpt, clock))
	b := newManager(t, connect(t, url).kv, "b", withClock(testOpt, clock))
	h, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	claimed := make(chan error)
	set := clock.Live() // a's renewal and deadline
	go func() {
		_, err := b.Claim(ctx, "ROOM")
		claimed <- err
	}()
	clock.WaitTimers(t, set+1) // and b's wait: the clock moves only once b waits
	clock.Advance(testOpt.TTL)
	if err := <-claimed; !errors.Is(err, ErrHeld) {
		t.Fatalf("claim of a live lease: %v, want ErrHeld", err)
	}
	if !h.Valid() {
		t.Fatalf("holder lost its lease to a failed claim: %v", h.Err())
	}
	own, _ := b.Owner(ctx, "ROOM")
	if own.Node != "a" {
		t.Fatalf("owner %q, want a", own.Node)
	}
}

func TestKilledHolderIsTakenOverWithinTTL(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	na := connect(t, url)
	a := newManager(t, na.kv, "a", withClock(testOpt, clock))
	b := newManager(t, connect(t, url).kv, "b", withClock(testOpt, clock))
	ha, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(testOpt.Renew / 2)
	na.nc.Close() // a dies: no more renewals, no release
	killed := clock.Now()

	hb := claimOnceLapsed(ctx, t, b, clock, "ROOM")
	if took := clock.Now().Sub(killed); took > testOpt.TTL+testOpt.Renew {
		t.Fatalf("takeover %v after the kill, want at most TTL+Renew", took)
	}
	if ha.Valid() {
		t.Fatal("killed holder still valid after the takeover")
	}
	<-ha.Lost() // its connection closed: no renewal can get through again
	if !errors.Is(ha.Err(), ErrExpired) {
		t.Fatalf("killed holder ended with %v, want ErrExpired", ha.Err())
	}
	if hb.Token() <= ha.Token() {
		t.Fatalf("new term %d not above the old %d", hb.Token(), ha.Token())
	}
}

// Seize takes a lease at once, with no wait, on the revision read; a
// stale revision (the holder renewed since) is ErrHeld. A holder that
// lived after all loses the lease at its next renewal.
func TestSeizeTakesAtOnceAndTheLiveHolderLoses(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	a := newManager(t, connect(t, url).kv, "a", withClock(testOpt, clock))
	b := newManager(t, connect(t, url).kv, "b", withClock(testOpt, clock))
	ha, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	stale := ha.Token()
	clock.Advance(testOpt.Renew) // a renews
	if _, err := b.Seize(ctx, "ROOM", stale); !errors.Is(err, ErrHeld) {
		t.Fatalf("seizure on a revision renewed since: %v, want ErrHeld", err)
	}
	own, err := b.Owner(ctx, "ROOM")
	if err != nil || own.Node != "a" {
		t.Fatalf("owner %+v, %v; want a", own, err)
	}
	hb, err := b.Seize(ctx, "ROOM", own.Revision)
	if err != nil {
		t.Fatal(err)
	}
	if !hb.Valid() || hb.Token() <= ha.Token() {
		t.Fatalf("seized: valid %v, term %d after %d", hb.Valid(), hb.Token(), ha.Token())
	}
	clock.Advance(testOpt.Renew)
	select {
	case <-ha.Lost():
	default:
		t.Fatal("the holder's renewal after the seizure did not end its lease")
	}
	if !errors.Is(ha.Err(), ErrLostToOther) || !hb.Valid() {
		t.Fatalf("holder ended with %v (want ErrLostToOther); seizer valid %v", ha.Err(), hb.Valid())
	}
}

// The partitioned holder, on real time: a is cut off while b waits for the
// lease to lapse, either with its connection closed or with its requests
// hanging unanswered. a's validity must end strictly before b's claim request
// leaves, on the one clock both use.
func TestPartitionedHolderStopsBeforeTakeover(t *testing.T) {
	for _, how := range []string{"connection closed", "requests hang"} {
		t.Run(how, func(t *testing.T) {
			ctx, url := ctxT(t), startNATS(t)
			// Seconds, not milliseconds: a renewal must get through on a
			// loaded machine (CI, -race) before the cut is made.
			opt := Options{TTL: 2 * time.Second, Renew: 500 * time.Millisecond, Margin: 200 * time.Millisecond, Suspend: time.Second}
			na := connect(t, url)
			akv := &partitionable{KV: na.kv}
			a := newManager(t, akv, "a", opt)
			b := newManager(t, connect(t, url).kv, "b", opt)
			lapsed, err := b.WatchLapsed(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ha, err := a.Claim(ctx, "ROOM")
			if err != nil {
				t.Fatal(err)
			}
			// Let a renew twice, then cut it off.
			first := ha.ValidUntil()
			for ha.ValidUntil().Sub(first) < 2*opt.Renew {
				select {
				case <-ha.Lost():
					t.Fatalf("lost before the cut: %v", ha.Err())
				case <-time.After(opt.Renew / 4):
				}
			}
			if how == "connection closed" {
				na.nc.Close()
			} else {
				akv.cut.Store(true)
			}
			cut := time.Now()

			if l := <-lapsed; l.Room != "ROOM" {
				t.Fatalf("lapsed %q", l.Room)
			}
			hb, err := b.Claim(ctx, "ROOM")
			if err != nil {
				t.Fatal(err)
			}
			won := time.Now()
			if ha.Valid() {
				t.Fatal("old holder still valid after the takeover")
			}
			if !ha.ValidUntil().Before(hb.Since()) {
				t.Fatalf("old holder valid until %v, new claim sent at %v: overlap", ha.ValidUntil(), hb.Since())
			}
			<-ha.Lost()
			if !errors.Is(ha.Err(), ErrExpired) {
				t.Fatalf("old holder ended with %v, want ErrExpired", ha.Err())
			}
			t.Logf("from the cut: old holder invalid %v, new claim sent %v, claimed %v",
				ha.ValidUntil().Sub(cut), hb.Since().Sub(cut), won.Sub(cut))
		})
	}
}

// partitionable passes requests through until cut; then each write hangs
// until its context ends, as a request into a partition does.
type partitionable struct {
	KV
	cut atomic.Bool
}

func (p *partitionable) Update(ctx context.Context, key string, value []byte, revision uint64) (uint64, error) {
	if p.cut.Load() {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return p.KV.Update(ctx, key, value, revision)
}

func TestRacingClaimantsExactlyOneWins(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	seed := connect(t, url)
	var racers []*Manager
	for i := range 4 {
		racers = append(racers, newManager(t, connect(t, url).kv, fmt.Sprint("n", i), withClock(testOpt, clock)))
	}
	for round := range 20 {
		room := fmt.Sprintf("R%d", round)
		lapsedEntry := round%2 == 1
		if lapsedEntry { // a holder that died long ago left its entry behind
			if _, err := seed.kv.Create(ctx, room, []byte(`{"node":"dead"}`)); err != nil {
				t.Fatal(err)
			}
		}
		results := make(chan *Held, len(racers))
		var wg sync.WaitGroup
		var mu sync.Mutex
		var errs []error
		for _, m := range racers {
			wg.Go(func() {
				claim := m.Claim
				if !lapsedEntry {
					// Race on the create itself: through Claim, a racer that
					// came late would see the winner's entry and wait a TTL.
					claim = func(ctx context.Context, room string) (*Held, error) { return m.take(ctx, room, 0) }
				}
				h, err := claim(ctx, room)
				if err != nil && !errors.Is(err, ErrHeld) {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
				results <- h
			})
		}
		if lapsedEntry {
			clock.WaitTimers(t, len(racers))
			clock.Advance(testOpt.TTL)
		}
		wg.Wait()
		close(results)
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		var winners []*Held
		for h := range results {
			if h != nil {
				winners = append(winners, h)
			}
		}
		if len(winners) != 1 {
			t.Fatalf("round %d (lapsed %v): %d winners", round, lapsedEntry, len(winners))
		}
		own, err := racers[0].Owner(ctx, room)
		if err != nil || own.Node != winners[0].m.Node() {
			t.Fatalf("round %d: bucket names %+v (%v), winner %s", round, own, err, winners[0].m.Node())
		}
		if err := winners[0].Release(ctx); err != nil { // stops its timers for the next round
			t.Fatal(err)
		}
	}
}

func TestReleaseLetsAnotherClaimAtOnce(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	a := newManager(t, connect(t, url).kv, "a", withClock(testOpt, clock))
	b := newManager(t, connect(t, url).kv, "b", withClock(testOpt, clock))
	ha, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(testOpt.Renew) // one renewal: release must delete the renewed revision
	if err := ha.Release(ctx); err != nil {
		t.Fatal(err)
	}
	hb, err := b.Claim(ctx, "ROOM") // the clock does not move: no wait is possible
	if err != nil {
		t.Fatal(err)
	}
	if !hb.Valid() || hb.Token() <= ha.Token() {
		t.Fatalf("new holder valid %v, term %d after %d", hb.Valid(), hb.Token(), ha.Token())
	}
}

// Someone deletes the entry behind the holder's back (an operator, or a
// bug): the holder's next renewal finds out, and it stops at once.
func TestRenewalThatFindsTheEntryGoneLosesTheLease(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	other := connect(t, url)
	a := newManager(t, connect(t, url).kv, "a", withClock(testOpt, clock))
	h, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	if err := other.kv.Delete(ctx, "ROOM"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(testOpt.Renew)
	select {
	case <-h.Lost():
	default:
		t.Fatal("renewal over a deleted entry did not end the lease")
	}
	if h.Valid() || !errors.Is(h.Err(), ErrLostToOther) {
		t.Fatalf("valid %v, err %v; want ErrLostToOther", h.Valid(), h.Err())
	}
	if _, err := a.Claim(ctx, "ROOM"); err != nil { // the manager forgot the lost lease
		t.Fatalf("claim again after the loss: %v", err)
	}
}

func TestWatchLapsedReportsDeadAndReleasedRoomsOnly(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	na, nb := connect(t, url), connect(t, url)
	a := newManager(t, na.kv, "a", withClock(testOpt, clock))
	b := newManager(t, nb.kv, "b", withClock(testOpt, clock))
	c := newManager(t, connect(t, url).kv, "c", withClock(testOpt, clock))
	if _, err := a.Claim(ctx, "DEAD"); err != nil {
		t.Fatal(err)
	}
	live, err := b.Claim(ctx, "LIVE")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := b.Claim(ctx, "GONE")
	if err != nil {
		t.Fatal(err)
	}
	lapsed, err := c.WatchLapsed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	awaitSighting(t, c, "DEAD", "LIVE", "GONE")
	if err := gone.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if l := <-lapsed; l.Room != "GONE" || l.Revision != 0 {
		t.Fatalf("first lapse %+v, want the released GONE", l)
	}
	na.nc.Close() // a dies holding DEAD

	for range 4 { // four renewal periods, more than a TTL
		clock.Advance(testOpt.Renew)
		awaitSighting(t, c, "LIVE") // the watch has seen b's renewal
	}
	select {
	case l := <-lapsed:
		if o, err := c.Owner(ctx, "DEAD"); l.Room != "DEAD" || err != nil || l.Revision != o.Revision {
			t.Fatalf("lapsed %+v, want DEAD at its entry's revision (%+v, %v)", l, o, err)
		}
	case <-ctx.Done():
		t.Fatal("DEAD never reported")
	}
	// The watch saw DEAD unchanged for a TTL, so the claim needs no wait:
	// the clock stays still.
	h, err := c.Claim(ctx, "DEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !h.Valid() || !live.Valid() {
		t.Fatal("a live lease was disturbed")
	}
	select {
	case l := <-lapsed:
		t.Fatalf("lapsed %+v while every lease is live", l)
	default:
	}
}

// awaitSighting waits until m's watch has seen the latest revision of each room.
func awaitSighting(t *testing.T, m *Manager, rooms ...string) {
	t.Helper()
	ctx := ctxT(t)
	for _, room := range rooms {
		own, err := m.Owner(ctx, room)
		if err != nil {
			t.Fatal(err)
		}
		for {
			m.mu.Lock()
			s := m.seen[room]
			m.mu.Unlock()
			if s.revision == own.Revision {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("watch never saw %s at revision %d", room, own.Revision)
			case <-time.After(time.Millisecond):
			}
		}
	}
}

func TestOptionsAreChecked(t *testing.T) {
	for _, o := range []Options{
		{},
		{TTL: time.Second, Renew: time.Second},
		{TTL: time.Second, Renew: 950 * time.Millisecond}, // renews after the margin has begun
		{TTL: time.Second, Margin: -time.Millisecond},
	} {
		if _, err := NewManager(nil, "a", o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := NewManager(nil, "a", Options{TTL: time.Second}); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
}

// On a bucket replicated three times over three servers, conflicts come
// back with another error code than on one server; every path that must see
// one still does. Then the holder's server dies, as a node does.
func TestReplicatedBucket(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-server cluster")
	}
	urls, servers := startCluster(t)
	t.Run("conflicts", func(t *testing.T) { testReplicatedConflicts(t, urls) })
	t.Run("holder's server dies", func(t *testing.T) {
		ctx := ctxT(t)
		opt := Options{TTL: time.Second, Renew: 250 * time.Millisecond, Margin: 100 * time.Millisecond}
		a := newManager(t, connectReplicas(t, urls[0], 3).kv, "a", opt)
		b := newManager(t, connectReplicas(t, urls[1], 3).kv, "b", opt)
		lapsed, err := b.WatchLapsed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ha, err := a.Claim(ctx, "DIES")
		if err != nil {
			t.Fatal(err)
		}
		servers[0].Shutdown()
		killed := time.Now()
		for l := range lapsed {
			if l.Room == "DIES" {
				break
			}
		}
		hb := claimThroughElection(ctx, t, b, "DIES")
		if ha.Valid() || !ha.ValidUntil().Before(hb.Since()) {
			t.Fatalf("old holder valid %v until %v, new claim sent at %v", ha.Valid(), ha.ValidUntil(), hb.Since())
		}
		t.Logf("holder's server killed; room claimed on another %v later (TTL %v)", time.Since(killed), opt.TTL)
	})
}

// claimThroughElection claims room, asking again while the cluster has
// no answer for it (a dead server's streams elect new leaders: "no
// responders" for a few seconds), as a node's claim loop does.
func claimThroughElection(ctx context.Context, t *testing.T, m *Manager, room string) *Held {
	t.Helper()
	var h *Held
	clocktest.CheckFor(t, 20*time.Second, 100*time.Millisecond, func() error {
		var err error
		h, err = m.Claim(ctx, room)
		if errors.Is(err, ErrHeld) || ctx.Err() != nil {
			t.Fatal(err)
		}
		return err
	})
	return h
}

func testReplicatedConflicts(t *testing.T, urls []string) {
	ctx, clock := ctxT(t), clocktest.New()
	var nodes []node
	var ms []*Manager
	for i, u := range urls {
		nodes = append(nodes, connectReplicas(t, u, 3))
		ms = append(ms, newManager(t, nodes[i].kv, fmt.Sprint("n", i), withClock(testOpt, clock)))
	}
	// Racing creates, one per server: one wins.
	results := make(chan error, len(ms))
	var winner *Held
	var mu sync.Mutex
	for _, m := range ms {
		go func() {
			h, err := m.take(ctx, "ROOM", 0)
			if h != nil {
				mu.Lock()
				winner = h
				mu.Unlock()
			}
			results <- err
		}()
	}
	held := 0
	for range ms {
		err := <-results
		switch {
		case err == nil:
			held++
		case !errors.Is(err, ErrHeld):
			t.Fatal(err)
		}
	}
	if held != 1 {
		t.Fatalf("%d winners", held)
	}
	// A compare-and-set on a stale revision is refused as a conflict.
	loser := ms[0]
	if loser == winner.m {
		loser = ms[1]
	}
	if _, err := loser.take(ctx, "ROOM", winner.Token()-1); !errors.Is(err, ErrHeld) {
		t.Fatalf("stale compare-and-set: %v, want ErrHeld", err)
	}
	// The entry is rewritten behind the holder's back: its renewal sees it.
	if _, err := nodes[0].kv.Put(ctx, "ROOM", []byte(`{"node":"intruder"}`)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(testOpt.Renew)
	if !errors.Is(winner.Err(), ErrLostToOther) {
		t.Fatalf("renewal over a rewritten entry: %v, want ErrLostToOther", winner.Err())
	}
	// Releasing a lease already lost deletes nothing and says nothing.
	if err := winner.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if own, err := loser.Owner(ctx, "ROOM"); err != nil || own.Node != "intruder" {
		t.Fatalf("owner %+v, %v; want the intruder untouched", own, err)
	}
}

// claimOnceLapsed has m claim room, which another holds, and moves the
// fake clock a TTL on once the claim waits, so it goes through if the
// holder did not renew meanwhile.
func claimOnceLapsed(ctx context.Context, t *testing.T, m *Manager, clock *clocktest.Manual, room string) *Held {
	t.Helper()
	claimed := make(chan *Held)
	set := clock.Live() // the holder's, whatever they are
	go func() {
		h, err := m.Claim(ctx, room)
		if err != nil {
			t.Error(err)
		}
		claimed <- h
	}()
	clock.WaitTimers(t, set+1) // and m's wait: the clock moves only once m waits
	clock.Advance(testOpt.TTL)
	h := <-claimed
	if h == nil {
		t.FailNow()
	}
	return h
}
