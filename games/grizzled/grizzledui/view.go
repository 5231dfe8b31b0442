package grizzledui

// Why this file is long: it draws the whole Grizzled table (header, No
// Man's Land, the soldiers' grid, log, hand, prompts) at every size from
// 80×24 up; the parts share one layout budget, worked out in one place.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/x/ansi"
)

// sharedLines holds the parts of a frame that the seats of a table draw
// alike, for all sessions: 2,000 tables playing a move each 2 s put about
// 10,000 parts a second in it, so a table's five seats, drawn within a few
// milliseconds of each other, nearly always find the first one's.
var sharedLines = uikit.NewSharedLines(8192)

// View draws the table in the area given by SetSize.
func (s *Screen) View() string { return strings.Join(s.Lines(), "\n") }

// Lines is View as lines (uikit.Lined).
func (s *Screen) Lines() []string {
	return uikit.Frame(s.th, s.Keys, s.helpBar, s.w, s.h, MinWidth, MinHeight, s.notice, s.body)
}

// body is everything but the help bar, at most h lines of at most w cells.
func (s *Screen) body(w, h int) []string {
	if lines, ok := uikit.RoomLines(s.th, "grizzled.title", s.u.Closed, s.hasView, w); ok {
		return lines
	}
	s.drawnAsk, s.drawing = s.askNow(), true
	defer func() {
		s.drawnAsk, s.drawing = ask{}, false
		s.scratch.clear()
	}()
	tall := h >= 30
	title, nml := s.titleLine(w), s.nmlLines(w, tall)
	mid := s.supportLines(w)
	bottomOf := func(detail int) []string {
		b := s.scratch.bottom[:0]
		if s.over() {
			b = append(b, s.overLines(w, s.th.T("ui.q_leaves"))...)
		} else {
			b = append(append(b, s.handLines(w, detail)...), s.actionLines(w)...)
		}
		b = append(b, s.noticeLines(w)...)
		s.scratch.bottom = b
		return b
	}
	// With room to spare the hand is a list, one card a line with its text;
	// else a row of cards with the one under the cursor described.
	fixed := 1 + len(nml) + len(mid) + 1 + len(s.v.Players) + 3
	var bottom []string
	spare := -1
	// The list takes at least a line per card and its heading: don't draw
	// it (a third of the time a screen took) when it cannot fit.
	if h-fixed-(len(s.v.Hand)+1) >= 6 {
		bottom = bottomOf(-1)
		spare = h - fixed - len(bottom)
	}
	if spare < 6 {
		bottom = bottomOf(2)
		spare = h - fixed - len(bottom)
	}
	// The soldiers take one line each, more when their hard knocks need it
	// and the height allows; the log gets what is left (at least 2 lines).
	if spare < 0 { // tight: shorten the card description
		bottom = bottomOf(1)
		spare = h - fixed - len(bottom)
	}
	sold := s.soldierLines(w, max(spare, 0))
	// One frame, one list, with room for the session's bar under it.
	out := make([]string, 0, max(h, 1+len(nml)+len(sold)+len(mid)+len(bottom))+1)
	out = append(append(append(out, title), nml...), sold...)
	logH := h - len(out) - len(mid) - len(bottom)
	if coach := s.coachLines(w); len(coach) > 0 { // the guided mission's lesson, over the log
		coach = coach[:min(len(coach), max(logH, 2))]
		out = append(out, coach...)
		logH -= len(coach)
	}
	out = append(out, s.logLines(w, logH)...)
	out = append(out, mid...)
	out = append(out, bottom...)
	if len(out) > h {
		out = out[:h]
	}
	return out
}

func (s *Screen) over() bool { return s.u.Over || s.v.Over || s.v.Phase == grizzled.PhaseOver }

// titleLine is the header line: the table's name and the team's numbers,
// the same for every seat (shared between them, see sharedLines).
func (s *Screen) titleLine(w int) string {
	k := uikit.NewKey(s.th, "title", w)
	k.Msg(s.u.Title).Str(s.u.Room).Int(s.v.Round).Int(s.v.Trials).Int(s.v.Morale).Int(s.v.SpeechSupply)
	return sharedLines.Lines(&s.parts.title, k.Sum(), func() []string { return []string{s.drawTitle(w)} })[0]
}

func (s *Screen) drawTitle(w int) string {
	th := s.th
	num := func(label string, n int, low int) string {
		st := th.Strong
		if n <= low {
			st = th.Warning
		}
		return th.Muted.Render(label+" ") + st.Render(strconv.Itoa(n))
	}
	right := strings.Join([]string{
		th.Muted.Render(th.T("grizzledui.mission")+" ") + th.Strong.Render(strconv.Itoa(s.v.Round)),
		num(th.T("grizzledui.trials"), s.v.Trials, 0),
		num(th.T("grizzledui.morale"), s.v.Morale, 6),
		num(th.T("grizzledui.speech"), s.v.SpeechSupply, -1),
	}, th.Muted.Render(" · "))
	return uikit.TitleLine(th, &s.u, "grizzled.title", right, w)
}

// nmlLines: No Man's Land grouped by threat, with the active counts (F-1).
// Every seat sees the same: drawn once per move and theme (sharedLines).
func (s *Screen) nmlLines(w int, tall bool) []string {
	v := &s.v
	k := uikit.NewKey(s.th, "nml", w)
	k.Bool(tall).Bool(v.Failed).Int(len(v.NML))
	for _, id := range v.NML {
		k.Int(int(id))
	}
	for _, n := range v.Counts {
		k.Int(n)
	}
	for _, p := range v.Players { // the hard knocks that show a threat, by owner
		k.Bool(p.Withdrawn).Str(p.Name).Int(len(p.HardKnocks))
		for _, id := range p.HardKnocks {
			k.Int(int(id))
		}
	}
	return sharedLines.Lines(&s.parts.nml, k.Sum(), func() []string { return s.drawNML(w, tall) })
}

