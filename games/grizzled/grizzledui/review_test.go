package grizzledui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/x/ansi"
)

// sampleReview is a made-up review of a 2-player game over three missions:
// seat 0 made one sure mistake, seat 1 one difference within the noise.
func sampleReview() (grizzbot.GameReview, []table.SeatInfo) {
	est := func(p, half float64) grizzbot.Estimate {
		return grizzbot.Estimate{P: p, Lo: p - half, Hi: p + half, N: 96}
	}
	play := func(c grizzled.CardID) grizzled.Action { return grizzled.Action{Kind: grizzled.ActPlay, Card: c} }
	withdraw := grizzled.Action{Kind: grizzled.ActWithdraw}
	var r grizzbot.GameReview
	r.Samples = 96
	for i := range 30 {
		seat := game.Seat(i % 2)
		a := grizzbot.Assessment{Made: play(grizzled.CardID(1 + i%20)), MadeP: est(0.5-float64(i)/100, 0.05), Choices: 3}
		a.Best, a.BestP, a.Cost = a.Made, a.MadeP, est(0, 0)
		switch i {
		case 8: // the blunder
			a.Best, a.BestP, a.Cost = withdraw, est(0.6, 0.05), est(0.18, 0.04)
		case 9: // noise
			a.Best, a.BestP, a.Cost = withdraw, est(0.45, 0.05), est(0.02, 0.05)
		}
		r.Decisions = append(r.Decisions, grizzbot.Decision{Index: 2*i + 1, Seat: seat, Mission: 1 + i/10, Turn: 1 + i%10/2, Assessment: a})
	}
	r.Missions = 3
	r.Lines = []grizzbot.MissionLine{{Mission: 1, Start: est(0.5, 0.05), Index: 1, Outcome: grizzbot.Succeeded},
		{Mission: 2, Start: est(0.4, 0.05), Index: 21, Outcome: grizzbot.Failed}, {Mission: 3, Start: est(0.3, 0.05), Index: 41, Outcome: grizzbot.GameLost}}
	r.Turns = []grizzbot.Turn{
		{Cause: grizzbot.ByDecision, Seat: 0, Action: r.Decisions[8].Made, Decision: 8, Mission: 1, Turn: 5, From: 0.6, To: 0.42, At: 9},
		{Cause: grizzbot.ByTrap, Mission: 2, From: 0.38, To: 0.2, At: 15},
		{Cause: grizzbot.ByOutcome, Outcome: grizzbot.Failed, Mission: 2, From: 0.3, To: 0.25, At: 20},
		{Cause: grizzbot.ByMove, Seat: 1, Mission: 3, Turn: 2, Action: withdraw, From: 0.3, To: 0.29, At: 22},
	}
	return r, []table.SeatInfo{{Seat: 0, Name: "Александра Констант"}, {Seat: 1, Name: "bob"}, {Seat: 2, Name: "bot", Bot: "easy"}}
}

// The review fits the width in every language, names the sure mistake with
// the coach's choice, leaves the noisy difference out, and in plain mode
// says the missions in words instead of drawing bars.
func TestReviewLines(t *testing.T) {
	r, seats := sampleReview()
	for _, lang := range i18n.Langs {
		for _, width := range []int{80, 40} {
			th := uikit.New(nil)
			th.SetLang(lang)
			lines := ReviewLines(th, r, seats, width, false)
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("%s, %d columns: a line of %d: %q", lang, width, w, l)
				}
			}
			text := strings.Join(lines, "\n")
			flat := strings.Join(strings.Fields(text), " ") // wrapped lines read as one
			if !strings.Contains(text, "█") || !strings.Contains(text, "Александра") {
				t.Errorf("%s: no chart or no name:\n%s", lang, text)
			}
			if lang == i18n.English && width == 80 {
				for _, want := range []string{"Александра Констант · decisions: 15 · as the coach would: 14", "inaccuracies: 0 · mistakes: 0 · blunders: 1 (−18 points)", "move 5: play: T09 Night+Gas Mask (blunder)",
					"1. mission 1, move 5: play:", "the coach: withdraw · 42% → 60% (±4)",
					"The team lost, in mission 3.", "A: mission 1, Александра Констант, move 5: play: ", "a decision: 60% with the coach's move, 42% with this one",
					"B: mission 2: the cards — a trap drew a third threat and the mission failed (38% → 20%)", "C: mission 2 failed: its cards went back to the trials (30% → 25%)", "bob · decisions: 15", "No inaccuracies", "a blunder from 10"} {
					if !strings.Contains(flat, want) {
						t.Errorf("the review does not say %q:\n%s", want, text)
					}
				}
			}
		}
	}
	th := uikit.New(nil)
	plain := strings.Join(strings.Fields(strings.Join(ReviewLines(th, r, seats, 80, true), "\n")), " ")
	if strings.ContainsAny(plain, "█▁▂▃▄▅▆▇┤└┴") || !strings.Contains(plain, "Mission 2: the team's chances 40% before it → 30% after; it failed (decisions rated: 10)") ||
		!strings.Contains(plain, "Mission 3: the team's chances 30% before it → 0%: the game was lost in it") {
		t.Errorf("plain review:\n%s", plain)
	}
}

