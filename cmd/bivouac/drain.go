package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"github.com/bivouac-ssh/bivouac/server"
)

// runDrain is `bivouac drain`: the cluster node running on the data
// directory hands its tables to the other nodes and stops
// (server.RequestDrain), saying where each table went.
func runDrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "data directory of the node to drain (env BIVOUAC_DATA)")
	force := fs.Bool("force", false, "drain even when the nodes left would be fewer than a majority of the cluster (their tables stop until enough are back)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errors.New("usage: bivouac drain [--data DIR] [--force]")
	}
	return server.RequestDrain(ctx, *data, *force, stdout)
}
