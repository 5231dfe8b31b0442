package wolfbot

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// checker verifies, after every change of a bot game, that views and events
// leak nothing (spec §16 scenario 58).
type checker struct {
	t      *testing.T
	views  bool
	relays *int
	chats  *int
}

func wordIn(text, w string) bool {
	text, w = strings.ToLower(text), strings.ToLower(w)
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		isW := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
		if (j == 0 || !isW(rune(text[j-1]))) && (end == len(text) || !isW(rune(text[end]))) {
			return true
		}
		i = j + 1
	}
}

func (c checker) observe(s *werewolf.State, seat game.Seat, a werewolf.Action, evs []game.Event) error {
	isWolf := func(i game.Seat) bool { return s.Players[i].Card == werewolf.RoleWerewolf }
	for _, e := range evs {
		if slices.Contains(e.Audience.Seats, game.Spectator) {
			return fmt.Errorf("event to the spectator seat: %+v", e)
		}
		if err := botLineIsMessage(e); err != nil {
			return err
		}
		switch e.Channel {
		case werewolf.ChannelWolves:
			*c.chats++
			for _, x := range e.Audience.Seats {
				if !isWolf(x) && s.Players[x].Alive {
					return fmt.Errorf("wolves' line to living non-wolf %d: %q", x, evText(e))
				}
			}
		case werewolf.ChannelRelay:
			*c.relays++
			if e.From != -1 || len(e.Audience.Seats) != 1 || s.Players[e.Audience.Seats[0]].Card != werewolf.RoleLittleGirl {
				return fmt.Errorf("bad relay %+v", e)
			}
			for _, p := range s.Players {
				if p.Card == werewolf.RoleWerewolf && wordIn(evText(e), p.Name) {
					return fmt.Errorf("relay names wolf %s: %q", p.Name, evText(e))
				}
			}
		case werewolf.ChannelDead:
			for _, x := range e.Audience.Seats {
				if s.Players[x].Alive {
					return fmt.Errorf("dead line to the living %d", x)
				}
			}
		}
	}
	if !c.views || s.Over {
		return nil
	}
	for i := -1; i < len(s.Players); i++ {
		v := s.View(game.Seat(i))
		if i >= 0 && !v.Alive && !v.LastBreath {
			continue // the dead may see all (DeadSeeAll)
		}
		me := werewolf.RoleUnknown
		if i >= 0 {
			me = s.Players[i].Card
		}
		for j, p := range v.Players {
			if j == i || !p.Alive || p.Card == werewolf.RoleUnknown {
				continue
			}
			if !(me == werewolf.RoleWerewolf && p.Card == werewolf.RoleWerewolf) {
				return fmt.Errorf("seat %d (%v) sees living seat %d's card %v", i, me, j, p.Card)
			}
		}
	}
	return nil
}

func TestScenario58_BotGamesEveryTableSize(t *testing.T) {
	seeds := 12
	if raceEnabled || testing.Short() {
		seeds = 2
	}
	bots := map[string]*Bot{}
	for _, l := range []string{Easy, Normal} {
		bots[l], _ = NewBot(l)
	}
	relays, chats := 0, 0
	defer func() {
		t.Logf("%d wolves' lines, %d relays checked", chats, relays)
		if relays == 0 || chats == 0 {
			t.Error("no relay or wolves' line was exercised")
		}
		if botLinesSeen.Load() == 0 {
			t.Error("no bot spoke")
		}
	}()
	for n := 5; n <= 18; n++ {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("Name%d", i+1)
		}
		for seed := range uint64(seeds) {
			for _, lvl := range []string{Easy, Normal} {
				opts := SimOptions(n)
				if n < 8 {
					opts.Preset, opts.Wolves = werewolf.PresetCustom, werewolf.TableWolves(n)
					opts.Seer, opts.Witch, opts.LittleGirl = true, n >= 6, true
					if n == 7 {
						opts.Wolves, opts.Thief, opts.Cupid = 2, true, true
					}
				}
				if seed%3 == 1 {
					opts.Preset = werewolf.PresetStarter
				}
				opts.LittleGirlRelay, opts.LittleGirlCatch = 0.5, 0.05
				c := checker{t: t, views: seed%2 == 0, relays: &relays, chats: &chats}
				g, err := PlayWithChat(bots[lvl], names, opts, seed*31+uint64(n), c.observe)
				if err != nil {
					t.Fatalf("n=%d seed=%d %s: %v", n, seed, lvl, err)
				}
				if !g.State.Over || g.Actions >= MaxActions {
					t.Fatalf("n=%d seed=%d: unfinished after %d actions", n, seed, g.Actions)
				}
				if err := winnerIsRight(g.State); err != nil {
					t.Fatalf("n=%d seed=%d: %v", n, seed, err)
				}
				if err := replays(g); err != nil {
					t.Fatalf("n=%d seed=%d: %v", n, seed, err)
				}
			}
		}
	}
}

