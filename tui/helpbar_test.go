package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// pickCoin is a coin whose seats choose before the game, and whose table
// may name who begins (the waiting room's g and f, as in The Grizzled).
type pickCoin struct{ coin }

func (pickCoin) ID() string { return "pickcoin" }
func (pickCoin) Picks() []game.Pick {
	return []game.Pick{{ID: "a", Label: game.Raw("A")}, {ID: "b", Label: game.Raw("B")}}
}
func (pickCoin) NamesFirst() bool { return true }

// TestWaitingRoomHelpBarsFit: at 80 columns, in each language, the
// waiting room's help bar is one line that shows F (friends: invite) and
// ? (every key) whole, for a host of a game whose seats choose (the most
// keys), a seated player, and one who watches; a seated player who is not
// the host and has nothing to choose reads Q (the lobby) too (with g on
// the bar, Q may go past ?: esc does the same, and ? lists it).
func TestWaitingRoomHelpBarsFit(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.English, i18n.Polish, i18n.Russian, i18n.German} {
		a := testApp(t)
		a.Friends = listedFriends{}
		pc := a.Games[0]
		pc.Entry = game.Entry{Game: pickCoin{}}
		a.Games = append(a.Games, pc)
		for _, c := range []struct {
			who        string
			game       game.Game
			host, seat bool
		}{
			{"host choosing", pickCoin{}, true, true},
			{"host", coin{}, true, true},
			{"seated choosing", pickCoin{}, false, true},
			{"seated", coin{}, false, true},
			{"watching", pickCoin{}, false, false},
		} {
			host := "fp-other"
			if c.host {
				host = "fp-me"
			}
			r, err := a.Hub.Create(table.RoomConfig{Game: c.game, Title: game.Raw("Coin"), Seats: 3, Host: host})
			if err != nil {
				t.Fatal(err)
			}
			s := newSessionIn(t, a, "fp-me", "me", l)
			s.send(joinMsg{code: r.Code(), watch: !c.seat})
			s.pump(`(?s)` + r.Code() + `.*1\. `)
			th := s.m.th
			bar := s.m.page.bar(s.m)
			k := newGlobalKeys(th)
			want := []string{"F " + th.T("ui.friends.key.invite_short"), "? " + k.Help.Help().Desc}
			if c.seat && !c.host && c.game == (coin{}) {
				want = append(want, "Q "+k.Lobby.Help().Desc)
			}
			if strings.Contains(bar, "\n") || lipgloss.Width(bar) > 80 {
				t.Errorf("%s, %s: the bar is wider than 80 columns or two lines: %q", l, c.who, bar)
			}
			for _, w := range want {
				if !strings.Contains(bar, w) {
					t.Errorf("%s, %s: the bar cuts %q: %q", l, c.who, w, bar)
				}
			}
		}
	}
}
