package werewolf_test

import (
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// A room actor's loop in miniature: create, read the timer, apply a
// System tick, and publish a seat's view.
func ExampleGame() {
	var g game.Game = werewolf.Game{}
	names := []string{"Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"}
	st, _, err := g.New(game.Setup{Game: werewolf.ID, Names: names, Options: werewolf.DefaultOptions().Encode()}, 1)
	if err != nil {
		panic(err)
	}
	tm, _ := g.Timer(st)
	fmt.Println("nightfall lasts", tm.After)
	st, evs, _ := g.Apply(st, game.System, tm.Action) // the timer expired
	en := i18n.For(i18n.English)
	for _, e := range evs {
		if e.Audience.All {
			fmt.Println(en.Msg(e.Msg))
		}
	}
	v := g.View(st, 0).(werewolf.SeatView)
	fmt.Println(en.T(v.Phase.TitleKey()), v.Deadline, "s")
	// Output:
	// nightfall lasts 5s
	// The seer wakes up…
	// The seer 30 s
}
