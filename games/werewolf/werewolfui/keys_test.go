package werewolfui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// press turns "enter", "esc", "up", "down", "pgup" or a rune into a key message.
func press(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// keys feeds keys to s and returns the messages the commands produce.
func keys(s *Screen, ks ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range ks {
		if cmd := s.Update(press(k)); cmd != nil {
			out = append(out, cmd())
		}
	}
	return out
}

func actMsg(seq int, a werewolf.Action) []tea.Msg {
	return []tea.Msg{uikit.ActMsg{Seq: seq, Action: a}}
}

func TestKeysProduceLegalActions(t *testing.T) {
	type fx = func(t *testing.T) *tableFx
	thief := func(t *testing.T) *tableFx {
		tb := newTable(t, werewolf.ClassicOptions(), classicDeal())
		tb.until(werewolf.PhaseThief)
		return tb
	}
	cupid := func(t *testing.T) *tableFx {
		tb := thief(t)
		tb.until(werewolf.PhaseCupid)
		return tb
	}
	littleGirl := func(t *testing.T) *tableFx {
		tb := cupid(t)
		tb.until(werewolf.PhaseWolves)
		return tb
	}
	seer := func(t *testing.T) *tableFx {
		tb := newTable(t, werewolf.DefaultOptions(), starterDeal())
		tb.until(werewolf.PhaseSeer)
		return tb
	}
	discussion := func(t *testing.T) *tableFx {
		tb := starterDawn(t)
		tb.until(werewolf.PhaseDiscussion)
		return tb
	}
	campaign := func(t *testing.T) *tableFx {
		tb := classicWitch(t)
		tb.until(werewolf.PhaseSheriffCampaign)
		return tb
	}
	hunter := func(t *testing.T) *tableFx {
		tb := classicWitch(t)
		tb.do(0, werewolf.Action{Kind: werewolf.KindWitchPoison, Target: 3}) // Dee, the hunter (and Ann's lover…)
		tb.until(werewolf.PhaseHunterShot)
		return tb
	}
	tests := []struct {
		name string
		fx   fx
		seat game.Seat
		keys []string
		want werewolf.Action
	}{
		{"wolf devours the first target", starterWolves, 4, []string{"enter"}, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 0}},
		{"wolf moves down to Cid", starterWolves, 4, []string{"down", "enter"}, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 2}},
		{"wolf k/j move too", starterWolves, 4, []string{"j", "j", "k", "enter"}, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 2}},
		{"wolf wraps upward", starterWolves, 4, []string{"up", "enter"}, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 7}},
		{"wolf withdraws", starterWolves, 1, []string{"x"}, werewolf.Action{Kind: werewolf.KindWolfClear}},
		{"seer sees Bob", seer, 2, []string{"down", "enter"}, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 1}},
		{"thief takes card 2", thief, 7, []string{"2"}, werewolf.Action{Kind: werewolf.KindThiefTake, Target: 1}},
		{"thief keeps", thief, 7, []string{"x"}, werewolf.Action{Kind: werewolf.KindThiefKeep}},
		{"cupid links Ann and Cid", cupid, 5, []string{"down", "enter", "down", "down", "enter", "enter"}, werewolf.Action{Kind: werewolf.KindCupidLink, Target: 0, Second: 2}},
		{"cupid links in any order", cupid, 5, []string{"down", "down", "down", "enter", "up", "enter", "enter"}, werewolf.Action{Kind: werewolf.KindCupidLink, Target: 1, Second: 2}},
		{"cupid esc forgets the first", cupid, 5, []string{"down", "enter", "esc", "down", "enter", "down", "enter", "enter"}, werewolf.Action{Kind: werewolf.KindCupidLink, Target: 1, Second: 2}},
		{"little girl peeks", littleGirl, 6, []string{"p"}, werewolf.Action{Kind: werewolf.KindPeek, On: true}},
		{"little girl keeps her eyes shut", littleGirl, 6, []string{"x"}, werewolf.Action{Kind: werewolf.KindPeek, On: false}},
		{"witch heals", classicWitch, 0, []string{"h"}, werewolf.Action{Kind: werewolf.KindWitchHeal}},
		{"witch poisons Bob", classicWitch, 0, []string{"down", "down", "p", "p"}, werewolf.Action{Kind: werewolf.KindWitchPoison, Target: 1}},
		{"witch confirms a poison with enter", classicWitch, 0, []string{"down", "down", "p", "enter"}, werewolf.Action{Kind: werewolf.KindWitchPoison, Target: 1}},
		{"witch is done", classicWitch, 0, []string{"x"}, werewolf.Action{Kind: werewolf.KindWitchDone}},
		{"hunter shoots", hunter, 3, []string{"down", "enter", "enter"}, werewolf.Action{Kind: werewolf.KindHunterShoot, Target: 1}},
		{"hunter lowers his rifle", hunter, 3, []string{"x"}, werewolf.Action{Kind: werewolf.KindHunterHold}},
		{"ready to vote", discussion, 0, []string{"r"}, ready()},
		{"stand for sheriff", campaign, 1, []string{"s"}, werewolf.Action{Kind: werewolf.KindStand, On: true}},
		{"vote moves the ballot", starterVote, 0, []string{"down", "enter"}, ballot(2)},
		{"abstain", starterVote, 0, []string{"x"}, werewolf.Action{Kind: werewolf.KindAbstain}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := tt.fx(t)
			u := tb.update(tt.seat)
			s := newScreen(u, 80, 24)
			got := keys(s, tt.keys...)
			if !reflect.DeepEqual(got, actMsg(u.Seq, tt.want)) {
				t.Fatalf("keys %q:\n got %#v\nwant %v\n%s", tt.keys, got, tt.want, s.View())
			}
			if !u.View.(werewolf.SeatView).IsLegal(tt.want) {
				t.Fatalf("%v is not legal", tt.want)
			}
		})
	}
}

