package persistence

import (
	"errors"
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

// SpooledBackup is Backup for a writer that may be slow or stop reading
// (the admin socket's reader): the copy is written first, in the read
// transaction, to a temporary file beside the database at the disk's
// speed, and only then, the transaction over, copied to w. A read
// transaction held while w stalled held bbolt's remap lock: once the file
// had to grow, every write waited for the reader (a new table waited
// 10.9 s, until the reader let go). The temporary file (0600, as large as
// the database) is removed before it returns.
func (s *Bolt) SpooledBackup(w io.Writer) (int64, error) {
	spool, err := os.CreateTemp(filepath.Dir(s.path), ".backup-spool-*")
	if err != nil {
		return 0, fmt.Errorf("persistence: backup spool: %w", err)
	}
	defer os.Remove(spool.Name())
	defer spool.Close()
	if _, err := s.Backup(spool); err != nil {
		return 0, err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("persistence: backup spool: %w", err)
	}
	return io.Copy(w, spool)
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
