package persistence

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole database to w while the
// server runs, and returns the number of bytes written. The copy is taken
// in one read transaction (bbolt's Tx.WriteTo): writers carry on, but a
// very slow w holds old pages and can delay the file's growth until it
// finishes. The copy is itself a Bivouac database that Open accepts.
func (s *Bolt) Backup(w io.Writer) (int64, error) {
	var n int64
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a backup to path atomically: into a temporary file in
// the same directory (mode 0600), synced, then renamed over path. A crash
// leaves either the old file at path or the complete new one.
func (s *Bolt) BackupFile(path string) (err error) {
	if fi, err := os.Stat(path); err == nil {
		if live, err := os.Stat(s.path); err == nil && os.SameFile(fi, live) {
			return fmt.Errorf("persistence: backup to %s: that is the live database", path)
		}
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("persistence: backup: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("persistence: backup to %s: %w", path, err)
		}
	}()
	if err = f.Chmod(0o600); err != nil {
		return err
	}
	if _, err = s.Backup(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}
