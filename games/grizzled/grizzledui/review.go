package grizzledui

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/games/grizzled/grizzbot"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The coach's review of a finished game, drawn for one reader: the team's
// chances after each decision as a chart (with the moments the game turned
// marked), then each person's one-line summary and three costliest
// decisions with what the coach would have done. Decisions a bot made in a
// person's place are not theirs: the review says so rather than rate them.

// chartRows is the chart's height in lines (eighths of a line each).
const chartRows = 6

// ReviewLines draws r for a terminal width wide: the chart when plain is
// false, sentences per mission when it is true (a screen reader reads the
// numbers, not bars).
func ReviewLines(th *uikit.Theme, r grizzbot.GameReview, seats []table.SeatInfo, width int, plain bool) []string {
	return reviewDoc(th, r, seats, width, plain).lines
}

// doc is a review's lines, each with the moment of the game it names:
// the number of actions before the decision (or the stretch) it is
// about, or -1.
type doc struct {
	lines []string
	at    []int
}

// add appends lines about the moment at.
func (d *doc) add(at int, lines ...string) {
	for _, l := range lines {
		d.lines, d.at = append(d.lines, l), append(d.at, at)
	}
}

// reviewDoc is ReviewLines with the moment each line names.
func reviewDoc(th *uikit.Theme, r grizzbot.GameReview, seats []table.SeatInfo, width int, plain bool) *doc {
	s := newReviewWords(th, seats)
	out := &doc{}
	if len(r.Decisions) == 0 && len(r.StandIns) == 0 {
		out.add(-1, th.T("grizzledui.review.nothing"))
		return out
	}
	out.add(-1, styled(th.Strong, uikit.Wrap(s.outcomeLine(r), width))...)
	if len(r.Decisions) == 0 {
		for _, seat := range reviewedSeats(r) { // a bot made every choice
			s.playerLines(out, r, seat, width)
		}
		return out
	}
	turns := r.Turning(3)
	if plain {
		for i, l := range s.missionSentences(r) {
			out.add(r.Lines[i].Index-1, uikit.Wrap(l, width)...)
		}
	} else {
		out.add(-1, styled(th.Header, uikit.Wrap(th.T("grizzledui.review.chart_title"), width))...)
		out.add(-1, s.chart(r, turns, width)...)
	}
	for k, t := range turns {
		out.add(t.First-1, uikit.Wrap(s.turnLine(string(rune('A'+k)), t), width)...)
	}
	hopeless, graded := false, false
	for _, seat := range reviewedSeats(r) {
		out.add(-1, "")
		s.playerLines(out, r, seat, width)
		for _, d := range costliest(r, seat) {
			hopeless, graded = hopeless || d.Hopeless, true
		}
	}
	out.add(-1, "")
	if graded {
		out.add(-1, styled(th.Muted, uikit.Wrap(th.T("grizzledui.review.grades_note", game.Num("Inaccuracy", pct(grizzbot.MinMistake)),
			game.Num("Mistake", pct(grizzbot.GradeMistakeFrom)), game.Num("Blunder", pct(grizzbot.GradeBlunderFrom))), width))...)
	}
	if hopeless { // a decision judged by the standing is listed
		out.add(-1, styled(th.Muted, uikit.Wrap(th.T("grizzledui.review.standing_note", game.Num("Below", pct(grizzbot.Hopeless))), width))...)
		out.add(-1, styled(th.Muted, uikit.Wrap(th.T("grizzledui.review.grades_standing_note", game.Num("Inaccuracy", pct(grizzbot.MinStandMistake)),
			game.Num("Mistake", pct(grizzbot.StandGradeMistakeFrom)), game.Num("Blunder", pct(grizzbot.StandGradeBlunderFrom))), width))...)
	}
	out.add(-1, styled(th.Muted, uikit.Wrap(th.T("grizzledui.review.noise_note", game.Num("Samples", r.Samples)), width))...)
	return out
}

// outcomeLine says how the game ended: won, or lost in which mission.
func (s *reviewWords) outcomeLine(r grizzbot.GameReview) string {
	if r.Won {
		return s.th.T("grizzledui.review.won", game.Num("Mission", r.Missions))
	}
	return s.th.T("grizzledui.review.lost", game.Num("Mission", r.Missions))
}

