package storetest

import (
	"testing"

	"bivouac/persistence"
)

// testAddressRoundTrip: how a player asked to be addressed is kept with
// the profile, survives other updates, and can be changed.
func testAddressRoundTrip(t *testing.T, open Opener) {
	s := open(t, tickClock())
	const fp = "SHA256:address"
	if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Name = "ala"; p.Address = "f"; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seen(fp, "ala"); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Player(fp); err != nil || p.Address != "f" {
		t.Fatalf("Player = %+v, %v; want address f kept across Seen", p, err)
	}
	if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Address = "n"; return nil }); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Player(fp); err != nil || p.Address != "n" {
		t.Fatalf("Player = %+v, %v; want address n", p, err)
	}
}
