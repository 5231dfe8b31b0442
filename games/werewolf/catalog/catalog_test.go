package catalog_test

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	_ "github.com/bivouac-ssh/bivouac/games/werewolf/catalog"
	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestBotNamesAreMarkedInTheReadersLanguage(t *testing.T) {
	msg := game.M("werewolf.bot.suspect", game.Text("Player", "Ewa"+game.BotMark))
	for l, want := range map[i18n.Lang][2]string{
		i18n.English: {"Ewa (bot)", "I suspect Ewa (bot)."},
		i18n.Polish:  {"Ewa (bot)", "Podejrzewam gracza Ewa (bot)."},
		i18n.Russian: {"Ewa (бот)", "Я подозреваю игрока Ewa (бот)."},
		i18n.German:  {"Ewa (Bot)", "Ich verdächtige Ewa (Bot)."},
	} {
		p := i18n.For(l)
		if got := p.Name("Ewa" + game.BotMark); got != want[0] {
			t.Errorf("%s: Name = %q, want %q", l, got, want[0])
		}
		if got := p.Msg(msg); got != want[1] {
			t.Errorf("%s: %q, want %q", l, got, want[1])
		}
		if got := p.Name("Anna"); got != "Anna" {
			t.Errorf("%s: a player's name became %q", l, got)
		}
	}
}
