package werewolfui

import "testing"

func TestAfterNightsCountsInWords(t *testing.T) {
	for n, want := range map[int]string{1: "after 1 night", 2: "after 2 nights", 11: "after 11 nights"} {
		if got := afterNights(n); got != want {
			t.Errorf("afterNights(%d) = %q, want %q", n, got, want)
		}
	}
}
