package werewolf

import (
	"encoding/json"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
)

// ID is the game's identifier in logs and setups.
const ID = "werewolf"

// Game implements game.Game for The Werewolves of Millers Hollow. Its
// State is *State, its Action is Action, its View is SeatView.
type Game struct{}

var _ game.Game = Game{}

func (Game) ID() string    { return ID }
func (Game) Title() string { return "Werewolves of Millers Hollow" }

// New deals the cards (setup.Names are the seats, setup.Options the JSON
// Options) and enters night 1.
func (Game) New(setup game.Setup, seed uint64) (game.State, []game.Event, error) {
	if setup.Game != "" && setup.Game != ID {
		return nil, nil, fmt.Errorf("werewolf: setup is for game %q", setup.Game)
	}
	opts, err := DecodeOptions(setup.Options)
	if err != nil {
		return nil, nil, err
	}
	s, evs, err := NewState(setup.Names, opts, seed)
	if err != nil {
		return nil, nil, err
	}
	return s, evs, nil
}

func asState(s game.State) (*State, bool) {
	st, ok := s.(*State)
	return st, ok && st != nil
}

func asAction(a game.Action) (Action, bool) {
	switch a := a.(type) {
	case Action:
		return a, true
	case *Action:
		if a != nil {
			return *a, true
		}
	}
	return Action{}, false
}

// Apply follows the engine contract: on error the state is unchanged and no
// events are returned. A tick whose Seq is not the current PhaseSeq is
// ignored silently (no error, no event).
func (Game) Apply(s game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	st, ok := asState(s)
	act, ok2 := asAction(a)
	if !ok || !ok2 {
		return s, nil, game.ErrBadAction
	}
	if act.Kind == KindTick && seat == game.System && (act.Seq != st.PhaseSeq || st.Over) {
		return st, nil, nil
	}
	if st.Over {
		return st, nil, game.ErrGameOver
	}
	next := st.Clone()
	var out []game.Event
	if err := next.apply(int(seat), act, &out); err != nil {
		return st, nil, err
	}
	return next, out, nil
}

func (Game) Clone(s game.State) game.State {
	if st, ok := asState(s); ok {
		return st.Clone()
	}
	return s
}

// Legal lists the seat's actions as Action values.
func (Game) Legal(s game.State, seat game.Seat) []game.Action {
	st, ok := asState(s)
	if !ok {
		return nil
	}
	var v []game.Action
	for _, a := range st.Legal(int(seat)) {
		v = append(v, a)
	}
	return v
}

func (Game) Waiting(s game.State) []game.Seat {
	if st, ok := asState(s); ok {
		return st.Waiting()
	}
	return nil
}

// View returns a SeatView.
func (Game) View(s game.State, seat game.Seat) game.View {
	if st, ok := asState(s); ok {
		return st.View(seat)
	}
	return SeatView{Seat: seat}
}

// Stage is the night or day under way (game.Progress): the village's
// days follow its nights, so a day numbered like the last night is that
// night's day.
func (Game) Stage(v game.View) (string, int) {
	sv, ok := v.(SeatView)
	switch {
	case !ok || sv.Night == 0 && sv.Day == 0:
		return "", 0
	case sv.Day >= sv.Night:
		return "werewolf.stage.day", sv.Day
	}
	return "werewolf.stage.night", sv.Night
}

// Timer is the current phase's window; its Action is a System tick. Its ID
// is the PhaseSeq: actions inside a phase do not change it, so the actor
// keeps the running countdown while the ID is unchanged and starts a new
// one (After from now) when it changes.
func (Game) Timer(s game.State) (game.Timer, bool) {
	st, ok := asState(s)
	if !ok {
		return game.Timer{}, false
	}
	return st.Timer()
}

// Timer is the pending timed step: after the phase's window, a tick.
func (s *State) Timer() (game.Timer, bool) {
	if s.Over {
		return game.Timer{}, false
	}
	after := s.Opts.Window(s.Phase, s.livingCount(), s.roleSteps())
	return game.Timer{ID: s.PhaseSeq, After: after, Action: Action{Kind: KindTick, Seq: s.PhaseSeq}}, true
}

// roleSteps counts tonight's steps in which a role acts (the lovers'
// waking only tells them who they are).
func (s *State) roleSteps() int {
	n := 0
	for _, p := range s.nightSteps() {
		if p != PhaseLovers {
			n++
		}
	}
	return n
}

