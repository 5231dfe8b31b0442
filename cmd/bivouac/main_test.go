package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain lets a test start the real program as a separate process: the
// test binary re-runs itself with BIVOUAC_TEST_MAIN set to the arguments
// ("serve --addr 127.0.0.1:0 --data DIR"), and main's run does the rest.
// That is the process the crash test kills with SIGKILL. The load harness's
// children use BIVOUAC_LOAD_CHILD=1 with the arguments on the command line.
func TestMain(m *testing.M) {
	var args []string
	switch {
	case os.Getenv("BIVOUAC_TEST_MAIN") != "":
		args = strings.Fields(os.Getenv("BIVOUAC_TEST_MAIN"))
	case os.Getenv("BIVOUAC_LOAD_CHILD") == "1":
		args = os.Args[1:]
		if len(args) == 0 || args[0] != "load" {
			args = append([]string{"load"}, args...)
		}
	default:
		os.Exit(m.Run())
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	if err := run(ctx, args, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bivouac:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
