package uikit

import (
	"strconv"

	"github.com/bivouac-ssh/bivouac/game"
)

// Players is how many sit at a game's table.
type Players struct {
	Min, Max, Default int
	// Label names a count among the form's choices (nil: the number):
	// "2 (with the chaplain)".
	Label func(n int) game.Msg
}

// Form describes a game's create-a-table options as a few choice fields:
// the game's own, and the standard ones (Std) where the game puts them.
type Form struct {
	Fields []Field
	// Build turns a filled-in form into a table. The kit has set the
	// standard fields' part of it (Seats, BotLevel, Bots, Private) and
	// refuses bot seats a form cannot have (Module.BuildTable); Build
	// makes the game's options, title and what its other fields say.
	Build func(c Choices) (TableSpec, error)
}

// Field is one option with a fixed list of choices. A standard field (Std
// set) needs nothing else: the kit gives it its label, choices and
// default (a Note of the game's own replaces the standard one).
type Field struct {
	Std     Std
	Label   string     // catalog key of the field's name
	Choices []game.Msg // what the player picks from
	Default int
	Note    string // catalog key of the text shown under the form while the field is focused
}

// Std is a standard field of the create-a-table form: the same in every
// game, made from the module's Players and Bots.
type Std uint8

const (
	Own      Std = iota // the game's own field
	Seats               // how many play: Players.Min to Max
	BotLevel            // the bots' level: none, or one of Bots.Levels()
	BotSeats            // how many seats bots take at once (the last ones)
	Private             // whether the table is listed in the lobby
)

// Choices is a filled-in form: the standard fields as values, the game's
// own as the index chosen in each, in the order of Form.Fields.
type Choices struct {
	Seats    int
	BotLevel string // "" for none
	Bots     int
	Private  bool
	Own      []int
}

// ErrBotLevel refuses bot seats asked for without a bot level.
var ErrBotLevel = game.NewError("form.err.bot_level")

// FormFields are the module's form fields, the standard ones filled in.
func (m Module) FormFields() []Field {
	fields := make([]Field, len(m.Form.Fields))
	for i, f := range m.Form.Fields {
		std := f
		switch f.Std {
		case Seats:
			std = Field{Label: "form.players", Default: m.Players.Default - m.Players.Min}
			for n := m.Players.Min; n <= m.Players.Max; n++ {
				c := game.Raw(strconv.Itoa(n))
				if m.Players.Label != nil {
					c = m.Players.Label(n)
				}
				std.Choices = append(std.Choices, c)
			}
		case BotLevel:
			levels := m.botLevels()
			std = Field{Label: "form.bots", Note: "form.bots_note", Default: min(1, len(levels)-1)}
			for _, l := range levels {
				std.Choices = append(std.Choices, game.M("bot.level."+l))
			}
		case BotSeats:
			std = Field{Label: "form.bot_seats", Note: "form.bot_seats_note", Choices: Numbers(0, m.Players.Max-1)}
		case Private:
			std = Field{Label: "form.private", Note: "form.private_note", Choices: YesNo()}
		}
		if f.Std != Own && f.Note != "" {
			std.Note = f.Note
		}
		std.Std = f.Std
		fields[i] = std
	}
	return fields
}

// FormDefaults are the form's default choices, one per field.
func (m Module) FormDefaults() []int {
	fields := m.FormFields()
	choice := make([]int, len(fields))
	for i, f := range fields {
		choice[i] = f.Default
	}
	return choice
}

// StdField is the index among the form's fields of standard field std,
// or -1.
func (m Module) StdField(std Std) int {
	for i, f := range m.Form.Fields {
		if f.Std == std {
			return i
		}
	}
	return -1
}

// BuildTable is the table a filled-in form asks for, choice holding the
// index chosen in each field. Bot seats without a bot level, or that
// leave nobody a seat, are refused.
func (m Module) BuildTable(choice []int) (TableSpec, error) {
	c := Choices{Seats: m.Players.Default}
	for i, f := range m.Form.Fields {
		n := 0
		if i < len(choice) {
			n = choice[i]
		}
		switch f.Std {
		case Own:
			c.Own = append(c.Own, n)
		case Seats:
			c.Seats = m.Players.Min + n
		case BotLevel:
			if levels := m.botLevels(); n > 0 && n < len(levels) {
				c.BotLevel = levels[n]
			}
		case BotSeats:
			c.Bots = n
		case Private:
			c.Private = n == 1
		}
	}
	spec, err := m.Form.Build(c)
	spec.Seats, spec.Private = c.Seats, c.Private
	spec.BotLevel, spec.Bots = c.BotLevel, c.Bots
	if err != nil {
		return spec, err
	}
	if c.Bots > 0 && c.BotLevel == "" {
		return spec, ErrBotLevel
	}
	if c.Bots >= c.Seats {
		return spec, game.Refuse(nil, game.M("form.err.one_person", game.Num("Seats", c.Seats), game.Num("Bots", c.Bots)))
	}
	return spec, nil
}

// botLevels are "none" and the game's bot levels, as the form offers them.
func (m Module) botLevels() []string {
	levels := []string{"none"}
	if m.Bots != nil {
		levels = append(levels, m.Bots.Levels()...)
	}
	return levels
}

// Numbers are a field's choices lo..hi.
func Numbers(lo, hi int) []game.Msg {
	var out []game.Msg
	for n := lo; n <= hi; n++ {
		out = append(out, game.Raw(strconv.Itoa(n)))
	}
	return out
}

// YesNo are a field's choices no and yes.
func YesNo() []game.Msg { return []game.Msg{game.M("form.no"), game.M("form.yes")} }
