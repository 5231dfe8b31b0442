//go:build unix

package persistence

import (
	"errors"
	"os"
	"syscall"
)

// heldAsDatabase reports whether another process holds path open as a
// bbolt database: bbolt takes an exclusive flock on the file it opens for
// writing (a shared one read-only), so a shared lock that cannot be had at
// once means a live database.
func heldAsDatabase(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) // closing drops it anyway
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}