// turnLine says turning point t, marked mark, with its cause.
func (s *reviewWords) turnLine(mark string, t grizzbot.Turn) string {
	th := s.th
	args := []game.Arg{game.Text("Mark", mark), game.Num("Mission", t.Mission), game.Num("From", pct(t.From)), game.Num("To", pct(t.To))}
	who := func() []game.Arg {
		s.u.Seat = t.Seat
		return append(args, game.Text("Player", s.moverName(t)), game.Num("Turn", t.Turn), game.Text("Action", s.reviewLabel(t.Action)))
	}
	switch t.Cause {
	case grizzbot.ByDecision:
		return th.T("grizzledui.review.turn_decision", who()...)
	case grizzbot.ByMove:
		return th.T("grizzledui.review.turn_move", who()...)
	case grizzbot.ByFailPlay:
		return th.T("grizzledui.review.turn_fail_play", who()...)
	case grizzbot.ByTrap:
		return th.T("grizzledui.review.turn_trap", args...)
	case grizzbot.ByOutcome:
		return th.T(outcomeKey(t.Outcome, t.Loss, true), args...)
	}
	return th.T("grizzledui.review.turn_cards", args...)
}

// outcomeKeys are the catalog keys that say a mission's outcome, for the
// mission's line and for its turning point: how it went, and whether the
// game was lost as it ended (the hard knocks after its support, or the
// morale drop after that). GameLost: no support said how it went.
var outcomeKeys = map[outcomeOf][2]string{
	{grizzbot.Succeeded, grizzled.LossNone}:   {"grizzledui.review.mission_succeeded", "grizzledui.review.turn_succeeded"},
	{grizzbot.Failed, grizzled.LossNone}:      {"grizzledui.review.mission_failed", "grizzledui.review.turn_failed"},
	{grizzbot.Succeeded, grizzled.LossMorale}: {"grizzledui.review.mission_succeeded_morale", "grizzledui.review.turn_succeeded_morale"},
	{grizzbot.Failed, grizzled.LossMorale}:    {"grizzledui.review.mission_failed_morale", "grizzledui.review.turn_failed_morale"},
	{grizzbot.Succeeded, grizzled.LossKnocks}: {"grizzledui.review.mission_succeeded_knocks", "grizzledui.review.turn_succeeded_knocks"},
	{grizzbot.Failed, grizzled.LossKnocks}:    {"grizzledui.review.mission_failed_knocks", "grizzledui.review.turn_failed_knocks"},
}

type outcomeOf struct {
	o    grizzbot.Outcome
	loss grizzled.Loss
}

// outcomeKey is the key for outcome o and loss: the mission line's
// (turn false) or the turning point's.
func outcomeKey(o grizzbot.Outcome, loss grizzled.Loss, turn bool) string {
	k, ok := outcomeKeys[outcomeOf{o, loss}]
	if !ok {
		k = [2]string{"grizzledui.review.mission_lost", "grizzledui.review.turn_lost"}
	}
	if turn {
		return k[1]
	}
	return k[0]
}

// moverName is who made t's move: a bot's move, also one a bot made in a
// person's place, is marked as a bot's in the reader's language (a bot
// seat's name carries the mark already).
func (s *reviewWords) moverName(t grizzbot.Turn) string {
	if t.Bot {
		for _, p := range s.v.Players {
			if p.Seat == t.Seat && !p.Chaplain && p.Name != "" && !strings.HasSuffix(p.Name, game.BotMark) {
				return s.th.Name(uikit.Clean(p.Name) + game.BotMark)
			}
		}
	}
	return s.name(t.Seat)
}

// styled draws each line in ink.
func styled(ink uikit.Ink, lines []string) []string {
	for i, l := range lines {
		lines[i] = ink.Render(l)
	}
	return lines
}

// reviewWords name the seats, cards and moves of a review, as no seat in
// particular sees them (a decision is said as its own seat made it).
type reviewWords struct{ words }

func newReviewWords(th *uikit.Theme, seats []table.SeatInfo) *reviewWords {
	s := &reviewWords{words{th: th}}
	s.v.Seat = game.Spectator
	for _, si := range seats {
		s.v.Players = append(s.v.Players, grizzled.PlayerView{Seat: si.Seat, Name: si.Name})
	}
	if len(seats) == 2 { // the two-player game seats the chaplain third (§6.4): a tile may go to him
		s.v.Players = append(s.v.Players, grizzled.PlayerView{Seat: 2, Chaplain: true})
	}
	return s
}

// decided is an action of d's decision in words, as d's seat made it: a
// support tile points from that seat, not from the reader's (SU-2).
func (s *reviewWords) decided(d grizzbot.Decision, a grizzled.Action) string {
	s.u.Seat = d.Seat
	return s.reviewLabel(a)
}

