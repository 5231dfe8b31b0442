package grizzledui

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// press turns "2", "enter", "right", "esc"… into key messages.
func press(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
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

func act(seq int, a grizzled.Action) []tea.Msg {
	return []tea.Msg{uikit.ActMsg{Seq: seq, Action: a}}
}

func TestKeysProduceLegalActions(t *testing.T) {
	tests := []struct {
		name string
		u    table.Update
		keys []string
		want []tea.Msg
	}{
		{"second card, play", midMission(), []string{"2", "p"},
			act(41, grizzled.Action{Kind: grizzled.ActPlay, Card: T(4)})},
		{"arrows then enter plays", midMission(), []string{"right", "right", "enter"},
			act(41, grizzled.Action{Kind: grizzled.ActPlay, Card: H(7)})},
		{"left wraps to the last card", midMission(), []string{"left", "p"},
			act(41, grizzled.Action{Kind: grizzled.ActPlay, Card: MC})},
		{"charm then second NML card", midMission(), []string{"c", "2", "enter"},
			act(41, grizzled.Action{Kind: grizzled.ActCharm, Card: T(6)})},
		{"charm chooser closes with esc", midMission(), []string{"c", "esc", "p"},
			act(41, grizzled.Action{Kind: grizzled.ActPlay, Card: T(11)})},
		{"speech naming Snow", midMission(), []string{"s", "right", "enter"},
			act(41, grizzled.Action{Kind: grizzled.ActSpeech, Threat: grizzled.Snow})},
		{"speech answer: pass", speechAnswer(), []string{"x"},
			act(44, grizzled.Action{Kind: grizzled.ActSpeechPass})},
		{"speech answer: discard the second match", speechAnswer(), []string{"right", "enter"},
			act(44, grizzled.Action{Kind: grizzled.ActSpeechDiscard, Card: T(37)})},
		{"speech answer: Trauma by number", speechAnswer(), []string{"3", "enter"},
			act(44, grizzled.Action{Kind: grizzled.ActSpeechDiscard, Card: H(5)})},
		{"place the DL tile", tilePlacement(), []string{"3", "enter"},
			act(45, grizzled.Action{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileDL})},
		{"absent-minded removes L", absentMinded(), []string{"enter"},
			act(45, grizzled.Action{Kind: grizzled.ActRemoveTile, Tile: grizzled.TileL})},
		{"MC on Dee's Wounded", mcTarget(), []string{"5", "enter"},
			act(42, grizzled.Action{Kind: grizzled.ActDiscardHardKnock, Card: H(7), Target: 3})},
		{"benefit: discard two", supportReveal(), []string{"3", "enter"},
			act(63, grizzled.Action{Kind: grizzled.ActBenefitDiscard, Cards: []grizzled.CardID{H(7), H(12)}})},
		{"benefit: charm back", supportReveal(), []string{"r"},
			act(63, grizzled.Action{Kind: grizzled.ActBenefitCharm})},
		{"benefit: decline", supportReveal(), []string{"n"},
			act(63, grizzled.Action{Kind: grizzled.ActBenefitDecline})},
		{"intensity with arrows", intensity(), []string{"right", "right", "enter"},
			act(57, grizzled.Action{Kind: grizzled.ActIntensity, K: 3})},
		{"intensity by digit", intensity(), []string{"5", "enter"},
			act(57, grizzled.Action{Kind: grizzled.ActIntensity, K: 5})},
		{"intensity: out-of-range digit is ignored", intensity(), []string{"4", "9", "enter"},
			act(57, grizzled.Action{Kind: grizzled.ActIntensity, K: 4})},
		{"leave", midMission(), []string{"Q"}, []tea.Msg{uikit.LeaveMsg{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(tt.u, 80, 24)
			got := keys(s, tt.keys...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("keys %q:\n got %#v\nwant %#v", tt.keys, got, tt.want)
			}
		})
	}
}

func TestIllegalKeysDoNothing(t *testing.T) {
	notMyTurn := midMission()
	v := notMyTurn.View.(grizzled.SeatView)
	v.Active, v.Waiting, v.Legal = 1, []game.Seat{1}, nil
	notMyTurn.View = v
	tests := []struct {
		name string
		u    table.Update
		keys []string
	}{
		{"withdraw blocked by Fragile", midMission(), []string{"w"}},
		{"nothing legal on another's turn", notMyTurn, []string{"p", "enter", "c", "s", "w", "x", "r", "n", "1", "right"}},
		{"playing during a speech answer", speechAnswer(), []string{"p", "w", "c", "s", "r", "n", "esc"}},
		{"spectator", spectator(), []string{"p", "enter", "c", "s", "w", "x", "r", "n", "2", "left"}},
		{"game over", gameOver(), []string{"p", "enter", "w", "x"}},
		{"no charm back or decline on a tile", tilePlacement(), []string{"r", "n", "x", "p", "w"}},
		{"pass is not a benefit", supportReveal(), []string{"x", "p", "w"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScreen(tt.u, 80, 24)
			if got := keys(s, tt.keys...); len(got) != 0 {
				t.Errorf("keys %q produced %#v, want nothing", tt.keys, got)
			}
		})
	}
}

func TestKeysArrivingTogether(t *testing.T) {
	s := newScreen(midMission(), 80, 24)
	cmd := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2p")})
	if cmd == nil {
		t.Fatal("\"2p\" in one message produced nothing")
	}
	want := uikit.ActMsg{Seq: 41, Action: grizzled.Action{Kind: grizzled.ActPlay, Card: T(4)}}
	if got := cmd(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	s = newScreen(midMission(), 80, 24)
	if cmd := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("wp"), Paste: true}); cmd != nil {
		t.Errorf("a paste must not act: %#v", cmd())
	}
}

func TestOneActionPerUpdate(t *testing.T) {
	clock := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	s := newScreen(midMission(), 80, 24)
	s.now = func() time.Time { return clock }
	if got := keys(s, "p", "p", "enter"); len(got) != 1 {
		t.Fatalf("got %d actions before the next update, want 1", len(got))
	}
	if out := s.View(); !strings.Contains(out, "Sent. Waiting for the table") {
		t.Errorf("no sign that the action went out:\n%s", out)
	}
	// The room dropped it (busy) and sent nothing: after a while keys work again.
	clock = clock.Add(3 * time.Second)
	if got := keys(s, "p"); len(got) != 1 {
		t.Fatalf("after %v without an answer: %d actions, want 1", 3*time.Second, len(got))
	}
	u := midMission()
	v := u.View.(grizzled.SeatView)
	v.Seq, u.Seq, u.Notice = 42, 42, game.Raw("that card is not in your hand")
	s.SetUpdate(u)
	if got := keys(s, "p"); len(got) != 1 || got[0].(uikit.ActMsg).Seq != 42 {
		t.Fatalf("after a new update: %#v, want one ActMsg with Seq 42", got)
	}
}

func TestCursorFollowsTheCard(t *testing.T) {
	s := newScreen(midMission(), 80, 24)
	keys(s, "2") // T04
	u := midMission()
	v := u.View.(grizzled.SeatView)
	v.Hand = []grizzled.CardID{T(4), H(7), MC} // T11 left the hand
	v.Legal = plays(v.Hand...)
	u.View = v
	s.SetUpdate(u)
	got := keys(s, "p")
	want := act(41, grizzled.Action{Kind: grizzled.ActPlay, Card: T(4)})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func enabledHelp(km interface{ ShortHelp() []key.Binding }) []string {
	var out []string
	for _, b := range km.ShortHelp() {
		if b.Enabled() {
			out = append(out, b.Help().Key)
		}
	}
	return out
}

func TestHelpFollowsLegal(t *testing.T) {
	s := newScreen(midMission(), 80, 24)
	if got, want := enabledHelp(s.Keys()), []string{"←/→", "p", "c", "s", "Q"}; !reflect.DeepEqual(got, want) {
		t.Errorf("mid-mission help %q, want %q", got, want)
	}
	// Fearful with a threat at 2: withdrawing is the only move.
	u := midMission()
	v := u.View.(grizzled.SeatView)
	v.Legal = []grizzled.Action{{Kind: grizzled.ActWithdraw}}
	u.View = v
	s.SetUpdate(u)
	if got, want := enabledHelp(s.Keys()), []string{"←/→", "w", "Q"}; !reflect.DeepEqual(got, want) {
		t.Errorf("forced withdrawal help %q, want %q", got, want)
	}
	if out := s.View(); !strings.Contains(out, "you must withdraw (w)") {
		t.Errorf("forced withdrawal not said:\n%s", out)
	}
	if got := keys(s, "w"); !reflect.DeepEqual(got, act(41, grizzled.Action{Kind: grizzled.ActWithdraw})) {
		t.Errorf("w: %#v", got)
	}
	s.SetUpdate(spectator())
	if got, want := enabledHelp(s.Keys()), []string{"Q"}; !reflect.DeepEqual(got, want) {
		t.Errorf("spectator help %q, want %q", got, want)
	}
}

// TestNoColourStillInformative: under NO_COLOR every threat is a letter
// pair, traps, warnings and the cursor are characters, and colour adds
// nothing but colour.
func TestNoColourStillInformative(t *testing.T) {
	for _, u := range []table.Update{midMission(), speechAnswer(), supportReveal(), gameOver()} {
		plain := newScreen(u, 80, 24).View()
		r := lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.TrueColor)
		r.SetHasDarkBackground(true)
		cs := New(uikit.New(r))
		cs.SetHelpBar(true)
		cs.SetSize(80, 24)
		cs.SetUpdate(u)
		coloured := cs.View()
		if !strings.Contains(coloured, "\x1b[") {
			t.Fatal("TrueColor renderer produced no colour")
		}
		if ansi.Strip(coloured) != plain {
			t.Errorf("colour changes the text:\n%s\n---\n%s", ansi.Strip(coloured), plain)
		}
	}
	out := newScreen(midMission(), 80, 24).View()
	for _, want := range []string{
		"Ni Night", "Sn Snow", "Ra Rain", "Sh Shell", "Wh Whistle", "Ma Gas Mask", // threat marks
		"T04 Ni Sh!", "! = trap", // trap marker
		"!! Night and Shell at 2", "2!!", // warning
		"[1 T11 Sn Sh]", // cursor
		"▶★ Ann (you)", "(away)", "(bot)", "out", "Ni ready", "Sn used",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plain screen lacks %q", want)
		}
	}
}

