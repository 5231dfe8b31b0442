package server

import (
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/server/people"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// slowFirstRead reads profiles from a store; its first read of one
// player's is read at once and handed back only when release is closed: a
// reload that read before a change and is late to apply what it read.
type slowFirstRead struct {
	persistence.Store
	id      string
	once    sync.Once
	reading chan struct{} // closed once the first read has read
	release chan struct{}
}

func (s *slowFirstRead) read(id string) (persistence.Profile, error) {
	p, err := s.Store.Player(id)
	first := false
	if id == s.id {
		s.once.Do(func() { first = true })
	}
	if first {
		close(s.reading)
		<-s.release
	}
	return p, err
}

// annaAndBob are a server with two players, anna and bob, and bob on
// presence, anna his friend.
func annaAndBob(t *testing.T) (srv *Server, anna, bob string) {
	srv, _ = startServer(t, t.TempDir())
	anna, bob = "SHA256:anna", "SHA256:bob"
	for id, name := range map[string]string{anna: "anna", bob: "bob"} {
		if _, err := srv.store.Seen(id, name); err != nil {
			t.Fatal(err)
		}
	}
	bobs := srv.presence.Join(bob, "bob", presence.Circle{Friends: []string{anna}})
	t.Cleanup(bobs.Close)
	return srv, anna, bob
}

// Two reloads of a player's circle (their node told twice that it
// changed: a request, then its acceptance) end with the newer one, however
// their reads come back: a reload that read before the acceptance and
// applied after it had anna's node forget bob, for good, and bob's
// friends page read her offline (TestADeadNodesFriendsGoOfflineOverSSH
// on a loaded machine).
func TestCircleReloadsApplyTheNewestRead(t *testing.T) {
	t.Parallel()
	srv, anna, bob := annaAndBob(t)
	annas := srv.presence.Join(anna, "anna", presence.Circle{})
	defer annas.Close()

	slow := &slowFirstRead{Store: srv.store, id: anna, reading: make(chan struct{}), release: make(chan struct{})}
	srv.circles.read = slow.read
	stale := make(chan struct{})
	go func() { defer close(stale); srv.reloadCircle(anna) }() // reads anna without bob
	<-slow.reading
	if _, err := srv.store.UpdatePlayer(anna, func(p *persistence.Profile) error {
		return persistence.AddRelation(&p.Friends, persistence.Relation{ID: bob, Name: "bob"})
	}); err != nil {
		t.Fatal(err)
	}
	fresh := make(chan struct{})
	go func() { defer close(fresh); srv.reloadCircle(anna) }() // reads anna with bob
	select {
	case <-fresh: // it applied its read first: the stale one comes after
	case <-time.After(200 * time.Millisecond): // it waits for the stale one
	}
	close(slow.release)
	<-stale
	<-fresh
	if _, ok := annas.Friend(bob); !ok {
		t.Fatal("anna's node forgot bob: the older read was applied last")
	}
}

// A friends change that comes while a login reads the profile its circle
// comes from shows at once: the change's own reload found nobody on the
// node to reload (the login was not on presence yet), and the login
// joined with what it had read before the change, so anna's node did not
// know bob for a friend until the next change (or her next login).
func TestALoginSeesAFriendsChangeDuringItsRead(t *testing.T) {
	t.Parallel()
	srv, anna, bob := annaAndBob(t)

	slow := &slowFirstRead{Store: srv.store, id: anna, reading: make(chan struct{}), release: make(chan struct{})}
	f := srv.app.Friends.(people.Friends)
	f.Read = slow.read
	srv.app.Friends = f
	joined := make(chan *tui.Whereabouts)
	go func() { joined <- srv.app.JoinPresence(table.Player{ID: anna, Name: "anna"}) }()
	<-slow.reading // anna's login has read her profile: no friends yet
	if _, err := srv.store.UpdatePlayer(anna, func(p *persistence.Profile) error {
		return persistence.AddRelation(&p.Friends, persistence.Relation{ID: bob, Name: "bob"})
	}); err != nil {
		t.Fatal(err)
	}
	srv.circlesChanged(anna) // as the friends service says it, after the write
	close(slow.release)
	w := <-joined
	defer w.Close()
	if _, ok := w.Friend(bob); !ok {
		t.Fatal("anna's login missed bob, befriended while it read her profile")
	}
}
