package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/server"
)

// `bivouac drain` reaches the server over its admin socket and says why a
// single node cannot drain; with no server on the data directory it says
// so. (server's TestClusterDrainHandsTablesOver drains cluster nodes.)
func TestDrainOfASingleNodeSaysWhyNot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"drain", "--data", dir}, &out, &errs); err == nil || !strings.Contains(en.ErrorDetail(err), "No server runs") {
		t.Fatalf("drain with no server: %v", err)
	}
	srv, err := server.New(server.Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	err = run(context.Background(), []string{"drain", "--data", dir}, &out, &errs)
	if err == nil || !strings.Contains(out.String(), "not a node of a cluster") {
		t.Fatalf("drain of a single node: %v, said %q", err, out.String())
	}
	if srv.Draining() {
		t.Fatal("a single node is draining")
	}
}
