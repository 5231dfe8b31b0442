package storetest

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// testGenderRoundTrip: how a player asked to be addressed is kept with the
// profile, survives the updates a session makes (Seen, a language), and
// can be changed.
func testGenderRoundTrip(t *testing.T, open Opener) {
	s := open(t, tickClock())
	const fp = "SHA256:gender"
	if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Name = "ala"; p.Gender = "f"; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seen(fp, "ala"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Lang = "pl"; return nil }); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Player(fp); err != nil || p.Gender != "f" || p.Lang != "pl" {
		t.Fatalf("Player = %+v, %v; want gender f kept across Seen and a language", p, err)
	}
	if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Gender = "n"; return nil }); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Player(fp); err != nil || p.Gender != "n" {
		t.Fatalf("Player = %+v, %v; want gender n", p, err)
	}
}