func TestCountdownTicksOnlyWhileATimerRuns(t *testing.T) {
	clock := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	s := newScreen(midMission(), 80, 24)
	s.now = func() time.Time { return clock }
	u := speechAnswer()
	u.Deadline = 30
	cmd := s.Update(uikit.UpdateMsg{Update: &u})
	if cmd == nil {
		t.Fatal("an Update with a deadline should start the countdown")
	}
	flat := func() string { return strings.Join(strings.Fields(s.View()), " ") }
	if out := flat(); !strings.Contains(out, "(30 s left)") {
		t.Errorf("no countdown:\n%s", out)
	}
	clock = clock.Add(21 * time.Second)
	if out := flat(); !strings.Contains(out, "(9 s left)") {
		t.Errorf("countdown did not move:\n%s", out)
	}
	first, ok := s.ticks.Next()
	if !ok {
		t.Fatal("no tick on its way")
	}
	if cmd := s.Update(first); cmd == nil {
		t.Error("a tick with time left should tick again")
	}
	second, _ := s.ticks.Next()
	if first.Due() {
		t.Error("a tick that came again, before the one on its way, should draw nothing")
	}
	if cmd := s.Update(first); cmd != nil {
		t.Error("a tick that came again, before the one on its way, started another")
	}
	clock = clock.Add(10 * time.Second)
	if !second.Due() {
		t.Error("the timer's last tick should draw")
	}
	if cmd := s.Update(second); cmd != nil {
		t.Error("an expired timer should stop ticking")
	}
	if out := flat(); strings.Contains(out, "s left)") {
		t.Error("an expired timer is still shown")
	}
	mid := midMission()
	if cmd := s.Update(uikit.UpdateMsg{Update: &mid}); cmd != nil {
		t.Error("no timer, no tick")
	}
}

