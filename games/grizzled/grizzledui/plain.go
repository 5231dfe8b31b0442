package grizzledui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The plain (screen-reader) mode's view of the table: the same SeatView and
// catalog words as the drawn screen, as sentences (uikit.Plain). The table,
// the hand and the rules are said from a seat's words alone; what is asked
// now (Asked, Look, Moves) also needs the screen's open chooser.

var _ uikit.Plain = (*Screen)(nil)

// Asked is the status line's words: whose move it is, or what is asked.
func (s *Screen) Asked() string {
	if !s.hasView {
		return s.th.T("ui.waiting_table")
	}
	if s.over() {
		return strings.Join(s.overLines(200, s.th.T("plain.words.leave")), " ")
	}
	if a := s.current(); a.kind != askNone {
		return a.prompt + s.timeLeft()
	}
	// The leader choosing the intensity, another soldier placing a support
	// tile or choosing a benefit: the log has just said so ("mission 2:
	// Ann leads", "Ann withdraws", "most support: Ann"), and a screen
	// reader hears each thing once.
	switch v := s.v; {
	case v.Phase == grizzled.PhaseIntensity, v.Phase == grizzled.PhaseBenefit,
		v.Phase == grizzled.PhaseDecision && v.Decision == grizzled.DecidePlaceTile:
		return ""
	}
	// Read out, the status names the threat in words only: its drawn
	// tag ("No", "Sc") is a column abbreviation a screen reader would
	// spell out.
	s.spoken = true
	line := s.statusLine()
	s.spoken = false
	return strings.Join(strings.Fields(strings.TrimPrefix(line, "▸ ")), " ")
}

// Look is the whole situation: title, what is asked, the table, the hand.
func (s *Screen) Look() []string {
	if !s.hasView {
		return []string{s.th.T("ui.waiting_table")}
	}
	th, v := s.th, s.v
	out := []string{fmt.Sprintf("%s · %s %d · %s %d · %s %d · %s %d", th.Msg(s.u.Title),
		th.T("grizzledui.mission"), v.Round, th.T("grizzledui.trials"), v.Trials,
		th.T("grizzledui.morale"), v.Morale, th.T("grizzledui.speech"), v.SpeechSupply), s.Asked()}
	out = append(out, s.Table()...)
	return append(out, s.Hand()...)
}

// Table is No Man's Land by threat and the soldiers, one a line.
func (s *words) Table() []string {
	th, v := s.th, s.v
	var out []string
	var threats []string
	for t := range grizzled.NumThreats {
		if n := v.Counts[t]; n > 0 {
			count := strconv.Itoa(n)
			switch {
			case n >= 3:
				count = th.T("plain.threat_fail")
			case n == 2:
				count = th.T("plain.threat_two")
			}
			threats = append(threats, s.threatName(grizzled.Threat(t))+" "+count)
		}
	}
	nml := th.T("grizzledui.nml") + ": " + th.T("grizzledui.n_cards", game.Count(len(v.NML)))
	if len(threats) > 0 {
		nml += "; " + strings.Join(threats, ", ")
	}
	out = append(out, nml+".")
	for _, p := range v.Players {
		out = append(out, s.soldierSentence(p))
	}
	return out
}

// soldierSentence is one soldier in words.
func (s *words) soldierSentence(p grizzled.PlayerView) string {
	th := s.th
	name := s.name(p.Seat)
	if p.Chaplain {
		name = th.T("grizzled.chaplain")
	}
	var parts []string
	if p.Seat == s.u.Seat {
		name += " " + th.T("ui.tag.you")
	}
	if s.waitsOn(p.Seat) {
		parts = append(parts, th.T("plain.acting"))
	}
	if p.Seat == s.v.Leader && !p.Chaplain {
		parts = append(parts, th.T("plain.leader"))
	}
	// Words, not the drawn table's column abbreviations: a screen reader
	// reads "Żet. 3" as it is written.
	charm := "plain.words.charm_ready"
	if !p.CharmAvailable {
		charm = "plain.words.charm_used"
	}
	parts = append(parts, th.T(charm, game.Text("Threat", s.threatName(p.Charm))))
	if !p.Chaplain {
		parts = append(parts, th.T("plain.words.hand", game.Count(p.HandSize)))
	}
	parts = append(parts, th.T("plain.words.tiles", game.Count(p.Tiles)), th.T("plain.words.speech", game.Count(p.SpeechTokens)))
	switch {
	case p.Answered:
		parts = append(parts, th.T("plain.words.answered"))
	case p.Withdrawn && p.PlacedTile:
		parts = append(parts, th.T("plain.words.out_tile"))
	case p.Withdrawn || p.Chaplain:
		parts = append(parts, th.T("plain.words.out"))
	default:
		parts = append(parts, th.T("plain.words.in"))
	}
	if len(p.HardKnocks) > 0 {
		names := make([]string, len(p.HardKnocks))
		for i, id := range p.HardKnocks {
			names[i] = s.card(id).name
		}
		parts = append(parts, th.T("grizzledui.col.knocks")+": "+strings.Join(names, ", ")+
			" ("+th.T("plain.words.weight", game.Num("N", p.Weight))+")")
	}
	return name + ": " + strings.Join(parts, "; ") + "."
}

