package vterm

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// testdata/ru-game.ans.gz is what a Russian player's 80×24 terminal
// received over a whole Grizzled game, from the lobby to the game's end,
// at a table with a player named 伊藤 and a bot (the server's own output,
// recorded with sshtest's Transcript): lipgloss colours, Cyrillic, wide
// characters, the alternate screen and the frame writer's cursor moves.
// testdata/ru-game.screens holds every sixth frame's screen as read then;
// charmbracelet/x/vt v0.1.0 read the same screens at every frame.

// frames splits the stream where a repaint starts again at a row above the
// last one painted: about one frame of the server's frame writer each.
func frames(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open("testdata/ru-game.ans.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	last, start := len(b), 0
	for _, m := range regexp.MustCompile(`\x1b\[(\d+);1H\x1b\[2K`).FindAllSubmatchIndex(b, -1) {
		row, _ := strconv.Atoi(string(b[m[2]:m[3]]))
		if row <= last && m[0] > start {
			out = append(out, b[start:m[0]])
			start = m[0]
		}
		last = row
	}
	return append(out, b[start:])
}

func TestARealGame(t *testing.T) {
	want, err := os.ReadFile("testdata/ru-game.screens")
	if err != nil {
		t.Fatal(err)
	}
	fr := frames(t)
	tm := New(80, 24)
	var got strings.Builder
	for i, f := range fr {
		tm.Write(f)
		if i%6 == 1 || i == len(fr)-1 {
			got.WriteString("=== frame " + strconv.Itoa(i) + "\n" + tm.Screen() + "\n")
		}
	}
	if got.String() != string(want) {
		t.Errorf("screens:\n%s\nwant:\n%s", got.String(), want)
	}
	if r := string(tm.TakeReplies()); r != "\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?62;22c" {
		t.Errorf("replies %q", r)
	}
	// However the stream is cut into reads, the screen is the same.
	all := bytes.Join(fr, nil)
	for _, size := range []int{1, 7, 4096} {
		tm := New(80, 24)
		for b := all; len(b) > 0; {
			n := min(size, len(b))
			tm.Write(b[:n])
			b = b[n:]
		}
		if end := tm.Screen(); !strings.HasSuffix(got.String(), end+"\n") {
			t.Errorf("read %d bytes at a time, the last screen is\n%s", size, end)
		}
	}
}

// BenchmarkGame feeds the recorded game to a fresh terminal a frame at a
// time and reads the screen after each, as the load harness does.
func BenchmarkGame(b *testing.B) {
	fr := frames(b)
	n := 0
	for _, f := range fr {
		n += len(f)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		tm := New(80, 24)
		for _, f := range fr {
			tm.Write(f)
			_ = tm.Screen()
		}
	}
}

// BenchmarkGameKept is BenchmarkGame without the screens, and reports what
// one terminal keeps on the heap when the game is over (B/terminal).
func BenchmarkGameKept(b *testing.B) {
	fr := frames(b)
	b.ReportAllocs()
	for b.Loop() {
		tm := New(80, 24)
		for _, f := range fr {
			tm.Write(f)
		}
	}
	const kept = 100
	terms := make([]*Term, kept)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range terms {
		terms[i] = New(80, 24)
		for _, f := range fr {
			terms[i].Write(f)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/kept, "B/terminal")
	runtime.KeepAlive(terms)
}
