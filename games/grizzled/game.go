package grizzled

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
)

// Game is The Grizzled for the room actor: it implements game.Game with
// *State as game.State, Action (or *Action) as game.Action and SeatView
// as game.View.
type Game struct{}

var _ game.Game = Game{}

// ID is the stable identifier stored in logs.
func (Game) ID() string { return "grizzled" }

// Title is shown in the lobby.
func (Game) Title() string { return "The Grizzled" }

// Picks implements game.Prelude: each player may choose their soldier (S1).
// The list is shared: callers read it only.
func (Game) Picks() []game.Pick { return soldierPicks }

var soldierPicks = func() []game.Pick {
	picks := make([]game.Pick, len(Characters))
	for i, c := range Characters {
		picks[i] = game.Pick{ID: fmt.Sprintf("C%d", i+1), Label: game.M("grizzled.pick_soldier", game.Text("Soldier", c.Name), threatArg(c.Charm))}
	}
	return picks
}()

// NamesFirst implements game.Prelude: the table may name the first leader (S5).
func (Game) NamesFirst() bool { return true }

// New builds the first state from the setup and seed.
func (Game) New(setup game.Setup, seed uint64) (game.State, []game.Event, error) {
	s, evs, err := New(setup, seed)
	if err != nil {
		return nil, nil, err
	}
	return s, evs, nil
}

func state(s game.State) *State {
	st, ok := s.(*State)
	if !ok || st == nil {
		panic(fmt.Sprintf("grizzled: state of type %T", s))
	}
	return st
}

func action(a game.Action) (Action, bool) {
	switch x := a.(type) {
	case Action:
		return x, true
	case *Action:
		if x != nil {
			return *x, true
		}
	}
	return Action{}, false
}

// Apply applies a in place and returns s itself (see the game.Game contract).
func (Game) Apply(s game.State, seat game.Seat, a game.Action) (game.State, []game.Event, error) {
	st := state(s)
	act, ok := action(a)
	if !ok {
		return s, nil, ErrBadAction
	}
	evs, err := st.Apply(seat, act)
	return st, evs, err
}

// Clone is a deep copy.
func (Game) Clone(s game.State) game.State { return state(s).Clone() }

// Legal lists seat's legal actions as game.Actions (each an Action value).
func (Game) Legal(s game.State, seat game.Seat) []game.Action {
	as := state(s).Legal(seat)
	if len(as) == 0 {
		return nil
	}
	out := make([]game.Action, len(as))
	for i, a := range as {
		out[i] = a
	}
	return out
}

// Waiting lists the seats the game waits on.
func (Game) Waiting(s game.State) []game.Seat { return state(s).Waiting() }

// View is seat's SeatView.
func (Game) View(s game.State, seat game.Seat) game.View { return state(s).View(seat) }

// Stage is the mission under way (game.Progress).
func (Game) Stage(v game.View) (string, int) {
	if sv, ok := v.(SeatView); ok && sv.Round > 0 {
		return "grizzled.stage.mission", sv.Round
	}
	return "", 0
}

// Views are seats' views, sharing the soldiers' rows (game.Views). Each
// is made on the stack and copied once, into its interface: made in a
// slice first (State.Views), every view was allocated twice at every move
// and every table, 6% of what the server allocated while tables played.
func (Game) Views(s game.State, seats []game.Seat) []game.View {
	out := make([]game.View, len(seats))
	if len(seats) == 0 {
		return out
	}
	st := state(s)
	var first SeatView
	st.viewInto(seats[0], &first, nil, nil)
	out[0] = first
	for i := 1; i < len(seats); i++ {
		var v SeatView
		st.viewInto(seats[i], &v, first.Players, first.Eligible)
		out[i] = v
	}
	return out
}

// Timer is the speech response window (A3): when it fires, every seat that
// has not answered passes. Nothing else in The Grizzled is timed.
func (Game) Timer(s game.State) (game.Timer, bool) { return state(s).Timer() }

// Timer is the pending timed step, if any (see Game.Timer).
func (s *State) Timer() (game.Timer, bool) {
	if s.phase != PhaseSpeech {
		return game.Timer{}, false
	}
	return game.Timer{ID: uint64(s.speechOpened) + 1, After: SpeechTimeout, Action: Action{Kind: ActTimeout}}, true
}

// Overdue: at a table played by correspondence, a speech's answers not
// given when its window closes are given by the seats' stand-in bots
// (game.Overdue), as every other decision left past its deadline is; the
// rules' own timeout (a pass, A3) is for a table that allows none.
func (Game) Overdue(s game.State) []game.Seat {
	st := state(s)
	if st.phase != PhaseSpeech {
		return nil
	}
	return st.Waiting()
}

