package grizzled_test

import (
	"errors"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// A game is created from a setup and a seed, then driven by Apply; every
// event says who may see it.
func Example() {
	s, _, err := grizzled.New(game.Setup{
		Game:    "grizzled",
		Names:   []string{"Anna", "Ben", "Chloé"},
		Options: []byte(`{"variant":"standard","leader":0}`),
	}, 2026)
	if err != nil {
		panic(err)
	}
	_, err = s.Apply(0, grizzled.Action{Kind: grizzled.ActIntensity, K: 1})
	en := i18n.For(i18n.English)
	fmt.Println(en.Error(err), errors.Is(err, grizzled.ErrIntensityTooLow))
	evs, _ := s.Apply(0, grizzled.Action{Kind: grizzled.ActIntensity, K: 3})
	for _, e := range evs {
		who := "everyone"
		if !e.Audience.All {
			who = fmt.Sprint("seat ", e.Audience.Seats)
		}
		if e.Kind == game.Private {
			fmt.Printf("%s: (a private line)\n", who)
			continue
		}
		fmt.Printf("%s: %s\n", who, en.Msg(e.Msg))
	}
	v := s.View(1)
	fmt.Println(len(v.Hand), v.Players[0].HandSize, v.Trials, v.Legal == nil)
	// Output:
	// the first mission needs an intensity of at least 3 true
	// everyone: Anna sets the intensity to 3.
	// seat [0]: (a private line)
	// seat [1]: (a private line)
	// seat [2]: (a private line)
	// everyone: Dealt: Anna 3, Ben 3 and Chloé 3. 16 cards left in the trials pile.
	// everyone: Turn: Anna.
	// 3 3 16 true
}
