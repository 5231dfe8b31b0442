package werewolfui

// Why this file is long: it draws every phase of a Werewolves game (the
// asleep screen, each role's night step, the day, votes and their reveal,
// the end) from one layout budget; §11.2 requires the asleep screen to be
// built from the same parts as everyone else's, so they stay together.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/x/ansi"
)

// View draws the table in the area given by SetSize.
func (s *Screen) View() string { return strings.Join(s.Lines(), "\n") }

// Lines is View as lines (uikit.Lined).
func (s *Screen) Lines() []string {
	return uikit.Frame(s.th, s.Keys, s.helpBar, s.w, s.h, MinWidth, MinHeight, s.notice, s.body)
}

// body is everything but the help bar: at most h lines of at most w cells.
func (s *Screen) body(w, h int) []string {
	th := s.th
	if lines, ok := uikit.RoomLines(th, "werewolf.title", s.u.Closed, s.hasView, w); ok {
		return lines
	}
	if s.over() {
		return s.endBody(w, h)
	}
	top := []string{s.titleLine(w), s.bannerLine(w), s.narrationLine(w)}
	var bottom []string
	if n := s.noticeLine(w); n != "" {
		bottom = append(bottom, n)
	}
	midH := h - len(top) - len(bottom)
	lw := min(44, max(36, w*45/100))
	rw := w - lw - 3
	left := s.playerLines(lw, midH)
	right := s.rightLines(rw, midH)
	out := top
	sep := th.Rule.Render(" │ ")
	for i := range midH {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, strings.TrimRight(s.pad(l, lw)+sep+r, " "))
	}
	out = append(out, bottom...)
	if len(out) > h {
		out = out[:h]
	}
	return out
}

func (s *Screen) titleLine(w int) string {
	th := s.th
	alive := 0
	for _, p := range s.v.Players {
		if p.Alive {
			alive++
		}
	}
	parts := []string{th.Strong.Render(fmt.Sprintf("%d/%d", alive, len(s.v.Players))) + th.Muted.Render(" "+th.T("werewolfui.alive"))}
	if s.v.Unofficial {
		parts = append(parts, th.Warning.Render(th.T("werewolfui.not_rulebook")))
	}
	if s.v.Fast {
		parts = append(parts, th.Warning.Render(th.T("werewolfui.fast_nights")))
	}
	return uikit.TitleLine(th, &s.u, "werewolfui.short_title", strings.Join(parts, th.Muted.Render(" · ")), w)
}

// bannerLine: the phase as the narrator announces it, and the countdown.
func (s *Screen) bannerLine(w int) string {
	th, v := s.th, s.v
	var label string
	var st uikit.Ink
	switch {
	case v.Phase.Night():
		label, st = th.T("werewolfui.night_n", game.Num("N", v.Night)), th.Header
		if v.Phase != werewolf.PhaseNightFall {
			label += " · " + th.T(v.Phase.TitleKey())
		}
	default:
		label, st = th.T("werewolfui.day_n", game.Num("N", max(v.Day, 1)))+" · "+th.T(v.Phase.TitleKey()), th.Title
	}
	if s.u.Seat >= 0 && !v.Alive && !v.LastBreath {
		label = "† " + label + " · " + th.T("werewolfui.in_graveyard")
	}
	right := ""
	if n := s.count.Shown(s.now()); n > 0 {
		cs := th.Strong
		if n <= 5 {
			cs = th.Warning
		}
		clock := fmt.Sprintf("%d:%02d", n/60, n%60)
		if n >= 3600 { // a day by correspondence: hours
			clock = fmt.Sprintf("%d:%02d:%02d", n/3600, n/60%60, n%60)
		}
		right = cs.Render(clock) + th.Muted.Render(" "+th.T("werewolfui.left"))
	}
	return s.spread(st.Render(label), right, w)
}

// narrationLine is the narrator's last words between the quotation marks
// of the reader's language (en “…”, pl „…”, de „…“, ru «…»).
func (s *Screen) narrationLine(w int) string {
	th := s.th
	open, shut := th.T("werewolfui.quote_open"), th.T("werewolfui.quote_close")
	room := w - width(open) - width(shut)
	return th.Muted.Render(open) + th.Trunc(uikit.Clean(th.Msg(s.v.Narration)), room) + th.Muted.Render(shut)
}

func (s *Screen) noticeLine(w int) string {
	if l := uikit.RefusedLines(s.th, &s.u, w, 1); len(l) > 0 {
		return l[0]
	}
	return ""
}

// Players.

func (s *Screen) seatInfo(seat game.Seat) (table.SeatInfo, bool) {
	for _, si := range s.u.Seats {
		if si.Seat == seat {
			return si, true
		}
	}
	return table.SeatInfo{}, false
}

