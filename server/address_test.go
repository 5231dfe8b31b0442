package server

import (
	"testing"

	"bivouac/i18n"
	"bivouac/table"
)

// How a keyed player asked to be addressed is kept in the profile and
// read back after a restart.
func TestAddressIsKeptAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	if p, err := (records{srv}).Profile(ann.ID); err == nil && p.Address != i18n.AddressUnset {
		t.Fatalf("a new profile's address %q, want unset", p.Address)
	}
	if err := (records{srv}).SetAddress(ann, i18n.AddressFeminine); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	srv2, _ := startServer(t, dir)
	if p, err := (records{srv2}).Profile(ann.ID); err != nil || p.Address != i18n.AddressFeminine || p.Name != "ann" {
		t.Fatalf("after a restart: %+v, %v; want ann, feminine", p, err)
	}
}