func (s *Screen) drawNML(w int, tall bool) []string {
	th := s.th
	v := s.v
	head := th.Header.Render(th.T("grizzledui.nml")) + th.Muted.Render(" "+th.T("grizzledui.n_cards", game.Count(len(v.NML))))
	var at2, at3 []string
	for t := range grizzled.NumThreats {
		switch n := v.Counts[t]; {
		case n >= 3:
			at3 = append(at3, s.threatName(grizzled.Threat(t)))
		case n == 2:
			at2 = append(at2, s.threatName(grizzled.Threat(t)))
		}
	}
	switch {
	case v.Failed || len(at3) > 0:
		msg := "✗ " + th.T("grizzledui.mission_failed")
		if len(at3) > 0 {
			msg = "✗ " + th.T("grizzledui.mission_failed_at3", game.Text("Threats", th.And(at3)))
		}
		head += "  " + th.Danger.Render(msg)
	case len(at2) > 0:
		warn := "!! " + th.T("grizzledui.at2_warning", game.Text("Threats", th.And(at2)))
		if width(head)+2+width(warn) > w {
			warn = "!! " + th.T("grizzledui.at2_short", game.Text("Threats", strings.Join(at2, ", ")))
		}
		head += "  " + th.Warning.Render(warn)
	}
	out := []string{th.Trunc(head, w)}
	if tall {
		for t := range grizzled.NumThreats {
			out = append(out, s.threatLine(grizzled.Threat(t), w, true))
		}
		return out
	}
	cw := (w - 2) / 2
	for t := range 3 {
		out = append(out, s.threatLine(grizzled.Threat(t), cw, false)+"  "+s.threatLine(grizzled.Threat(t+3), cw, false))
	}
	return out
}

// threatRows holds No Man's Land's rows, one per threat, for all sessions:
// a move changes one or two of a table's six, so the others are found
// here (or in the screen's Part) when No Man's Land is drawn again. Its
// own slots, as many as 2,000 tables' rows: the rows live for many moves,
// longer than an entry of sharedLines, where every part of every frame
// passes.
var threatRows = uikit.NewSharedLines(16384)

// threatLine is threatRow fitted to w cells: truncated, and in the short
// layout's left column (the first three threats) padded to w.
func (s *Screen) threatLine(t grizzled.Threat, w int, long bool) string {
	v := &s.v
	k := uikit.NewKey(s.th, "threat", w)
	k.Int(int(t)).Bool(long).Bool(s.spoken).Int(v.Counts[t])
	tab := cardTable(s.th.Printer())
	card := func(id grizzled.CardID) *cardInfo { // as s.card, without looking the table up again
		if id > grizzled.MerryChristmas {
			return &tab[0]
		}
		return &tab[id]
	}
	for _, id := range v.NML {
		if card(id).shows(t) {
			k.Int(int(id))
		}
	}
	k.Int(-1) // the sources in No Man's Land end here; the hard knocks follow
	for _, p := range v.Players {
		if p.Withdrawn {
			continue
		}
		for _, id := range p.HardKnocks {
			if c := card(id); c.kind == grizzled.KindHardKnock && c.shows(t) {
				k.Int(int(id)).Str(p.Name)
			}
		}
	}
	var part *uikit.Part
	if int(t) < len(s.parts.threats) {
		part = &s.parts.threats[t]
	}
	return threatRows.Lines(part, k.Sum(), func() []string {
		row := s.threatRow(t, w, long)
		if !long && t < 3 {
			return []string{s.fit(row, w)}
		}
		return []string{s.th.Trunc(row, w)}
	})[0]
}

// threatRow is one threat: mark, name, count as pips and number, sources.
func (s *Screen) threatRow(t grizzled.Threat, w int, long bool) string {
	th := s.th
	n := s.v.Counts[t]
	on := min(max(n, 0), 3) // pips lit; "●" and "○" are 3 bytes each
	pips := s.threatInk(t).Render("●●●"[:3*on]) + th.Muted.Render("○○○"[:3*(3-on)])
	name := s.threatName(t)
	nameSt := th.Base
	flag := "  "
	switch {
	case n >= 3:
		nameSt, flag = th.Danger, th.Danger.Render("✗ ")
	case n == 2:
		nameSt, flag = th.Warning, th.Warning.Render("!!")
	}
	var src []string
	for _, id := range s.v.NML {
		c := s.card(id)
		if c.shows(t) {
			if long {
				src = append(src, c.code+" "+c.name)
			} else {
				src = append(src, c.code)
			}
		}
	}
	for _, p := range s.v.Players {
		if p.Withdrawn {
			continue
		}
		for _, id := range p.HardKnocks {
			if c := s.card(id); c.kind == grizzled.KindHardKnock && c.shows(t) {
				src = append(src, c.shortName()+"("+s.th.Name(uikit.Clean(p.Name))+")")
			}
		}
	}
	srcText := th.Muted.Render("-")
	if len(src) > 0 {
		srcText = strings.Join(src, " ")
	}
	return s.threatTag(t) + " " + nameSt.Render(padRight(name, s.threatNameW())) + " " + pips + " " +
		nameSt.Render(strconv.Itoa(n)) + flag + " " + srcText
}

// threatNameW is the width of the threat-name column: the longest name in
// the session's language ("Gas Mask", "Trillerpfeife"), at least 8.
func (s *Screen) threatNameW() int {
	if s.threatW.th != s.th {
		w := 8
		for t := range grizzled.NumThreats {
			w = max(w, width(s.threatName(grizzled.Threat(t))))
		}
		s.threatW.th, s.threatW.w = s.th, min(w, 14)
	}
	return s.threatW.w
}

// statusW is the widest a soldier's status in the mission may be: words in
// every language ("отвечено", "odwrót"), never abbreviations.
const statusW = 8

