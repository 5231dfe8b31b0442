package uikit

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFitHeight(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"a\nb\nc", 3, "a\nb\nc"},
		{"a\nb\nc\n\n", 3, "a\nb\nc"},
		{"a\nb\nc", 2, "a\nb"},
		{"a", 3, "a\n\n"},
		{"", 2, "\n"},
		{"a\nb", 0, ""},
	} {
		if got := FitHeight(c.in, c.n); got != c.want {
			t.Errorf("FitHeight(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestFitLinesAbove(t *testing.T) {
	for _, c := range []struct {
		in, foot string
		n        int
		want     string
	}{
		{"a\nb", "k", 2, "a\nb\nk"},
		{"a", "k", 3, "a\n\n\nk"},
		{"a\nb\nc\n", "k", 2, "a\nb\nk"},
		{"a\n\n", "k", 3, "a\n\n\nk"},
		{"", "k", 2, "\n\nk"},
		{"a", "", 1, "a\n"},
		{"a", "k", 0, "k"},
	} {
		// as lines, and as lines some of which hold line breaks
		for _, in := range [][]string{strings.Split(c.in, "\n"), {c.in}} {
			if got := strings.Join(FitLinesAbove(in, c.n, c.foot), "\n"); got != c.want {
				t.Errorf("FitLinesAbove(%q, %d, %q) = %q, want %q", in, c.n, c.foot, got, c.want)
			}
		}
	}
}

func TestSplitLines(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "\n\nb", "a\nb\nc"} {
		if got, want := SplitLines(s), strings.Split(s, "\n"); !slices.Equal(got, want) {
			t.Errorf("SplitLines(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestFitLinesWidthCutsOnlyWideLines(t *testing.T) {
	in := []string{"short", strings.Repeat("ж", 30), "\x1b[1mbold but short\x1b[0m"}
	got := New(nil).FitLinesWidth(slices.Clone(in), 20)
	if got[0] != in[0] || got[2] != in[2] {
		t.Errorf("lines that fit were changed: %q", got)
	}
	if w := ansi.StringWidth(got[1]); w > 20 {
		t.Errorf("a 30-cell line is still %d wide", w)
	}
}

// TestWidthCountsAsAnsi: Width agrees with ansi.StringWidth for text in
// every script the screens show, wide characters, emoji sequences,
// combining marks, controls, broken UTF-8 and styles.
func TestWidthCountsAsAnsi(t *testing.T) {
	pieces := []string{"a", "Z", " ", "·", "─", "●", "○", "▶", "★", "✗", "…", "“", "ł", "ж", "ü", "é", "e\u0301", "ж\u0483",
		"漢", "字", "ｱ", "한", "\u1100", "😀", "👍🏽", "🇵🇱", "#\ufe0f\u20e3", "©\ufe0f", "❤\ufe0f", "☀", "☀\ufe0f", "☔", "✅", "✓", "↔", "█",
		"\u200d", "\ufe0f", "\u00ad", "\t", "\x07", "\x00", "\xff", "\xe2\x94", "\x1b[1m", "\x1b[38;5;203m", "\x1b[0m", "\x1b]8;;x\x07", "\x1b", "\x1b[", "\x1bP"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if s := b.String(); Width(s) != ansi.StringWidth(s) {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth %d", s, Width(s), ansi.StringWidth(s))
		}
	}
}

// TestWrapWordsWrapsAsAnsi: WrapWords gives ansi.Wrap's lines, for lines
// that fit and lines that do not, styled, wide, hyphenated, spaced.
func TestWrapWordsWrapsAsAnsi(t *testing.T) {
	pieces := []string{"a", "bc", "word", " ", "  ", "-", "·", "─", "ж", "漢", "😀", "e\u0301", "\u00a0", "\u2002",
		"\x1b[1m", "\x1b[38;5;203m", "\x1b[0m", "\t", "\n", "…"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s, w := b.String(), rng.IntN(40)
		if got, want := WrapWords(s, w), strings.Split(ansi.Wrap(s, w, " "), "\n"); !slices.Equal(got, want) {
			t.Fatalf("WrapWords(%q, %d) = %q, ansi.Wrap %q", s, w, got, want)
		}
	}
}

// TestOneCellRunesAreOneCell: every character Width counts as one cell
// is one cell on its own, and joins no neighbour into a cluster.
func TestOneCellRunesAreOneCell(t *testing.T) {
	for _, rg := range oneCells {
		for r := rg[0]; r <= rg[1]; r++ {
			c := string(r)
			if w := ansi.StringWidth(c); w != 1 {
				t.Errorf("U+%04X %q is %d cells wide", r, r, w)
			}
			if ansi.StringWidth("a"+c+"─") != 3 || ansi.StringWidth(c+c) != 2 {
				t.Errorf("U+%04X %q joins a neighbour", r, r)
			}
		}
	}
}

// TestFrameFitIsFitLinesAbove: frame after frame, with lines kept, moved,
// widened, split and new, and the width changed, FrameFit gives what
// FitLinesAbove and FitLinesWidth would.
func TestFrameFitIsFitLinesAbove(t *testing.T) {
	th := New(nil)
	wide := strings.Repeat("ж", 30)
	styled := "\x1b[1m" + strings.Repeat("b", 18) + "\x1b[0m"
	pool := []string{"", "short", wide, styled, "two\nlines", wide + "\n" + wide, "\x1b[1mbold but short\x1b[0m", strings.Repeat("x", 25)}
	rng := rand.New(rand.NewPCG(3, 4))
	var f FrameFit
	var last []string
	for i := range 400 {
		w := 20
		if i%50 == 49 {
			w = 12
		}
		var in []string
		for range rng.IntN(12) {
			if len(last) > 0 && rng.IntN(2) == 0 {
				in = append(in, last[rng.IntN(len(last))]) // a line as the last frame passed it
			} else {
				in = append(in, pool[rng.IntN(len(pool))])
			}
		}
		n, foot := rng.IntN(10), pool[rng.IntN(len(pool))]
		want := th.FitLinesWidth(FitLinesAbove(slices.Clone(in), n, foot), w)
		got := f.Fit(th, slices.Clone(in), n, foot, w)
		if !slices.Equal(got, want) {
			t.Fatalf("frame %d: Fit(%q, %d, %q, %d) = %q, want %q", i, in, n, foot, w, got, want)
		}
		last = got
	}
	f.Forget()
	if len(f.last) != 0 {
		t.Errorf("Forget kept %d lines", len(f.last))
	}
}
