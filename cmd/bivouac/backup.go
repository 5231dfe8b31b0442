package main

import (
	"context"
	"fmt"
	"io"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/server"
	"github.com/bivouac-ssh/bivouac/words"
)

// runBackup is `bivouac backup FILE`: a consistent copy of the database,
// from the running server or straight from the file (server.Backup).
func runBackup(ctx context.Context, p *i18n.Printer, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("backup")
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "op.flag.data")
	if err := parseFlags(p, fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return opError("op.err.backup_usage")
	}
	dest := fs.Arg(0)
	live, err := server.Backup(ctx, *data, dest)
	switch {
	case err != nil:
		return err
	case live:
		fmt.Fprintln(stdout, p.T("op.backup.written_live", words.Text("File", dest)))
	default:
		fmt.Fprintln(stdout, p.T("op.backup.written", words.Text("File", dest)))
	}
	return nil
}
