package uikit

import (
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

func TestFitAbove(t *testing.T) {
	for _, c := range []struct {
		in, foot string
		n        int
		want     string
	}{
		{"a\nb", "k", 2, "a\nb\nk"},
		{"a", "k", 3, "a\n\n\nk"},
		{"a\nb\nc\n", "k", 2, "a\nb\nk"},
		{"a", "", 1, "a\n"},
		{"a", "k", 0, "k"},
	} {
		if got := FitAbove(c.in, c.n, c.foot); got != c.want {
			t.Errorf("FitAbove(%q, %d, %q) = %q, want %q", c.in, c.n, c.foot, got, c.want)
		}
	}
}

func TestFitWidthCutsOnlyWideLines(t *testing.T) {
	in := "short\n" + strings.Repeat("ж", 30) + "\n\x1b[1mbold but short\x1b[0m"
	got := strings.Split(FitWidth(in, 20), "\n")
	if got[0] != "short" || got[2] != "\x1b[1mbold but short\x1b[0m" {
		t.Errorf("lines that fit were changed: %q", got)
	}
	if w := ansi.StringWidth(got[1]); w > 20 {
		t.Errorf("a 30-cell line is still %d wide", w)
	}
	if s := "a\nb"; FitWidth(s, 20) != s {
		t.Error("a frame that fits was rebuilt")
	}
}
