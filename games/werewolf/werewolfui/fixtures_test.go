package werewolfui

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/table"
)

// The fixtures are real engine games with a fixed deal and a scripted
// sequence of actions, so every screen drawn in a test is one the engine can
// produce. A table keeps each seat's log as the room actor does.

var names8 = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"}

type tableFx struct {
	t    *testing.T
	g    werewolf.Game
	st   game.State
	logs map[game.Seat][]game.Event
	seq  int
}

// Starter deal: Ann villager, Bob wolf, Cid seer, Eve wolf, the rest villagers.
func starterDeal() []werewolf.Role {
	W, V, S := werewolf.RoleWerewolf, werewolf.RoleVillager, werewolf.RoleSeer
	return []werewolf.Role{V, W, S, V, W, V, V, V}
}

// Classic deal (8 seats + 2 middle): Ann witch, Bob wolf, Cid seer, Dee
// hunter, Eve wolf, Fay cupid, Gus little girl, Hal thief; middle: two villagers.
func classicDeal() []werewolf.Role {
	return []werewolf.Role{werewolf.RoleWitch, werewolf.RoleWerewolf, werewolf.RoleSeer, werewolf.RoleHunter,
		werewolf.RoleWerewolf, werewolf.RoleCupid, werewolf.RoleLittleGirl, werewolf.RoleThief,
		werewolf.RoleVillager, werewolf.RoleVillager}
}

func newTable(t *testing.T, opts werewolf.Options, cards []werewolf.Role) *tableFx {
	t.Helper()
	st, evs, err := werewolf.NewStateDealt(names8, opts, 7, cards)
	if err != nil {
		t.Fatal(err)
	}
	tb := &tableFx{t: t, st: st, logs: map[game.Seat][]game.Event{}}
	tb.record(evs)
	return tb
}

func (tb *tableFx) record(evs []game.Event) {
	for _, e := range evs {
		for s := game.Seat(0); s < game.Seat(len(names8)); s++ {
			if e.Audience.Includes(s) {
				tb.logs[s] = append(tb.logs[s], e)
			}
		}
		if e.Audience.All {
			tb.logs[game.Spectator] = append(tb.logs[game.Spectator], e)
		}
	}
}

func (tb *tableFx) state() *werewolf.State { return tb.st.(*werewolf.State) }

func (tb *tableFx) phase() werewolf.Phase { return tb.state().Phase }

// do applies an action the test expects the engine to accept.
func (tb *tableFx) do(seat game.Seat, a werewolf.Action) {
	tb.t.Helper()
	st, evs, err := tb.g.Apply(tb.st, seat, a)
	if err != nil {
		tb.t.Fatalf("seat %d %v in %v: %v", seat, a, tb.phase(), err)
	}
	tb.st, tb.seq = st, tb.seq+1
	tb.record(evs)
}

// say is a chat line through Game.Say, as the room sends it.
func (tb *tableFx) say(seat game.Seat, text string) {
	tb.t.Helper()
	evs, err := tb.g.Say(tb.st, seat, text)
	if err != nil {
		tb.t.Fatalf("seat %d says %q: %v", seat, text, err)
	}
	tb.record(evs)
}

// tick ends the current phase as its timer would.
func (tb *tableFx) tick() {
	tb.t.Helper()
	tb.do(game.System, werewolf.Action{Kind: werewolf.KindTick, Seq: tb.state().PhaseSeq})
}

// until ticks until the phase is p.
func (tb *tableFx) until(p werewolf.Phase) {
	tb.t.Helper()
	for i := 0; tb.phase() != p; i++ {
		if i > 40 {
			tb.t.Fatalf("never reached %v (at %v)", p, tb.phase())
		}
		tb.tick()
	}
}

func (tb *tableFx) update(seat game.Seat) table.Update {
	v := tb.g.View(tb.st, seat).(werewolf.SeatView)
	log := tb.logs[seat]
	if len(log) > 40 {
		log = log[len(log)-40:]
	}
	seats := make([]table.SeatInfo, len(names8))
	for i, n := range names8 {
		seats[i] = table.SeatInfo{Seat: game.Seat(i), Name: n, Connected: i != 6}
		if i >= 5 && i != 6 {
			seats[i].Bot = "normal"
		}
	}
	public := tb.logs[game.Spectator] // as the room keeps it: 40 public events
	if len(public) > 40 {
		public = public[len(public)-40:]
	}
	res, over := tb.g.Result(tb.st)
	u := table.Update{Room: "W0LF", Title: game.Raw("Werewolves · starter · 8 players"), Game: werewolf.ID, Seat: seat,
		Seq: tb.seq, View: v, Log: game.Refs(slices.Clone(log)), Public: game.Refs(slices.Clone(public)),
		Seats: seats, Started: true, Over: over, Deadline: v.Deadline}
	if over {
		u.Result = &res
	}
	return u
}

