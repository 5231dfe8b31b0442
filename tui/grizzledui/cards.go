package grizzledui

import (
	"fmt"

	"bivouac/engine/grizzled"
)

// This file describes cards for display only. The engine owns the rules;
// nothing here decides what is legal.

// threatNames are the threats' display names, in grizzled.Threat order.
var threatNames = [grizzled.NumThreats]string{"Night", "Snow", "Rain", "Shell", "Whistle", "Gas mask"}

func threatName(t grizzled.Threat) string {
	if int(t) < len(threatNames) {
		return threatNames[t]
	}
	return "?"
}

// cardInfo is what the screen shows of one trial card.
type cardInfo struct {
	code    string // "T04", "H11", "MC"
	name    string // "Night+Shell", "Fragile", "Merry Christmas"
	text    string // effect text (hard knocks, MC)
	kind    grizzled.Kind
	threats []grizzled.Threat
	trap    bool
	weight  int
}

// cards is indexed by CardID (1..59); entry 0 is NoCard.
var cards = buildCards()

func buildCards() [grizzled.NumCards + 1]cardInfo {
	const (
		N  = grizzled.Night
		S  = grizzled.Snow
		R  = grizzled.Rain
		Sh = grizzled.Shell
		W  = grizzled.Whistle
		M  = grizzled.Mask
	)
	var t [grizzled.NumCards + 1]cardInfo
	// Threat cards by pair (spec §1.4): how many, and which of them has the trap (the last).
	type run struct {
		threats []grizzled.Threat
		n       int
		trap    bool
	}
	runs := []run{
		{[]grizzled.Threat{N, Sh}, 4, true}, {[]grizzled.Threat{N, W}, 3, true}, {[]grizzled.Threat{N, M}, 3, true},
		{[]grizzled.Threat{S, Sh}, 3, true}, {[]grizzled.Threat{S, W}, 4, true}, {[]grizzled.Threat{S, M}, 3, true},
		{[]grizzled.Threat{R, Sh}, 3, true}, {[]grizzled.Threat{R, W}, 3, true}, {[]grizzled.Threat{R, M}, 4, true},
		{[]grizzled.Threat{N, S}, 1, false}, {[]grizzled.Threat{N, R}, 1, false}, {[]grizzled.Threat{S, R}, 1, false},
		{[]grizzled.Threat{Sh, W}, 1, false}, {[]grizzled.Threat{Sh, M}, 1, false}, {[]grizzled.Threat{W, M}, 1, false},
		{[]grizzled.Threat{N, S, R}, 1, false}, {[]grizzled.Threat{Sh, W, M}, 1, false},
		{[]grizzled.Threat{N, S, R, Sh, W, M}, 1, false},
	}
	id := int(grizzled.FirstThreat)
	for _, r := range runs {
		for i := 0; i < r.n; i++ {
			name := ""
			for j, th := range r.threats {
				if j > 0 {
					name += "+"
				}
				name += threatName(th)
			}
			t[id] = cardInfo{
				code:    fmt.Sprintf("T%02d", id),
				name:    name,
				kind:    grizzled.KindThreat,
				threats: r.threats,
				trap:    r.trap && i == r.n-1,
			}
			id++
		}
	}
	type knock struct {
		name    string
		threats []grizzled.Threat
		weight  int
		text    string
	}
	phobia := "While its owner is in the mission, it counts as one active %s."
	knocks := []knock{
		{"Phobia", []grizzled.Threat{Sh}, 1, fmt.Sprintf(phobia, "Shell")},
		{"Phobia", []grizzled.Threat{W}, 1, fmt.Sprintf(phobia, "Whistle")},
		{"Phobia", []grizzled.Threat{M}, 1, fmt.Sprintf(phobia, "Gas mask")},
		{"Trauma", []grizzled.Threat{N}, 1, fmt.Sprintf(phobia, "Night")},
		{"Trauma", []grizzled.Threat{S}, 1, fmt.Sprintf(phobia, "Snow")},
		{"Trauma", []grizzled.Threat{R}, 1, fmt.Sprintf(phobia, "Rain")},
		{"Wounded", nil, 2, "Counts as two hard knocks."},
		{"Mute", nil, 1, "Its owner may make no speech and may not communicate at all (no chat)."},
		{"Tyrannical", nil, 1, "Its owner takes the leader token at once and keeps it; no speech tokens are handed out."},
		{"Demoralized", nil, 1, "Every morale drop moves one extra card (at least 4)."},
		{"Fragile", nil, 1, "While its owner is in the mission, no other soldier holding a card may withdraw."},
		{"Fearful", nil, 1, "On its owner's turn, if any threat is at 2, the owner must withdraw."},
		{"Panicked", nil, 1, "When its owner withdraws, the support tile placed is picked at random."},
		{"Frenzied", nil, 1, "At the start of each mission its owner draws 2 extra cards."},
		{"Selfish", nil, 1, "Its owner's support tile always counts as given to the owner."},
		{"Hardheaded", nil, 1, "Its owner may not withdraw while holding 2 or more cards."},
		{"Prideful", nil, 1, "Its owner may withdraw only with an empty hand or as the last soldier in the mission."},
		{"Clumsy", nil, 1, "Right after withdrawing, its owner draws the top trial card and plays it."},
		{"Absent-minded", nil, 1, "Before withdrawing, its owner removes one of their support tiles from the game."},
	}
	for i, k := range knocks {
		id := int(grizzled.FirstHardKnock) + i
		name := k.name
		if len(k.threats) == 1 {
			name += " " + threatName(k.threats[0])
		}
		t[id] = cardInfo{
			code:    fmt.Sprintf("H%02d", i+1),
			name:    name,
			text:    k.text,
			kind:    grizzled.KindHardKnock,
			threats: k.threats,
			weight:  k.weight,
		}
	}
	t[grizzled.MerryChristmas] = cardInfo{
		code: "MC",
		name: "Merry Christmas",
		text: "When played, discard one hard knock in front of any soldier; then it leaves the game.",
		kind: grizzled.KindMerryChristmas,
	}
	return t
}

func card(id grizzled.CardID) cardInfo {
	if id >= 1 && int(id) <= grizzled.NumCards {
		return cards[id]
	}
	return cardInfo{code: "?", name: fmt.Sprintf("card %d", id)}
}

func (c cardInfo) shows(t grizzled.Threat) bool {
	for _, x := range c.threats {
		if x == t {
			return true
		}
	}
	return false
}

// tileName is a support tile's short name.
func tileName(t grizzled.Tile) string {
	switch t {
	case grizzled.TileL:
		return "L"
	case grizzled.TileR:
		return "R"
	case grizzled.TileDL:
		return "DL"
	case grizzled.TileDR:
		return "DR"
	}
	return "-"
}

// tileOffset is how many seats clockwise a tile travels (SU-2).
func tileOffset(t grizzled.Tile) int {
	switch t {
	case grizzled.TileL:
		return 1
	case grizzled.TileR:
		return -1
	case grizzled.TileDL:
		return 2
	case grizzled.TileDR:
		return -2
	}
	return 0
}
