package persistence

import (
	"errors"
	"fmt"
	"os"
)

// ErrFileReplaced: the database file the store writes to is no longer the
// file at its path.
var ErrFileReplaced = errors.New("the database file was replaced under the running server")

// FileReplaced reports whether the file at the database's path is still
// the one the store has open (same device and inode). When it was removed,
// renamed away or replaced (a backup or a copy renamed over it), every
// write still goes to the open file, which nothing at that path will read
// at the next start: the error says so and what to do. Cheap (one stat):
// the server asks every few seconds.
func (s *Bolt) FileReplaced() error {
	now, err := os.Stat(s.path)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s is gone (%v); %s", ErrFileReplaced, s.path, err, s.rescue())
	case !os.SameFile(now, s.opened):
		return fmt.Errorf("%w: %s is another file now; %s", ErrFileReplaced, s.path, s.rescue())
	}
	return nil
}

// rescue says how to keep what the open file holds.
func (s *Bolt) rescue() string {
	return fmt.Sprintf("every move since went to the file the server opened, which nothing will read at the next start: "+
		"before stopping the server, copy that file out (ls -l /proc/%d/fd shows it, \"(deleted)\" if it was replaced), "+
		"then stop the server and put the copy at %s", os.Getpid(), s.path)
}
