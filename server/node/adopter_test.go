package node

import (
	"fmt"
	"testing"
)

// A dead node's rooms go first to the survivors, about evenly, and every
// node agrees which survivor that is.
func TestAdopterSpreadsADeadNodesRooms(t *testing.T) {
	t.Parallel()
	nodes := []string{"n1", "n2", "n3"}
	count := map[string]int{}
	for i := range 3000 {
		room := fmt.Sprintf("R%04d", i)
		first := adopter(room, nodes, "n1")
		if first == "n1" || first == "" {
			t.Fatalf("room %s goes first to %q, the dead node or nobody", room, first)
		}
		if again := adopter(room, []string{"n3", "n1", "n2"}, "n1"); again != first {
			t.Fatalf("room %s: %s or %s depending on the order nodes are listed in", room, first, again)
		}
		count[first]++
	}
	for _, n := range []string{"n2", "n3"} {
		if count[n] < 1300 || count[n] > 1700 {
			t.Errorf("%s goes first for %d of 3000 rooms, want about 1500", n, count[n])
		}
	}
	if got := adopter("ABCD", []string{"n1"}, "n1"); got != "" {
		t.Errorf("only the dead node known: %q, want none", got)
	}
	if got := adopter("ABCD", nodes, ""); got == "" {
		t.Error("a room nobody held has no first adopter")
	}
}

// A drain leaves a majority of the cluster's nodes alive, or is refused.
func TestMajorityLeft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		size, alive int
		want        bool
	}{
		{3, 2, true}, {3, 1, false}, {3, 0, false},
		{5, 3, true}, {5, 2, false},
		{4, 3, true}, {4, 2, false},
		{2, 1, false},
	} {
		if got := majorityLeft(c.size, c.alive); got != c.want {
			t.Errorf("majorityLeft(%d nodes, %d others alive) = %v, want %v", c.size, c.alive, got, c.want)
		}
	}
}