// A support tile in the review points from the seat that placed it, and at
// two players the chaplain is one of its neighbours (SU-2, §6.4): seat 1's
// left tile goes to the chaplain, its right one to seat 0.
func TestReviewTilesPointFromTheirPlayer(t *testing.T) {
	est := grizzbot.Estimate{P: 0.3, Lo: 0.25, Hi: 0.35, N: 96}
	a := grizzbot.Assessment{Made: grizzled.Action{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileR}, MadeP: est,
		Best: grizzled.Action{Kind: grizzled.ActPlaceTile, Tile: grizzled.TileL}, BestP: grizzbot.Estimate{P: 0.5, Lo: 0.45, Hi: 0.55, N: 96},
		Cost: grizzbot.Estimate{P: 0.2, Lo: 0.15, Hi: 0.25, N: 96}, Choices: 2}
	r := grizzbot.GameReview{Samples: 96, Missions: 1, Decisions: []grizzbot.Decision{
		{Index: 1, Seat: 0, Mission: 1, Assessment: grizzbot.Assessment{Made: grizzled.Action{Kind: grizzled.ActWithdraw}, MadeP: est, Best: grizzled.Action{Kind: grizzled.ActWithdraw}, BestP: est}},
		{Index: 2, Seat: 1, Mission: 1, Assessment: a}}}
	seats := []table.SeatInfo{{Seat: 0, Name: "ann"}, {Seat: 1, Name: "bob"}}
	text := strings.Join(ReviewLines(uikit.New(nil), r, seats, 80, true), "\n")
	for _, want := range []string{"place tile: right (R) → ann", "the coach: place tile: left (L) → the chaplain"} {
		if !strings.Contains(text, want) {
			t.Errorf("the review does not say %q:\n%s", want, text)
		}
	}
}

