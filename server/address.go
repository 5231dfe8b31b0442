package server

import (
	"bivouac/i18n"
	"bivouac/persistence"
	"bivouac/table"
	"bivouac/tui"
)

var _ tui.AddressKeeper = records{}

// SetAddress keeps how a keyed player asked the game to address them: a
// setting, worth a profile if the player has none yet (as SetLang).
func (r records) SetAddress(pl table.Player, a i18n.Address) error {
	_, err := r.s.store.UpdatePlayer(pl.ID, func(p *persistence.Profile) error {
		p.Address = string(a)
		if p.Name == "" {
			p.Name = pl.Name
		}
		stampNew(p)
		return nil
	})
	return err
}