// playerLines: one line per player, with what the viewer may know of them.
// Asleep, only public facts are drawn.
func (s *Screen) playerLines(w, h int) []string {
	th, v := s.th, s.v
	asleep := s.asleep()
	longest := 4
	for _, p := range v.Players {
		longest = max(longest, width(s.shortName(p.Name)))
	}
	alive := 0
	for _, p := range v.Players {
		if p.Alive {
			alive++
		}
	}
	var out []string
	if h > len(v.Players) {
		out = append(out, th.Header.Render(th.T("werewolfui.players"))+th.Muted.Render(" "+th.T("werewolfui.n_alive", game.Num("N", alive))))
	}
	reveal := map[game.Seat]string{} // voter → revealed ballot, during a lynch reveal
	if s.revealPhase() && len(v.Votes) > 0 {
		r := v.Votes[len(v.Votes)-1]
		for _, b := range r.Ballots[:s.revealShown()] {
			if b.Target < 0 {
				reveal[b.Voter] = "→ " + th.T("werewolfui.abstains")
			} else {
				reveal[b.Voter] = "→ " + s.short(s.name(b.Target), 10)
			}
			if b.Weight == 2 {
				reveal[b.Voter] += " ×2"
			}
		}
	}
	head := len(out)
	// Whole names, each player's words after the name or, where they do
	// not fit, on the lines below it; where that is more lines than there
	// are, names cut at 16 cells, then 12, then one line a player.
	for i, nameW := range []int{w - 8, 16, 12, 12} {
		wrapped := i < 3
		if s.spoken {
			nameW = longest
		}
		out = out[:head]
		for _, p := range v.Players {
			out = append(out, s.playerLine(p, min(nameW, longest), w, wrapped, asleep, reveal)...)
		}
		if len(out) <= h {
			break
		}
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}

// playerLine is one player's line of the list: the name nameW cells
// wide, then what the viewer may know of them; wrapped, the words that
// do not fit go on the lines below, whole, else the line is cut at w.
func (s *Screen) playerLine(p werewolf.PlayerView, nameW, w int, wrapped, asleep bool, reveal map[game.Seat]string) []string {
	th := s.th
	{
		me := p.Seat == s.u.Seat
		cursor := " "
		if p.Seat == s.cur {
			cursor = th.Accent.Render("▸")
		}
		name := s.pad(s.short(s.shortName(p.Name), nameW), nameW)
		switch {
		case p.Seat == s.cur:
			name = th.Selected.Render(name)
		case !p.Alive:
			name = th.Muted.Render(name)
		case me:
			name = th.Accent.Render(name)
		}
		marks := " "
		if p.Sheriff {
			marks = th.Warning.Render("★")
		}
		if p.Lover && !asleep || p.Seat == s.first {
			marks += th.Danger.Render("♥")
		} else {
			marks += " "
		}
		var info []string
		if me {
			info = append(info, th.Accent.Render(th.T("ui.tag.you")))
		}
		if !p.Alive {
			info = append(info, th.Muted.Render("† "+th.T(p.Card.Key())+s.causes(p.Causes)))
		}
		if r, ok := reveal[p.Seat]; ok {
			info = append(info, th.Strong.Render(r))
		}
		if p.Alive && !asleep {
			info = append(info, s.secretInfo(p)...)
		}
		if p.Alive && p.Candidate {
			info = append(info, th.Good.Render(th.T("werewolfui.candidate")))
		}
		if si, ok := s.seatInfo(p.Seat); ok && p.Alive && !me {
			switch {
			case si.Bot != "":
				info = append(info, th.Muted.Render(th.T("werewolfui.bot")))
			case !si.Connected:
				info = append(info, th.Muted.Render(th.T("werewolfui.away")))
			}
		}
		line := cursor + th.Muted.Render(fmt.Sprintf("%2d ", int(p.Seat)+1)) + name + " " + marks
		if !wrapped || width(line+" "+strings.Join(info, " ")) <= w {
			return []string{th.Trunc(line+" "+strings.Join(info, " "), w)}
		}
		// Word by word (a style reopened on each line below).
		const indent = "      "
		var out []string
		style := ""
		for _, word := range glued(strings.Split(strings.Join(info, " "), " ")) {
			if width(line+" "+word) > w && width(line) > len(indent) {
				out = append(out, line+resetIf(style))
				line = indent + style
			}
			if width(line) > len(indent) {
				line += " "
			}
			line += word
			style = lastStyle(style, word)
		}
		return append(out, th.Trunc(line, w))
	}
}

// secretInfo is what the viewer's own role tells about a living player:
// cards known (wolves, the dead watching), visions, the pack's picks,
// tonight's victim, one's ballot. Never drawn while asleep.
func (s *Screen) secretInfo(p werewolf.PlayerView) []string {
	th, v := s.th, s.v
	var info []string
	if v.Victim == p.Seat && (v.Phase == werewolf.PhaseWolves || v.Phase == werewolf.PhaseWitch) {
		info = append(info, th.Danger.Render(th.T("werewolfui.victim")))
	}
	var by []string
	for _, c := range v.Choices {
		if c.Target == p.Seat {
			if c.Wolf == v.Seat {
				by = append(by, th.T("werewolfui.you"))
			} else {
				by = append(by, s.short(s.name(c.Wolf), 8))
			}
		}
	}
	if len(by) > 0 {
		info = append(info, th.Danger.Render("◀ "+strings.Join(by, ",")))
	}
	if p.Seat != v.Seat {
		switch {
		case p.Card != werewolf.RoleUnknown:
			st := th.Strong
			if p.Card == werewolf.RoleWerewolf {
				st = th.Danger
			}
			info = append(info, st.Render(th.T(p.Card.Key())))
		case p.Wolf:
			info = append(info, th.Danger.Render(th.T(werewolf.RoleWerewolf.Key())))
		default:
			for i := len(v.Visions) - 1; i >= 0; i-- {
				if vi := v.Visions[i]; vi.Target == p.Seat {
					info = append(info, th.Strong.Render(th.T("werewolfui.seen", game.Term("Role", vi.Card.Key()))))
					break
				}
			}
		}
	}
	if v.MyBallot == p.Seat && isBallotPhase(v.Phase) {
		info = append(info, th.Accent.Render("◆ "+th.T("werewolfui.your_vote")))
	}
	return info
}

func isBallotPhase(p werewolf.Phase) bool {
	return p == werewolf.PhaseVote || p == werewolf.PhaseSheriffVote || p == werewolf.PhaseSheriffRunoff
}

func (s *Screen) causes(cs []werewolf.Cause) string {
	if len(cs) == 0 {
		return ""
	}
	var names []string
	for _, c := range cs {
		names = append(names, s.th.T(c.Key()))
	}
	return ", " + strings.Join(names, "+")
}

// The right-hand column: your card, what the phase asks, the log.

func (s *Screen) rightLines(w, h int) []string {
	card := s.cardLines(w)
	act := s.actionLines(w)
	rev := s.revealLines(w)
	var out []string
	out = append(out, card...)
	if len(act) > 0 {
		out = append(out, act...)
	}
	out = append(out, rev...)
	logH := h - len(out) - 1
	if logH < 3 { // keep a few lines of log: shorten the panels above
		out = out[:max(0, min(len(out), h-4))]
		logH = h - len(out) - 1
	}
	out = append(out, s.th.Rule.Render(s.rule(s.th.T("ui.log"), s.logBack > 0, w)))
	return append(out, s.logLines(w, logH)...)
}

func (s *Screen) rule(title string, scrolled bool, w int) string {
	if s.spoken { // plain mode reads the title; its lines are drawn 400 wide
		return title
	}
	t := "── " + title + " "
	if scrolled {
		t += s.th.T("werewolfui.log_older") + " "
	}
	return t + strings.Repeat("─", max(0, w-width(t)))
}

func (s *Screen) cardLines(w int) []string {
	th, v := s.th, s.v
	switch {
	case s.u.Seat == game.Spectator:
		return s.wrapStyled(th.Muted, th.T("werewolfui.watching"), w)
	case !v.Alive && !v.LastBreath:
		out := []string{th.Trunc(th.Muted.Render(th.T("werewolfui.dead_card")+" ")+th.Strong.Render(th.T(v.Card.Key())), w)}
		if width(th.T("werewolfui.dead_card")+" "+th.T(v.Card.Key())) > w { // the card's name whole, on a line of its own
			out = append(s.wrapStyled(th.Muted, th.T("werewolfui.dead_card"), w), th.Strong.Render(th.Trunc(th.T(v.Card.Key()), w)))
		}
		return append(out, s.wrapStyled(th.Muted, th.T("werewolfui.graveyard"), w)...)
	case s.asleep() && !s.showCard:
		return append(s.wrapStyled(th.Base, th.T("werewolfui.asleep"), w),
			th.Muted.Render(th.Trunc(th.T("werewolfui.turn_card"), w)))
	}
	head := th.Muted.Render(th.T("werewolfui.your_card")+" ") + th.Accent.Render(strings.ToUpper(th.T(v.Card.Key())))
	if v.Original != v.Card && v.Original != werewolf.RoleUnknown {
		head += th.Muted.Render(" " + th.T("werewolfui.dealt", game.Term("Role", v.Original.Key())))
	}
	out := []string{th.Trunc(head, w)}
	out = append(out, s.wrapStyled(th.Muted, th.T(v.Card.HelpKey()), w)...)
	if s.asleep() {
		return out // turned up while asleep: the card alone
	}
	var extra []string
	if v.Partner >= 0 {
		extra = append(extra, th.Danger.Render("♥")+" "+th.T("werewolfui.in_love")+" "+th.Strong.Render(s.name(v.Partner)))
	}
	if v.Card == werewolf.RoleWerewolf && len(v.Wolves) > 1 {
		var pack []string
		for _, x := range v.Wolves {
			if x == v.Seat {
				continue
			}
			n := s.name(x)
			if int(x) < len(v.Players) && !v.Players[x].Alive {
				n = "†" + n // a dead wolf is still of the pack, but gone
			}
			pack = append(pack, n)
		}
		extra = append(extra, th.Muted.Render(th.T("werewolfui.pack")+" ")+th.Danger.Render(strings.Join(pack, ", ")))
	}
	if v.Card == werewolf.RoleWitch {
		extra = append(extra, th.Muted.Render(th.T("werewolfui.potions")+" ")+potion(th.T("werewolfui.heal"), v.HealLeft)+" "+potion(th.T("werewolfui.poison"), v.PoisonLeft))
	}
	if len(v.Middle) == 2 && v.Phase != werewolf.PhaseThief {
		extra = append(extra, th.Muted.Render(th.T("werewolfui.middle_cards", game.Term("A", v.Middle[0].Key()), game.Term("B", v.Middle[1].Key()))))
	}
	for _, e := range extra {
		out = append(out, th.Trunc(e, w))
	}
	return out
}

func potion(name string, left bool) string {
	if left {
		return name + " ✓"
	}
	return name + " ✗"
}

// actionLines: what the phase asks of the viewer, or what it shows them.
func (s *Screen) actionLines(w int) []string {
	th, v := s.th, s.v
	var out []string
	add := func(st uikit.Ink, text string) { out = append(out, s.wrapStyled(st, text, w)...) }
	if s.asleep() {
		add(th.Muted, th.T("werewolfui.night_goes_on", game.Text("Deck", s.deckLine(v.Deck))))
		return append([]string{""}, out...)
	}
	if !v.Prompt.IsZero() && (v.Alive || v.LastBreath) {
		add(th.Accent, "▸ "+th.Msg(v.Prompt))
	}
	if line := s.confirmLine(); line != "" {
		add(th.Warning, "! "+line)
	}
	if !v.Alive && !v.LastBreath || s.u.Seat == game.Spectator {
		out = append(out, s.publicPhaseLines(w)...)
		if len(out) > 0 {
			out = append([]string{""}, out...)
		}
		return out
	}
	switch v.Phase {
	case werewolf.PhaseThief:
		if len(v.ThiefSaw) == 2 {
			add(th.Base, th.T("werewolfui.thief_cards", game.Term("A", v.ThiefSaw[0].Key()), game.Term("B", v.ThiefSaw[1].Key())))
		}
	case werewolf.PhaseCupid:
		if s.first >= 0 {
			add(th.Base, th.T("werewolfui.first_lover", game.Text("Player", s.name(s.first))))
		}
	case werewolf.PhaseLovers:
		if v.Partner >= 0 {
			add(th.Base, "♥ "+th.T("werewolf.in_love", game.Text("Player", s.name(v.Partner))))
		}
	case werewolf.PhaseSeer:
		if n := len(v.Visions); n > 0 && v.Visions[n-1].Night == v.Night {
			vi := v.Visions[n-1]
			add(th.Strong, th.T("werewolfui.vision", game.Text("Player", s.name(vi.Target)), game.Term("Role", vi.Card.Key())))
		}
	case werewolf.PhaseWolves:
		if v.Card == werewolf.RoleWerewolf && v.Alive {
			var picks []string
			for _, c := range v.Choices {
				who := s.name(c.Wolf)
				if c.Wolf == v.Seat {
					who = th.T("werewolfui.you")
				}
				t := th.T("werewolfui.nobody_yet")
				if c.Target >= 0 {
					t = s.name(c.Target)
				}
				picks = append(picks, who+" → "+t)
			}
			if len(picks) > 0 {
				add(th.Base, th.T("werewolfui.picks")+" "+strings.Join(picks, " · "))
			}
			if v.Caught && v.Victim >= 0 {
				add(th.Danger, th.T("werewolf.caught_girl", game.Text("Player", s.name(v.Victim))))
			} else {
				add(th.Muted, th.T("werewolfui.same_pick"))
			}
		}
		if v.Card == werewolf.RoleLittleGirl && v.Alive {
			switch {
			case v.Caught:
				add(th.Danger, th.T("werewolfui.caught"))
			case v.Peeking:
				add(th.Warning, th.T("werewolfui.peeking"))
			default:
				add(th.Muted, th.T("werewolfui.eyes_shut"))
			}
			rel := v.Relayed
			if len(rel) > 2 {
				rel = rel[len(rel)-2:]
			}
			for _, r := range rel {
				add(th.Warning, th.T("werewolfui.glimpse")+" "+uikit.Clean(th.Msg(r)))
			}
		}
	case werewolf.PhaseWitch:
		if v.Card == werewolf.RoleWitch && v.Alive {
			if v.Healed && v.Victim >= 0 {
				add(th.Good, th.T("werewolfui.healed", game.Text("Player", s.name(v.Victim))))
			}
			if v.Poisoned >= 0 {
				add(th.Danger, th.T("werewolfui.poisoned", game.Text("Player", s.name(v.Poisoned))))
			}
		}
	default:
		out = append(out, s.publicPhaseLines(w)...)
	}
	if len(out) > 0 {
		out = append([]string{""}, out...)
	}
	return out
}

// publicPhaseLines: what everyone sees of a day phase.
func (s *Screen) publicPhaseLines(w int) []string {
	th, v := s.th, s.v
	var out []string
	add := func(st uikit.Ink, text string) { out = append(out, s.wrapStyled(st, text, w)...) }
	mine := s.u.Seat >= 0 && v.Alive
	switch v.Phase {
	case werewolf.PhaseDawn:
		lines := s.dawnNews()
		if len(lines) == 0 {
			add(th.Muted, th.T("werewolfui.counting"))
		}
		for _, l := range lines {
			add(th.Strong, l)
		}
	case werewolf.PhaseSheriffCampaign:
		var cands []string
		for _, p := range v.Players {
			if p.Alive && p.Candidate {
				cands = append(cands, s.shortName(p.Name))
			}
		}
		if len(cands) == 0 {
			add(th.Base, th.T("werewolfui.no_candidate"))
		} else {
			add(th.Base, th.T("werewolfui.candidates")+" "+strings.Join(cands, ", "))
		}
		add(th.Muted, th.T("werewolfui.ready_count", game.Num("N", v.ReadyCount), game.Num("Of", v.Voters))+s.readyMine(mine, v.Ready))
	case werewolf.PhaseSheriffVote, werewolf.PhaseSheriffRunoff, werewolf.PhaseVote:
		if v.Phase != werewolf.PhaseVote && len(v.Eligible) > 0 && len(v.Eligible) < len(v.Players) {
			var el []string
			for _, e := range v.Eligible {
				el = append(el, s.name(e))
			}
			add(th.Base, th.T("werewolfui.eligible")+" "+strings.Join(el, ", "))
		}
		if mine {
			switch b := v.MyBallot; {
			case b == werewolf.Abstain:
				add(th.Accent, th.T("werewolfui.ballot_abstain"))
			case b >= 0:
				add(th.Accent, th.T("werewolfui.ballot_for", game.Text("Player", s.name(b))))
			default:
				add(th.Base, th.T("werewolfui.not_voted"))
			}
		}
		add(th.Muted, th.T("werewolfui.ballots_cast", game.Num("N", v.VotesCast), game.Num("Of", v.Voters)))
	case werewolf.PhaseDiscussion:
		add(th.Muted, th.T("werewolfui.ready_to_vote", game.Num("N", v.ReadyCount), game.Num("Of", v.Voters))+s.readyMine(mine, v.Ready))
		add(th.Muted, th.T("werewolfui.in_game", game.Text("Deck", s.deckLine(v.Deck))))
	case werewolf.PhaseSheriffTiebreak:
		var tied []string
		for _, t := range v.Tied {
			tied = append(tied, s.name(t))
		}
		add(th.Base, th.T("werewolfui.tied", game.Text("Players", strings.Join(tied, ", "))))
	}
	return out
}

func (s *Screen) readyMine(mine, ready bool) string {
	switch {
	case !mine:
		return ""
	case ready:
		return " · " + s.th.T("werewolfui.you_ready")
	}
	return " · " + s.th.T("werewolfui.r_when_ready")
}

// dawnNews are this dawn's announcements: the narration since "Day N dawns".
func (s *Screen) dawnNews() []string {
	start := -1
	for i, e := range s.u.Log {
		if e.Kind == game.Narration && e.Type == werewolf.EvDawn && len(e.Msg.Args) > 0 && e.Msg.Args[0].Num == s.v.Day {
			start = i
		}
	}
	if start < 0 {
		return nil
	}
	var out []string
	for i := start + 1; i < len(s.u.Log); i++ {
		if e := s.u.Log[i]; e.Kind == game.Narration && e.Audience.All {
			out = append(out, uikit.Clean(s.th.Event(e)))
		}
	}
	return out
}

// revealLines: a closed vote's ballots, voter by voter, then the tally.
func (s *Screen) revealLines(w int) []string {
	if !s.revealPhase() {
		return nil
	}
	th, v := s.th, s.v
	r := v.Votes[len(v.Votes)-1]
	title := th.T("werewolfui.ballots_opened")
	if r.Kind != werewolf.PhaseVote {
		title = th.T("werewolfui.sheriff_ballots")
		if r.Kind == werewolf.PhaseSheriffRunoff {
			title = th.T("werewolfui.runoff_ballots")
		}
	}
	shown := s.revealShown()
	out := []string{"", th.Header.Render(title) + th.Muted.Render(fmt.Sprintf(" %d/%d", shown, len(r.Ballots)))}
	var parts []string
	for _, b := range r.Ballots[:shown] {
		voter := s.short(s.name(b.Voter), 8)
		if b.Weight == 2 {
			voter += "×2"
		}
		if b.Target < 0 {
			parts = append(parts, voter+" —")
		} else {
			parts = append(parts, voter+"→"+s.short(s.name(b.Target), 8))
		}
	}
	out = append(out, s.wrapStyled(th.Base, strings.Join(parts, "  "), w)...)
	if shown < len(r.Ballots) {
		return out
	}
	tally := map[game.Seat]int{}
	var order []game.Seat
	for _, b := range r.Ballots {
		if b.Target >= 0 {
			if tally[b.Target] == 0 {
				order = append(order, b.Target)
			}
			tally[b.Target] += b.Weight
		}
	}
	slices.SortStableFunc(order, func(a, b game.Seat) int { return tally[b] - tally[a] })
	var ts []string
	for _, t := range order {
		ts = append(ts, fmt.Sprintf("%s %d", s.name(t), tally[t]))
	}
	if len(ts) == 0 {
		ts = append(ts, th.T("werewolfui.no_votes"))
	}
	res := ""
	switch {
	case r.Result >= 0 && r.Kind == werewolf.PhaseVote:
		res = " ⇒ " + th.T("werewolfui.is_lynched", game.Text("Player", s.name(r.Result)))
	case r.Result >= 0:
		res = " ⇒ " + th.T("werewolfui.is_sheriff", game.Text("Player", s.name(r.Result)))
	case len(r.Tied) > 0:
		res = " ⇒ " + th.T("werewolfui.tie")
	}
	out = append(out, s.wrapStyled(th.Strong, th.T("werewolfui.tally")+" "+strings.Join(ts, " · ")+res, w)...)
	return out
}

// Log.

func (s *Screen) logLines(w, h int) []string {
	if s.packView && len(s.v.Pack) > 0 {
		return s.eventsLines(s.packEvents(), w, h) // asked for with P
	}
	if !s.asleep() {
		return s.eventsLines(s.u.Log, w, h)
	}
	// Asleep, the log is what everyone sees: the table's public log, which
	// a seat's private lines (a wolf's chat) cannot thin out (§11.2).
	public := s.u.Public
	if public == nil { // an Update from before the table sent one
		for _, e := range s.u.Log {
			if e.Audience.All {
				public = append(public, e)
			}
		}
	}
	return s.eventsLines(public, w, h)
}

// eventsLines draws the newest events that fit in h lines (minus the lines
// scrolled back).
func (s *Screen) eventsLines(events []*game.Event, w, h int) []string {
	if h <= 0 {
		return nil
	}
	th := s.th
	// Only the newest events that fill the window (and what is scrolled
	// back) are drawn, newest first; if they run out, all of them were.
	var drawn [][]string
	n := 0
	s.logMemo.Begin(th, w)
	for j := len(events) - 1; j >= 0 && n < h+s.logBack; j-- {
		e := events[j]
		who := "" // what eventLines shows besides the event: a chat line's speaker
		if e.Kind == game.Chat {
			who = s.speaker(e.From)
		}
		ls := s.logMemo.Lines(e, who, func() []string { return s.sharedEventLines(e, who, w) })
		drawn = append(drawn, ls)
		n += len(ls)
	}
	lines := make([]string, 0, n)
	first := make([]bool, 0, n) // lines[i] begins an event
	for j := len(drawn) - 1; j >= 0; j-- {
		for i, l := range drawn[j] {
			lines = append(lines, l)
			first = append(first, i == 0)
		}
	}
	if len(lines) == 0 {
		lines, first = []string{th.Muted.Render(th.T("werewolfui.nothing_yet"))}, []bool{true}
	}
	s.logBack = min(s.logBack, max(0, len(lines)-h))
	end := len(lines) - s.logBack
	start := max(0, end-h)
	for start < end-1 && !first[start] {
		start++ // never begin with the tail of a wrapped line
	}
	return lines[start:end]
}

func (s *Screen) speaker(seat game.Seat) string {
	if i := int(seat); i >= 0 && i < len(s.v.Players) {
		return s.shortName(s.v.Players[i].Name)
	}
	if si, ok := s.seatInfo(seat); ok {
		return s.shortName(si.Name)
	}
	return "?"
}

// eventLines formats one log event; chat channels are marked, not only
// coloured: [pack] the wolves' channel, [dead] the graveyard, [glimpse] the
// little girl's relay, » a private line.
// sharedLines holds the log lines that the seats of a table draw alike:
// an event heard by eighteen villagers is drawn once per theme, not once
// per seat (uikit.SharedLines).
var sharedLines = uikit.NewSharedLines(8192)

// sharedEventLines is eventLines, drawn once for all the seats that hear
// e; who is the speaker's name as drawn (chat lines only).
func (s *Screen) sharedEventLines(e *game.Event, who string, w int) []string {
	k := uikit.NewKey(s.th, "event", w)
	key := k.Int(int(e.Kind)).Str(e.Channel).Str(who).Str(e.Text).Msg(e.Msg).Sum()
	return sharedLines.Lines(nil, key, func() []string { return s.eventLines(e, w) })
}

func (s *Screen) eventLines(e *game.Event, w int) []string {
	th := s.th
	text := uikit.Clean(th.Event(e))
	var prefix string
	st := th.Base
	switch {
	case e.Kind == game.Chat && e.Channel == werewolf.ChannelDead:
		prefix, st = th.T("werewolfui.mark.dead")+" "+s.speaker(e.From)+": ", th.Muted
	case e.Kind == game.Chat && e.Channel == werewolf.ChannelWolves:
		prefix, st = th.T("werewolfui.mark.pack")+" "+s.speaker(e.From)+": ", th.Danger
	case e.Channel == werewolf.ChannelRelay:
		prefix, st = th.T("werewolfui.mark.glimpse")+" ", th.Warning
	case e.Channel == werewolf.ChannelWolves:
		prefix, st = th.T("werewolfui.mark.pack")+" ", th.Danger
	case e.Kind == game.Chat:
		prefix, st = s.speaker(e.From)+": ", th.Chat
	case e.Kind == game.Private:
		prefix, st = "» ", th.Accent
	}
	raw := uikit.WrapWords(prefix+text, w-2)
	out := make([]string, len(raw))
	for i, l := range raw {
		if i > 0 {
			l = "  " + l
		}
		out[i] = st.Render(th.Trunc(l, w))
	}
	return out
}

// The end of the game: every card, the winners, the night log.

func (s *Screen) endBody(w, h int) []string {
	th, v := s.th, s.v
	out := []string{s.titleLine(w)}
	summary := uikit.Clean(th.Msg(v.Summary))
	if summary == "" && s.u.Result != nil {
		summary = uikit.Clean(th.Msg(s.u.Result.Summary))
	}
	out = append(out, s.spread(th.Title.Render(th.T("werewolfui.game_over")), th.Muted.Render(th.T("werewolfui.after_nights", game.Count(v.Night))), w))
	out = append(out, s.wrapStyled(th.Strong, summary, w)...)
	// Each column as wide as its longest entry (a team's name is never
	// cut: "Влюблённые"); the names get what is left, at least 6 cells.
	type row struct{ name, card, team, fate string }
	rows := make([]row, len(v.Players))
	cols := row{th.T("werewolfui.col.player"), th.T("werewolfui.col.card"), th.T("werewolfui.col.team"), th.T("werewolfui.col.fate")}
	nameW, cardW, teamW, fateW := max(6, width(cols.name)), width(cols.card), width(cols.team), width(cols.fate)
	for i, p := range v.Players {
		card := th.T(p.Card.Key())
		if p.Original != werewolf.RoleUnknown && p.Original != p.Card {
			card = th.T(p.Original.Key()) + " → " + card
		}
		fate := th.T("werewolfui.alive")
		if !p.Alive {
			fate = "†" + strings.TrimPrefix(s.causes(p.Causes), ",")
		}
		if p.Sheriff {
			fate += " ★"
		}
		if p.Lover {
			fate += " ♥"
		}
		rows[i] = row{s.shortName(p.Name), card, th.T(p.Team.Key()), fate}
		nameW, cardW = max(nameW, width(rows[i].name)), max(cardW, width(card))
		teamW, fateW = max(teamW, width(rows[i].team)), max(fateW, width(fate))
	}
	const fixed = 2 + 3 + 2 + 2 + 2 // mark, seat, and the gaps between the columns
	cardW = min(cardW, 24)
	nameW = max(6, min(nameW, w-fixed-cardW-teamW-fateW))
	out = append(out, th.Muted.Render("     "+s.pad(cols.name, nameW)+"  "+s.pad(cols.card, cardW)+"  "+ // over the mark and the seat
		s.pad(cols.team, teamW)+"  "+cols.fate))
	for i, p := range v.Players {
		mark := "  "
		if p.Winner {
			mark = th.Good.Render("✓ ")
		}
		name := s.pad(s.short(rows[i].name, nameW), nameW)
		if p.Seat == s.u.Seat {
			name = th.Accent.Render(name)
		}
		st := th.Base
		if p.Card == werewolf.RoleWerewolf {
			st = th.Danger
		}
		line := mark + th.Muted.Render(fmt.Sprintf("%2d ", int(p.Seat)+1)) + name + "  " + st.Render(s.pad(rows[i].card, cardW)) + "  " +
			s.pad(rows[i].team, teamW) + "  " + rows[i].fate
		out = append(out, th.Trunc(line, w))
	}
	var facts []string
	if len(v.Middle) == 2 {
		facts = append(facts, th.T("werewolfui.middle_cards", game.Term("A", v.Middle[0].Key()), game.Term("B", v.Middle[1].Key())))
	}
	if len(v.Lovers) == 2 {
		facts = append(facts, th.T("werewolfui.lovers")+" "+s.name(v.Lovers[0])+" ♥ "+s.name(v.Lovers[1]))
	}
	if len(v.SheriffHistory) > 0 {
		var hs []string
		for _, x := range v.SheriffHistory {
			hs = append(hs, s.name(x))
		}
		facts = append(facts, th.T("werewolfui.sheriffs")+" "+strings.Join(hs, " → "))
	}
	if len(facts) > 0 {
		out = append(out, s.wrapStyled(th.Muted, strings.Join(facts, " · "), w)...)
	}
	if n := s.noticeLine(w); n != "" {
		out = append(out, n)
	}
	logH := h - len(out) - 1
	if logH >= 4 {
		out = append(out, th.Rule.Render(s.rule(th.T("werewolfui.night_log"), s.logBack > 0, w)))
		return append(out, s.eventsLines(s.endEvents(), w, logH)...)
	}
	// A big table's cards leave no room for the night log: the end screen
	// becomes one page that ] and [ scroll.
	out = append(out, th.Rule.Render(s.rule(th.T("werewolfui.night_log"), false, w)))
	out = append(out, s.eventsLines(s.endEvents(), w, 1<<20)...)
	s.endTop = min(s.endTop, max(0, len(out)-h))
	page := out[s.endTop:min(len(out), s.endTop+h)]
	if rest := len(out) - s.endTop - h; rest > 0 {
		page[len(page)-1] = th.Muted.Render(th.Trunc(th.Ellipsis()+" "+th.T("werewolfui.more_lines", game.Count(rest)), w))
	}
	return page
}

// endEvents are the night log (from the view, so a long chat cannot push
// it out of the room's short log) and the chat since the game ended.
func (s *Screen) endEvents() []*game.Event {
	night := make([]game.Event, len(s.v.History)) // one array for the night's lines, not one each
	for i, h := range s.v.History {
		night[i] = game.Event{Audience: game.Everyone(), Kind: game.Narration, From: -1, Msg: h}
	}
	evs := game.Refs(night)
	from := -1
	for i, e := range s.u.Log {
		if e.Kind == game.Narration && e.Type == werewolf.EvCardsRevealed {
			from = i
		}
	}
	for _, e := range s.u.Log[from+1:] {
		if e.Kind == game.Chat {
			evs = append(evs, e)
		}
	}
	if len(s.v.History) == 0 && from < 0 {
		return s.u.Log // an engine without a history: the plain log
	}
	return evs
}

// deckLine is the public deck list in words ("Werewolf ×2 · Seer ·
// Villager ×5").
func (s *Screen) deckLine(deck []werewolf.Role) string {
	count := map[werewolf.Role]int{}
	var order []werewolf.Role
	for _, r := range deck {
		if count[r] == 0 {
			order = append(order, r)
		}
		count[r]++
	}
	var parts []string
	for _, r := range order {
		name := s.th.T(r.Key())
		if n := count[r]; n > 1 {
			name += " ×" + strconv.Itoa(n)
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, " · ")
}

// Text helpers.

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// lastStyle is the style in force after s, given the one before it.
func lastStyle(before, s string) string {
	all := sgr.FindAllString(s, -1)
	if len(all) == 0 {
		return before
	}
	if last := all[len(all)-1]; last != "\x1b[0m" && last != "\x1b[m" {
		return last
	}
	return ""
}

// glued joins a sign ("→", "†") to the word after it: a line never ends
// with one.
func glued(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		for i+1 < len(words) && !strings.ContainsFunc(ansi.Strip(w), unicode.IsLetter) {
			i++
			w += " " + words[i]
		}
		out = append(out, w)
	}
	return out
}

// resetIf ends style on a line that ends inside it.
func resetIf(style string) string {
	if style == "" {
		return ""
	}
	return "\x1b[0m"
}

func width(s string) int { return uikit.Width(s) }

// short cuts plain text to n cells.
// short cuts text to n cells on the screen; plain mode reads it whole.
func (s *Screen) short(text string, n int) string {
	if s.spoken {
		return text
	}
	return s.th.Trunc(text, n)
}

func (s *Screen) pad(text string, w int) string {
	text = s.short(text, w)
	return text + strings.Repeat(" ", max(0, w-width(text)))
}

// spread puts left and right on one line of w cells.
func (s *Screen) spread(left, right string, w int) string {
	gap := w - width(left) - width(right)
	if gap < 1 {
		return s.th.Trunc(left+" "+right, w)
	}
	return left + strings.Repeat(" ", gap) + right
}

// wrapStyled wraps plain text to w cells, then styles each line.
func (s *Screen) wrapStyled(st uikit.Ink, text string, w int) []string {
	if text == "" {
		return nil
	}
	raw := uikit.WrapWords(text, max(w, 1))
	for i, l := range raw {
		raw[i] = st.Render(s.th.Trunc(strings.TrimRight(l, " "), w))
	}
	return raw
}

func itoa(n int) string { return strconv.Itoa(n) }

// packEvents is the whole wolves' channel as log lines, marked by night.
func (s *Screen) packEvents() []*game.Event {
	evs := make([]game.Event, 0, len(s.v.Pack)) // one array, not an event each
	night := 0
	for _, l := range s.v.Pack {
		if s.mutedLine(l.From) {
			continue
		}
		if l.Night != night {
			night = l.Night
			evs = append(evs, game.Event{Audience: game.Everyone(), Kind: game.Narration, From: game.NoSeat,
				Msg: game.M("werewolfui.pack_night", game.Num("N", night))})
		}
		evs = append(evs, game.Event{Kind: game.Chat, From: l.From, Channel: werewolf.ChannelWolves, Text: l.Text, Msg: l.Line})
	}
	return game.Refs(evs)
}
