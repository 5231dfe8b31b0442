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

// addressHint is, once per keyed player, the lobby's question of how the
// game should address them, when their language's sentences agree with
// it (pl, ru) and they have not said. Asked is stored at once: a player
// who ignores it is not asked again.
func (s *Server) addressHint(fp string, lang i18n.Lang) string {
	if lang != i18n.Polish && lang != i18n.Russian {
		return ""
	}
	prof, err := s.store.Player(fp)
	if err != nil || prof.Address != "" || prof.AddressHinted {
		return ""
	}
	if _, err := s.store.UpdatePlayer(fp, func(p *persistence.Profile) error { p.AddressHinted = true; return nil }); err != nil {
		return ""
	}
	return i18n.For(lang).T("ui.address.hint")
}
