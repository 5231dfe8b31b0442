package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// TestMain lets a test start the real program as a separate process: the
// test binary re-runs itself with BIVOUAC_TEST_MAIN set to the arguments
// ("serve --addr 127.0.0.1:0 --data DIR"), and main's run does the rest.
// That is the process TestSIGTERMSaysGoodbyeToEveryone stops.
func TestMain(m *testing.M) {
	if os.Getenv("BIVOUAC_TEST_MAIN") == "" {
		os.Exit(m.Run())
	}
	args := strings.Fields(os.Getenv("BIVOUAC_TEST_MAIN"))
	// As main does: SIGINT and SIGTERM shut the server down gracefully.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, args, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bivouac:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// SIGTERM to the real program: every player, in the lobby or at a table,
// gets the terminal back whole with the restart message before the
// connection ends (issue 18 item 2). Each session's program must ignore
// the process's signals: Bubble Tea's own handler would quit them all at
// once, before the server could say anything.
func TestSIGTERMSaysGoodbyeToEveryone(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BIVOUAC_TEST_MAIN=serve --addr 127.0.0.1:0 --data "+t.TempDir())
	addr := sshtest.StartProcess(t, cmd)
	lobby := sshtest.Dial(t, addr, sshtest.WithUser("lena"))
	lobby.ExpectScreen(t, `Bivouac`, 5*time.Second)
	host := sshtest.Dial(t, addr, sshtest.WithUser("hana"))
	host.ExpectScreen(t, `Bivouac`, 5*time.Second)
	host.Type("n")
	host.ExpectScreen(t, `New table`, 5*time.Second)
	host.Type("\r")
	host.ExpectScreen(t, `Table [A-Z0-9]{4}`, 5*time.Second)

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*sshtest.Client{"in the lobby": lobby, "at a table": host} {
		c.Wait(t, 10*time.Second)
		raw := c.Transcript()
		i := bytes.LastIndex(raw, []byte("\x1b[?1049l"))
		if i < 0 || !bytes.Contains(raw[i:], []byte("The server is restarting")) {
			t.Errorf("%s: no goodbye after leaving the alternate screen (tail %q)", name, raw[max(0, len(raw)-200):])
		}
	}
}

func TestParseBytesReadsGOMEMLIMITSizes(t *testing.T) {
	for in, want := range map[string]int64{"800MiB": 800 << 20, "2GiB": 2 << 30, "1048576": 1 << 20, "512KiB": 512 << 10, "10B": 10} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1GB", "-5MiB", "0", "lots", "99999999999TiB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}

// A limit's environment variable says -1 for no limit as its flag does
// (BIVOUAC_NEW_KEYS_PER_IP=-1 behind a shared address); a value that is
// no setting leaves the default.
func TestEnvIntTakesNoLimit(t *testing.T) {
	for v, want := range map[string]int{"-1": -1, "25": 25, "": 20, "0": 20, "-7": 20, "lots": 20} {
		t.Setenv("BIVOUAC_TEST_LIMIT", v)
		if got := envInt("BIVOUAC_TEST_LIMIT", 20); got != want {
			t.Errorf("BIVOUAC_TEST_LIMIT=%q: %d, want %d", v, got, want)
		}
	}
}

// en is the English printer, what the tests read unless they ask for
// another language.
var en = i18n.For(i18n.English)
