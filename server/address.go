package server

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

var _ tui.GenderKeeper = records{}

// SetGender keeps how a keyed player asked the game to address them: a
// setting, worth a profile if the player has none yet (as SetLang).
func (r records) SetGender(pl table.Player, g game.Gender) error {
	_, err := r.s.store.UpdatePlayer(pl.ID, func(p *persistence.Profile) error {
		p.Gender = g.Code()
		if p.Name == "" {
			p.Name = pl.Name
		}
		stampNew(p)
		return nil
	})
	return r.s.degraded(err)
}
