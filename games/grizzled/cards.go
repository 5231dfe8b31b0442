package grizzled

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
)

// Hard-knock card IDs (spec §1.4, H01..H19).
const (
	PhobiaShell   CardID = FirstHardKnock + iota // H01
	PhobiaWhistle                                // H02
	PhobiaMask                                   // H03
	TraumaNight                                  // H04
	TraumaSnow                                   // H05
	TraumaRain                                   // H06
	Wounded                                      // H07
	Mute                                         // H08
	Tyrannical                                   // H09
	Demoralized                                  // H10
	Fragile                                      // H11
	Fearful                                      // H12
	Panicked                                     // H13
	Frenzied                                     // H14
	Selfish                                      // H15
	Hardheaded                                   // H16
	Prideful                                     // H17
	Clumsy                                       // H18
	AbsentMinded                                 // H19
)

// threatMask is a set of threats, bit t for Threat t.
type threatMask uint8

func mask(ts ...Threat) threatMask {
	var m threatMask
	for _, t := range ts {
		m |= 1 << t
	}
	return m
}

func (m threatMask) has(t Threat) bool { return m&(1<<t) != 0 }

// cardInfo is one row of the card table (spec §1.4).
type cardInfo struct {
	threats threatMask
	trap    bool
	weight  int
	key     string
	packed  uint64 // byte t is 1 if the card shows threat t (filled by init)
	code    string // "T04", "H07", "MC" (filled by init)
	str     string // code and threat ids, for logs (filled by init)
}

// cards is indexed by CardID; index 0 is NoCard.
var cards = [NumCards + 1]cardInfo{
	1:  {threats: mask(Night, Shell)},
	2:  {threats: mask(Night, Shell)},
	3:  {threats: mask(Night, Shell)},
	4:  {threats: mask(Night, Shell), trap: true},
	5:  {threats: mask(Night, Whistle)},
	6:  {threats: mask(Night, Whistle)},
	7:  {threats: mask(Night, Whistle), trap: true},
	8:  {threats: mask(Night, Mask)},
	9:  {threats: mask(Night, Mask)},
	10: {threats: mask(Night, Mask), trap: true},
	11: {threats: mask(Snow, Shell)},
	12: {threats: mask(Snow, Shell)},
	13: {threats: mask(Snow, Shell), trap: true},
	14: {threats: mask(Snow, Whistle)},
	15: {threats: mask(Snow, Whistle)},
	16: {threats: mask(Snow, Whistle)},
	17: {threats: mask(Snow, Whistle), trap: true},
	18: {threats: mask(Snow, Mask)},
	19: {threats: mask(Snow, Mask)},
	20: {threats: mask(Snow, Mask), trap: true},
	21: {threats: mask(Rain, Shell)},
	22: {threats: mask(Rain, Shell)},
	23: {threats: mask(Rain, Shell), trap: true},
	24: {threats: mask(Rain, Whistle)},
	25: {threats: mask(Rain, Whistle)},
	26: {threats: mask(Rain, Whistle), trap: true},
	27: {threats: mask(Rain, Mask)},
	28: {threats: mask(Rain, Mask)},
	29: {threats: mask(Rain, Mask)},
	30: {threats: mask(Rain, Mask), trap: true},
	31: {threats: mask(Night, Snow)},
	32: {threats: mask(Night, Rain)},
	33: {threats: mask(Snow, Rain)},
	34: {threats: mask(Shell, Whistle)},
	35: {threats: mask(Shell, Mask)},
	36: {threats: mask(Whistle, Mask)},
	37: {threats: mask(Night, Snow, Rain)},
	38: {threats: mask(Shell, Whistle, Mask)},
	39: {threats: mask(Night, Snow, Rain, Shell, Whistle, Mask)},

	PhobiaShell:    {threats: mask(Shell), weight: 1, key: "PHOBIA"},
	PhobiaWhistle:  {threats: mask(Whistle), weight: 1, key: "PHOBIA"},
	PhobiaMask:     {threats: mask(Mask), weight: 1, key: "PHOBIA"},
	TraumaNight:    {threats: mask(Night), weight: 1, key: "TRAUMA"},
	TraumaSnow:     {threats: mask(Snow), weight: 1, key: "TRAUMA"},
	TraumaRain:     {threats: mask(Rain), weight: 1, key: "TRAUMA"},
	Wounded:        {weight: 2, key: "WOUNDED"},
	Mute:           {weight: 1, key: "MUTE"},
	Tyrannical:     {weight: 1, key: "TYRANNICAL"},
	Demoralized:    {weight: 1, key: "DEMORALIZED"},
	Fragile:        {weight: 1, key: "FRAGILE"},
	Fearful:        {weight: 1, key: "FEARFUL"},
	Panicked:       {weight: 1, key: "PANICKED"},
	Frenzied:       {weight: 1, key: "FRENZIED"},
	Selfish:        {weight: 1, key: "SELFISH"},
	Hardheaded:     {weight: 1, key: "HARDHEADED"},
	Prideful:       {weight: 1, key: "PRIDEFUL"},
	Clumsy:         {weight: 1, key: "CLUMSY"},
	AbsentMinded:   {weight: 1, key: "ABSENTMINDED"},
	MerryChristmas: {key: "MERRYCHRISTMAS"},
}

