package main

import (
	"context"
	"io"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/server"
)

// runDrain is `bivouac drain`: the cluster node running on the data
// directory hands its tables to the other nodes and stops
// (server.RequestDrain), saying where each table went in the operator's
// language.
func runDrain(ctx context.Context, p *i18n.Printer, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("drain")
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "op.flag.drain_data")
	force := fs.Bool("force", false, "op.flag.force")
	if err := parseFlags(p, fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return opError("op.err.drain_usage")
	}
	return server.RequestDrain(ctx, *data, *force, p.Lang(), stdout)
}