// A person whose decisions a bot made (they gave their seat up, or the
// turn clock ran out) is told so, in every language, not that every move
// was forced; one who made some of their own hears how many were the bot's.
func TestReviewSaysWhenABotDecidedForAPerson(t *testing.T) {
	seats := []table.SeatInfo{{Seat: 0, Name: "ann"}, {Seat: 1, Name: "bob"}}
	allBot := grizzbot.GameReview{Samples: 96, Missions: 2, StandIns: map[game.Seat]int{0: 7}}
	mixed, _ := sampleReview()
	mixed.StandIns = map[game.Seat]int{1: 3}
	forced := grizzbot.GameReview{Samples: 96, Missions: 2}
	for _, lang := range i18n.Langs {
		th := uikit.New(nil)
		th.SetLang(lang)
		nothing := th.T("grizzledui.review.nothing")
		text := strings.Join(ReviewLines(th, allBot, seats, 40, true), "\n")
		if want := th.T("grizzledui.review.lost", game.Num("Mission", 2)) + " " + th.T("grizzledui.review.stood_in", game.Text("Player", "ann")); strings.Contains(text, nothing) ||
			strings.Join(strings.Fields(text), " ") != want || strings.Contains(text, "bob") {
			t.Errorf("%s: a game whose only person gave their seat up:\n%s\nwant %q", lang, text, want)
		}
		text = strings.Join(ReviewLines(th, mixed, seats, 80, true), "\n")
		if want := th.T("grizzledui.review.stood_in_some", game.Count(3)); !strings.Contains(text, want) {
			t.Errorf("%s: bob's 3 decisions by a bot are not said (%q):\n%s", lang, want, text)
		}
		if got := ReviewLines(th, forced, seats, 80, true); len(got) != 1 || got[0] != nothing {
			t.Errorf("%s: a game of forced moves: %q", lang, got)
		}
	}
	en := strings.Join(strings.Fields(strings.Join(ReviewLines(uikit.New(nil), allBot, seats, 80, true), "\n")), " ")
	if !strings.Contains(en, "ann · nothing to review: every decision was made by the bot that stood in for them") {
		t.Errorf("English:\n%s", en)
	}
	mixedEN := strings.Join(ReviewLines(uikit.New(nil), mixed, seats, 80, true), "\n")
	bob, left := strings.Index(mixedEN, "bob · decisions: 15"), strings.Index(mixedEN, "\n  Left out: 3 decisions made by the bot that stood in for them.")
	if bob < 0 || left < bob {
		t.Errorf("English, some decisions by a bot:\n%s", mixedEN)
	}
}

// A game lost as its last mission ended says both: the mission succeeded
// (or failed) and then the morale drop (or the hard knocks after the
// support) lost the game, in the mission's line and its turning point.
func TestReviewSaysTheGameWasLostAfterTheMission(t *testing.T) {
	r, seats := sampleReview()
	r.Lines[2].Outcome, r.Lines[2].Loss = grizzbot.Succeeded, grizzled.LossMorale
	r.Turns = append(r.Turns, grizzbot.Turn{Cause: grizzbot.ByOutcome, Outcome: grizzbot.Succeeded, Loss: grizzled.LossMorale,
		Mission: 3, From: 0.2, To: 0, At: 30})
	th := uikit.New(nil)
	plain := strings.Join(strings.Fields(strings.Join(ReviewLines(th, r, seats, 80, true), "\n")), " ")
	for _, want := range []string{
		"Mission 3: the team's chances 30% before it → 0% after; it succeeded, but the morale drop after it emptied the morale reserve and the game was lost",
		": mission 3 succeeded, but the morale drop after it emptied the morale reserve: the game was lost (20% → 0%)"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the review does not say %q:\n%s", want, plain)
		}
	}
	r.Lines[2].Outcome, r.Lines[2].Loss = grizzbot.Failed, grizzled.LossKnocks
	plain = strings.Join(strings.Fields(strings.Join(ReviewLines(th, r, seats, 80, true), "\n")), " ")
	if want := "it failed, and after its support a soldier bore hard knocks weighing 4 or more: the game was lost"; !strings.Contains(plain, want) {
		t.Errorf("the review does not say %q:\n%s", want, plain)
	}
}

// A turning point made by a bot names it as a bot in the reader's
// language: a bot seat's move, and a move a bot made in a person's place.
func TestReviewNamesTheBotThatMoved(t *testing.T) {
	r, seats := sampleReview()
	r.Turns[3].Bot, r.Turns[3].To = true, 0.05 // bob's seat, played by a bot in his place
	seats = append(seats[:2:2], table.SeatInfo{Seat: 2, Name: "Ewa" + game.BotMark, Bot: "strong"})
	r.Turns = append(r.Turns, grizzbot.Turn{Cause: grizzbot.ByFailPlay, Seat: 2, Bot: true, Mission: 3, Turn: 3,
		Action: grizzled.Action{Kind: grizzled.ActPlay, Card: 1}, From: 0.29, To: 0.1, At: 25})
	for _, lang := range i18n.Langs {
		th := uikit.New(nil)
		th.SetLang(lang)
		plain := strings.Join(strings.Fields(strings.Join(ReviewLines(th, r, seats, 200, true), "\n")), " ")
		for _, want := range []string{th.T("name.bot", game.Text("Name", "bob")), th.T("name.bot", game.Text("Name", "Ewa"))} {
			if !strings.Contains(plain, want) || strings.Contains(plain, want+" "+th.T("ui.tag.bot")) {
				t.Errorf("%s: the review does not name %q once:\n%s", lang, want, plain)
			}
		}
		if lang == i18n.English && !strings.Contains(plain, "the last bob (bot)'s: withdraw") {
			t.Errorf("the bot's move is not named:\n%s", plain)
		}
	}
}

