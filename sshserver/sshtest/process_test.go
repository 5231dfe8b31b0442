package sshtest

import (
	"io"
	"testing"
)

// The race detector's marker is noticed in a server process's standard
// error even when it arrives split between writes, and only then.
func TestRaceWatchNoticesTheDetectorsMarker(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		race   bool
	}{
		{[]string{"==================\nWARNING: DATA RACE\nRead at"}, true},
		{[]string{"=====\nWARNING: DA", "TA RACE\n"}, true},
		{[]string{"WARN", "ING: DATA R", "ACE"}, true},
		{[]string{"WARNING: DATA", "\n RACE"}, false},
		{[]string{"time=... level=INFO msg=\"listening on 127.0.0.1:1\"\n"}, false},
	} {
		w := &raceWatch{to: io.Discard}
		for _, s := range tc.writes {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", s, n, err)
			}
		}
		if w.seen() != tc.race {
			t.Errorf("%q: race seen %v, want %v", tc.writes, w.seen(), tc.race)
		}
	}
}