// soldierLines is the table of soldiers; extra is how many continuation
// lines long hard-knock lists may take.
func (s *Screen) soldierLines(w, extra int) []string {
	th := s.th
	// At 80 columns the players' names get the room (20 characters and a
	// "(you)"); the soldier's name is flavour, and their charm's threat is
	// in the Charm column, so it shows from 100 columns.
	nameW, charW := 23, 0
	if w >= 100 {
		nameW, charW = 26, 18
	}
	cols := []int{3, nameW, charW, 9, 5, 6, 7, statusW + 1}
	fixed := 0
	for _, c := range cols {
		fixed += c
	}
	knockW := w - fixed
	if s.head.th != th || s.head.w != w {
		grizzled := ""
		if charW > 0 {
			grizzled = s.fit(th.T("grizzledui.col.character"), charW)
		}
		head := "   " + s.fit(th.T("grizzledui.col.soldier"), nameW) + grizzled + s.fit(th.T("grizzledui.col.charm"), 9) +
			s.fit(th.T("grizzledui.col.hand"), 5) + s.fit(th.T("grizzledui.col.tiles"), 6) + s.fit(th.T("grizzledui.col.speech"), 7) +
			s.fit(th.T("grizzledui.col.mission"), statusW+1) + th.T("grizzledui.col.knocks")
		s.head.th, s.head.w, s.head.text = th, w, th.Muted.Render(th.Trunc(head, w))
	}
	out := append(s.scratch.sold[:0], s.head.text) // body copies it into the frame
	defer func() { s.scratch.sold = out }()
	for i, p := range s.v.Players {
		var part *uikit.Part
		if i < len(s.parts.soldiers) {
			part = &s.parts.soldiers[i]
		}
		row, knocks, line, key := s.soldierRow(part, p, w, nameW, charW)
		if extra <= 0 || width(knocks) <= max(knockW, 8) { // else it fits on the row: no need to wrap it
			out = append(out, line)
			continue
		}
		// The row with its hard knocks wrapped under it, as many lines as
		// extra allows: kept with the row's key (wrapping them was most of
		// what a frame allocated for the soldiers, at every frame).
		var wrapPart *uikit.Part
		if i < len(s.parts.soldierWraps) {
			wrapPart = &s.parts.soldierWraps[i]
		}
		k := uikit.NewKey(th, "soldierwrap", w)
		k.Int(int(key)).Int(extra)
		lines := sharedLines.Lines(wrapPart, k.Sum(), func() []string {
			return s.wrapKnocks(row, knocks, line, fixed, knockW, extra)
		})
		extra -= len(lines) - 1
		out = append(out, lines...)
	}
	return out
}

// wrapKnocks is a soldier's row with its hard knocks (too wide for it)
// wrapped under it in at most extra more lines, or the row's line alone
// when they wrap to one line.
func (s *Screen) wrapKnocks(row, knocks, line string, fixed, knockW, extra int) []string {
	wrapped := uikit.WrapWords(knocks, max(knockW, 8))
	if len(wrapped) <= 1 {
		return []string{line}
	}
	more := min(len(wrapped)-1, extra)
	out := make([]string, 0, more+1)
	out = append(out, row+wrapped[0])
	for j := 1; j <= more; j++ {
		l := wrapped[j]
		if j == more && more < len(wrapped)-1 {
			l = s.th.Trunc(l+" "+strings.Join(wrapped[j+1:], " "), knockW)
		}
		out = append(out, strings.Repeat(" ", fixed)+l)
	}
	return out
}

// soldierRow is a soldier's row up to the hard knocks, the hard knocks,
// and the two on one line as wide as the screen, with the key they are
// kept by.
// The seats of a table draw the same rows but their own: each row is drawn
// once per move for the soldier's own seat and once for the others
// (sharedLines), keyed by all it shows.
func (s *Screen) soldierRow(part *uikit.Part, p grizzled.PlayerView, w, nameW, charW int) (row, knocks, line string, key uint64) {
	look := soldierLook{waits: s.waitsOn(p.Seat), leads: p.Seat == s.v.Leader && !p.Chaplain, mine: p.Seat == s.u.Seat}
	for _, si := range s.u.Seats {
		if si.Seat == p.Seat {
			look.bot, look.away = si.Bot, si.Bot == "" && !si.Connected
		}
	}
	k := uikit.NewKey(s.th, "soldier", w)
	k.Int(nameW).Int(charW).Bool(look.waits).Bool(look.leads).Bool(look.mine).Str(look.bot).Bool(look.away)
	k.Int(int(p.Seat)).Str(p.Name).Str(p.Character).Int(int(p.Charm)).Bool(p.CharmAvailable).Bool(p.Chaplain)
	k.Int(p.HandSize).Int(p.Tiles).Int(p.Weight).Int(p.SpeechTokens).Bool(p.Withdrawn).Bool(p.PlacedTile).Bool(p.Answered)
	k.Int(len(p.HardKnocks))
	for _, id := range p.HardKnocks {
		k.Int(int(id))
	}
	key = k.Sum()
	l := sharedLines.Lines(part, key, func() []string { return s.drawSoldierRow(p, look, w, nameW, charW) })
	return l[0], l[1], l[2], key
}

// soldierLook is what a soldier's row shows besides the soldier: whose
// move it is, who leads, whose row it is, and the seat's bot or absence.
type soldierLook struct {
	waits, leads, mine bool
	bot                string
	away               bool
}

// drawSoldierRow draws soldierRow's three lines.
func (s *Screen) drawSoldierRow(p grizzled.PlayerView, look soldierLook, w, nameW, charW int) []string {
	th := s.th
	// A row is drawn again when any of its cells changed (the ▶ moved on,
	// a card left a hand), nearly always one or two of them: each cell is
	// kept by what it shows (sharedLines), and the others are found as
	// they were.
	k := uikit.NewKey(th, "soldier.mark", 0)
	k.Bool(look.waits).Bool(look.leads)
	mark := s.cell(&k, func() string {
		mark := " "
		if look.waits {
			mark = th.Accent.Render("▶")
		}
		if look.leads {
			return mark + th.Title.Render("★")
		}
		return mark + " "
	})
	botTag := look.bot != "" && !strings.HasSuffix(p.Name, game.BotMark) // bots' names say so already
	k = uikit.NewKey(th, "soldier.name", nameW)
	k.Str(p.Name).Bool(p.Chaplain).Bool(look.mine).Bool(botTag).Bool(look.away)
	nameCell := s.cell(&k, func() string {
		name := th.Name(uikit.Clean(p.Name))
		suffix := ""
		switch {
		case p.Chaplain:
			name = th.T("grizzled.chaplain")
		case look.mine:
			suffix = " " + th.T("ui.tag.you")
		case botTag:
			suffix = " " + th.T("ui.tag.bot")
		case look.away:
			suffix = " " + th.T("ui.tag.away")
		}
		nameSt := th.Base
		if look.mine {
			nameSt = th.Accent
		}
		return s.fit(nameSt.Render(th.Trunc(name, nameW-1-width(suffix)))+th.Muted.Render(suffix), nameW)
	})
	char := ""
	if charW > 0 {
		char = s.fit(uikit.Clean(p.Character), charW)
	}
	k = uikit.NewKey(th, "soldier.charm", 0)
	k.Int(int(p.Charm)).Bool(p.CharmAvailable).Bool(s.spoken)
	charm := s.cell(&k, func() string {
		if !p.CharmAvailable {
			return s.fit(s.threatTag(p.Charm)+" "+th.Muted.Render(th.T("grizzledui.charm_used")), 8)
		}
		return s.fit(s.threatTag(p.Charm)+" "+th.Good.Render(th.T("grizzledui.charm_ready")), 8)
	})
	hand := strconv.Itoa(p.HandSize)
	if p.Chaplain {
		hand = "-"
	}
	k = uikit.NewKey(th, "soldier.status", 0)
	k.Bool(p.Answered).Bool(p.Withdrawn || p.Chaplain)
	status := s.cell(&k, func() string {
		status, statusSt := th.T("grizzledui.status.in"), th.Base
		switch {
		case p.Answered:
			status, statusSt = th.T("grizzledui.status.answered"), th.Muted
		case p.Withdrawn || p.Chaplain: // who still places a tile has the ▶: no column says so
			status, statusSt = th.T("grizzledui.status.out"), th.Muted
		}
		return s.fit(statusSt.Render(status), statusW+1)
	})
	k = uikit.NewKey(th, "soldier.knocks", 0)
	k.Int(p.Weight).Bool(s.spoken).Int(len(p.HardKnocks))
	for _, id := range p.HardKnocks {
		k.Int(int(id))
	}
	knocks := s.cell(&k, func() string { return s.knockText(p) })
	var b strings.Builder // the row in one string, its cells padded in place
	b.Grow(len(mark) + len(nameCell) + len(char) + len(charm) + len(status) + 24)
	b.WriteString(mark)
	b.WriteByte(' ')
	b.WriteString(nameCell)
	b.WriteString(char)
	b.WriteString(charm)
	b.WriteByte(' ')
	padTo(&b, hand, 5)
	padTo(&b, strconv.Itoa(p.Tiles), 6)
	padTo(&b, strconv.Itoa(p.SpeechTokens), 7)
	b.WriteString(status)
	row := b.String()
	return []string{row, knocks, th.Trunc(row+knocks, w)}
}