func TestIllegalKeysDoNothing(t *testing.T) {
	all := []string{"enter", "x", "p", "h", "1", "2", "r", "s", "esc", "up", "down", "c"}
	tests := []struct {
		name string
		tb   func(t *testing.T) *tableFx
		seat game.Seat
		keys []string
	}{
		{"asleep villager", starterWolves, 0, all},
		{"asleep seer", starterWolves, 2, all},
		{"seer who acted", func(t *testing.T) *tableFx {
			tb := newTable(t, werewolf.DefaultOptions(), starterDeal())
			tb.until(werewolf.PhaseSeer)
			tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 1})
			return tb
		}, 2, all},
		{"villager at dawn", starterDawn, 0, all},
		{"the dead at night", starterNight2Dead, 3, all},
		{"spectator", starterVote, game.Spectator, all},
		{"game over", starterOver, 0, all},
		{"no heal at the vote", starterVote, 0, []string{"h", "p", "1", "r", "s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(tt.tb(t).update(tt.seat), 80, 24)
			if got := keys(s, tt.keys...); len(got) != 0 {
				t.Errorf("keys %q produced %#v, want nothing", tt.keys, got)
			}
		})
	}
}

func TestOneActionPerUpdate(t *testing.T) {
	now := clock0
	s := newScreen(starterVote(t).update(0), 80, 24)
	s.now = func() time.Time { return now }
	if got := keys(s, "x", "x", "enter"); len(got) != 1 {
		t.Fatalf("want one action before the next update, got %#v", got)
	}
	now = now.Add(resendAfter)
	if got := keys(s, "x"); len(got) != 1 {
		t.Fatalf("after %v the key works again, got %#v", resendAfter, got)
	}
}

func TestKeysArrivingTogether(t *testing.T) {
	s := newScreen(starterWolves(t).update(4), 80, 24)
	cmd := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if cmd != nil {
		t.Fatalf("moving produced %#v", cmd())
	}
	if got := keys(s, "enter"); !reflect.DeepEqual(got, actMsg(s.u.Seq, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})) {
		// Bob already points at Dee, so Dee is a cursor stop without an action.
		if len(got) != 0 {
			t.Fatalf("got %#v", got)
		}
	}
	s = newScreen(starterVote(t).update(0), 80, 24)
	if cmd := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("xr"), Paste: true}); cmd != nil {
		t.Errorf("a paste must not act: %#v", cmd())
	}
}

func TestHelpFollowsTheView(t *testing.T) {
	bar := func(u table.Update) string {
		s := newScreen(u, 80, 24)
		lines := strings.Split(s.View(), "\n")
		return lines[len(lines)-1]
	}
	// The cursor starts on Ann's ballot (Bob): voting Bob again does nothing.
	if b := bar(starterVote(t).update(0)); strings.Contains(b, "enter") || !strings.Contains(b, "x abstain") {
		t.Errorf("vote help bar: %q", b)
	}
	s := newScreen(starterVote(t).update(0), 80, 24)
	keys(s, "down")
	if b := s.th.NewHelp(80).ShortHelpView(s.Keys().ShortHelp()); !strings.Contains(b, "enter vote Cid") {
		t.Errorf("vote help bar after down: %q", b)
	}
	if b := bar(starterWolves(t).update(0)); strings.Contains(b, "enter") || !strings.Contains(b, "c look at card") {
		t.Errorf("asleep help bar: %q", b)
	}
	if b := bar(classicWitch(t).update(0)); !strings.Contains(b, "h heal Cid") || strings.Contains(b, "p poison") {
		t.Errorf("witch help bar before she points at anyone: %q", b)
	}
	w := newScreen(classicWitch(t).update(0), 80, 24)
	keys(w, "down")
	if b := w.th.NewHelp(80).ShortHelpView(w.Keys().ShortHelp()); !strings.Contains(b, "p poison Ann") {
		t.Errorf("witch help bar with the cursor on Ann: %q", b)
	}
	for _, b := range s.Keys().ShortHelp() {
		for _, k := range b.Keys() {
			if k == "t" || k == "?" || k == "ctrl+c" || k == "tab" {
				t.Errorf("binding %q takes the session's key %q", b.Help().Desc, k)
			}
		}
	}
	if got := keys(s, "Q"); !reflect.DeepEqual(got, []tea.Msg{uikit.LeaveMsg{}}) {
		t.Errorf("Q: %#v", got)
	}
}
