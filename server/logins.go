package server

import (
	"errors"
	"time"

	"github.com/bivouac-ssh/bivouac/lastknown"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// A login never waits on another node of a cluster (issue 41: a node
// that froze held logins elsewhere for 48 s). Each read a login makes of
// the store has a short deadline, and past it is answered from the last
// copy this node read: bans (moderation: a copy followed by a watch),
// admitted keys and invites (access), the player's profile (here). A
// write a login makes (the profile's last sighting) goes on without it.

// loginReadWithin bounds a login's read of its profile: a loopback
// cluster answers in about a millisecond, a frozen node's bucket never.
const loginReadWithin = 500 * time.Millisecond

// loginCopies bounds the profiles kept for logins whose read is late:
// the players who logged in here last, a few MB at most.
const loginCopies = 10000

// loginProfile is the profile a login plays under, marked as seen now
// (its name set to name if it had none). Past loginReadWithin it is the
// copy last read here, or lastknown.ErrNoAnswer without one; the
// sighting is written on the side, and the copy follows it.
func (s *Server) loginProfile(id, name string) (persistence.Profile, error) {
	notFound := func(err error) bool { return errors.Is(err, persistence.ErrNotFound) }
	prof, stale, err := s.profiles.Read(id, notFound, func() (persistence.Profile, error) { return s.store.Player(id) })
	if stale || lastknown.NoAnswer(err) {
		s.log.Warn("a login's profile was not read in time: the last copy answers", "id", id, "copy", stale)
	}
	if err != nil {
		return prof, err
	}
	if prof.Name == "" {
		prof.Name = name
	}
	seen := make(chan error, 1)
	var stored persistence.Profile
	go func() {
		p, err := s.store.Seen(id, name)
		switch {
		case err == nil:
			s.profiles.Put(id, p)
			stored = p
		case !notFound(err):
			s.log.Warn("a login's sighting was not stored", "id", id, "err", err)
		}
		seen <- err
	}()
	t := time.NewTimer(loginReadWithin)
	defer t.Stop()
	select {
	case err := <-seen:
		if err == nil {
			prof = stored // the profile as stored now
		}
	case <-t.C:
	}
	return prof, nil
}