func ballot(t game.Seat) werewolf.Action {
	return werewolf.Action{Kind: werewolf.KindBallot, Target: int(t)}
}

func ready() werewolf.Action { return werewolf.Action{Kind: werewolf.KindReady, On: true} }

// Scripts.

// starterWolves: night 1 of the starter deal, the seer (Cid) has seen Bob,
// Bob points at Dee, Eve has not chosen yet.
func starterWolves(t *testing.T) *tableFx {
	tb := newTable(t, werewolf.DefaultOptions(), starterDeal())
	tb.until(werewolf.PhaseSeer)
	tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 1})
	tb.until(werewolf.PhaseWolves)
	tb.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	tb.say(1, "Dee talks too much")
	return tb
}

// starterDawn: the wolves devoured Dee; day 1 dawns.
func starterDawn(t *testing.T) *tableFx {
	tb := starterWolves(t)
	tb.do(4, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 3})
	tb.until(werewolf.PhaseDawn)
	return tb
}

// starterVote: day 1 vote under way; Ann voted Bob, Cid voted Bob, Bob voted Cid.
func starterVote(t *testing.T) *tableFx {
	tb := starterDawn(t)
	tb.until(werewolf.PhaseDiscussion)
	tb.say(2, "I saw Bob's card last night. Bob is a werewolf!")
	tb.say(1, "Cid is lying, I am a simple villager")
	tb.say(0, "I believe Cid")
	for _, s := range []game.Seat{0, 1, 2, 4, 5, 6, 7} {
		tb.do(s, ready())
	}
	tb.do(0, ballot(1))
	tb.do(2, ballot(1))
	tb.do(1, ballot(2))
	return tb
}

// starterVerdict: the vote closed; Bob is lynched.
func starterVerdict(t *testing.T) *tableFx {
	tb := starterVote(t)
	for s, target := range map[game.Seat]game.Seat{4: 2, 5: 1, 6: 1, 7: 2} {
		tb.do(s, ballot(target))
	}
	return tb
}

// starterNight2Dead: night 2 after Bob's lynch; Dee (devoured) and Bob talk
// in the graveyard.
func starterNight2Dead(t *testing.T) *tableFx {
	tb := starterVerdict(t)
	tb.until(werewolf.PhaseSeer)
	tb.say(3, "They got me first. Bob, was it you?")
	tb.say(1, "Guilty. Eve is still out there")
	return tb
}

// starterOver: Eve is lynched on day 2; the village wins.
func starterOver(t *testing.T) *tableFx {
	tb := starterNight2Dead(t)
	tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 4})
	tb.until(werewolf.PhaseWolves)
	tb.do(4, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 7})
	tb.until(werewolf.PhaseDiscussion)
	for _, s := range []game.Seat{0, 2, 4, 5, 6} {
		tb.do(s, ready())
	}
	for _, s := range []game.Seat{0, 2, 5, 6} {
		tb.do(s, ballot(4))
	}
	tb.do(4, ballot(0))
	tb.until(werewolf.PhaseGameOver)
	tb.say(4, "well played, seer")
	return tb
}

// classicWitch: classic night 1 — the thief kept his card, cupid linked Ann
// and Dee, the seer saw Eve, both wolves chose Cid; the witch (Ann) wakes.
func classicWitch(t *testing.T) *tableFx {
	tb := newTable(t, werewolf.ClassicOptions(), classicDeal())
	tb.until(werewolf.PhaseThief)
	tb.do(7, werewolf.Action{Kind: werewolf.KindThiefKeep})
	tb.until(werewolf.PhaseCupid)
	tb.do(5, werewolf.Action{Kind: werewolf.KindCupidLink, Target: 0, Second: 3})
	tb.until(werewolf.PhaseSeer)
	tb.do(2, werewolf.Action{Kind: werewolf.KindSeerInspect, Target: 4})
	tb.until(werewolf.PhaseWolves)
	tb.do(1, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 2})
	tb.do(4, werewolf.Action{Kind: werewolf.KindWolfSelect, Target: 2})
	tb.until(werewolf.PhaseWitch)
	return tb
}
