package records

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
)

// SetGender keeps how a keyed player asked the game to address them: a
// setting, worth a profile if the player has none yet (as SetLang).
func (r *Records) SetGender(pl table.Player, g game.Gender) error {
	_, err := r.store.UpdatePlayer(pl.ID, func(p *persistence.Profile) error {
		p.Gender = g.Code()
		if p.Name == "" {
			p.Name = pl.Name
		}
		stampNew(p)
		return nil
	})
	return r.degraded(err)
}
