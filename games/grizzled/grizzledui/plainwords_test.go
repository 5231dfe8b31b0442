package grizzledui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
)

// Plain mode speaks to screen readers (issue 30 item 6): a soldier is said
// in words, not the drawn table's column abbreviations; while another
// soldier places a support tile or chooses a benefit nothing is said that
// the log has just said; and the game's end names plain mode's own
// command (leave), not the screen's key Q.
func TestPlainModeSaysEachThingOnceInWords(t *testing.T) {
	th := asciiTheme()
	th.SetLang(i18n.Polish)
	g := grizzled.Game{}
	names := []string{"Ann", "Bob", "Cid"}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
	var st game.State
	screen := func(seat game.Seat) *Screen {
		v := g.View(st, seat).(grizzled.SeatView)
		s := New(th)
		s.SetSize(80, 23)
		u := table.Update{Room: "TEST", Title: game.Raw("Wiarusi"), Seat: seat, Seq: v.Seq, View: v, Started: true}
		if r, over := g.Result(st); over {
			u.Over, u.Result = true, &r
		}
		s.SetUpdate(u)
		return s
	}
	looked, placing, benefit := false, false, false
	for seed := uint64(1); seed < 40 && !benefit; seed++ {
		var err error
		if st, _, err = g.New(game.Setup{Game: "grizzled", Names: names, Options: opts}, seed); err != nil {
			t.Fatal(err)
		}
		play(t, g, &st, func(seat, other game.Seat, waiting []game.Seat, v grizzled.SeatView) {
			if !looked && v.Phase == grizzled.PhaseTurn {
				looked = true
				look := strings.Join(screen(seat).Look(), "\n")
				for _, abbr := range []string{th.T("grizzledui.col.tiles"), th.T("grizzledui.col.speech"), th.T("grizzledui.col.hand") + " "} {
					if strings.Contains(look, abbr) {
						t.Fatalf("look reads the column %q aloud:\n%s", abbr, look)
					}
				}
				if !strings.Contains(look, "3 żetony wsparcia") || !strings.Contains(look, "na ręce") {
					t.Fatalf("look does not say the soldiers in words:\n%s", look)
				}
			}
			switch {
			case v.Phase == grizzled.PhaseDecision && v.Decision == grizzled.DecidePlaceTile && !slices.Contains(waiting, other):
				placing = true
				if a := screen(other).Asked(); a != "" {
					t.Fatalf("while %s places a tile, another seat hears %q", names[seat], a)
				}
			case v.Phase == grizzled.PhaseIntensity && !slices.Contains(waiting, other):
				if a := screen(other).Asked(); a != "" {
					t.Fatalf("while %s chooses the intensity, another seat hears %q", names[seat], a)
				}
			case v.Phase == grizzled.PhaseBenefit && !slices.Contains(waiting, other):
				benefit = true
				if a := screen(other).Asked(); a != "" {
					t.Fatalf("while %s chooses a benefit, another seat hears %q", names[seat], a)
				}
			}
		})
	}
	if !looked || !placing || !benefit {
		t.Fatalf("the games did not go through everything: look %v, tile %v, benefit %v", looked, placing, benefit)
	}
	end := screen(0).Asked()
	if !strings.Contains(end, th.T("plain.words.leave")) || strings.Contains(end, "Q ") {
		t.Fatalf("the end says %q", end)
	}
}

// play plays st to its end (or 3000 moves), calling see before each move
// with the seat to move, another seat, the seats waited on and the view.
func play(t *testing.T, g grizzled.Game, st *game.State, see func(seat, other game.Seat, waiting []game.Seat, v grizzled.SeatView)) {
	for step := 0; step < 3000; step++ {
		if _, over := g.Result(*st); over {
			return
		}
		waiting := g.Waiting(*st)
		seat := waiting[0]
		see(seat, (seat+1)%3, waiting, g.View(*st, seat).(grizzled.SeatView))
		legal := g.Legal(*st, seat)
		a := legal[step%len(legal)]
		for _, l := range legal { // withdraw soon: missions end, the war too
			if l.(grizzled.Action).Kind == grizzled.ActWithdraw && step%4 == 0 {
				a = l
			}
		}
		next, _, err := g.Apply(*st, seat, a)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		*st = next
	}
}

