package wolfbot

import "testing"

func TestSimulateQuick(t *testing.T) {
	for _, lvl := range []string{Easy, Normal} {
		for n := 5; n <= 18; n++ {
			r := Simulate(n, 50, 1, lvl)
			t.Log(r)
			if r.Err != "" || r.Unfinished > 0 {
				t.Fatalf("%v", r.Err)
			}
		}
	}
}
