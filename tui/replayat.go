package tui

import (
	"fmt"
	"regexp"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// keyHints are the full screen's key letters in a prompt ("play a card
// (p)"): words read without those keys (plain mode, a command's text)
// leave them out.
var keyHints = regexp.MustCompile(` \(\p{L}\)`)

// StripKeyHints is line without the full screen's key letters.
func StripKeyHints(line string) string { return keyHints.ReplaceAllString(line, "") }

// ReplayLook says replay r at moment at (after that many actions: a review
// line's #N) in plain words, from the seat r was made for (Records.ReplayAs:
// the reader's own hand as it was, nobody else's; the spectator's view for
// someone who did not play): a title line, then what plain mode's look
// says. Plain mode's `replay CODE N` and `ssh host replay CODE N` say it;
// on the full screen enter on a review line opens it. ok is false when the
// game cannot say it.
func (a *App) ReplayLook(th *uikit.Theme, r Replay, at int) (lines []string, ok bool) {
	g, found := a.Games.Lookup(r.Game)
	if !found || g.Screen == nil || len(r.Steps) == 0 {
		return nil, false
	}
	step := r.StepAfter(at)
	u := r.UpdateAt(step)
	screen := g.Screen(th)
	screen.Update(uikit.UpdateMsg{Update: &u})
	pl := uikit.AbilitiesOf(screen).Plain
	if pl == nil {
		return nil, false
	}
	lines = []string{th.T("plain.replay_title", game.Text("Code", r.Code), game.Num("At", r.Steps[step].Index))}
	for _, l := range pl.Look() {
		lines = append(lines, StripKeyHints(l))
	}
	return lines, true
}

// MarkMoments ends each of a review's lines that is about a decision with
// its moment, " (#N)" (the actions before it: at[i] from
// uikit.Stepped.LinesAt, -1 for a line about none), which `replay CODE N`
// opens. A decision's lines in a row (the coach's move, a sentence
// wrapped) share one mark: on the first, or with last on the last (where
// a wrapped sentence ends). marked says whether any line is.
func MarkMoments(lines []string, at []int, last bool) (marked bool) {
	for i := range lines {
		if i >= len(at) || at[i] < 0 {
			continue
		}
		first := i == 0 || at[i-1] != at[i]
		final := i == len(lines)-1 || i+1 >= len(at) || at[i+1] != at[i]
		if last && final || !last && first {
			lines[i] += fmt.Sprintf(" (#%d)", at[i])
			marked = true
		}
	}
	return marked
}
