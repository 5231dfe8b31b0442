// Command bivouac is the Bivouac server and its tools.
//
//	bivouac [serve] [--addr :2222] [--data ./data]   run the server (default)
//	bivouac sim --players 4 --bot strong --games 1000 play bot-only games
//	bivouac backup FILE                               hot copy of the database
//	bivouac drain                                     hand a cluster node's tables over, then stop it
//	bivouac version (or --version, -v)                 version, commit and Go of this build
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/bivouac-ssh/bivouac/game/sim/simcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var logged loggedError
		if !errors.Is(err, flag.ErrHelp) && !errors.As(err, &logged) {
			fmt.Fprintln(os.Stderr, "bivouac:", err)
		}
		os.Exit(1)
	}
}

// run dispatches a subcommand; serve is the default.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if cmd == "serve" && len(args) > 0 {
		switch args[0] {
		case "--version", "-version", "-v", "--v": // as most programs answer
			cmd = "version"
		}
	}
	switch cmd {
	case "serve":
		return runServe(ctx, args, stdout, stderr)
	case "sim":
		return runSim(ctx, args, stdout, stderr)
	case "backup":
		return runBackup(ctx, args, stdout, stderr)
	case "drain":
		return runDrain(ctx, args, stdout, stderr)
	case "version":
		return runVersion(stdout)
	case "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

const usage = `Usage:
  bivouac [serve] [--addr :2222] [--data ./data]    run the server (default)
  bivouac sim [--game ID] [--players N] ...         play bot-only games of any game, print statistics
  bivouac backup [--data ./data] FILE               consistent copy of the database, while it runs
  bivouac drain [--data ./data]                     cluster node: hand its tables to the others, then stop it
  bivouac version (or --version, -v)                version, commit and Go of this build
  bivouac help                                      this text
`

// envOr is the environment variable's value, or def.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// envInt is the environment variable's value as a number, or def: a
// positive number, or -1, which the per-address limits read as no limit
// (as their flags do).
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && (n > 0 || n == -1) {
		return n
	}
	return def
}

// isTerminal reports whether w is a terminal: simcmd's check, which
// serve's banner shares with sim's progress bar.
var isTerminal = simcmd.IsTerminal
