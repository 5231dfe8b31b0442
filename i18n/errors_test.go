package i18n

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// No error reaches a player as Go's English text: a game.Error is its
// message, a call that ran out of time says so, and any other error (a
// store's, a network's) is a catalog sentence in the player's language
// (issue 42 item 10). Operators still read the detail.
func TestErrorsReachPlayersInTheirLanguage(t *testing.T) {
	plumbing := fmt.Errorf("bolt: read rooms: %w", errors.New("input/output error"))
	timeout := fmt.Errorf("join: %w", context.DeadlineExceeded)
	refusal := fmt.Errorf("wrapped: %w", game.Refuse(nil, game.M("game.err.not_your_turn")))
	for _, l := range Langs {
		p := For(l)
		for _, c := range []struct {
			err  error
			want string
		}{
			{plumbing, p.T("ui.err.server")},
			{timeout, p.T("ui.err.too_slow")},
			{refusal, p.T("game.err.not_your_turn")},
		} {
			got := p.Error(c.err)
			if got != c.want || strings.Contains(got, "bolt") || strings.Contains(got, "deadline") {
				t.Errorf("%s: Error(%v) = %q, want %q", l, c.err, got, c.want)
			}
		}
		if got := p.ErrorDetail(plumbing); got != plumbing.Error() {
			t.Errorf("%s: an operator reads %q, want the detail %q", l, got, plumbing.Error())
		}
	}
}