// Read out, a speech names its threat in words, never by the drawn
// table's tag ("Aufruf von Cid: Sc Schnee." was read as "S C"), and a
// soldier's hard knocks weigh in words ("(Gw 1)"), in every language
// (issue 42 item 5).
func TestPlainModeSaysNoThreatTagOrWeightAbbreviation(t *testing.T) {
	for _, l := range i18n.Langs {
		th := asciiTheme()
		th.SetLang(l)
		s := New(th)
		s.SetSize(80, 23)
		u := speechAnswer()
		u.Seat = 3 // Dee, who is not asked: she hears the status line
		v := u.View.(grizzled.SeatView)
		v.Seat, v.Legal = 3, nil
		u.View = v
		s.SetUpdate(u)
		asked := s.Asked()
		tag, name := s.threatTag(grizzled.Snow), s.threatName(grizzled.Snow)
		if !strings.Contains(asked, name) || strings.Contains(asked, tag+" "+name) || strings.Contains(asked, "  ") {
			t.Errorf("%s: the speech is read %q (tag %q)", l, asked, tag)
		}
		s.SetUpdate(midMission())
		look := strings.Join(s.Look(), "\n")
		if w := th.T("grizzledui.weight", game.Num("N", 1)); w != th.T("plain.words.weight", game.Num("N", 1)) && strings.Contains(look, w) {
			t.Errorf("%s: look reads the column's %q:\n%s", l, w, look)
		}
		if !strings.Contains(look, th.T("plain.words.weight", game.Num("N", 1))) {
			t.Errorf("%s: look does not say the weight in words:\n%s", l, look)
		}
	}
}

// A hard knock's text ends its sentence; the warning that playing it
// fails the mission follows it as a sentence of its own, not after ".;"
// (a screen reader read "threat.; fails the mission" in plain mode's hand
// and in a replay at a decision).
func TestPlainHandWarnsAfterACardsSentence(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.Polish, i18n.Russian, i18n.German} {
		u := midMission()
		v := u.View.(grizzled.SeatView)
		v.Hand = append(slices.Clone(v.Hand), H(4)) // Trauma (Night), with Night at 2
		v.Legal = plays(v.Hand...)
		u.View = v
		s := newScreen(u, 100, 30)
		s.th.SetLang(lang)
		warned := false
		for _, l := range s.Hand() {
			if strings.Contains(l, ".;") || strings.Contains(l, ". ;") {
				t.Errorf("%s: %q", lang, l)
			}
			warned = warned || strings.Contains(l, s.th.T("grizzledui.fails_short", game.Text("Threats", s.th.T("grizzled.threat.night"))))
		}
		if !warned {
			t.Errorf("%s: the hand does not warn of Trauma (Night): %q", lang, s.Hand())
		}
	}
}

// Every move plain mode lists names a command to type, unique in its
// list: Merry Christmas's and support's discards had none ("1. discard
// it: ann, Fragile"), so a plain-mode player read no word to type, and
// a test player waited out the turn clock.
func TestEveryPlainMoveHasItsOwnCommand(t *testing.T) {
	th := asciiTheme()
	g := grizzled.Game{}
	names := []string{"Ann", "Bob", "Cid"}
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, Leader: game.NoSeat})
	kinds := map[grizzled.ActionKind]bool{}
	for seed := uint64(1); seed <= 30; seed++ {
		st, _, err := g.New(game.Setup{Game: "grizzled", Names: names, Options: opts}, seed)
		if err != nil {
			t.Fatal(err)
		}
		play(t, g, &st, func(seat, _ game.Seat, _ []game.Seat, v grizzled.SeatView) {
			s := New(th)
			s.SetSize(80, 23)
			s.SetUpdate(table.Update{Room: "TEST", Title: game.Raw("Grizzled"), Seat: seat, Seq: v.Seq, View: v, Started: true})
			seen := map[string]int{} // a command's move
			for i, m := range s.Moves() {
				a := m.Action.(grizzled.Action)
				kinds[a.Kind] = true
				if len(m.Commands) == 0 {
					t.Fatalf("seed %d: %q has no command", seed, m.Label)
				}
				for _, c := range m.Commands {
					if j, ok := seen[c]; ok && j != i {
						t.Fatalf("seed %d: %q names a command another move has: %q", seed, m.Label, c)
					}
					seen[c] = i
				}
			}
		})
	}
	for _, k := range []grizzled.ActionKind{grizzled.ActDiscardHardKnock, grizzled.ActBenefitDiscard} {
		if !kinds[k] {
			t.Errorf("no game of the test offered a move of kind %v: the test proves nothing for it", k)
		}
	}
}
