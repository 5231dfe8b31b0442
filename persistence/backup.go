package persistence

import (
	"errors"
	"fmt"
	"io"
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

// BackupFile writes a backup to path atomically with WriteBackupFile:
// into a temporary file beside path (mode 0600), synced, then renamed over
// path. It refuses the live database under any name, any file in the live
// database's directory (the data directory) and any existing file that is
// not a regular file (CheckBackupTarget). A crash leaves either the old
// file at path or the complete new one.
func (s *Bolt) BackupFile(path string) error {
	err := WriteBackupFile(path, filepath.Dir(s.path), s.path, func(w io.Writer) error {
		_, err := s.Backup(w)
		return err
	}, nil)
	if err != nil && !errors.Is(err, ErrRefusedTarget) {
		return fmt.Errorf("persistence: %w", err)
	}
	return err
}