// TestHelpFitsBesideTheRootKeys: the root appends "t talk • ? help" to the
// screen's short help in an 80-column help bar; nothing may be cut.
func TestHelpFitsBesideTheRootKeys(t *testing.T) {
	talk := key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "talk"))
	hlp := key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help"))
	u := midMission()
	v := u.View.(grizzled.SeatView)
	v.Legal = append(v.Legal, grizzled.Action{Kind: grizzled.ActWithdraw}) // every turn action at once
	u.View = v
	for _, u := range []table.Update{u, speechAnswer(), tilePlacement(), supportReveal(), intensity(), mcTarget()} {
		s := newScreen(u, 80, 24)
		h := asciiTheme().NewHelp(80)
		bar := h.ShortHelpView(append(s.Keys().ShortHelp(), talk, hlp))
		if strings.Contains(bar, "…") || !strings.HasSuffix(bar, "? help") {
			t.Errorf("help bar cut at 80 columns: %q", bar)
		}
	}
}

// TestAskMemoFollowsItsInputs: askNow's remembered answer is askFresh's
// after keys that open and close choosers, an action sent and its wait
// running out, and new Updates.
func TestAskMemoFollowsItsInputs(t *testing.T) {
	clock := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	check := func(s *Screen, when string) {
		t.Helper()
		if got, want := s.askNow(), s.askFresh(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: askNow %+v, askFresh %+v", when, got, want)
		}
	}
	for _, u := range []table.Update{midMission(), intensity(), speechAnswer(), tilePlacement(), mcTarget(), absentMinded(), supportReveal()} {
		s := newScreen(u, 80, 24)
		s.now = func() time.Time { return clock }
		check(s, "at first")
		for _, k := range []string{"c", "esc", "s", "right", "esc", "2", "enter", "p"} {
			keys(s, k)
			check(s, "after "+k)
			_ = s.View()
			check(s, "after a frame, "+k)
		}
		clock = clock.Add(3 * time.Second) // the sent action's wait ran out
		check(s, "after the wait")
		s.SetUpdate(midMission())
		check(s, "after an Update")
	}
}
