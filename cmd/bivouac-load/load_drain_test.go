package main

import (
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// The harness reads each table's pause and the sessions told from what
// `bivouac drain --lang en` prints (server.Server.adminDrain), and nothing
// else.
func TestReadDrainOutput(t *testing.T) {
	var dr drainResult
	dr.readDrain("Table AB12: now on node n2 (ssh -p 2223 host), after 41 ms\n" +
		"Table CD34: now on node n3 (ssh -p 2224 host), after 1200 ms\n" +
		"Table EF56: not handed over in time; another node takes it over when its lease lapses, as after a crash (the log says why)\n" +
		"Drained: 2 tables handed over, 1 left for the other nodes to take over, 7 sessions sent to another node; the node has stopped.\n")
	if len(dr.perRoom) != 2 || dr.perRoom[0] != 41*time.Millisecond || dr.perRoom[1] != 1200*time.Millisecond {
		t.Fatalf("pauses %v, want [41ms 1.2s]", dr.perRoom)
	}
	if dr.told != 7 {
		t.Fatalf("sessions told %d, want 7", dr.told)
	}
}

// What the harness reads is what the English catalog says: a change of
// the words of `bivouac drain` shows here, not as a harness that counts
// nothing.
func TestDrainOutputIsTheCatalogs(t *testing.T) {
	en := i18n.For(i18n.English)
	var dr drainResult
	dr.readDrain(en.T("op.drain.table", game.Text("Code", "AB12"), game.Text("Node", "n2"), game.Text("Join", "ssh -p 2223 host"), game.Num("Ms", 41)) + "\n" +
		en.T("op.drain.done", game.Sub("Handed", game.M("op.drain.n_handed", game.Count(1))),
			game.Sub("Left", game.M("op.drain.n_left", game.Count(0))), game.Sub("Told", game.M("op.drain.n_told", game.Count(1)))) + "\n")
	if len(dr.perRoom) != 1 || dr.perRoom[0] != 41*time.Millisecond || dr.told != 1 {
		t.Fatalf("read pauses %v and %d told from the catalog's words", dr.perRoom, dr.told)
	}
}
