package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/bivouac-ssh/bivouac/server"
)

// runBackup is `bivouac backup FILE`: a consistent copy of the database,
// from the running server or straight from the file (server.Backup).
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
	live, err := server.Backup(ctx, *data, dest)
	switch {
	case err != nil:
		return err
	case live:
		fmt.Fprintf(stdout, "backup of the running server written to %s\n", dest)
	default:
		fmt.Fprintf(stdout, "backup written to %s\n", dest)
	}
	return nil
}
