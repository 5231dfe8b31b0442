package lease

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
)

// flakyKV answers a holder's renewals as a cluster electing a leader does:
// not at all (refuse), or by writing and losing the answer (loseAnswer).
type flakyKV struct {
	KV
	refuse     atomic.Bool
	loseAnswer atomic.Bool
}

func (k *flakyKV) Update(ctx context.Context, key string, value []byte, revision uint64) (uint64, error) {
	if k.refuse.Load() {
		return 0, nats.ErrTimeout
	}
	rev, err := k.KV.Update(ctx, key, value, revision)
	if err == nil && k.loseAnswer.Load() {
		return 0, nats.ErrTimeout
	}
	return rev, err
}

// flakyHolder is node a holding ROOM through a flakyKV, on a fake clock.
func flakyHolder(t *testing.T) (*flakyKV, *clocktest.Manual, *Held) {
	t.Helper()
	clock := clocktest.New()
	kv := &flakyKV{KV: connect(t, startNATS(t)).kv}
	h, err := newManager(t, kv, "a", withClock(testOpt, clock)).Claim(ctxT(t), "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	return kv, clock, h
}

// advanceBy moves the clock d in steps, so every renewal due meanwhile runs.
func advanceBy(clock *clocktest.Manual, d time.Duration) {
	for step := testOpt.Renew / 4; d > 0; d -= step {
		clock.Advance(min(step, d))
	}
}

// A holder whose renewals go unanswered past its validity is suspended,
// not lost: Valid is false, and turns true again when a renewal gets
// through, since nobody claimed the room meanwhile.
func TestSuspendedHolderResumesWhenTheClusterAnswers(t *testing.T) {
	kv, clock, h := flakyHolder(t)
	kv.refuse.Store(true)
	advanceBy(clock, testOpt.TTL+testOpt.Renew)
	if h.Valid() {
		t.Fatal("valid with no renewal answered for longer than a TTL")
	}
	select {
	case <-h.Lost():
		t.Fatalf("lost while the cluster only did not answer: %v", h.Err())
	default:
	}
	kv.refuse.Store(false)
	advanceBy(clock, testOpt.Renew)
	if !h.Valid() {
		t.Fatalf("not valid again after a renewal got through (err %v)", h.Err())
	}
	advanceBy(clock, 3*testOpt.TTL)
	if !h.Valid() {
		t.Fatalf("not kept valid by renewals after resuming (err %v)", h.Err())
	}
}

// While a holder is suspended another node may take the room over; the
// holder learns it at its next renewal that gets an answer, and never
// becomes valid again.
func TestSuspendedHolderTakenOverIsLost(t *testing.T) {
	ctx, clock, url := ctxT(t), clocktest.New(), startNATS(t)
	kv := &flakyKV{KV: connect(t, url).kv}
	a := newManager(t, kv, "a", withClock(testOpt, clock))
	b := newManager(t, connect(t, url).kv, "b", withClock(testOpt, clock))
	ha, err := a.Claim(ctx, "ROOM")
	if err != nil {
		t.Fatal(err)
	}
	kv.refuse.Store(true)
	hb := claimOnceLapsed(ctx, t, b, clock, "ROOM")
	if ha.Valid() || !ha.ValidUntil().Before(hb.Since()) {
		t.Fatalf("old holder valid %v until %v, new claim sent at %v", ha.Valid(), ha.ValidUntil(), hb.Since())
	}
	kv.refuse.Store(false)
	advanceBy(clock, testOpt.Renew)
	select {
	case <-ha.Lost():
	default:
		t.Fatalf("the old holder did not learn it lost the room (valid %v, err %v)", ha.Valid(), ha.Err())
	}
	if !errors.Is(ha.Err(), ErrLostToOther) || ha.Valid() {
		t.Fatalf("old holder: valid %v, err %v; want lost to another", ha.Valid(), ha.Err())
	}
	if !hb.Valid() {
		t.Fatal("the new holder is not valid")
	}
}

// A renewal written whose answer was lost makes the next renewal's
// compare-and-set fail; the holder finds its own write in the entry and
// carries on from it instead of giving the room up.
func TestRenewalWithALostAnswerIsNotALoss(t *testing.T) {
	kv, clock, h := flakyHolder(t)
	kv.loseAnswer.Store(true)
	advanceBy(clock, testOpt.Renew)
	kv.loseAnswer.Store(false)
	advanceBy(clock, 3*testOpt.TTL)
	select {
	case <-h.Lost():
		t.Fatalf("lost after a renewal's answer was lost: %v", h.Err())
	default:
	}
	if !h.Valid() {
		t.Fatalf("not valid (err %v)", h.Err())
	}
}
