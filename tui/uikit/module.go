package uikit

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/game/sim"
	"github.com/bivouac-ssh/bivouac/table"
)

// Module is one game as the server offers it: its rules and bots (the
// game.Entry the table and replays look games up by), its screen, its
// create-a-table form, and the abilities it may have. A game's folder
// exports one (games/ID/IDui), and the registry (package games) lists it:
// that line is all a new game adds outside its folder.
type Module struct {
	game.Entry
	// Players is how many may sit at a table: the form's players field
	// and plain mode's "new ID PLAYERS BOTS" come from it.
	Players Players
	Screen  func(th *Theme) Screen
	Form    Form
	// Learn is the game's guided first mission (nil: it has none): the
	// table to open for a newcomer, with its fixed deal (Seed); its
	// screen coaches (Coached), as at every Practice table.
	Learn func() TableSpec

	// The abilities below are the game's own; nil: it has none.

	// Review is the game's post-game coach.
	Review Reviewer
	// Campaign is the game's series of missions.
	Campaign CampaignRules
	// Variant names the variant a finished game was played with, from its
	// options, for the players' stats ("": one line for all variants).
	Variant func(options []byte) string
	// VariantKey is the catalog key of a variant's name (nil: the variant
	// is shown as Variant wrote it).
	VariantKey func(variant string) string
	// TitleKey is the catalog key of the game's name ("": the game's own
	// Title, untranslated).
	TitleKey string
	// Sim is the game's own simulation for `bivouac sim` (nil: its bots
	// play through the contract, sim.Contract).
	Sim sim.Simulator
}

// Simulator is how `bivouac sim` plays the game: its own simulation, else
// its bots through the contract; nil for a game without bots.
func (g Module) Simulator() sim.Simulator {
	switch {
	case g.Sim != nil:
		return g.Sim
	case g.Bots != nil:
		return sim.Contract(g.Game, g.Bots)
	}
	return nil
}

// Title is the game's name in th's language.
func (g Module) Title(th *Theme) string {
	if g.TitleKey == "" {
		return g.Game.Title()
	}
	return th.T(g.TitleKey)
}

// CampaignRules is how a game's campaign moves: a series of missions played by one group, each
// starting from what the last left (The Grizzled's rules §6.5): the
// server keeps the campaign, the game says how it moves.
type CampaignRules interface {
	Start(players int) int // the trials a new campaign's first mission starts with
	Max() int              // the trials at which a campaign is won
	// Next is where the campaign stands after a mission that started
	// with trials and ended with r; won: the mission was; veteran: the
	// campaign is.
	Next(trials int, r game.Result) (next int, won, veteran bool)
	// Options are a mission's table options, starting with trials.
	Options(trials int) ([]byte, error)
	// Trials reads a mission's starting trials back from its options.
	Trials(options []byte) (int, error)
}

// VariantName is a stats variant's name in th's language.
func (g Module) VariantName(th *Theme, v string) string {
	if v == "" || v == "-" || g.VariantKey == nil {
		return v
	}
	return th.T(g.VariantKey(v))
}

// TableSpec is what a filled-in form makes.
type TableSpec struct {
	Seats       int
	GameOptions []byte // the game's own options (its codec)
	Title       game.Msg
	Summary     game.Msg // what the choices make, shown under the form (e.g. the deck)
	Bots        int      // seats to fill with bots at once (the last ones)
	Seed        uint64   // the deal (0: a fresh one)
	// Options are the table's (bots' level, private, campaign, turn
	// clock, pace, absent players, a guided mission, hints): the room's, its
	// record's and each Update's as they are.
	table.Options
}
