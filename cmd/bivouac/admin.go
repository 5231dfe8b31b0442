package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"bivouac/persistence"
)

// The admin socket lets `bivouac backup` take a hot copy from a running
// server: the database file is locked by the server, so another process
// can't open it, but it can ask the server for a consistent copy (a bbolt
// read transaction's WriteTo) over a Unix socket only the operator can reach
// (it lives in the 0700 data dir, mode 0600).

const adminSocket = "admin.sock"

// listenAdmin serves admin requests until the listener is closed.
func (s *server) listenAdmin() error {
	path := filepath.Join(s.cfg.DataDir, adminSocket)
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return fmt.Errorf("another server answers on %s", path)
	}
	os.Remove(path) // a socket left by a killed server
	l, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return err
	}
	s.admin = l
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serveAdmin(c)
		}
	}()
	return nil
}

func (s *server) serveAdmin(c net.Conn) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(c, 256)).ReadString('\n')
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	switch strings.TrimSpace(line) {
	case "backup":
		if _, err := s.store.Backup(c); err != nil {
			s.log.Error("backup over the admin socket", "err", err)
		}
	default:
		fmt.Fprintln(c, "unknown request")
	}
}

// runBackup writes a consistent copy of the database: from the running
// server through its admin socket, or straight from the file if no server
// holds it.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "data directory (env BIVOUAC_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: bivouac backup [--data DIR] FILE")
	}
	dest := fs.Arg(0)
	var d net.Dialer
	if c, err := d.DialContext(ctx, "unix", filepath.Join(*data, adminSocket)); err == nil {
		defer c.Close()
		if _, err := io.WriteString(c, "backup\n"); err != nil {
			return err
		}
		if err := writeAtomically(dest, c); err != nil {
			return fmt.Errorf("backup from the running server: %w", err)
		}
		fmt.Fprintf(stdout, "backup of the running server written to %s\n", dest)
		return nil
	}
	store, err := persistence.Open(filepath.Join(*data, "bivouac.db"), persistence.Options{})
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.BackupFile(dest); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s\n", dest)
	return nil
}

// writeAtomically copies r into path through a temporary file (0600), so a
// failed copy never leaves a half file where a backup is expected. The copy
// is checked by opening it as a Bivouac database.
func writeAtomically(path string, r io.Reader) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bivouac-backup-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	n, err := io.Copy(tmp, r)
	if err == nil && n == 0 {
		err = errors.New("the server sent nothing")
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	check, err := persistence.Open(tmp.Name(), persistence.Options{})
	if err != nil {
		return fmt.Errorf("the copy does not open: %w", err)
	}
	check.Close()
	return os.Rename(tmp.Name(), path)
}