// reviewLabel is an action in words inside a review's sentence: the
// mission's size as a phrase of its own ("3 cards to each soldier"), not
// the moves list's capitalised prompt.
func (s *reviewWords) reviewLabel(a grizzled.Action) string {
	if a.Kind == grizzled.ActIntensity {
		return s.th.T("grizzledui.review.intensity", game.Count(a.K))
	}
	return s.coachLabel(a)
}

// reviewedSeats are the seats with rated decisions or decisions a bot
// made in their place, in seat order.
func reviewedSeats(r grizzbot.GameReview) []game.Seat {
	var out []game.Seat
	for _, d := range r.Decisions {
		if !slices.Contains(out, d.Seat) {
			out = append(out, d.Seat)
		}
	}
	for seat := range r.StandIns {
		if !slices.Contains(out, seat) {
			out = append(out, seat)
		}
	}
	slices.Sort(out)
	return out
}

// margin is the half-width of e's interval in whole points, at least 1
// (a margin said as ±0 would claim a certainty the model does not have).
func margin(e grizzbot.Estimate) int { return max(1, int(math.Ceil(100*(e.Hi-e.Lo)/2-1e-9))) }

// pct is a chance in whole percent.
func pct(p float64) int { return int(math.Round(100 * p)) }

// playerLines adds one person's summary and costliest decisions, and how
// many of their decisions a bot made for them.
func (s *reviewWords) playerLines(out *doc, r grizzbot.GameReview, seat game.Seat, width int) {
	th := s.th
	standIns := r.StandIns[seat]
	decisions, agree, graded := 0, 0, 0
	var grades [grizzbot.GradeBlunder + 1]int
	cost := 0.0 // what the graded decisions cost the chance to win
	for _, d := range r.Decisions {
		if d.Seat != seat {
			continue
		}
		decisions++
		if grizzbot.SameAction(d.Made, d.Best) {
			agree++
		}
		if gr := d.Grade(); gr != grizzbot.GradeNone {
			grades[gr]++
			graded++
			if !d.Hopeless {
				cost += d.Cost.P
			}
		}
	}
	if decisions == 0 {
		out.add(-1, styled(th.Strong, uikit.Wrap(th.T("grizzledui.review.stood_in", game.Text("Player", s.name(seat))), width))...)
		return
	}
	out.add(-1, styled(th.Strong, uikit.Wrap(th.T("grizzledui.review.summary", game.Text("Player", s.name(seat)),
		game.Num("Decisions", decisions), game.Num("Agree", agree)), width))...)
	if graded > 0 {
		key := "grizzledui.review.grades"
		// No sum when judged by the standing or under half a point, nor
		// past 100: each cost is taken when its decision was made, and the
		// chances can come back between decisions (the others' moves, the
		// cards), so a sum of 127 points is not what the game lost.
		if pct(cost) == 0 || pct(cost) > 100 {
			key = "grizzledui.review.grades_no_cost"
		}
		out.add(-1, styled(th.Strong, uikit.Wrap("  "+th.T(key, game.Num("Inaccuracies", grades[grizzbot.GradeInaccuracy]),
			game.Num("Mistakes", grades[grizzbot.GradeMistake]), game.Num("Blunders", grades[grizzbot.GradeBlunder]), game.Num("Cost", pct(cost))), width))...)
	}
	if standIns > 0 {
		out.add(-1, styled(th.Muted, uikit.Wrap("  "+th.T("grizzledui.review.stood_in_some", game.Count(standIns)), width))...)
	}
	worst := costliest(r, seat)
	if len(worst) == 0 {
		out.add(-1, styled(th.Muted, uikit.Wrap("  "+th.T("grizzledui.review.no_mistakes"), width))...)
		return
	}
	for k, d := range worst {
		out.add(d.Index-1, uikit.Wrap(th.T("grizzledui.review.costly", game.Num("Rank", k+1), game.Num("Turn", d.Turn), game.Num("Mission", d.Mission),
			game.Text("Made", s.decided(d, d.Made)), game.Text("Grade", th.T(gradeKeys[d.Grade()]))), width)...)
		better := th.T("grizzledui.review.better", game.Text("Best", s.decided(d, d.Best)),
			game.Num("MadeP", pct(d.MadeP.P)), game.Num("BestP", pct(d.BestP.P)), game.Num("Margin", margin(d.Cost)),
			game.Text("Why", whyClause(th, d.Why)))
		if d.Hopeless {
			better = th.T("grizzledui.review.better_standing", game.Text("Best", s.decided(d, d.Best)),
				game.Num("MadeS", pct(d.MadeS.P)), game.Num("BestS", pct(d.BestS.P)), game.Num("Margin", margin(d.CostS)),
				game.Text("Why", whyClause(th, d.Why)))
		}
		for _, l := range uikit.Wrap(better, max(10, width-5)) {
			out.add(d.Index-1, "     "+th.Good.Render(l))
		}
	}
	if more := graded - len(worst); more > 0 {
		out.add(-1, styled(th.Muted, uikit.Wrap("  "+th.T("grizzledui.review.more", game.Count(more)), width))...)
	}
}