func init() {
	for id := FirstThreat; id <= MerryChristmas; id++ {
		c := &cards[id]
		switch {
		case id.IsThreat():
			c.code = fmt.Sprintf("T%02d", int(id))
		case id.IsHardKnock():
			c.code = fmt.Sprintf("H%02d", int(id-FirstHardKnock+1))
		default:
			c.code = "MC"
		}
		var ids []string
		for t := range Threat(NumThreats) {
			if c.threats.has(t) {
				ids = append(ids, t.String())
			}
		}
		c.str = c.code + " " + strings.Join(ids, "+")
		if !id.IsThreat() {
			c.str = c.code + " " + c.key
		}
		for t := range Threat(NumThreats) {
			if c.threats.has(t) {
				c.packed |= 1 << (8 * t)
			}
		}
	}
	cards[NoCard].code = "--"
}

// Valid reports whether c names one of the 59 cards.
func (c CardID) Valid() bool { return c >= FirstThreat && c <= MerryChristmas }

// Kind says whether c is a threat card, a hard knock or Merry Christmas.
func (c CardID) Kind() Kind {
	switch {
	case c >= FirstThreat && c < FirstHardKnock:
		return KindThreat
	case c >= FirstHardKnock && c < MerryChristmas:
		return KindHardKnock
	case c == MerryChristmas:
		return KindMerryChristmas
	}
	return KindThreat
}

// IsThreat, IsHardKnock report the card's kind (false for NoCard).
func (c CardID) IsThreat() bool    { return c >= FirstThreat && c < FirstHardKnock }
func (c CardID) IsHardKnock() bool { return c >= FirstHardKnock && c < MerryChristmas }

func (c CardID) info() *cardInfo {
	if c > MerryChristmas {
		return &cards[0]
	}
	return &cards[c]
}

// Code is the card's short code: "T04", "H07", "MC" ("--" for NoCard).
func (c CardID) Code() string {
	if !c.Valid() {
		return "--"
	}
	return cards[c].code
}

// String is Code and the threats' ids, for logs and tests: "T04 night+shell"
// (players read Msg, in their language).
func (c CardID) String() string {
	if !c.Valid() {
		return fmt.Sprintf("card(%d)", int(c))
	}
	return cards[c].str
}

// Msg names the card for players: "T04 Night+Shell", "H07 Wounded" in English.
func (c CardID) Msg() game.Msg {
	switch {
	case !c.Valid():
		return game.M("grizzled.card.none")
	case c.IsThreat():
		ts := c.Threats()
		ms := make([]game.Msg, len(ts))
		for i, t := range ts {
			ms[i] = game.M(t.Key())
		}
		return game.M("grizzled.card.threat", game.Text("Code", c.Code()), game.Joined("Threats", "+", ms...))
	}
	return game.M("grizzled.card.named", game.Text("Code", c.Code()), game.Term("Name", c.NameKey()))
}