// cell is one cell of a soldier's row, a card's chip or label, kept in
// sharedLines by k, which covers everything draw reads but the theme
// (NewKey covers it).
func (s *Screen) cell(k *uikit.Key, draw func() string) string {
	return sharedLines.Lines(nil, k.Sum(), func() []string { return []string{draw()} })[0]
}

// knockText is "weight: names" of a soldier's hard knocks.
func (s *Screen) knockText(p grizzled.PlayerView) string {
	th := s.th
	if len(p.HardKnocks) == 0 {
		return th.Muted.Render("-")
	}
	wt := th.T("grizzledui.weight", game.Num("N", p.Weight))
	st := th.Base
	switch {
	case p.Weight >= 4: // a loss if it is still so after support (L-1)
		st, wt = th.Danger, wt+"!"
	case p.Weight == 3:
		st = th.Warning
	}
	names := make([]string, len(p.HardKnocks))
	for i, id := range p.HardKnocks {
		names[i] = s.cardLabel(id)
	}
	return st.Render(wt) + " " + strings.Join(names, ", ")
}

// waitsOn is true for the seat(s) whose move the game waits for.
func (s *words) waitsOn(seat game.Seat) bool {
	switch s.v.Phase {
	case grizzled.PhaseOver:
		return false
	case grizzled.PhaseTurn:
		return seat == s.v.Active
	case grizzled.PhaseIntensity:
		if len(s.v.Waiting) == 0 {
			return seat == s.v.Leader
		}
	}
	for _, w := range s.v.Waiting {
		if w == seat {
			return true
		}
	}
	return false
}

// handLines: the viewer's hand with the card under the cursor described;
// detail is how many lines the description may take.
func (s *Screen) handLines(w, detail int) []string {
	th := s.th
	if s.u.Seat == game.Spectator {
		return []string{th.Muted.Render(th.T("grizzledui.watching"))}
	}
	v := s.v
	a := s.current()
	if len(v.Hand) == 0 {
		out := []string{s.handHead(w)}
		if me := s.me(); v.Phase == grizzled.PhaseTurn && me >= 0 && !v.Players[me].Withdrawn {
			return append(out, th.Muted.Render("  "+th.T("grizzledui.no_cards_withdraw")))
		}
		return append(out, th.Muted.Render("  "+th.T("grizzledui.no_cards")))
	}
	cursor := s.sel
	usable := func(grizzled.CardID) bool { return true }
	if a.kind == askAnswer {
		cursor = -1
		if len(a.choices) > 0 {
			s.focusChooser(a)
			for i, id := range v.Hand {
				if id == a.choices[s.opt].act.Card {
					cursor = i
				}
			}
		}
		usable = func(id grizzled.CardID) bool {
			for _, c := range a.choices {
				if c.act.Card == id {
					return true
				}
			}
			return false
		}
	}
	key := s.handKey(w, detail, cursor, usable)
	memo := &s.hand[min(max(detail+1, 0), len(s.hand)-1)]
	if memo.lines != nil && memo.key == key { // the key covers the head's inputs too
		return memo.lines
	}
	out := []string{s.handHead(w)}
	if detail < 0 {
		out = append(out, s.handList(w, cursor, usable)...)
	} else {
		out = append(out, s.handChips(w, cursor, usable)...)
		if cursor >= 0 && cursor < len(v.Hand) && detail > 0 {
			out = append(out, s.cardDetail(v.Hand[cursor], w, detail)...)
		}
	}
	memo.key, memo.lines = key, out[:len(out):len(out)] // capped: the caller's append copies
	return memo.lines
}

// handMemos are the hand part as a screen drew it last, one for each
// length of the card's description (body tries the list, then two lines,
// then one, and a frame often draws two of them). Another seat's move
// seldom changes a hand: four frames of a table's five in a move found
// theirs as it was, and drew it again (the card list's text, the chips,
// the head) at every move.
type handMemos [4]struct {
	key   uint64
	lines []string
}

// handKey covers everything the hand part is drawn from: the cards, the
// cursor and which cards can be chosen, the size asked, and what the
// cards' texts depend on (a trap's text on the trials left; a card's
// warning on the threats it would bring to 3, see fatal; the head on the
// tiles). Not the threats' counts themselves: they change at nearly every
// move, a card's warning seldom.
func (s *Screen) handKey(w, detail, cursor int, usable func(grizzled.CardID) bool) uint64 {
	v := &s.v
	k := uikit.NewKey(s.th, "handpart", w)
	k.Int(detail).Int(cursor).Bool(v.Trials > 0).Int(int(v.PlacedTile)).Int(len(v.MyTiles))
	for _, t := range v.MyTiles {
		k.Int(int(t))
	}
	warns := v.Phase == grizzled.PhaseTurn && !v.Failed // as fatal
	k.Int(len(v.Hand))
	for _, id := range v.Hand {
		fatal := 0
		if warns {
			for _, t := range s.card(id).threats {
				if v.Counts[t]+1 >= 3 {
					fatal |= 1 << t
				}
			}
		}
		k.Int(int(id)).Bool(usable(id)).Int(fatal)
	}
	return k.Sum()
}