// gradeKeys name the grades.
var gradeKeys = [...]string{
	grizzbot.GradeInaccuracy: "grizzledui.review.grade_inaccuracy",
	grizzbot.GradeMistake:    "grizzledui.review.grade_mistake",
	grizzbot.GradeBlunder:    "grizzledui.review.grade_blunder",
}

// whyKeys say what a better move gains, in one clause.
var whyKeys = map[grizzbot.Gain]string{
	grizzbot.GainThreat:  "grizzledui.why.threat",
	grizzbot.GainMission: "grizzledui.why.mission",
	grizzbot.GainLoss:    "grizzledui.why.loss",
	grizzbot.GainKnocks:  "grizzledui.why.knocks",
	grizzbot.GainMorale:  "grizzledui.why.morale",
	grizzbot.GainOdds:    "grizzledui.why.odds",
}

// whyClause is why a move is the better one, in one clause.
func whyClause(th *uikit.Theme, w grizzbot.Why) string {
	key, ok := whyKeys[w.Gain]
	if !ok {
		key = whyKeys[grizzbot.GainOdds]
	}
	clause := th.T(key)
	if w.FailsAnyway {
		return th.T("grizzledui.why.either_way", game.Text("Why", clause))
	}
	return clause
}

// costliest are seat's three costliest mistakes while the game could be
// won, then up to two of those after it was all but lost (judged by the
// team's standing): a game lost early still has something to teach.
func costliest(r grizzbot.GameReview, seat game.Seat) []grizzbot.Decision {
	var win, stand []grizzbot.Decision
	for _, d := range r.Costliest(seat, len(r.Decisions)) {
		switch {
		case !d.Hopeless && len(win) < 3:
			win = append(win, d)
		case d.Hopeless && len(stand) < 2:
			stand = append(stand, d)
		}
	}
	return append(win, stand...)
}

// missionSentences says, per mission, the team's chances before its first
// move and after its outcome, and how it ended.
func (s *reviewWords) missionSentences(r grizzbot.GameReview) []string {
	var out []string
	for i, l := range r.Lines {
		end := 0.0
		switch {
		case i+1 < len(r.Lines):
			end = r.Lines[i+1].Start.P
		case r.Won:
			end = 1
		}
		rated := 0
		for _, d := range r.Decisions {
			if d.Mission == l.Mission {
				rated++
			}
		}
		key := "grizzledui.review.mission_unfinished"
		if l.Outcome != grizzbot.Unfinished {
			key = outcomeKey(l.Outcome, l.Loss, false)
		}
		out = append(out, s.th.T(key, game.Num("Mission", l.Mission), game.Num("From", pct(l.Start.P)), game.Num("To", pct(end)),
			game.Num("Decisions", rated)))
	}
	return out
}

