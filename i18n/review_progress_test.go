package i18n

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// The review's progress agrees with how many decisions the game has: pl
// read "ocenione decyzje 3 z 22" (issue 30), ru "оценено решений 3 из 21".
func TestReviewProgressReads(t *testing.T) {
	for _, tt := range []struct {
		l           Lang
		done, total int
		want        string
	}{
		{English, 1, 1, "The coach is reviewing the game: 1 of 1 decision rated…"},
		{English, 3, 22, "The coach is reviewing the game: 3 of 22 decisions rated…"},
		{Polish, 1, 1, "Trener omawia grę: oceniono 1 z 1 decyzji…"},
		{Polish, 3, 22, "Trener omawia grę: oceniono 3 z 22 decyzji…"},
		{Russian, 3, 21, "Тренер разбирает игру: оценено 3 из 21 решения…"},
		{Russian, 3, 22, "Тренер разбирает игру: оценено 3 из 22 решений…"},
		{Russian, 3, 12, "Тренер разбирает игру: оценено 3 из 12 решений…"},
		{German, 0, 1, "Der Coach bespricht das Spiel: 0 von 1 Entscheidung bewertet…"},
		{German, 3, 5, "Der Coach bespricht das Spiel: 3 von 5 Entscheidungen bewertet…"},
	} {
		if got := For(tt.l).T("ui.review.progress", game.Num("Done", tt.done), game.Count(tt.total)); got != tt.want {
			t.Errorf("%s %d of %d: %q, want %q", tt.l, tt.done, tt.total, got, tt.want)
		}
	}
}