// handHead is the line over the hand: how many cards, whether one is a
// trap, the support tiles held and the one placed (a shared part).
func (s *Screen) handHead(w int) string {
	th, v := s.th, &s.v
	trap := s.hasTrap()
	k := uikit.NewKey(th, "handhead", w)
	k.Int(len(v.Hand)).Bool(trap).Int(int(v.PlacedTile)).Int(len(v.MyTiles))
	for _, t := range v.MyTiles {
		k.Int(int(t))
	}
	return sharedLines.Lines(&s.parts.handHead, k.Sum(), func() []string { return []string{s.drawHandHead(w, trap)} })[0]
}

func (s *Screen) drawHandHead(w int, trap bool) string {
	th, v := s.th, &s.v
	head := th.Header.Render(th.T("grizzledui.your_hand")) + th.Muted.Render(" "+th.T("grizzledui.n_cards", game.Count(len(v.Hand))))
	if trap {
		head += th.Muted.Render(" · ") + th.Warning.Render("!") + th.Muted.Render(" = "+th.T("grizzledui.trap"))
	}
	tiles := make([]string, len(v.MyTiles))
	for i, t := range v.MyTiles {
		tiles[i] = s.tileName(t)
	}
	right := th.Muted.Render(th.T("grizzledui.your_tiles")+" ") + th.Strong.Render(orDash(strings.Join(tiles, " ")))
	if v.PlacedTile != grizzled.NoTile {
		right += th.Muted.Render(" · "+th.T("grizzledui.placed")+" ") + th.Strong.Render(s.tileName(v.PlacedTile))
	}
	return uikit.Spread(s.th, head, right, w)
}

// handChips is the hand as a row of numbered cards, the one under the
// cursor marked and those that cannot be chosen now muted. It is drawn
// from nothing but those (sharedLines): a seat whose hand did not change
// in a move finds it as it was.
func (s *Screen) handChips(w, cursor int, usable func(grizzled.CardID) bool) []string {
	th := s.th
	hand := s.v.Hand
	k := uikit.NewKey(th, "hand", w)
	k.Int(cursor).Int(len(hand))
	for _, id := range hand {
		k.Int(int(id)).Bool(usable(id))
	}
	return sharedLines.Lines(&s.parts.hand, k.Sum(), func() []string { return s.drawHandChips(w, cursor, usable) })
}

func (s *Screen) drawHandChips(w, cursor int, usable func(grizzled.CardID) bool) []string {
	th, hand := s.th, s.v.Hand
	chips := make([]string, len(hand))
	for i, id := range hand {
		// A hand is drawn again when a card left it or the cursor moved:
		// each card's chip is kept (sharedLines), and only those that
		// changed are drawn.
		use, on := usable(id), i == cursor
		k := uikit.NewKey(th, "chip", 0)
		k.Int(min(i, 9)).Int(int(id)).Bool(use).Bool(on).Bool(s.spoken)
		chips[i] = s.cell(&k, func() string {
			num := "·"
			if i < 9 {
				num = strconv.Itoa(i + 1)
			}
			label := s.handLabel(id)
			if !use {
				label = th.Muted.Render(ansi.Strip(label))
			}
			return s.chip(num, label, on)
		})
	}
	return s.flow(chips, w, 2)
}

// cardDetail is a card's text under the hand, at most detail lines.
func (s *Screen) cardDetail(id grizzled.CardID, w, detail int) []string {
	fatal := s.fatal(id) // the warning in front of the text
	k := uikit.NewKey(s.th, "detail", w)
	k.Int(int(id)).Int(detail).Int(len(fatal))
	for _, f := range fatal {
		k.Str(f)
	}
	return sharedLines.Lines(&s.parts.detail, k.Sum(), func() []string {
		d := uikit.WrapWords(s.describe(id), w-2)
		if len(d) > detail {
			d = d[:detail]
			d[detail-1] = s.th.Trunc(d[detail-1]+" "+s.th.Ellipsis(), w-2)
		}
		for i, l := range d {
			d[i] = "  " + l
		}
		return d
	})
}

// handList is the hand one card a line: mark, number, card, its text.
func (s *Screen) handList(w, cursor int, usable func(grizzled.CardID) bool) []string {
	th, v := s.th, &s.v
	labelW := 0
	for _, id := range v.Hand {
		labelW = max(labelW, width(s.label(id))+1)
	}
	// A card's lines are kept (sharedLines) by all they are drawn from: a
	// hand's list is drawn again when the threats' counts or the cursor
	// change, and most of its cards' lines are found as they were.
	out := make([]string, 0, len(v.Hand)+1)
	for i, id := range v.Hand {
		use, on := usable(id), i == cursor
		k := uikit.NewKey(th, "handlist", w)
		k.Int(min(i, 9)).Int(int(id)).Int(labelW).Bool(use).Bool(on).Bool(v.Trials > 0).Int(int(s.fatalMask(id))).Bool(s.spoken)
		out = append(out, sharedLines.Lines(nil, k.Sum(), func() []string { return s.listLines(i, id, w, labelW, use, on) })...)
	}
	return out
}

// listLines is a card's line in the hand list, two if it is under the
// cursor and its text needs them.
func (s *Screen) listLines(i int, id grizzled.CardID, w, labelW int, use, on bool) []string {
	th := s.th
	num := "·"
	if i < 9 {
		num = strconv.Itoa(i + 1)
	}
	label := s.handLabel(id)
	text := s.listText(id)
	if !use {
		label, text = th.Muted.Render(ansi.Strip(label)), th.Muted.Render(ansi.Strip(text))
	}
	indent := 3 + labelW + 1
	if !on {
		return []string{th.Trunc(" "+th.Muted.Render(num)+" "+s.fit(label, labelW)+" "+text, w)}
	}
	// The card under the cursor gets a second line if its text needs it.
	lines := s.wrapN(text, w-indent, 2)
	out := []string{th.Accent.Render("▸") + th.Selected.Render(num) + " " + s.fit(label, labelW) + " " + lines[0]}
	for _, l := range lines[1:] {
		out = append(out, strings.Repeat(" ", indent)+l)
	}
	return out
}

