package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/presence"
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

// TestFriendsHelpBarsFit: at 80 columns, in each language, the friends
// page's help bar shows esc and ? whole on every kind of row (a friend at
// a table: enter joins), and the players page at a table shows esc whole
// with f (ask to be friends) on it, for the host (x removes a player).
func TestFriendsHelpBarsFit(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.English, i18n.Polish, i18n.Russian, i18n.German} {
		a, _, _ := peopleApp(t)
		a.Presence = presence.New("", nil)
		lists := FriendLists{Askers: namedPeople("asker", 1), Friends: []Person{{ID: "fp-bob", Name: "Ярослава_Степанченко"}},
			Asked: namedPeople("asked", 1), Met: namedPeople("met", 1)}
		a.Friends = listedFriends{lists}
		bob := a.Presence.Join("fp-bob", "bob", presence.Circle{Friends: []string{"fp-me"}})
		bob.Set(presence.Place{Where: presence.AtTable, Game: "coin", Code: "K7QX"})
		s := newSessionIn(t, a, "fp-me", "me", l)
		s.m.where = &Whereabouts{Session: a.Presence.Join("fp-me", "me", presence.Circle{Friends: []string{"fp-bob"}})}
		th := s.m.th
		k := newGlobalKeys(th)
		s.keys("F")
		for row := range 4 {
			bar := s.m.page.bar(s.m)
			for _, w := range []string{"esc " + th.T("ui.key.back"), "? " + k.Help.Help().Desc} {
				if !strings.Contains(bar, w) || lipgloss.Width(bar) > 80 {
					t.Errorf("%s, friends page, row %d: the bar cuts %q: %q", l, row, w, bar)
				}
			}
			if row == 1 && !strings.Contains(bar, "enter") {
				t.Errorf("%s: a friend at a table: no enter on the bar: %q", l, bar)
			}
			s.send(tea.KeyMsg{Type: tea.KeyDown})
		}
		s.keys("esc")

		r, err := a.Hub.Create(table.RoomConfig{Game: coin{}, Title: game.Raw("Coin"), Seats: 3, Host: "fp-me"}) // x removes: the most keys
		if err != nil {
			t.Fatal(err)
		}
		other := newSessionIn(t, a, "fp-other", "Ярослава_Степанченко", l)
		other.send(joinMsg{code: r.Code()})
		other.pump(`(?s)` + r.Code() + `.*1\. `)
		s.send(joinMsg{code: r.Code()})
		s.pump(`(?s)` + r.Code() + `.*2\. `)
		s.keys("I")
		bar := strings.Split(s.m.View(), "\n")[23]
		for _, w := range []string{"f " + th.T("ui.friends.key.ask"), "esc " + th.T("ui.key.back")} {
			if !strings.Contains(bar, w) {
				t.Errorf("%s, players at a table: the bar cuts %q: %q", l, w, bar)
			}
		}
	}
}
