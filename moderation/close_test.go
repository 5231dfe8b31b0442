package moderation_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// hungStore's sanctions read answers only when its ctx ends: a JetStream
// bucket whose leader is gone.
type hungStore struct {
	persistence.Moderation
	asked, gaveUp chan struct{}
}

func (h hungStore) SanctionsContext(ctx context.Context) ([]persistence.Sanction, error) {
	h.asked <- struct{}{}
	<-ctx.Done()
	h.gaveUp <- struct{}{}
	return nil, ctx.Err()
}

// Watch ends with its ctx, and every check answers within CheckWithin,
// while a read of the store hangs (a frozen cluster node's bucket); Close
// gives the read up.
func TestReadsEndWithWatchAndClose(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := hungStore{Moderation: st, asked: make(chan struct{}, 4), gaveUp: make(chan struct{}, 4)}
	svc := moderation.New(moderation.Options{Store: h, CheckWithin: 20 * time.Millisecond})
	bound, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wait := func(what string, done <-chan struct{}) {
		t.Helper()
		select {
		case <-done:
		case <-bound.Done():
			t.Fatalf("%s still waits on the hung read", what)
		}
	}

	ctx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() { svc.Watch(ctx, func(moderation.Sanction) {}); close(watched) }()
	wait("the watcher's read", h.asked)
	stopWatch()
	wait("Watch", watched)

	checked := make(chan struct{})
	go func() { svc.Banned("SHA256:troll"); close(checked) }()
	wait("Banned", checked)
	svc.Close()
	wait("the read after Close", h.gaveUp)
	if _, err := svc.InForce(); err == nil {
		t.Error("InForce after Close read nothing, yet says nothing of it")
	}
}

// frozenAfterFirst answers its first read of the sanctions, then hangs
// every later one until its ctx ends: a cluster node that froze.
type frozenAfterFirst struct {
	persistence.Moderation
	reads chan struct{} // one token: the read that answers
}

func (f frozenAfterFirst) SanctionsContext(ctx context.Context) ([]persistence.Sanction, error) {
	select {
	case <-f.reads:
		return f.Sanctions()
	default:
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// A login's ban check whose view is old and whose store hangs answers
// within CheckWithin, from the sanctions last read: the ban made before
// still holds, and nobody waits on the frozen node.
func TestALoginsCheckNeverWaitsOnAHungStore(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clocktest.New()
	banner := moderation.New(moderation.Options{Store: st, Clock: clk})
	if _, err := banner.Ban(moderation.Person{ID: "SHA256:ada"}, moderation.Person{ID: "SHA256:troll"}, moderation.Forever, "spam", moderation.BanOptions{KeyOnly: true}); err != nil {
		t.Fatal(err)
	}
	f := frozenAfterFirst{Moderation: st, reads: make(chan struct{}, 1)}
	f.reads <- struct{}{}
	svc := moderation.New(moderation.Options{Store: f, Clock: clk, CheckWithin: 50 * time.Millisecond})
	t.Cleanup(svc.Close)
	if _, ok := svc.Banned("SHA256:troll"); !ok {
		t.Fatal("the ban does not hold while the store answers")
	}
	clk.Advance(time.Minute) // the view is old: the next check reads again, and the read hangs
	for range 3 {
		checked := make(chan bool, 1)
		go func() { _, ok := svc.Banned("SHA256:troll"); checked <- ok }()
		select {
		case ok := <-checked:
			if !ok {
				t.Fatal("the ban read before was forgotten while the store hangs")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a login's ban check waits on a store that does not answer")
		}
	}
}

// pushStore tells its sanctions' changes as they happen (moderation.Watcher),
// as the JetStream store's watch does.
type pushStore struct {
	persistence.Moderation
	views chan []persistence.Sanction
}

func (p pushStore) WatchSanctions(ctx context.Context) (<-chan []persistence.Sanction, error) {
	return p.views, nil
}

// With a store that tells its changes, a ban made on another node holds
// here as soon as the watch brings it, with no Refresh to wait out and no
// read of the store, and Watch ends the banned player's sessions.
func TestWatchedBansHoldAtOnce(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clocktest.New() // never advanced: no Refresh passes
	p := pushStore{Moderation: st, views: make(chan []persistence.Sanction)}
	svc := moderation.New(moderation.Options{Store: p, Clock: clk})
	t.Cleanup(svc.Close)
	told := make(chan moderation.Sanction, 1)
	go svc.Watch(t.Context(), func(sn moderation.Sanction) { told <- sn })
	p.views <- nil
	ban := persistence.Sanction{Kind: persistence.SanctionBan, Subject: "SHA256:troll", At: clk.Now()}
	p.views <- []persistence.Sanction{ban}
	select {
	case sn := <-told:
		if sn.Subject != ban.Subject {
			t.Fatalf("Watch told of %+v", sn)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not tell of the ban the store's watch brought")
	}
	if _, ok := svc.Banned("SHA256:troll"); !ok {
		t.Fatal("the ban the watch brought does not hold")
	}
	p.views <- nil // lifted elsewhere
	clocktest.CheckFor(t, 5*time.Second, 5*time.Millisecond, func() error {
		if _, ok := svc.Banned("SHA256:troll"); ok {
			return errors.New("the ban lifted elsewhere still holds")
		}
		return nil
	})
}

// An admin's list of bans reads the store, and says which this node does
// not apply yet: a ban made on another node, stored, that the watch has
// not brought here (issue 41: "No bans or mutes" a second after a ban
// elsewhere). Once the watch brings it, it is applied.
func TestStoredSaysWhatIsNotAppliedYet(t *testing.T) {
	st, err := persistence.Open(filepath.Join(t.TempDir(), "b.db"), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clocktest.New()
	p := pushStore{Moderation: st, views: make(chan []persistence.Sanction)}
	svc := moderation.New(moderation.Options{Store: p, Clock: clk})
	t.Cleanup(svc.Close)
	go svc.Watch(t.Context(), func(moderation.Sanction) {})
	p.views <- nil
	elsewhere := moderation.New(moderation.Options{Store: st, Clock: clk}) // another node, on the same store
	ban, err := elsewhere.Ban(moderation.Person{ID: "SHA256:ada"}, moderation.Person{ID: "SHA256:troll"}, moderation.Forever, "spam", moderation.BanOptions{KeyOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	all, applied, fromView, err := svc.Stored(time.Second)
	if err != nil || fromView || len(all) != 1 || all[0].Subject != "SHA256:troll" || applied[0] {
		t.Fatalf("a ban stored, not yet watched here: %v %v from view %v, %v; want it, not applied", all, applied, fromView, err)
	}
	p.views <- []persistence.Sanction{ban}
	clocktest.CheckFor(t, 5*time.Second, 5*time.Millisecond, func() error {
		if _, applied, _, _ := svc.Stored(time.Second); len(applied) != 1 || !applied[0] {
			return errors.New("the ban the watch brought is not applied")
		}
		return nil
	})
}