// winnerIsRight re-derives the result from the final state (spec §10).
func winnerIsRight(s *werewolf.State) error {
	wolves, others := 0, 0
	for _, p := range s.Players {
		if p.Alive && p.Card == werewolf.RoleWerewolf {
			wolves++
		} else if p.Alive {
			others++
		}
	}
	team := func(t werewolf.Team) []game.Seat {
		var v []game.Seat
		for i, p := range s.Players {
			if p.Team == t {
				v = append(v, game.Seat(i))
			}
		}
		return v
	}
	want, winners := "", []game.Seat(nil)
	switch {
	case s.Outcome == werewolf.OutcomeStalemate:
		if s.Quiet < s.Opts.StalemateCycles {
			return fmt.Errorf("stalemate after %d quiet cycles", s.Quiet)
		}
		return nil
	case wolves+others == 0:
		want = werewolf.OutcomeNone
	case wolves+others == 2 && s.Linked && s.Players[s.Lovers[0]].Alive && s.Players[s.Lovers[1]].Alive && s.Players[s.Lovers[0]].Team == werewolf.TeamLovers:
		want, winners = werewolf.OutcomeLovers, []game.Seat{game.Seat(s.Lovers[0]), game.Seat(s.Lovers[1])}
	case wolves == 0:
		want, winners = werewolf.OutcomeVillage, team(werewolf.TeamVillage)
	case others == 0:
		want, winners = werewolf.OutcomeWolves, team(werewolf.TeamWolves)
	default:
		return fmt.Errorf("game over (%s) with %d wolves and %d others alive", s.Outcome, wolves, others)
	}
	if s.Outcome != want || !slices.Equal(s.Winners, winners) {
		return fmt.Errorf("outcome %s %v, want %s %v", s.Outcome, s.Winners, want, winners)
	}
	return nil
}

// replays rebuilds the game from its setup, seed and log.
func replays(g Game) error {
	var rules werewolf.Game
	st, _, err := rules.New(game.Setup{Game: werewolf.ID, Names: g.Names, Options: g.Options.Encode()}, g.Seed)
	if err != nil {
		return err
	}
	for _, step := range g.Log {
		b, err := rules.EncodeAction(step.Action)
		if err != nil {
			return err
		}
		a, err := rules.DecodeAction(b)
		if err != nil {
			return err
		}
		st, _, err = rules.Apply(st, step.Seat, a)
		if err != nil {
			return fmt.Errorf("replay: %v", err)
		}
	}
	a, _ := werewolf.EncodeState(g.State)
	b, _ := werewolf.EncodeState(st.(*werewolf.State))
	if !bytes.Equal(a, b) {
		return fmt.Errorf("replay differs")
	}
	return nil
}

// evText is an event as an English reader reads it.
// botLineIsMessage checks that what a bot says (every chat line here) is a
// catalog message that reads in Russian with no Latin letter but the
// players' names ("Name3").
func botLineIsMessage(e game.Event) error {
	if e.Kind != game.Chat || e.From < 0 {
		return nil
	}
	botLinesSeen.Add(1)
	if e.Text != "" || !strings.HasPrefix(e.Msg.Key, werewolf.BotLinePrefix) {
		return fmt.Errorf("a bot said %q (%v): a bot's line is a catalog message", e.Text, e.Msg)
	}
	ru := i18n.For(i18n.Russian).Msg(e.Msg)
	if rest := botNames.ReplaceAllString(ru, ""); latin.MatchString(rest) || rest == e.Msg.Key {
		return fmt.Errorf("a bot's line %v reads %q in Russian", e.Msg, ru)
	}
	return nil
}

var botLinesSeen atomic.Int64

var botNames, latin = regexp.MustCompile(`Name[0-9]+`), regexp.MustCompile(`[A-Za-z]`)

func evText(e game.Event) string {
	if !e.Msg.IsZero() {
		return i18n.For(i18n.English).Msg(e.Msg)
	}
	return e.Text
}