// NameKey is the catalog key of a hard knock's or Merry Christmas's name
// ("grizzled.card.H07"); threat cards are named by their threats ("").
func (c CardID) NameKey() string {
	if !c.Valid() || c.IsThreat() {
		return ""
	}
	return "grizzled.card." + c.Code()
}

// TextKey is the catalog key of the card's effect ("" for threat cards).
func (c CardID) TextKey() string {
	if !c.Valid() || c.IsThreat() {
		return ""
	}
	return "grizzled.card_text." + c.Code()
}

// Key is the spec's effect identifier (§1.4): "PHOBIA", "WOUNDED", ...; "" for threats.
func (c CardID) Key() string { return c.info().key }

// Threats lists the card's icons in enum order (Phobia/Trauma carry their one threat).
func (c CardID) Threats() []Threat {
	m := c.info().threats
	var out []Threat
	for t := range Threat(NumThreats) {
		if m.has(t) {
			out = append(out, t)
		}
	}
	return out
}

// HasThreat reports whether the card shows threat t.
func (c CardID) HasThreat(t Threat) bool { return t < NumThreats && c.info().threats.has(t) }

// Trap reports whether the card has a trap symbol.
func (c CardID) Trap() bool { return c.info().trap }

// Weight is the hard-knock weight used by the loss check L-1 (Wounded 2).
func (c CardID) Weight() int { return c.info().weight }

// threatIDs name the threats in keys and logs (players read Key's words).
var threatIDs = [NumThreats]string{"night", "snow", "rain", "shell", "whistle", "mask"}

// String is the threat's id: "night", "mask".
func (t Threat) String() string {
	if t < NumThreats {
		return threatIDs[t]
	}
	return fmt.Sprintf("threat(%d)", int(t))
}

// Key is the catalog key of the threat's name ("grizzled.threat.night").
func (t Threat) Key() string {
	if t < NumThreats {
		return threatKeys[t]
	}
	return ""
}

var threatKeys = [NumThreats]string{"grizzled.threat.night", "grizzled.threat.snow", "grizzled.threat.rain",
	"grizzled.threat.shell", "grizzled.threat.whistle", "grizzled.threat.mask"}

// Valid reports whether t is one of the six threats.
func (t Threat) Valid() bool { return t < NumThreats }

// String is the tile's short name: "L", "R", "DL", "DR".
func (t Tile) String() string {
	switch t {
	case TileL:
		return "L"
	case TileR:
		return "R"
	case TileDL:
		return "DL"
	case TileDR:
		return "DR"
	}
	return "-"
}

// Key is the catalog key of the tile's name ("grizzled.tile.DL").
func (t Tile) Key() string {
	switch t {
	case TileL:
		return "grizzled.tile.L"
	case TileR:
		return "grizzled.tile.R"
	case TileDL:
		return "grizzled.tile.DL"
	case TileDR:
		return "grizzled.tile.DR"
	}
	return ""
}

// Valid reports whether t is a real tile.
func (t Tile) Valid() bool { return t >= TileL && t <= TileDR }

// Offset is how many seats to the left the tile's recipient sits (SU-2).
func (t Tile) Offset() int {
	switch t {
	case TileL:
		return 1
	case TileR:
		return -1
	case TileDL:
		return 2
	case TileDR:
		return -2
	}
	return 0
}

// Character is one of the six Grizzled cards (spec §1.2).
type Character struct {
	Name  string
	Charm Threat
}

// Characters are C1..C6 in spec order.
var Characters = [6]Character{
	{"Félix Moreau", Night},
	{"Gustave Bideau", Snow},
	{"Charles Saulière", Rain},
	{"Gaston Fayard", Shell},
	{"Lazare Bonticelli", Whistle},
	{"Anselme Perrin", Mask},
}

// MarshalJSON writes a card as its number, so that card lists are JSON
// arrays ([4,46]) rather than the base64 string encoding/json uses for
// slices of bytes. Decoding needs nothing special.
func (c CardID) MarshalJSON() ([]byte, error) { return strconv.AppendUint(nil, uint64(c), 10), nil }

// MarshalJSON writes a tile as its number (see CardID.MarshalJSON).
func (t Tile) MarshalJSON() ([]byte, error) { return strconv.AppendUint(nil, uint64(t), 10), nil }