// Hand is the viewer's cards, numbered as play takes them, and tiles.
func (s *words) Hand() []string {
	th, v := s.th, s.v
	if s.u.Seat == game.Spectator {
		return []string{th.T("grizzledui.watching")}
	}
	out := []string{th.T("grizzledui.your_hand") + ": " + th.T("grizzledui.n_cards", game.Count(len(v.Hand))) + "."}
	for i, id := range v.Hand {
		c := s.card(id)
		line := fmt.Sprintf("%d. %s", i+1, c.code+" "+c.name)
		if c.trap {
			line += " (" + th.T("grizzledui.trap") + ")"
		}
		if c.text != "" {
			line += ": " + c.text
		}
		if f := s.fatal(id); len(f) > 0 {
			// after a card's text, whose sentence ends, not ".;"
			line = strings.TrimSuffix(line, ".") + "; " + th.T("grizzledui.fails_short", game.Text("Threats", th.And(f)))
		}
		out = append(out, line)
	}
	tiles := make([]string, len(v.MyTiles))
	for i, t := range v.MyTiles {
		tiles[i] = th.T(t.Key())
	}
	out = append(out, th.T("grizzled.your_tiles", game.Text("Tiles", th.And(tiles))))
	return out
}

// Moves are SeatView.Legal in words, with the commands that pick each.
func (s *Screen) Moves() []uikit.Move {
	if !s.playing() {
		return nil
	}
	th, v := s.th, s.v
	handIndex := func(c grizzled.CardID) string {
		for i, h := range v.Hand {
			if h == c {
				return strconv.Itoa(i + 1)
			}
		}
		return ""
	}
	var out []uikit.Move
	for _, a := range v.Legal {
		m := uikit.Move{Action: a, Label: s.moveLabel(a)}
		switch a.Kind {
		case grizzled.ActIntensity:
			m.Commands = []string{"deal " + strconv.Itoa(a.K), "intensity " + strconv.Itoa(a.K)}
		case grizzled.ActPlay:
			m.Commands = []string{"play " + handIndex(a.Card), "play " + strings.ToLower(s.card(a.Card).code)}
			if f := s.fatal(a.Card); len(f) > 0 { // as hand warns
				m.Label += "; " + th.T("grizzledui.fails_short", game.Text("Threats", th.And(f)))
			}
		case grizzled.ActCharm:
			m.Commands = []string{"charm " + strings.ToLower(s.card(a.Card).code)}
		case grizzled.ActSpeech:
			m.Commands = []string{"speech " + strings.ToLower(s.threatName(a.Threat)), "speech " + a.Threat.String()}
		case grizzled.ActSpeechDiscard:
			m.Commands = []string{"discard " + handIndex(a.Card), "discard " + strings.ToLower(s.card(a.Card).code)}
		case grizzled.ActSpeechPass:
			m.Commands = []string{"pass"}
		case grizzled.ActWithdraw:
			m.Commands = []string{"withdraw"}
		case grizzled.ActRemoveTile, grizzled.ActPlaceTile:
			m.Commands = []string{"tile " + strings.ToLower(a.Tile.String()), "withdraw " + strings.ToLower(a.Tile.String()),
				"tile " + strings.ToLower(s.tileName(a.Tile))}
		case grizzled.ActDiscardHardKnock: // each hard knock is one card: its code names it
			m.Commands = []string{"discard " + strings.ToLower(s.card(a.Card).code)}
		case grizzled.ActBenefitDiscard:
			codes := make([]string, len(a.Cards))
			for i, c := range a.Cards {
				codes[i] = strings.ToLower(s.card(c).code)
			}
			m.Commands = []string{"discard " + strings.Join(codes, " ")}
		case grizzled.ActBenefitCharm:
			m.Commands = []string{"restore", "charm"}
		case grizzled.ActBenefitDecline:
			m.Commands = []string{"decline", "nothing"}
		}
		out = append(out, m)
	}
	return out
}

// RulePages is the rules reference (uikit.Rules): how a turn works, the
// actions and the mission's end, threat cards and traps, then a page per
// hard knock and Merry Christmas. A threat card's code ("t15") finds the
// threat cards' page.
func (s *words) RulePages() []uikit.RulePage {
	th := s.th
	page := func(topic string, codes ...string) uikit.RulePage {
		return uikit.RulePage{Title: th.T("grizzledui.rules." + topic + "_title"), Body: th.T("grizzledui.rules." + topic), Codes: codes}
	}
	threats := make([]string, grizzled.NumThreats)
	for t := range grizzled.NumThreats {
		threats[t] = s.threatName(grizzled.Threat(t))
	}
	var threatCodes []string
	for id := grizzled.CardID(1); id < grizzled.FirstHardKnock; id++ {
		threatCodes = append(threatCodes, strings.ToLower(s.card(id).code))
	}
	pages := []uikit.RulePage{
		{Title: th.T("grizzledui.rules.turn_title"), Body: th.T("grizzledui.rules.turn")},
		page("charm"), page("speech"), page("support"), page("failure"), page("end"),
		{Title: th.T("grizzledui.rules.threats_title"), Body: th.T("grizzledui.rules.threats", game.Text("Threats", th.And(threats))), Codes: threatCodes},
		page("traps"),
		{Title: th.T("grizzledui.rules.knock_title"), Body: th.T("grizzledui.rules.knocks")},
	}
	for id := grizzled.FirstHardKnock; id <= grizzled.MerryChristmas; id++ {
		c := s.card(id)
		body := c.text
		if c.kind == grizzled.KindHardKnock {
			body = th.T("grizzledui.knock_weight", game.Num("N", c.weight)) + "\n" + body
		}
		pages = append(pages, uikit.RulePage{Title: c.code + " " + c.name, Body: body, Codes: []string{strings.ToLower(c.code)}})
	}
	return pages
}
