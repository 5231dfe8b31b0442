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

// The lobby asks a keyed Polish or Russian player once how to address
// them, and never again once asked or once they chose; others are not
// asked.
func TestAddressHintIsSaidOnce(t *testing.T) {
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, fp := range []string{"SHA256:ola", "SHA256:ann", "SHA256:ira"} {
		if _, err := srv.store.Seen(fp, fp[7:]); err != nil {
			t.Fatal(err)
		}
	}
	if h := srv.addressHint("SHA256:ann", i18n.English); h != "" {
		t.Fatalf("an English player is asked: %q", h)
	}
	if h := srv.addressHint("SHA256:ola", i18n.Polish); h != i18n.For(i18n.Polish).T("ui.address.hint") {
		t.Fatalf("first Polish session: %q", h)
	}
	if h := srv.addressHint("SHA256:ola", i18n.Polish); h != "" {
		t.Fatalf("asked twice: %q", h)
	}
	if err := (records{srv}).SetAddress(table.Player{ID: "SHA256:ira"}, i18n.AddressNeutral); err != nil {
		t.Fatal(err)
	}
	if h := srv.addressHint("SHA256:ira", i18n.Russian); h != "" {
		t.Fatalf("asked after choosing: %q", h)
	}
	if h := srv.addressHint("SHA256:nobody", i18n.Russian); h != "" {
		t.Fatalf("a key with no profile is asked: %q", h)
	}
}
