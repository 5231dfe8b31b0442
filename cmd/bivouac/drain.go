package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"

	"github.com/bivouac-ssh/bivouac/server"
)

// runDrain asks the cluster node running on the data directory, over its
// admin socket, to hand each of its tables to another node, send its
// players there, and stop: one node's step of a rolling upgrade. It prints
// where each table went and returns once the node has stopped.
func runDrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "data directory of the node to drain (env BIVOUAC_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errors.New("usage: bivouac drain [--data DIR]")
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", filepath.Join(*data, server.AdminSocket))
	if err != nil {
		return fmt.Errorf("no server runs on %s: %w", *data, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := io.WriteString(c, "drain\n"); err != nil {
		return err
	}
	last := ""
	lines := bufio.NewScanner(c)
	for lines.Scan() {
		last = lines.Text()
		fmt.Fprintln(stdout, last)
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("stopped waiting; the node goes on draining: %w", ctx.Err())
	case strings.HasPrefix(last, server.DrainDone+":"):
		return nil
	case last == "":
		return errors.New("the server said nothing")
	}
	return errors.New("the node was not drained")
}