// eighths are the partial blocks of a column, from one eighth to full.
var eighths = []rune{'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// chartPoint is one of the chart's points: a rated decision (dec, its
// index in Decisions), or the start of a mission no rated decision was
// made in (dec -1: its people had given their seats to the bot).
type chartPoint struct {
	p       float64
	mission int
	dec     int
}

// chartPoints are the chart's points in the game's order: the chances after
// each rated decision, and each mission without one at its start, so that
// a game the people left to the bot is drawn to its last mission, not
// stopped at their last decision.
func chartPoints(r grizzbot.GameReview) []chartPoint {
	rated := map[int]bool{}
	for _, d := range r.Decisions {
		rated[d.Mission] = true
	}
	var pts []chartPoint
	next := 0 // the next decision to place
	for _, l := range r.Lines {
		for ; next < len(r.Decisions) && r.Decisions[next].Mission < l.Mission; next++ {
			pts = append(pts, chartPoint{r.Decisions[next].MadeP.P, r.Decisions[next].Mission, next})
		}
		if !rated[l.Mission] {
			pts = append(pts, chartPoint{l.Start.P, l.Mission, -1})
		}
	}
	for ; next < len(r.Decisions); next++ {
		pts = append(pts, chartPoint{r.Decisions[next].MadeP.P, r.Decisions[next].Mission, next})
	}
	return pts
}

// chart draws the chances as columns (one per point, or per group of
// points when there are more than fit), a ruler with the missions'
// numbers, and the turning points' marks A, B, C.
func (s *reviewWords) chart(r grizzbot.GameReview, turns []grizzbot.Turn, width int) []string {
	th := s.th
	pts := chartPoints(r)
	n, room := len(pts), max(1, width-7)
	cols := room // more points than columns: a column covers several
	if n <= room {
		cols = n * (room / n) // fewer: each point is as wide as fits
	}
	colOf := func(i int) int { return i * cols / n }
	values := make([]float64, cols)
	for i, pt := range pts { // a column shows the last point it covers
		for c := colOf(i); c < max(colOf(i)+1, colOf(i+1)); c++ {
			values[c] = pt.p
		}
	}
	var out []string
	for row := chartRows - 1; row >= 0; row-- {
		label := "     │"
		switch row {
		case chartRows - 1:
			label = " 100%┤"
		case chartRows / 2:
			label = "  50%┤"
		case 0:
			label = "   0%┤"
		}
		var b strings.Builder
		for _, v := range values {
			level := v*chartRows*8 - float64(row*8) // eighths of this row filled
			switch {
			case level >= 8:
				b.WriteRune('█')
			case level >= 1:
				b.WriteRune(eighths[int(level)-1])
			case row == 0:
				b.WriteRune('▁') // never an empty column: 0% still shows
			default:
				b.WriteRune(' ')
			}
		}
		out = append(out, th.Muted.Render(label)+th.Accent.Render(b.String()))
	}
	ruler := []rune(strings.Repeat("─", cols))
	failed := map[int]bool{} // missions that failed, marked ✗ after their number
	for _, l := range r.Lines {
		failed[l.Mission] = l.Outcome == grizzbot.Failed
	}
	// Each mission's number under its first point, on the first row with
	// room: short missions' numbers take more rows, never dropped.
	var rows [][]rune
	for i, pt := range pts {
		if i > 0 && pt.mission == pts[i-1].mission {
			continue
		}
		c := colOf(i)
		ruler[c] = '┴'
		label := []rune(strconv.Itoa(pt.mission))
		if failed[pt.mission] {
			label = append(label, '✗')
		}
		k := slices.IndexFunc(rows, func(row []rune) bool { return fits(row, c, len(label)) })
		if k < 0 {
			rows, k = append(rows, []rune(strings.Repeat(" ", cols+4))), len(rows)
		}
		copy(rows[k][c:], label)
	}
	// The turning points' marks at the last point each is or follows (a
	// decision before it ends, or its mission's start when no decision
	// was rated in it); two at one column go side by side, so that every
	// listed mark is drawn.
	marks := []rune(strings.Repeat(" ", cols))
	for k, t := range turns {
		at := 0
		for i, pt := range pts {
			if pt.dec >= 0 && pt.dec < t.At || pt.dec < 0 && pt.mission <= t.Mission {
				at = i
			}
		}
		c := colOf(at)
		for c < cols-1 && marks[c] != ' ' {
			c++
		}
		for c > 0 && marks[c] != ' ' {
			c--
		}
		marks[c] = rune('A' + k)
	}
	out = append(out, th.Muted.Render("     └"+string(ruler)))
	for _, row := range rows {
		out = append(out, th.Muted.Render("      "+strings.TrimRight(string(row), " ")))
	}
	out = append(out, "      "+th.Warning.Render(strings.TrimRight(string(marks), " ")))
	for _, f := range failed {
		if f {
			for _, l := range uikit.Wrap(th.T("grizzledui.review.failed_legend"), max(10, width-6)) {
				out = append(out, th.Muted.Render("      "+l))
			}
			return out
		}
	}
	return out
}

// fits reports whether a label of n runes fits in row at column c, a
// blank before it to keep it apart from the one on its left.
func fits(row []rune, c, n int) bool {
	if c+n > len(row) || c > 0 && row[c-1] != ' ' {
		return false
	}
	for _, r := range row[c : c+n] {
		if r != ' ' {
			return false
		}
	}
	return true
}