// In Polish, as a player saw it over SSH: the header has no stray comma,
// and a mission's size reads as a phrase inside the sentence ("3 karty na
// żołnierza"), not as the moves list's capitalised prompt.
func TestReviewReadsInPolish(t *testing.T) {
	r, seats := sampleReview()
	d := &r.Decisions[8]
	d.Made, d.Best = grizzled.Action{Kind: grizzled.ActIntensity, K: 1}, grizzled.Action{Kind: grizzled.ActIntensity, K: 3}
	th := uikit.New(nil)
	th.SetLang(i18n.Polish)
	plain := strings.Join(strings.Fields(strings.Join(ReviewLines(th, r, seats, 80, true), "\n")), " ")
	for _, want := range []string{"Drużyna przegrała w misji 3.", "ruch 5: 1 karta na żołnierza", "trener: 3 karty na żołnierza"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the review does not say %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "Kart na żołnierza") {
		t.Errorf("the moves list's prompt inside a sentence:\n%s", plain)
	}
}

// The chart shows every mission's number, however short the mission
// (two rows when they crowd), marks failed ones with ✗ and says so, and
// draws every turning point the list names, also two at one decision.
func TestReviewChartShowsEveryMissionAndMark(t *testing.T) {
	est := func(p float64) grizzbot.Estimate { return grizzbot.Estimate{P: p, Lo: p - 0.03, Hi: p + 0.03, N: 96} }
	var r grizzbot.GameReview
	r.Samples, r.Missions = 96, 12
	play := grizzled.Action{Kind: grizzled.ActPlay, Card: 3}
	for i := range 40 { // missions 1-4 long, 5-12 of one or two decisions
		m := 1 + i/8
		if i >= 32 {
			m = 5 + (i - 32)
		}
		a := grizzbot.Assessment{Made: play, Best: play, MadeP: est(0.5), BestP: est(0.5), Choices: 2}
		r.Decisions = append(r.Decisions, grizzbot.Decision{Index: i + 1, Seat: 0, Mission: m, Turn: 1, Assessment: a})
	}
	for m := 1; m <= 12; m++ {
		o := grizzbot.Succeeded
		if m == 3 || m == 9 {
			o = grizzbot.Failed
		}
		r.Lines = append(r.Lines, grizzbot.MissionLine{Mission: m, Start: est(0.5), Outcome: o})
	}
	r.Turns = []grizzbot.Turn{
		{Cause: grizzbot.ByTrap, Mission: 5, From: 0.6, To: 0.3, At: 33},
		{Cause: grizzbot.ByCards, Mission: 5, From: 0.3, To: 0.1, At: 33},                // the same decision
		{Cause: grizzbot.ByCards, Mission: 6, From: 0.1, To: 0.12, Margin: 0.05, At: 34}, // within its margin: none
		{Cause: grizzbot.ByOutcome, Outcome: grizzbot.Failed, Mission: 9, From: 0.5, To: 0.2, At: 37},
	}
	seats := []table.SeatInfo{{Seat: 0, Name: "ann"}, {Seat: 1, Name: "bob"}}
	for _, width := range []int{80, 50} {
		th := uikit.New(nil)
		lines := ReviewLines(th, r, seats, width, false)
		text := ansi.Strip(strings.Join(lines, "\n"))
		var ruler, marks string
		for i, l := range lines {
			if strings.Contains(l, "└") {
				for _, r := range lines[i+1:] {
					if strings.ContainsAny(r, "ABC") {
						break
					}
					ruler += " " + ansi.Strip(r)
				}
			}
			if strings.HasPrefix(ansi.Strip(l), "      ") && strings.ContainsAny(ansi.Strip(l), "ABC") && !strings.ContainsAny(l, "0123456789") {
				marks = ansi.Strip(l)
			}
		}
		for m := 1; m <= 12; m++ {
			label := strconv.Itoa(m)
			if m == 3 || m == 9 {
				label += "✗"
			}
			if !slices.Contains(strings.Fields(ruler), label) {
				t.Errorf("%d columns: mission %q is not under the chart: %q", width, label, ruler)
			}
		}
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "✗ after a mission's number: the mission failed") {
			t.Errorf("%d columns: no legend for ✗:\n%s", width, text)
		}
		turns := r.Turning(3)
		if len(turns) != 3 {
			t.Fatalf("%d turning points, want 3 (one is within its margin)", len(turns))
		}
		for k := range turns {
			mark := string(rune('A' + k))
			if !strings.Contains(marks, mark) || !strings.Contains(text, mark+": mission") {
				t.Errorf("%d columns: turning point %s is not both on the chart (%q) and in the list", width, mark, marks)
			}
		}
		if strings.Contains(text, "D: mission") || strings.Contains(text, "−0 points") || strings.Contains(text, "standing instead") {
			t.Errorf("%d columns: a change within its margin, a cost of 0 or a note for nothing listed:\n%s", width, text)
		}
	}
}