// MaxChat is the longest chat line kept, in bytes.
const MaxChat = 500

// Say turns a chat line into an event on channel "table" for everyone.
// Refused for the chaplain, for non-players, and while Mute is in front of
// the speaker (H08, §7, §8 item 9).
func (Game) Say(s game.State, seat game.Seat, text string) ([]game.Event, error) {
	return state(s).Say(seat, text)
}

// Say: see Game.Say.
func (s *State) Say(seat game.Seat, text string) ([]game.Event, error) {
	p := int(seat)
	if p < 0 || p >= len(s.players) {
		return nil, refuse(ErrNotYourTurn, "grizzled.err.not_playing")
	}
	if s.players[p].Chaplain {
		return nil, ErrChaplainSilent
	}
	if s.players[p].owns(Mute) {
		return nil, ErrChatMuted // H08
	}
	if len(text) > 4*MaxChat {
		text = text[:4*MaxChat] // bound the work on a huge paste
	}
	// Printable text in any script; no controls, escapes or bidi overrides.
	text = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, text)
	text = strings.TrimSpace(text)
	if len(text) > MaxChat {
		text = strings.ToValidUTF8(text[:MaxChat], "")
	}
	if text == "" {
		return nil, nil
	}
	return []game.Event{{Audience: game.Everyone(), Kind: game.Chat, From: seat, Channel: "table", Text: text}}, nil
}

// Result is how the game ended, once it has.
func (Game) Result(s game.State) (game.Result, bool) { return state(s).Result() }

// Result: see Game.Result.
func (s *State) Result() (game.Result, bool) {
	if s.phase != PhaseOver {
		return game.Result{}, false
	}
	var r game.Result
	if s.won {
		r.Outcome = "win"
		for i := range s.humans {
			r.Winners = append(r.Winners, game.Seat(i))
		}
		r.Summary = game.M("grizzled.summary_won", game.Count(s.round), game.Num("Trials", s.startTrials))
	} else {
		r.Outcome = "loss"
		r.Winners = []game.Seat{}
		r.Summary = game.M("grizzled.summary_lost", game.Term("Loss", s.loss.Key()), game.Num("Mission", s.round), game.Num("Trials", s.startTrials))
	}
	return r, true
}

// EncodeAction is the compact binary form of an action: its kind, then only
// the fields that kind reads.
func (Game) EncodeAction(a game.Action) ([]byte, error) {
	act, ok := action(a)
	if !ok {
		return nil, ErrBadAction
	}
	return EncodeAction(act)
}

