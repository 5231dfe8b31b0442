package grizzledui

import (
	"encoding/json"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Reviewer is The Grizzled's post-game coach (uikit.Reviewer): grizzbot
// rates the people's decisions with Config's budget.
type Reviewer struct{ Config grizzbot.ReviewConfig }

// review is a grizzbot review as uikit.Review.
type review struct{ r grizzbot.GameReview }

func (v review) Won() bool  { return v.r.Won }
func (v review) Rated() int { return len(v.r.Decisions) }
func (v review) Lines(th *uikit.Theme, seats []table.SeatInfo, width int, plain bool) []string {
	return ReviewLines(th, v.r, seats, width, plain)
}

// LinesAt implements uikit.Stepped: each line with the decision it names.
func (v review) LinesAt(th *uikit.Theme, seats []table.SeatInfo, width int, plain bool) ([]string, []int) {
	d := reviewDoc(th, v.r, seats, width, plain)
	return d.lines, d.at
}

var _ uikit.Stepped = review{}

// Review implements uikit.Reviewer.
func (rv Reviewer) Review(g uikit.ReviewGame, progress func(done, total int) bool) (uikit.Review, error) {
	start, _, err := grizzled.New(g.Setup, g.Seed)
	if err != nil {
		return nil, err
	}
	moves := make([]grizzbot.Move, 0, len(g.Moves))
	for i, m := range g.Moves {
		a, err := grizzled.DecodeAction(m.Action)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		moves = append(moves, grizzbot.Move{Seat: m.Seat, Action: a, ByBot: m.ByBot})
	}
	cfg := rv.Config
	if g.Bot != nil {
		var levels []string
		for i := range len(g.Setup.Names) {
			levels = append(levels, g.Bot(game.Seat(i)))
		}
		cfg.Team = grizzbot.TeamOf(levels)
	}
	if !g.Hints {
		cfg.Hints = grizzbot.HintBudget{} // nobody could ask: no hint to agree with
	}
	r, err := grizzbot.ReviewGame(start, moves, g.Person, cfg, progress)
	if err != nil {
		return nil, err
	}
	return review{r}, nil
}

// Encode implements uikit.Reviewer.
func (Reviewer) Encode(r uikit.Review) ([]byte, error) {
	v, ok := r.(review)
	if !ok {
		return nil, fmt.Errorf("grizzledui: not a review of The Grizzled: %T", r)
	}
	return json.Marshal(v.r)
}

// Decode implements uikit.Reviewer: a review made before the coach said
// what it leaves out and why is not current.
func (Reviewer) Decode(raw []byte) (uikit.Review, bool, error) {
	var r grizzbot.GameReview
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, false, err
	}
	return review{r}, r.Version >= grizzbot.ReviewVersion, nil
}
