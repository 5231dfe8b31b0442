// Command bivouac-load is Bivouac's load harness: it starts `bivouac serve`
// and a bare wish + Bubble Tea baseline on loopback, plays thousands of SSH
// players against each and reports the ratios (docs/PERFORMANCE.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	args := os.Args[1:]
	var err error
	if len(args) > 0 && args[0] == "baseline" {
		err = runBaselineChild(ctx, args[1:], os.Stdout, os.Stderr)
	} else {
		err = runLoad(ctx, args, os.Stdout, os.Stderr)
	}
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bivouac-load:", err)
		}
		os.Exit(1)
	}
}
