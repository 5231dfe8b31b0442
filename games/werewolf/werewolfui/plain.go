package werewolfui

import (
	"strconv"
	"strings"

	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// The plain (screen-reader) mode's view of the village: the drawn screen's
// own lines, drawn wide and without the columns, and the legal actions with
// the commands that pick them (uikit.Plain).

var _ uikit.Plain = (*Screen)(nil)

// plainWidth is wide enough that no sentence wraps.
const plainWidth = 400

func squeeze(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Asked is what the game asks of the viewer, or what the village hears.
func (s *Screen) Asked() string {
	if !s.hasView {
		return s.th.T("ui.waiting_table")
	}
	if !s.v.Prompt.IsZero() && (s.v.Alive || s.v.LastBreath) {
		return s.th.Msg(s.v.Prompt)
	}
	return s.th.Msg(s.v.Narration)
}

// Look: the phase, its narration, what is asked, the card, the players.
func (s *Screen) Look() []string {
	s.spoken = true
	defer func() { s.spoken = false }()
	if !s.hasView {
		return []string{s.th.T("ui.waiting_table")}
	}
	if s.over() {
		return squeeze(s.endBody(plainWidth, 1<<20))
	}
	out := squeeze([]string{s.bannerLine(plainWidth), s.narrationLine(plainWidth)})
	out = append(out, squeeze(s.actionLines(plainWidth))...)
	out = append(out, s.Hand()...)
	return append(out, s.Table()...)
}

// Hand is the viewer's card and what it knows. The full screen keeps a
// sleeping player's card face down until asked; in plain mode asking for
// the hand (or a look) is that request.
func (s *Screen) Hand() []string {
	s.spoken = true
	defer func() { s.spoken = false }()
	shown := s.showCard
	s.showCard = true
	defer func() { s.showCard = shown }()
	return squeeze(s.cardLines(plainWidth))
}

// Table is the players: alive or dead, and what the viewer knows of them.
func (s *Screen) Table() []string {
	s.spoken = true
	defer func() { s.spoken = false }()
	return squeeze(s.playerLines(plainWidth, len(s.v.Players)+1))
}

// Moves are SeatView.Legal in the engine's words; the players' numbers are
// their seats as the screen lists them.
func (s *Screen) Moves() []uikit.Move {
	if !s.hasView {
		return nil
	}
	var out []uikit.Move
	for _, a := range s.legal() {
		m := uikit.Move{Label: s.th.Msg(s.v.Describe(a)), Action: a}
		n := strconv.Itoa(a.Target + 1)
		switch a.Kind {
		case werewolf.KindBallot:
			m.Commands = []string{"vote " + n, "elect " + n}
		case werewolf.KindTiebreak:
			m.Commands = []string{"lynch " + n, "vote " + n}
		case werewolf.KindWolfSelect:
			m.Commands = []string{"devour " + n, "vote " + n}
		case werewolf.KindSeerInspect:
			m.Commands = []string{"see " + n}
		case werewolf.KindWitchPoison:
			m.Commands = []string{"poison " + n}
		case werewolf.KindWitchHeal:
			m.Commands = []string{"heal"}
		case werewolf.KindHunterShoot:
			m.Commands = []string{"shoot " + n}
		case werewolf.KindSuccessor:
			m.Commands = []string{"badge " + n}
		case werewolf.KindCupidLink:
			m.Commands = []string{"link " + n + " " + strconv.Itoa(a.Second+1)}
		case werewolf.KindThiefTake:
			m.Commands = []string{"take " + strconv.Itoa(a.Target+1)}
		case werewolf.KindThiefKeep:
			m.Commands = []string{"keep"}
		case werewolf.KindAbstain:
			m.Commands = []string{"abstain"}
		case werewolf.KindReady:
			if a.On {
				m.Commands = []string{"ready"}
			} else {
				m.Commands = []string{"unready"}
			}
		case werewolf.KindStand:
			if a.On {
				m.Commands = []string{"stand"}
			} else {
				m.Commands = []string{"unstand"}
			}
		case werewolf.KindPeek:
			if a.On {
				m.Commands = []string{"peek"}
			} else {
				m.Commands = []string{"shut"}
			}
		case werewolf.KindWitchDone, werewolf.KindHunterHold, werewolf.KindWolfDone:
			m.Commands = []string{"done", "pass"}
		case werewolf.KindWolfClear:
			m.Commands = []string{"clear"}
		}
		out = append(out, m)
	}
	return out
}

// RulePages is the rules reference (uikit.Rules): first the primer for
// newcomers (the game in one screen, as played here), then a night and a
// day, voting, the sheriff and the lovers, and a page per card.
func (s *Screen) RulePages() []uikit.RulePage {
	th := s.th
	page := func(topic string) uikit.RulePage {
		return uikit.RulePage{Title: th.T("werewolfui.rules." + topic + "_title"), Body: th.T("werewolfui.rules." + topic)}
	}
	pages := []uikit.RulePage{
		page("primer"),
		{Title: th.T("werewolfui.rules.turn_title"), Body: th.T("werewolfui.rules.turn")},
		page("vote"), page("sheriff"), page("lovers"),
	}
	for _, r := range ruleRoles {
		pages = append(pages, uikit.RulePage{Title: th.T(r.Key()), Body: th.T("werewolfui.rules.role." + r.ID())})
	}
	return pages
}

// ruleRoles are the cards the rules reference has a page for: every card
// of the game's deck.
var ruleRoles = []werewolf.Role{werewolf.RoleWerewolf, werewolf.RoleVillager, werewolf.RoleSeer, werewolf.RoleWitch,
	werewolf.RoleHunter, werewolf.RoleCupid, werewolf.RoleLittleGirl, werewolf.RoleThief}
