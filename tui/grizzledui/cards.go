package grizzledui

import (
	"bivouac/game/grizzled"
)

// This file adapts the engine's card helpers (game/grizzled/cards.go)
// for display. The engine owns the rules; nothing here decides legality.

func threatName(t grizzled.Threat) string { return t.String() }

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

func card(id grizzled.CardID) cardInfo {
	return cardInfo{
		code:    id.Code(),
		name:    id.Name(),
		text:    id.Text(),
		kind:    id.Kind(),
		threats: id.Threats(),
		trap:    id.Trap(),
		weight:  id.Weight(),
	}
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
// a coloured mark instead: "Phobia (Shell)" → "Phobia".
func (c cardInfo) shortName() string {
	if c.kind == grizzled.KindHardKnock && len(c.threats) == 1 {
		for i, r := range c.name {
			if r == ' ' {
				return c.name[:i]
			}
		}
	}
	return c.name
}

func tileName(t grizzled.Tile) string { return t.String() }
