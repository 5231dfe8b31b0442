package remote

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

// A log window sliding over events (some alike, so overlaps can mislead)
// comes through delta and apply whole; a lost delivery is noticed, and
// the next whole Update puts the session right.
func TestDeltaRebuildsLogs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var all, pub []game.Event
	window := func(evs []game.Event, n int) []*game.Event { return game.Refs(evs[max(0, len(evs)-n):]) }
	var out sent
	var in received
	for step := range 400 {
		for range r.IntN(4) {
			all = append(all, game.Event{Msg: game.M(fmt.Sprint("e", r.IntN(3)))})
		}
		if r.IntN(2) == 0 {
			pub = append(pub, game.Event{Msg: game.M(fmt.Sprint("p", r.IntN(2)))})
		}
		u := table.Update{Room: "R", Seq: step, Log: window(all, 10), Public: window(pub, 7)}
		if step%50 == 49 {
			out.full = true // the session asked again
		}
		w, d := out.delta(u)
		if step%50 == 25 {
			continue // lost on the way
		}
		got, ok := in.apply(d, w)
		if lost := step%50 > 25 && !d.Full; ok == lost {
			t.Fatalf("step %d: applied %v, a delivery lost before it: %v", step, ok, lost)
		}
		if ok && !reflect.DeepEqual(got, u) && !(len(got.Log) == 0 && len(u.Log) == 0) {
			t.Fatalf("step %d: rebuilt\n%v\nwant\n%v", step, got, u)
		}
	}
}
