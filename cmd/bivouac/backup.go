package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"bivouac/persistence"
	"bivouac/server"
)

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
	if c, err := d.DialContext(ctx, "unix", filepath.Join(*data, server.AdminSocket)); err == nil {
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