// DecodeAction is the inverse of EncodeAction; it returns an Action value.
func (Game) DecodeAction(b []byte) (game.Action, error) {
	a, err := DecodeAction(b)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// EncodeAction: see Game.EncodeAction.
func EncodeAction(a Action) ([]byte, error) {
	return AppendAction(make([]byte, 0, 8), a)
}

// AppendAction appends the encoding of a to b.
func AppendAction(b []byte, a Action) ([]byte, error) {
	b = append(b, byte(a.Kind))
	switch a.Kind {
	case ActIntensity:
		b = binary.AppendVarint(b, int64(a.K))
	case ActPlay, ActCharm, ActSpeechDiscard:
		b = append(b, byte(a.Card))
	case ActSpeech:
		b = append(b, byte(a.Threat))
	case ActRemoveTile, ActPlaceTile:
		b = append(b, byte(a.Tile))
	case ActDiscardHardKnock:
		b = append(b, byte(a.Card))
		b = binary.AppendVarint(b, int64(a.Target))
	case ActBenefitDiscard:
		if len(a.Cards) > 255 {
			return nil, ErrBadAction
		}
		b = append(b, byte(len(a.Cards)))
		for _, c := range a.Cards {
			b = append(b, byte(c))
		}
	case ActSpeechPass, ActWithdraw, ActBenefitCharm, ActBenefitDecline, ActTimeout:
	default:
		return nil, refuse(ErrBadAction, "grizzled.err.unknown_action", game.Num("Kind", int(a.Kind)))
	}
	return b, nil
}

var errDecode = ErrBadAction

// DecodeAction: see Game.DecodeAction. Trailing bytes are an error.
func DecodeAction(b []byte) (Action, error) {
	if len(b) == 0 {
		return Action{}, errDecode
	}
	a := Action{Kind: ActionKind(b[0])}
	r := b[1:]
	one := func() (byte, bool) {
		if len(r) == 0 {
			return 0, false
		}
		x := r[0]
		r = r[1:]
		return x, true
	}
	varint := func() (int64, bool) {
		v, n := binary.Varint(r)
		if n <= 0 {
			return 0, false
		}
		r = r[n:]
		return v, true
	}
	ok := true
	switch a.Kind {
	case ActIntensity:
		var v int64
		v, ok = varint()
		a.K = int(v)
		ok = ok && int64(a.K) == v
	case ActPlay, ActCharm, ActSpeechDiscard:
		var x byte
		x, ok = one()
		a.Card = CardID(x)
	case ActSpeech:
		var x byte
		x, ok = one()
		a.Threat = Threat(x)
	case ActRemoveTile, ActPlaceTile:
		var x byte
		x, ok = one()
		a.Tile = Tile(x)
	case ActDiscardHardKnock:
		var x byte
		var v int64
		x, ok = one()
		a.Card = CardID(x)
		if ok {
			v, ok = varint()
			a.Target = game.Seat(v)
			ok = ok && int64(a.Target) == v
		}
	case ActBenefitDiscard:
		var n byte
		n, ok = one()
		if ok && int(n) <= len(r) {
			a.Cards = make([]CardID, n)
			for i := range a.Cards {
				a.Cards[i] = CardID(r[i])
			}
			r = r[n:]
		} else {
			ok = false
		}
	case ActSpeechPass, ActWithdraw, ActBenefitCharm, ActBenefitDecline, ActTimeout:
	default:
		ok = false
	}
	if !ok || len(r) != 0 {
		return Action{}, errDecode
	}
	return a, nil
}

// String is an action in the compact form logs and test failures use
// ("play(T04)", "discard(T04,seat 2)"); what a player reads is the
// screen's, in their language.
func (a Action) String() string {
	switch a.Kind {
	case ActIntensity:
		return fmt.Sprintf("intensity(%d)", a.K)
	case ActPlay:
		return "play(" + a.Card.String() + ")"
	case ActCharm:
		return "charm(" + a.Card.String() + ")"
	case ActSpeech:
		return "speech(" + a.Threat.String() + ")"
	case ActSpeechDiscard:
		return "speech_discard(" + a.Card.String() + ")"
	case ActSpeechPass:
		return "speech_pass"
	case ActWithdraw:
		return "withdraw"
	case ActRemoveTile:
		return "remove_tile(" + a.Tile.String() + ")"
	case ActPlaceTile:
		return "place_tile(" + a.Tile.String() + ")"
	case ActDiscardHardKnock:
		return fmt.Sprintf("discard_knock(%s,seat %d)", a.Card, a.Target)
	case ActBenefitDiscard:
		parts := make([]string, len(a.Cards))
		for i, c := range a.Cards {
			parts[i] = c.String()
		}
		return "benefit_discard(" + strings.Join(parts, ",") + ")"
	case ActBenefitCharm:
		return "benefit_charm"
	case ActBenefitDecline:
		return "benefit_decline"
	case ActTimeout:
		return "timeout"
	}
	return fmt.Sprintf("action(%d)", a.Kind)
}

// Package-level forms of the State methods, for callers that prefer
// functions (all of them work on *State directly, without interfaces).

// Apply applies a for seat on s in place and returns s, the events and an
// error (on error s is unchanged).
func Apply(s *State, seat game.Seat, a Action) (*State, []game.Event, error) {
	evs, err := s.Apply(seat, a)
	return s, evs, err
}

// View is s.View(seat).
func View(s *State, seat game.Seat) SeatView { return s.View(seat) }

// Legal is s.Legal(seat).
func Legal(s *State, seat game.Seat) []Action { return s.Legal(seat) }

// Waiting is s.Waiting().
func Waiting(s *State) []game.Seat { return s.Waiting() }

// Result is s.Result().
func Result(s *State) (game.Result, bool) { return s.Result() }

// Clone is s.Clone().
func Clone(s *State) *State { return s.Clone() }

// EncodeView writes a SeatView as JSON (see game.ViewCodec).
func (Game) EncodeView(v game.View) ([]byte, error) {
	return game.EncodeJSONView[SeatView]("grizzled", v)
}

// DecodeView reads what EncodeView wrote; it returns a SeatView.
func (Game) DecodeView(b []byte) (game.View, error) {
	return game.DecodeJSONView[SeatView]("grizzled", b)
}
