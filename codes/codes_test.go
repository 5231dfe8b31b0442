package codes

import (
	"math"
	"strings"
	"testing"
)

func TestNewUsesTheAlphabetEvenly(t *testing.T) {
	const n, draws = 8, 30000
	count := map[rune]int{}
	for range draws {
		c := New(n)
		if !Valid(c, n) {
			t.Fatalf("New(%d) = %q is not valid", n, c)
		}
		for _, r := range c {
			count[r]++
		}
	}
	if len(count) != len(Alphabet) {
		t.Fatalf("%d characters used, want all %d", len(count), len(Alphabet))
	}
	// Chi-square against the uniform distribution, 29 degrees of freedom:
	// 58.3 is its 0.999 quantile. A modulo bias (the first 16 characters
	// 9/8 as likely as the rest) gives about 1,400 at this sample size.
	want := float64(n*draws) / float64(len(Alphabet))
	chi := 0.0
	for _, c := range count {
		chi += math.Pow(float64(c)-want, 2) / want
	}
	if chi > 58.3 {
		t.Errorf("characters are not uniform: chi-square %.1f (counts %v)", chi, count)
	}
}

func TestNewLengthsAndUniqueness(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range []int{1, 4, 6, 12, 40} {
		if c := New(n); len(c) != n {
			t.Errorf("New(%d) has %d characters", n, len(c))
		}
	}
	for range 1000 {
		c := New(12)
		if seen[c] {
			t.Fatalf("New(12) repeated %q within 1,000 draws", c)
		}
		seen[c] = true
	}
}

func TestNormalizeAndValid(t *testing.T) {
	for in, want := range map[string]string{" ab2c ": "AB2C", "7kqm-x4tr": "7KQMX4TR", "7K QM": "7KQM", "": ""} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"ABC", "ABCDE", "AB0C", "ABOC", "AB1C", "ABIC", "ABLC", "ABUC", "abcd", "AB C"} {
		if Valid(bad, 4) {
			t.Errorf("Valid(%q, 4) = true", bad)
		}
	}
	if !Valid(strings.Repeat("Z", 4), 4) {
		t.Error("ZZZZ is valid")
	}
}