// The grades count every graded decision, and those past the list are
// said to be there; a cost only judged by the standing prints no "−0".
func TestReviewGradesCountWhatTheyList(t *testing.T) {
	est := func(p, h float64) grizzbot.Estimate { return grizzbot.Estimate{P: p, Lo: p - h, Hi: p + h, N: 96} }
	play := func(c grizzled.CardID) grizzled.Action { return grizzled.Action{Kind: grizzled.ActPlay, Card: c} }
	withdraw := grizzled.Action{Kind: grizzled.ActWithdraw}
	r := grizzbot.GameReview{Samples: 96, Missions: 2}
	for i, cost := range []float64{0.03, 0.04, 0.06, 0.12, 0.025} {
		a := grizzbot.Assessment{Made: play(grizzled.CardID(i + 1)), Best: withdraw, MadeP: est(0.4, 0.03), BestP: est(0.4+cost, 0.03),
			Cost: est(cost, 0.01), Choices: 2}
		r.Decisions = append(r.Decisions, grizzbot.Decision{Index: i + 1, Seat: 0, Mission: 1, Turn: i + 1, Assessment: a})
	}
	hopeless := grizzbot.Assessment{Made: play(9), Best: withdraw, MadeP: est(0.01, 0.005), BestP: est(0.01, 0.005), Hopeless: true,
		MadeS: est(0.5, 0.02), BestS: est(0.6, 0.02), CostS: est(0.1, 0.02), Choices: 2}
	r.Decisions = append(r.Decisions, grizzbot.Decision{Index: 9, Seat: 1, Mission: 2, Turn: 1, Assessment: hopeless})
	seats := []table.SeatInfo{{Seat: 0, Name: "ann"}, {Seat: 1, Name: "bob"}}
	flat := strings.Join(strings.Fields(ansi.Strip(strings.Join(ReviewLines(uikit.New(nil), r, seats, 80, false), "\n"))), " ")
	for _, want := range []string{
		"inaccuracies: 3 · mistakes: 1 · blunders: 1 (−28 points)", "… and 2 smaller ones, not listed.",
		"bob · decisions: 1 · as the coach would: 0 inaccuracies: 0 · mistakes: 1 · blunders: 0 1.", // no "(−0 points)"
		"standing instead",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the review does not say %q:\n%s", want, flat)
		}
	}
}

