package werewolf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
)

// invariants checks what must hold in every state.
func invariants(s *State) error {
	n := len(s.Players)
	cards := append(s.cards(), s.Middle...)
	slices.Sort(cards)
	deck := slices.Clone(s.Deck)
	slices.Sort(deck)
	if !slices.Equal(cards, deck) {
		return fmt.Errorf("cards %v are not the deck %v", cards, deck)
	}
	if s.Over != (s.Phase == PhaseGameOver) {
		return fmt.Errorf("over %v in phase %v", s.Over, s.Phase)
	}
	if s.Phase > PhaseGameOver {
		return fmt.Errorf("phase %d", s.Phase)
	}
	if s.Sheriff < -1 || s.Sheriff >= n {
		return fmt.Errorf("sheriff %d", s.Sheriff)
	}
	if s.Sheriff >= 0 && !s.alive(s.Sheriff) && !s.Over {
		switch s.Phase {
		case PhaseDawn, PhaseVerdict, PhaseHunterShot, PhaseSheriffSuccession:
		default:
			return fmt.Errorf("dead sheriff in %v", s.Phase)
		}
	}
	if s.Linked && (!s.valid(s.Lovers[0]) || !s.valid(s.Lovers[1]) || s.Lovers[0] == s.Lovers[1]) {
		return fmt.Errorf("lovers %v", s.Lovers)
	}
	if s.Linked && s.alive(s.Lovers[0]) != s.alive(s.Lovers[1]) && !s.Over && s.Phase != PhaseWolves {
		return fmt.Errorf("one lover alive")
	}
	for _, h := range s.ShotQueue {
		if s.alive(h) || s.Players[h].Card != RoleHunter {
			return fmt.Errorf("shot queue %v", s.ShotQueue)
		}
	}
	if s.Phase == PhaseHunterShot && len(s.ShotQueue) == 0 {
		return fmt.Errorf("hunter phase without a shot")
	}
	if _, ok := s.Timer(); ok == s.Over {
		return fmt.Errorf("timer %v while over %v", ok, s.Over)
	}
	for _, w := range s.Waiting() {
		if len(s.Legal(int(w))) == 0 {
			return fmt.Errorf("waiting on seat %d, which has nothing to do", w)
		}
	}
	for i := range n {
		legal := s.Legal(i)
		if len(legal) > 3 { // a sample: first, middle, last
			legal = []Action{legal[0], legal[len(legal)/2], legal[len(legal)-1]}
		}
		for _, a := range legal {
			c := s.Clone()
			var out []game.Event
			if err := c.apply(i, a, &out); err != nil {
				return fmt.Errorf("legal %v of seat %d refused: %v", a, i, err)
			}
		}
	}
	return leaks(s)
}

// leaks checks that no living player's view shows more than the rules let
// it know.
func leaks(s *State) error {
	for i := -1; i < len(s.Players); i++ {
		v := s.View(game.Seat(i))
		if s.Over || (i >= 0 && s.watcher(i)) {
			continue
		}
		var me *Player
		if i >= 0 {
			me = &s.Players[i]
		}
		wolf := me != nil && me.Card == RoleWerewolf && me.KnowsWolves
		for j, p := range v.Players {
			if j == i || !s.Players[j].Alive {
				continue
			}
			if p.Card != RoleUnknown && !(wolf && s.Players[j].Card == RoleWerewolf) {
				return fmt.Errorf("seat %d sees living seat %d's card %v", i, j, p.Card)
			}
			if p.Wolf && !wolf {
				return fmt.Errorf("seat %d sees living wolf %d", i, j)
			}
		}
		if v.Middle != nil && i != s.ThiefSeat {
			return fmt.Errorf("seat %d sees the middle", i)
		}
		if v.Lovers != nil && !(i >= 0 && (i == s.Cupid || s.partner(i) >= 0)) {
			return fmt.Errorf("seat %d sees the lovers", i)
		}
		if len(v.Visions) > 0 && (me == nil || len(me.Visions) == 0) {
			return fmt.Errorf("seat %d sees visions", i)
		}
		if len(v.Choices) > 0 && !wolf {
			return fmt.Errorf("seat %d sees the wolves' choices", i)
		}
		if v.Victim >= 0 && !wolf && !(me != nil && me.Card == RoleWitch) && !(me != nil && me.Card == RoleLittleGirl && s.Caught) {
			return fmt.Errorf("seat %d sees the victim", i)
		}
		if i < 0 && (v.Legal != nil || v.Card != RoleUnknown) {
			return fmt.Errorf("spectator view has private data")
		}
	}
	return nil
}

// audiences checks where events go.
func audiences(s *State, evs []game.Event) error {
	for _, e := range evs {
		if slices.Contains(e.Audience.Seats, game.Spectator) || slices.Contains(e.Audience.Seats, game.System) {
			return fmt.Errorf("event to a non-seat: %+v", e)
		}
		switch e.Channel {
		case ChannelWolves:
			for _, x := range e.Audience.Seats {
				if !s.isWolf(int(x)) && !s.watcher(int(x)) {
					return fmt.Errorf("wolves' channel to %d: %q", x, evText(e))
				}
			}
			if e.Audience.All {
				return fmt.Errorf("wolves' channel to all")
			}
		case ChannelRelay:
			if e.Audience.All || len(e.Audience.Seats) != 1 || s.Players[e.Audience.Seats[0]].Card != RoleLittleGirl || e.From != -1 {
				return fmt.Errorf("relay %+v", e)
			}
			for _, p := range s.Players {
				if p.Card == RoleWerewolf && hasWord(evText(e), p.Name) {
					return fmt.Errorf("relay names wolf %s: %q", p.Name, evText(e))
				}
			}
		case ChannelDead:
			for _, x := range e.Audience.Seats {
				if s.alive(int(x)) {
					return fmt.Errorf("dead channel to the living %d", x)
				}
			}
			if e.Audience.All {
				return fmt.Errorf("dead channel to all")
			}
		}
	}
	return nil
}

func hasWord(text, w string) bool {
	text, w = strings.ToLower(text), strings.ToLower(w)
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		okL := j == 0 || !isWordRune(rune(text[j-1]))
		okR := end == len(text) || !isWordRune(rune(text[end]))
		if okL && okR {
			return true
		}
		i = j + 1
	}
}
