// Command bivouac is the Bivouac server and its tools.
//
//	bivouac [serve] [--addr :2222] [--data ./data]   run the server (default)
//	bivouac sim --players 4 --bot strong --games 1000 play bot-only games
//	bivouac backup FILE                               hot copy of the database
//	bivouac drain                                     hand a cluster node's tables over, then stop it
//	bivouac version (or --version, -v)                 version, commit and Go of this build
//
// Each says what it does in the operator's language (words.go).
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
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/words"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var logged loggedError
		if !errors.Is(err, flag.ErrHelp) && !errors.As(err, &logged) {
			lang, _ := operatorLang(os.Args[1:], environ())
			fmt.Fprintln(os.Stderr, "bivouac:", i18n.For(lang).ErrorDetail(err))
		}
		os.Exit(1)
	}
}

// run dispatches a subcommand; serve is the default. It speaks the
// operator's language (operatorLang).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	lang, err := operatorLang(args, environ())
	if err != nil {
		return err
	}
	p := i18n.For(lang)
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
		return runServe(ctx, p, args, stdout, stderr)
	case "sim":
		return runSim(ctx, args, stdout, stderr)
	case "backup":
		return runBackup(ctx, p, args, stdout, stderr)
	case "drain":
		return runDrain(ctx, p, args, stdout, stderr)
	case "version":
		return runVersion(p, stdout)
	case "help":
		fmt.Fprint(stdout, p.T("op.usage"))
		return nil
	}
	fmt.Fprint(stderr, p.T("op.usage"))
	return opError("op.err.command", words.Text("Command", cmd))
}

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
