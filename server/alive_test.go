package server

import (
	"testing"
	"time"
)

// A cluster node marks the store alive only while it runs a table: the
// mark times a table's step after a stop, and an idle node's write every
// 3 s was most of an idle cluster's traffic.
func TestAnIdleClusterNodeMarksNothing(t *testing.T) {
	tables, marks := 0, 0
	mark := whileRunning(func() int { return tables }, func(time.Time) error { marks++; return nil })
	at := time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)
	for range 3 {
		if err := mark(at); err != nil {
			t.Fatal(err)
		}
	}
	if marks != 0 {
		t.Fatalf("%d marks with no table", marks)
	}
	tables = 1
	if err := mark(at); err != nil || marks != 1 {
		t.Fatalf("a node with a table: %d marks, %v; want 1", marks, err)
	}
	tables = 0
	if err := mark(at); err != nil || marks != 1 {
		t.Fatalf("its table gone: %d marks, %v; want still 1", marks, err)
	}
}
