package werewolfui

import (
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// TestWerewolfForm: every choice of the create-a-table form either builds
// options the engine accepts for that many seats or says why not; small
// tables and fast nights are marked as outside the rulebook.
func TestWerewolfForm(t *testing.T) {
	t.Parallel()
	m := Module()
	f := m.FormFields()
	en := i18n.For(i18n.English)
	if got := en.Msg(f[0].Choices[f[0].Default]); got != "8" {
		t.Errorf("default players %q, want 8", got)
	}
	for i, c := range f[0].Choices[:3] {
		if !strings.Contains(en.Msg(c), "[not in the rulebook]") {
			t.Errorf("players choice %d (%q) is not marked", i, c)
		}
	}
	built, refused := 0, 0
	choice := make([]int, len(f))
	for players := range f[0].Choices {
		for cards := range f[1].Choices {
			for timers := range f[2].Choices {
				choice[0], choice[1], choice[2], choice[3], choice[4] = players, cards, timers, 1, 3
				spec, err := m.BuildTable(choice)
				if err != nil {
					refused++
					continue
				}
				built++
				opts, err := werewolf.DecodeOptions(spec.GameOptions)
				if err != nil {
					t.Fatal(err)
				}
				if err := opts.Validate(spec.Seats); err != nil {
					t.Errorf("%v built invalid options: %v", choice, err)
				}
				if (spec.Seats < 8) != strings.Contains(en.Msg(spec.Title), "not rulebook") {
					t.Errorf("%d seats, title %q", spec.Seats, spec.Title)
				}
				if (opts.NightTiming == werewolf.TimingFast) != strings.Contains(en.Msg(spec.Title), "fast nights") {
					t.Errorf("timing %s, title %q", opts.NightTiming, spec.Title)
				}
				if spec.BotLevel != "easy" || spec.Bots != 3 {
					t.Errorf("bots %q×%d", spec.BotLevel, spec.Bots)
				}
			}
		}
	}
	if built == 0 || refused == 0 {
		t.Errorf("built %d, refused %d: classic below 8 players must be refused", built, refused)
	}
	// The form shows the deck the choices make.
	if spec, err := m.BuildTable([]int{3, 2, 0, 0, 0, 0, 0}); err != nil || en.Msg(spec.Summary) != "Deck: Werewolf ×2, Seer, Witch, Hunter, Cupid, Little Girl, Thief, Villager ×2 (2 of them lie in the middle for the thief)" {
		t.Errorf("classic at 8: %q, %v", en.Msg(spec.Summary), err)
	}
	// Stand-ins are off unless chosen; a deserted game ends either way (§13).
	choice = []int{3, 0, 0, 0, 0, 0, 0}
	if spec, err := m.BuildTable(choice); err != nil || !spec.NoTakeover || spec.AbandonAfter != 10*time.Minute {
		t.Errorf("default stand-ins: %+v, %v", spec, err)
	}
	choice[6] = 1
	if spec, _ := m.BuildTable(choice); spec.NoTakeover {
		t.Error("stand-ins chosen but off")
	}
	choice = []int{3, 0, 0, 0, 2, 0, 0} // bot seats without a bot level
	if _, err := m.BuildTable(choice); err == nil {
		t.Error("bot seats without a level should be refused")
	}
	choice = []int{0, 0, 0, 1, 5, 1, 0} // 5 seats, 5 bots
	if _, err := m.BuildTable(choice); err == nil {
		t.Error("a table of bots only should be refused")
	}
}