// The points the graded decisions cost are summed as each was made; the
// chances can come back in between, so a sum past 100 is not printed.
func TestReviewCostSumStaysWithinAHundred(t *testing.T) {
	est := func(p, h float64) grizzbot.Estimate { return grizzbot.Estimate{P: p, Lo: p - h, Hi: p + h, N: 96} }
	r := grizzbot.GameReview{Samples: 96, Missions: 3}
	for i := range 3 {
		a := grizzbot.Assessment{Made: grizzled.Action{Kind: grizzled.ActPlay, Card: grizzled.CardID(i + 1)},
			Best: grizzled.Action{Kind: grizzled.ActWithdraw}, MadeP: est(0.2, 0.03), BestP: est(0.62, 0.03), Cost: est(0.42, 0.02), Choices: 2}
		r.Decisions = append(r.Decisions, grizzbot.Decision{Index: i + 1, Seat: 0, Mission: i + 1, Turn: 1, Assessment: a})
	}
	flat := strings.Join(strings.Fields(ansi.Strip(strings.Join(ReviewLines(uikit.New(nil), r, []table.SeatInfo{{Seat: 0, Name: "ann"}}, 80, false), "\n"))), " ")
	if !strings.Contains(flat, "inaccuracies: 0 · mistakes: 0 · blunders: 3") || strings.Contains(flat, "126 points") {
		t.Errorf("three blunders of 42 points: the grades line\n%s", flat)
	}
}

// A game the people left to the bot after mission 2: the chart goes on to
// its last mission (each mission without a rated decision at its start),
// its failed missions marked, and a turning point there is drawn under
// its mission. It stopped at the last decision, at ~50% in a game won in
// mission 11, with the later turning points piled on its last column.
func TestTheChartGoesOnWhereTheBotPlayedForThem(t *testing.T) {
	est := func(p float64) grizzbot.Estimate { return grizzbot.Estimate{P: p, Lo: p - 0.03, Hi: p + 0.03, N: 96} }
	var r grizzbot.GameReview
	r.Samples, r.Missions = 96, 5
	play := grizzled.Action{Kind: grizzled.ActPlay, Card: 3}
	for i := range 6 { // three decisions in each of missions 1 and 2
		a := grizzbot.Assessment{Made: play, Best: play, MadeP: est(0.5), BestP: est(0.5), Choices: 2}
		r.Decisions = append(r.Decisions, grizzbot.Decision{Index: i + 1, Seat: 0, Mission: 1 + i/3, Turn: 1 + i%3, Assessment: a})
	}
	for m, p := range []float64{0.5, 0.5, 0.4, 0.6, 0.95} {
		o := grizzbot.Succeeded
		if m+1 == 4 {
			o = grizzbot.Failed
		}
		r.Lines = append(r.Lines, grizzbot.MissionLine{Mission: m + 1, Start: est(p), Outcome: o})
	}
	r.Turns = []grizzbot.Turn{{Cause: grizzbot.ByOutcome, Outcome: grizzbot.Failed, Mission: 4, From: 0.6, To: 0.2, At: 6}}
	seats := []table.SeatInfo{{Seat: 0, Name: "ann"}}
	for _, width := range []int{80, 50} {
		lines := ReviewLines(uikit.New(nil), r, seats, width, false)
		var top, labels, marks []rune
		for i, l := range lines {
			l = ansi.Strip(l)
			switch {
			case strings.Contains(l, "100%┤"):
				top = []rune(l)
			case strings.Contains(l, "└"):
				labels, marks = []rune(ansi.Strip(lines[i+1])), []rune(ansi.Strip(lines[i+2]))
			}
		}
		for _, m := range []string{"1", "2", "3", "4✗", "5"} {
			if !slices.Contains(strings.Fields(string(labels)), m) {
				t.Errorf("%d columns: mission %s is not under the chart: %q", width, m, string(labels))
			}
		}
		four := strings.Index(string(labels), "4✗")
		if four < 0 || slices.Index(marks, 'A') != len([]rune(string(labels)[:four])) {
			t.Errorf("%d columns: the mark is not under mission 4:\n%s\n%s", width, string(labels), string(marks))
		}
		if len(top) == 0 || top[len(top)-1] == ' ' {
			t.Errorf("%d columns: the chart does not end at mission 5's start (95%%): %q", width, string(top))
		}
	}
}