// label is cardLabel, kept (sharedLines): the list measures every card's
// label at every draw.
func (s *Screen) label(id grizzled.CardID) string {
	k := uikit.NewKey(s.th, "label", 0)
	k.Int(int(id)).Bool(s.spoken)
	return s.cell(&k, func() string { return s.cardLabel(id) })
}

// handLabel is a card's label as the hand shows it: a trap marked "!".
func (s *Screen) handLabel(id grizzled.CardID) string {
	if s.card(id).trap {
		return s.label(id) + s.th.Warning.Render("!")
	}
	return s.label(id)
}

// listText is a card's text for the hand list (its code and marks are
// already on the line).
func (s *Screen) listText(id grizzled.CardID) string {
	th := s.th
	c := s.card(id)
	var d string
	switch c.kind {
	case grizzled.KindThreat:
		names := make([]string, len(c.threats))
		for i, t := range c.threats {
			names[i] = s.threatInk(t).Render(s.threatName(t))
		}
		d = strings.Join(names, "+")
		switch {
		case c.trap && s.v.Trials > 0:
			d += " · " + th.Warning.Render(th.T("grizzledui.trap")) + ": " + th.T("grizzledui.trap_plays_top")
		case c.trap:
			d += " · " + th.Warning.Render(th.T("grizzledui.trap")) + ": " + th.T("grizzledui.trap_empty") // T-3
		}
	case grizzled.KindHardKnock:
		d = th.Muted.Render(th.T("grizzledui.knock_wt", game.Num("N", c.weight))+": ") + c.text
	default:
		d = c.text
	}
	if f := s.fatal(id); len(f) > 0 {
		d = th.Danger.Render("✗ "+th.T("grizzledui.fails_short", game.Text("Threats", th.And(f)))) + " " + d
	}
	return d
}

func (s *Screen) hasTrap() bool {
	for _, id := range s.v.Hand {
		if s.card(id).trap {
			return true
		}
	}
	return false
}

// chip is one item of a row: " 1 label " or "[1 label]" under the cursor.
func (s *Screen) chip(num, label string, on bool) string {
	th := s.th
	if on {
		return th.Accent.Render("[") + th.Selected.Render(num) + " " + label + th.Accent.Render("]")
	}
	return " " + th.Muted.Render(num) + " " + label + " "
}

// describe is the full text of a card, with a warning when playing it now
// would bring a threat to 3 (counted from the view; the engine decides).
func (s *Screen) describe(id grizzled.CardID) string {
	d := s.cardText(id)
	if fatal := s.fatal(id); len(fatal) > 0 {
		d = s.th.Danger.Render("✗ "+s.th.T("grizzledui.fails_long", game.Text("Threats", s.th.And(fatal)))) + " " + d
	}
	return d
}

func (s *Screen) cardText(id grizzled.CardID) string {
	th := s.th
	c := s.card(id)
	switch c.kind {
	case grizzled.KindThreat:
		names := make([]string, len(c.threats))
		for i, t := range c.threats {
			names[i] = s.threatInk(t).Render(s.threatName(t))
		}
		d := th.Strong.Render(c.code) + " " + strings.Join(names, "+")
		if c.trap {
			return d + " · " + th.Warning.Render(th.T("grizzledui.trap")) + ": " + th.T("grizzledui.trap_text")
		}
		return d + th.Muted.Render(" · "+th.T("grizzledui.threat_card_text"))
	case grizzled.KindHardKnock:
		return th.Strong.Render(c.code+" "+c.name) + th.Muted.Render(" "+th.T("grizzledui.knock_weight", game.Num("N", c.weight))) +
			": " + c.text
	case grizzled.KindMerryChristmas:
		return th.Strong.Render(c.code+" "+c.name) + ": " + c.text
	}
	return c.name
}

// cardLabel is a card's short name: "T04 Ni Sh", "Fragile", "Trauma Ra".
func (s *Screen) cardLabel(id grizzled.CardID) string {
	c := s.card(id)
	switch c.kind {
	case grizzled.KindThreat:
		tags := make([]string, len(c.threats))
		for i, t := range c.threats {
			tags[i] = s.threatTag(t)
		}
		return c.code + " " + strings.Join(tags, " ")
	case grizzled.KindHardKnock:
		if len(c.threats) == 1 {
			return c.shortName() + " " + s.threatTag(c.threats[0])
		}
	}
	return c.name
}

// actionLines: what the game asks of the viewer (with the choices), or
// whom it waits for.
func (s *Screen) actionLines(w int) []string {
	th := s.th
	a := s.current()
	if a.kind != askNone {
		out := s.wrapN(th.Strong.Render("▸ ")+a.prompt+s.timeLeft(), w, 2)
		if len(a.choices) > 0 {
			s.focusChooser(a)
			chips := make([]string, len(a.choices))
			for i, c := range a.choices {
				num := "·"
				if i < 9 {
					num = strconv.Itoa(i + 1)
				}
				if a.kind == askIntensity {
					chips[i] = " " + c.label + " "
					if i == s.opt {
						chips[i] = th.Accent.Render("[") + th.Selected.Render(c.label) + th.Accent.Render("]")
					}
					continue
				}
				chips[i] = s.chip(num, c.label, i == s.opt)
			}
			if a.kind == askIntensity {
				chips = append([]string{"  " + th.T("grizzledui.cards_each") + " "}, chips...)
			}
			out = append(out, s.flow(chips, w, 2)...)
		}
		return out
	}
	return s.wrapN(s.statusLine(), w, 2)
}

// statusLine says whose move it is, in words.
func (s *Screen) statusLine() string {
	line := s.statusText()
	if s.v.Phase != grizzled.PhaseSpeech {
		line += s.timeLeft() // the turn clock, whoever is waited on
	}
	return line
}

