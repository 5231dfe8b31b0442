package grizzledui

import (
	"strings"
	"sync"

	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// This file adapts the engine's card helpers (games/grizzled/cards.go)
// for display. The engine owns the rules; nothing here decides legality.

// threatName is a threat's name in the session's language.
func (s *words) threatName(t grizzled.Threat) string { return s.th.T(t.Key()) }

// cardInfo is what the screen shows of one trial card.
type cardInfo struct {
	code    string // "T04", "H11", "MC"
	name    string // "Night+Shell", "Fragile", "Phobia (Shell)", "Merry Christmas"
	text    string // effect text (hard knocks, MC)
	kind    grizzled.Kind
	threats []grizzled.Threat
	trap    bool
	weight  int
}

// card is what the screen shows of a card, in the session's language.
func (s *words) card(id grizzled.CardID) cardInfo {
	tab := cardTable(s.th.Printer())
	if id > grizzled.MerryChristmas {
		return tab[0]
	}
	return tab[id]
}

// cardTables hold every card's words per language, worked out once: a
// screen asks for a card many times a frame.
var cardTables sync.Map // *i18n.Printer → *[grizzled.MerryChristmas + 1]cardInfo

func cardTable(p *i18n.Printer) *[grizzled.MerryChristmas + 1]cardInfo {
	if t, ok := cardTables.Load(p); ok {
		return t.(*[grizzled.MerryChristmas + 1]cardInfo)
	}
	var t [grizzled.MerryChristmas + 1]cardInfo
	for id := range t {
		c := grizzled.CardID(id)
		t[id] = cardInfo{
			code:    c.Code(),
			name:    p.Msg(c.Msg()),
			kind:    c.Kind(),
			threats: c.Threats(),
			trap:    c.Trap(),
			weight:  c.Weight(),
		}
		if k := c.NameKey(); k != "" {
			t[id].name = p.T(k)
		} else if c.IsThreat() {
			parts := make([]string, len(t[id].threats))
			for i, th := range t[id].threats {
				parts[i] = p.T(th.Key())
			}
			t[id].name = strings.Join(parts, "+")
		}
		if k := c.TextKey(); k != "" {
			t[id].text = p.T(k)
		}
	}
	cardTables.Store(p, &t)
	return &t
}

func (c cardInfo) shows(t grizzled.Threat) bool {
	for _, x := range c.threats {
		if x == t {
			return true
		}
	}
	return false
}

// shortName drops a Phobia's or Trauma's threat, which the screen shows as
// a coloured mark instead: "Phobia (Shell)" → "Phobia" (every catalog
// names them "Name (Threat)").
func (c cardInfo) shortName() string {
	if c.kind == grizzled.KindHardKnock && len(c.threats) == 1 {
		if i := strings.Index(c.name, " ("); i > 0 {
			return c.name[:i]
		}
	}
	return c.name
}

// tileName is a tile's short name in the session's language: "L", "DR".
func (s *words) tileName(t grizzled.Tile) string {
	switch t {
	case grizzled.TileL:
		return s.th.T("grizzled.tile_short.L")
	case grizzled.TileR:
		return s.th.T("grizzled.tile_short.R")
	case grizzled.TileDL:
		return s.th.T("grizzled.tile_short.DL")
	case grizzled.TileDR:
		return s.th.T("grizzled.tile_short.DR")
	}
	return "-"
}
