package sshtest

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"
)

// StartProcess starts cmd, a server in a process of its own (typically the
// test binary re-run in a serving mode), and returns the address it prints
// as "listening on ADDR". The process is killed when the test ends.
func StartProcess(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var races *raceWatch
	if cmd.Stderr == nil {
		races = &raceWatch{to: os.Stderr}
		cmd.Stderr = races
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // fails only for a process that already exited
		_ = cmd.Wait()         // "signal: killed" is how it ends
		if races != nil && races.seen() {
			t.Error("the server process reported a data race (above)")
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		re := regexp.MustCompile(`listening on (\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(20 * time.Second):
		t.Fatal("the server process never said where it listens")
	}
	return ""
}

// Buffer is a log destination a test can read while a server writes it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// raceWatch passes a process's standard error on and notes whether the
// race detector spoke in it: a race in a server process (killed -9 or
// not) would otherwise fail no test.
type raceWatch struct {
	to   io.Writer
	mu   sync.Mutex
	tail []byte // the last bytes written, for a marker split between writes
	race bool
}

var raceMarker = []byte("WARNING: DATA RACE")

func (w *raceWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.tail = append(w.tail, p...)
	if bytes.Contains(w.tail, raceMarker) {
		w.race = true
	}
	if keep := len(raceMarker) - 1; len(w.tail) > keep {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-keep:]...)
	}
	w.mu.Unlock()
	return w.to.Write(p)
}

func (w *raceWatch) seen() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.race
}
