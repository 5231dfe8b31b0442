package uikit

import (
	"slices"
	"testing"
)

func TestHanging(t *testing.T) {
	for _, tt := range []struct {
		s      string
		w      int
		indent string
		want   []string
	}{
		{"short line", 20, "  ", []string{"short line"}},
		{"one two three four five", 10, "  ", []string{"one two", "  three", "  four", "  five"}},
		{"Дмитрий Александрович пишет", 12, "", []string{"Дмитрий", "Александрович", "пишет"}},
		{"e.g. ssh\u00a0-p\u00a02222 host, or l", 15, " ", []string{"e.g.", " ssh\u00a0-p\u00a02222", " host, or l"}},
		{"", 10, "", []string{""}},
	} {
		if got := Hanging(tt.s, tt.w, tt.indent); !slices.Equal(got, tt.want) {
			t.Errorf("Hanging(%q, %d, %q) = %q, want %q", tt.s, tt.w, tt.indent, got, tt.want)
		}
	}
}