// statusText is the status line without the clock.
func (s *Screen) statusText() string {
	th := s.th
	v := s.v
	me := s.u.Seat
	if s.waiting() {
		return th.Muted.Render("▸ " + th.T("ui.sent_waiting"))
	}
	switch v.Phase {
	case grizzled.PhaseIntensity:
		return th.Strong.Render("▸ ") + th.T("grizzledui.status_intensity", game.Num("Mission", v.Round),
			game.Text("Player", s.name(v.Leader)), game.Num("Lo", v.MinIntensity), game.Num("Hi", v.MaxIntensity))
	case grizzled.PhaseTurn:
		if v.Active == me && s.playing() {
			var can []string
			if s.has(grizzled.ActPlay) {
				can = append(can, th.T("grizzledui.can.play"))
			}
			if s.has(grizzled.ActCharm) {
				can = append(can, th.T("grizzledui.can.charm"))
			}
			if s.has(grizzled.ActSpeech) {
				can = append(can, th.T("grizzledui.can.speech"))
			}
			if s.has(grizzled.ActWithdraw) {
				can = append(can, th.T("grizzledui.can.withdraw"))
			}
			if v.MustWithdraw || (len(can) == 1 && s.has(grizzled.ActWithdraw) && len(v.Hand) > 0) {
				return th.Warning.Render("▸ "+th.T("grizzledui.must_withdraw")) + th.Muted.Render(" "+th.T("grizzledui.must_withdraw_why"))
			}
			if len(can) == 0 {
				can = append(can, th.T("grizzledui.can.nothing"))
			}
			line := th.Accent.Render("▸ "+th.T("grizzledui.your_turn")+" ") + th.Or(can) + "."
			if !s.has(grizzled.ActWithdraw) && !v.WhyNoWithdraw.IsZero() {
				line += th.Muted.Render(" " + th.T("grizzledui.no_withdrawal", game.Text("Why", uikit.Clean(th.Msg(v.WhyNoWithdraw)))))
			}
			return line
		}
		return th.Strong.Render("▸ ") + th.T("grizzledui.turn_of", game.Text("Player", s.name(v.Active)))
	case grizzled.PhaseSpeech:
		return th.Strong.Render("▸ ") + th.T("grizzledui.status_speech", game.Text("Player", s.name(v.Speaker)),
			game.Text("Mark", s.threatTag(v.SpeechThreat)), game.Text("Threat", s.threatName(v.SpeechThreat)),
			game.Text("Players", s.names(v.Waiting))) + s.timeLeft()
	case grizzled.PhaseDecision:
		who := game.Text("Player", s.names(v.Waiting))
		switch v.Decision {
		case grizzled.DecidePlaceTile:
			return th.Strong.Render("▸ ") + th.T("grizzledui.status_place_tile", who)
		case grizzled.DecideRemoveTile:
			return th.Strong.Render("▸ ") + th.T("grizzledui.status_remove_tile", who)
		case grizzled.DecideHardKnock:
			return th.Strong.Render("▸ ") + th.T("grizzledui.status_mc", who)
		}
		return th.Strong.Render("▸ ") + th.T("ui.waiting_for", game.Text("Players", s.names(v.Waiting)))
	case grizzled.PhaseBenefit:
		return th.Strong.Render("▸ ") + th.T("grizzledui.status_benefit", game.Text("Player", s.names(v.Waiting)))
	}
	return ""
}

// timeLeft is " (12 s left)" while a timer runs (the speech window).
func (s *Screen) timeLeft() string {
	n := s.count.Shown(s.now())
	if n <= 0 {
		return ""
	}
	if m := &s.left; m.th != s.th || m.n != n { // the same number for a second: drawn once
		m.th, m.n, m.text = s.th, n, s.timeLeftText(n)
	}
	return s.left.text
}

// timeLeftText is timeLeft's words for n seconds.
func (s *Screen) timeLeftText(n int) string {
	st := s.th.Muted
	if n <= 10 {
		st = s.th.Warning
	}
	if n > 600 { // a decision by correspondence (a live clock is minutes at most): hours or days
		return " " + st.Render(s.th.T("ui.time_left", game.Sub("Left", uikit.Left(time.Duration(n)*time.Second))))
	}
	return " " + st.Render(s.th.T("ui.seconds_left", game.Num("N", n)))
}

func (s *Screen) noticeLines(w int) []string { return uikit.RefusedLines(s.th, &s.u, w, 2) }

// supportLines: the last support step, face up, while no mission is running.
func (s *Screen) supportLines(w int) []string {
	th := s.th
	sr := s.v.LastSupport
	if sr == nil {
		return nil
	}
	switch {
	case s.v.Phase == grizzled.PhaseBenefit, s.v.Phase == grizzled.PhaseIntensity, s.over():
	default:
		return nil
	}
	mission := game.Num("Mission", sr.Round)
	result := th.Good.Render(th.T("grizzledui.mission_succeeded", mission))
	if !sr.Success {
		result = th.Danger.Render(th.T("grizzledui.mission_failed_n", mission))
	}
	text := result + " " + th.Strong.Render(th.T("grizzledui.support")+" ")
	received := map[game.Seat]int{}
	var moves []string
	for _, t := range sr.Tiles {
		moves = append(moves, fmt.Sprintf("%s %s→%s", s.name(t.From), s.tileName(t.Tile), s.name(t.To)))
		received[t.To]++
	}
	if len(moves) == 0 {
		text += th.T("grizzledui.no_tile_placed")
	} else {
		text += strings.Join(moves, ", ") + "."
	}
	if sr.Beneficiary >= 0 {
		n := received[sr.Beneficiary]
		text += " " + th.Accent.Render(th.T("grizzledui.benefits", game.Text("Player", s.name(sr.Beneficiary)), game.Count(n)))
	} else {
		text += " " + th.Muted.Render(th.T("grizzledui.no_benefit"))
	}
	return s.wrapN(text, w, 3)
}

func (s *Screen) overLines(w int, leave string) []string {
	th := s.th
	v := s.v
	var out []string
	if v.Won || (s.u.Result != nil && s.u.Result.Outcome == "win") {
		out = append(out, th.Good.Render("★ "+th.T("grizzledui.victory"))+" "+th.T("grizzledui.victory_why"))
	} else {
		var why string
		switch v.LossReason {
		case grizzled.LossKnocks:
			var who []string
			for _, p := range v.Players {
				if p.Weight >= 4 {
					who = append(who, fmt.Sprintf("%s (%d)", s.th.Name(uikit.Clean(p.Name)), p.Weight))
				}
			}
			why = th.T("grizzledui.defeat_knocks")
			if len(who) > 0 {
				why += ": " + th.And(who)
			}
		case grizzled.LossMorale:
			why = th.T("grizzledui.defeat_morale")
		default:
			why = th.T("grizzledui.defeat_left")
		}
		out = append(out, th.Danger.Render("✗ "+th.T("grizzledui.defeat")+" ")+why+".")
	}
	if s.u.Result != nil && !s.u.Result.Summary.IsZero() {
		out = append(out, uikit.Clean(th.Msg(s.u.Result.Summary)))
	}
	out = append(out, th.Muted.Render(th.T("grizzledui.game_over", game.Count(v.Round))+" "+leave))
	var lines []string
	for _, l := range out {
		lines = append(lines, s.wrapN(l, w, 2)...)
	}
	return lines
}

