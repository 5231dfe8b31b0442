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

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server"
)

// runBackup writes a consistent copy of the database: from the running
// server through its admin socket, or straight from the file if no server
// holds it. Either way the target is checked first and refused, with
// nothing touched, if it is in the data directory, is the live database
// under any name, or exists and is not a regular file
// (persistence.CheckBackupTarget).
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
	live := filepath.Join(*data, "bivouac.db")
	if _, err := persistence.CheckBackupTarget(dest, *data, live); err != nil {
		return err
	}
	var d net.Dialer
	if c, err := d.DialContext(ctx, "unix", filepath.Join(*data, server.AdminSocket)); err == nil {
		defer c.Close()
		if err := persistence.WriteBackupFile(dest, *data, live, fromServer(c), openable); err != nil {
			if errors.Is(err, persistence.ErrRefusedTarget) {
				return err
			}
			return fmt.Errorf("backup from the running server: %w", err)
		}
		fmt.Fprintf(stdout, "backup of the running server written to %s\n", dest)
		return nil
	}
	if _, err := os.Stat(live); err != nil {
		return fmt.Errorf("no database to back up: %w", err)
	}
	store, err := persistence.Open(live, persistence.Options{})
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

// fromServer asks the server on the admin connection c for a backup and
// copies it to w.
func fromServer(c net.Conn) func(w io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(c, "backup\n"); err != nil {
			return err
		}
		n, err := io.Copy(w, c)
		if err == nil && n == 0 {
			err = errors.New("the server sent nothing")
		}
		return err
	}
}

// openable checks a copy by opening it as a Bivouac database.
func openable(path string) error {
	check, err := persistence.Open(path, persistence.Options{})
	if err != nil {
		return fmt.Errorf("the copy does not open: %w", err)
	}
	return check.Close()
}
