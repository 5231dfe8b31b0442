package main

import (
	"testing"
	"time"
)

// The harness reads each table's pause and the sessions told from what
// `bivouac drain` prints (server.Server.adminDrain), and nothing else.
func TestReadDrainOutput(t *testing.T) {
	var dr drainResult
	dr.readDrain("table AB12: now on node n2 (ssh -p 2223 host) after 41ms\n" +
		"table CD34: now on node n3 (ssh -p 2224 host) after 1.2s\n" +
		"table EF56: not handed over (no other node served it within 15s); another node takes it over as after a crash\n" +
		"drained: 2 tables handed over, 1 left to the other nodes' takeover, 7 sessions sent to another node; stopped\n")
	if len(dr.perRoom) != 2 || dr.perRoom[0] != 41*time.Millisecond || dr.perRoom[1] != 1200*time.Millisecond {
		t.Fatalf("pauses %v, want [41ms 1.2s]", dr.perRoom)
	}
	if dr.told != 7 {
		t.Fatalf("sessions told %d, want 7", dr.told)
	}
}