// Overdue: at a table played by correspondence that allows stand-ins, a
// role's night action not taken by its step's deadline is taken by the
// seat's stand-in (game.Overdue): the thief's, cupid's, the seer's, the
// witch's, and the wolves' when no wolf has chosen a victim (once one
// has, the others' silence is consent, §15 item 4). Votes are never a
// stand-in's: a ballot not cast is an abstention, as the narrator counts
// it, and the discussion, the sheriff's choices and the hunter's shot end
// as their timeouts say (§7, §8). The little girl's peek is hers alone.
func (Game) Overdue(s game.State) []game.Seat {
	st, ok := asState(s)
	if !ok || st.Over || !st.Phase.nightStep() {
		return nil
	}
	if st.Phase == PhaseWolves {
		for _, w := range st.livingWolves() {
			if st.Players[w].WolfSel >= 0 {
				return nil
			}
		}
	}
	var out []game.Seat
	for _, seat := range st.Waiting() {
		if st.Phase != PhaseWolves || st.isWolf(int(seat)) {
			out = append(out, seat)
		}
	}
	return out
}

// Say turns a chat line into events without changing the state: the living
// talk on "table" by day; a living werewolf's lines in the wolves' step go
// to "wolves" (and, while the little girl peeks, sometimes reach her
// anonymised on "relay", with no wolf's name in them); the dead talk on
// "dead", which only the graveyard reads; after the game everyone talks on
// "table". Because Say may not change the state, a line relayed this way
// cannot get the little girl caught; a KindSay action applied with Apply
// (logged, replayable) can.
func (Game) Say(s game.State, seat game.Seat, text string) ([]game.Event, error) {
	st, ok := asState(s)
	if !ok {
		return nil, game.ErrBadAction
	}
	var out []game.Event
	if err := st.chat(int(seat), chatLine{text: text}, false, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func (Game) Result(s game.State) (game.Result, bool) {
	st, ok := asState(s)
	if !ok || !st.Over {
		return game.Result{}, false
	}
	return game.Result{Outcome: st.Outcome, Winners: append([]game.Seat(nil), st.Winners...), Summary: st.Summary}, true
}

func (Game) EncodeAction(a game.Action) ([]byte, error) {
	act, ok := asAction(a)
	if !ok {
		return nil, game.ErrBadAction
	}
	return json.Marshal(act)
}

func (Game) DecodeAction(b []byte) (game.Action, error) {
	var a Action
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("%w: %v", game.ErrBadAction, err)
	}
	if a.Kind == "" {
		return nil, game.ErrBadAction
	}
	return a, nil
}

// PresenceAudience implements game.Presence: while the game runs, that a
// dead player left or came back is for the dead alone (§11: the dead may
// not talk to the living, and a seat that comes and goes is a signal).
func (Game) PresenceAudience(st game.State, seat game.Seat) game.Audience {
	s := st.(*State)
	if s.Over || s.alive(int(seat)) || !s.valid(int(seat)) {
		return game.Everyone()
	}
	var dead []game.Seat
	for i, p := range s.Players {
		if !p.Alive {
			dead = append(dead, game.Seat(i))
		}
	}
	return game.Only(dead...)
}

// ChatAction implements game.ChatActions: a living werewolf's line in the
// wolves' step is a KindSay action, so its glimpse by the little girl has
// its catch chance, joins her glimpse list and is in the replayable log
// (§5.7). Every other line goes through Say.
func (Game) ChatAction(st game.State, seat game.Seat, text string) (game.Action, bool) {
	s, ok := asState(st)
	if !ok || s.Over || !s.alive(int(seat)) || s.Phase != PhaseWolves || s.Players[seat].Card != RoleWerewolf {
		return nil, false
	}
	return Action{Kind: KindSay, Text: text}, true
}

// BotLine implements game.BotChat: a bot's line goes where a player's
// words would (ChatAction, then Say), as a message each viewer reads in
// their own language.
func (g Game) BotLine(st game.State, seat game.Seat, line game.Msg) (game.Action, []game.Event, error) {
	s, ok := asState(st)
	if !ok {
		return nil, nil, game.ErrBadAction
	}
	if !botLineOK(line) {
		return nil, nil, game.ErrBadAction
	}
	var out []game.Event
	if err := s.chat(int(seat), chatLine{msg: line}, false, &out); err != nil {
		return nil, nil, err
	}
	if _, ok := g.ChatAction(st, seat, ""); ok {
		return Action{Kind: KindSay, Line: &line}, out, nil
	}
	return nil, out, nil
}

// AbandonAction implements game.Abandoner: every human left (§13).
func (Game) AbandonAction(game.State) game.Action { return Action{Kind: KindAbandon} }

// EncodeView writes a SeatView as JSON (see game.ViewCodec).
func (Game) EncodeView(v game.View) ([]byte, error) {
	return game.EncodeJSONView[SeatView]("werewolf", v)
}

// DecodeView reads what EncodeView wrote; it returns a SeatView.
func (Game) DecodeView(b []byte) (game.View, error) {
	return game.DecodeJSONView[SeatView]("werewolf", b)
}