// logLines: the newest events that fit in h lines, oldest first.
func (s *Screen) logLines(w, h int) []string {
	if h <= 0 {
		return nil
	}
	th := s.th
	keep := max(h-1, 1)
	// Only the newest events that fill the window (and what is scrolled
	// back) are drawn, newest first; if they run out, all of them were.
	events := s.logEvents[:0] // reused: a frame allocates no list of them
	defer func() { clear(events); s.logEvents = events[:0] }()
	n := 0
	s.logMemo.Begin(th, w)
	for i := len(s.u.Log) - 1; i >= 0 && n < keep+s.logBack; i-- {
		e := s.u.Log[i]
		who := ""
		if e.Kind == game.Chat {
			who = s.name(e.From)
		}
		ls := s.logMemo.Lines(e, who, func() []string {
			// The seats that hear an event draw it alike: the first
			// draws it for all (sharedLines).
			k := uikit.NewKey(th, "event", w)
			key := k.Int(int(e.Kind)).Str(who).Str(e.Text).Msg(e.Msg).Sum()
			return sharedLines.Lines(nil, key, func() []string { return s.drawEvent(e, who, w) })
		})
		events = append(events, ls)
		n += len(ls)
	}
	lines := s.scratch.log[:0] // body copies what it keeps into the frame
	for i := len(events) - 1; i >= 0; i-- {
		lines = append(lines, events[i]...)
	}
	s.scratch.log = lines
	s.logBack = min(s.logBack, max(0, len(lines)-keep))
	rule := s.logRule(w)
	if h == 1 {
		rule = ""
		h = 2
	}
	end := len(lines) - s.logBack
	lines = lines[max(0, end-keep):end]
	out := append(s.scratch.logOut[:0], rule)
	for len(out)+len(lines) < h {
		out = append(out, "")
	}
	out = append(out, lines...)
	s.scratch.logOut = out
	if rule == "" {
		out = out[1:]
	}
	return out
}

// bodyScratch holds the lists body builds its frame from, kept between
// frames (empty): body copies their lines into the frame's one list, and
// they were four or five allocations a frame.
type bodyScratch struct {
	bottom, sold, log, logOut []string
}

// clear empties the lists, letting their lines go.
func (b *bodyScratch) clear() {
	for _, l := range []*[]string{&b.bottom, &b.sold, &b.log, &b.logOut} {
		clear((*l)[:cap(*l)])
		*l = (*l)[:0]
	}
}

// drawEvent is a log event's lines, indented once here, not on every frame.
func (s *Screen) drawEvent(e *game.Event, who string, w int) []string {
	th := s.th
	var l string
	switch e.Kind {
	case game.Chat:
		l = th.Chat.Render(who + ": “" + uikit.Clean(e.Text) + "”")
	case game.Private:
		l = th.Accent.Render(th.T("ui.tag.you")+" ") + uikit.Clean(th.Event(e))
	default:
		l = uikit.Clean(th.Event(e))
	}
	wrapped := uikit.WrapWords(l, w-2)
	for i, l := range wrapped {
		wrapped[i] = "  " + l
	}
	return wrapped
}

// logRule is the log's heading, "── Log ───…", or how far it is scrolled
// back; the same at every table (sharedLines).
func (s *Screen) logRule(w int) string {
	k := uikit.NewKey(s.th, "logrule", w)
	return sharedLines.Lines(&s.parts.logRule, k.Int(s.logBack).Sum(), func() []string {
		th := s.th
		label := th.T("ui.log")
		if s.logBack > 0 {
			label = th.T("ui.log_back", game.Count(s.logBack))
		}
		rule := th.Rule.Render("── ") + th.Muted.Render(label) + " " + th.Rule.Render(strings.Repeat("─", max(w-5-width(label), 0)))
		return []string{th.Trunc(rule, w)}
	})[0]
}

// --- text helpers ---

func width(s string) int { return uikit.Width(s) }

func padRight(s string, w int) string {
	if n := width(s); n < w {
		if w-n <= len(blanks) {
			return s + blanks[:w-n] // one string made, not two
		}
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// blanks is where padRight takes its spaces from.
const blanks = "                                                                                "

// fit truncates or pads s to exactly w cells.
func (s *Screen) fit(text string, w int) string { return padRight(s.th.Trunc(text, w), w) }

// padTo writes padRight(s, w) to b.
func padTo(b *strings.Builder, s string, w int) {
	b.WriteString(s)
	for n := w - width(s); n > 0; n -= len(blanks) {
		b.WriteString(blanks[:min(n, len(blanks))])
	}
}

// flow lays items out in lines of w cells, at most n lines.
func (s *Screen) flow(items []string, w, n int) []string {
	var out []string
	line := ""
	for i, it := range items {
		if line != "" && width(line)+width(it) > w {
			if len(out) == n-1 {
				line = s.th.Trunc(line+" +"+strconv.Itoa(len(items)-i)+s.th.Ellipsis(), w)
				break
			}
			out = append(out, line)
			line = ""
		}
		line += it
	}
	return append(out, s.th.Trunc(line, w))
}

// wrapN word-wraps text to w cells, keeping at most n lines.
//
// The lines come from sharedLines, drawn from nothing but the text, w
// and n: the seats of a table that wait for the same player wrap the same
// status line, and a prompt stays as it was until it is answered. The
// slice is shared: append to it copies, but it must not be written to.
func (s *Screen) wrapN(text string, w, n int) []string {
	k := uikit.NewKey(s.th, "wrap", w)
	k.Int(n).Str(text)
	return sharedLines.Lines(nil, k.Sum(), func() []string {
		lines := uikit.WrapWords(text, w)
		if len(lines) > n {
			lines = lines[:n]
			lines[n-1] = s.th.Trunc(lines[n-1]+" "+s.th.Ellipsis(), w)
		}
		return lines
	})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
