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
