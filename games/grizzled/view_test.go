package grizzled

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

var cardCode = regexp.MustCompile(`\b(T\d\d|H\d\d|MC)\b`)

func codeCard(code string) CardID {
	for c := FirstThreat; c <= MerryChristmas; c++ {
		if c.Code() == code {
			return c
		}
	}
	return NoCard
}

// TestEventsDoNotLeak: over many random games, no public event names a
// card that is in a hand or in the morale reserve after the action, and no
// private event names a card in another seat's hand.
func TestEventsDoNotLeak(t *testing.T) {
	for i := range 60 {
		humans := 2 + i%4
		s := newTestGame(t, humans, Options{Variant: Standard, Leader: game.NoSeat}, uint64(900+i))
		r := rand.New(rand.NewPCG(uint64(i), 5))
		for {
			if _, over := s.Over(); over {
				break
			}
			w := s.Waiting()
			seat := w[r.IntN(len(w))]
			l := s.Legal(seat)
			evs, err := s.Apply(seat, l[r.IntN(len(l))])
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if !e.Audience.All && len(e.Audience.Seats) != 1 {
					t.Fatalf("event with no clear audience: %+v", e)
				}
				for _, code := range cardCode.FindAllString(e.Msg.String(), -1) {
					c := codeCard(code)
					if slices.Contains(s.morale, c) {
						t.Fatalf("event names %s in the morale reserve: %q", c, e.Msg)
					}
					for p := range s.players {
						if !slices.Contains(s.players[p].Hand, c) {
							continue
						}
						if e.Audience.All || e.Audience.Seats[0] != game.Seat(p) {
							t.Fatalf("event for %v names %s in seat %d's hand: %q", e.Audience, c, p, e.Msg)
						}
					}
				}
			}
		}
	}
}

// TestDeterminizeMatchesView: a state determinized from a seat's view shows
// that seat exactly the same view, and is a consistent game.
func TestDeterminizeMatchesView(t *testing.T) {
	checked := 0
	for i := range 40 {
		humans := 2 + i%4
		randomGame(t, humans, Options{Variant: Standard, Leader: game.NoSeat}, uint64(300+i), false, func(s *State) {
			if s.seq%3 != 0 {
				return
			}
			for seat := -1; seat < s.humans; seat++ {
				v := s.View(game.Seat(seat))
				d := Determinize(v, uint64(seat+10))
				if d == nil {
					t.Fatal("nil")
				}
				if err := d.Check(); err != nil {
					t.Fatalf("determinized state: %v", err)
				}
				dv := d.View(game.Seat(seat))
				dv.Options, v.Options = Options{}, Options{}
				if !reflect.DeepEqual(v, dv) {
					a, _ := json.Marshal(v)
					b, _ := json.Marshal(dv)
					t.Fatalf("seat %d view differs:\n%s\n%s", seat, a, b)
				}
				// It plays forward.
				if w := d.Waiting(); len(w) > 0 {
					if l := d.Legal(w[0]); len(l) > 0 {
						if err := d.Step(w[0], l[0]); err != nil {
							t.Fatal(err)
						}
					}
				}
				checked++
			}
		})
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// TestSpeechAsksEveryoneInTheMission: who is asked says nothing about
// hands, so a determinized state need not (and does not) bend hands to it.
func TestSpeechAsksEveryoneInTheMission(t *testing.T) {
	s := build(t, fixture{tokens: map[int]int{0: 1}, hands: map[int][]CardID{0: {tc(1)}, 1: {tc(14), tc(2)}, 2: {tc(3), tc(5)}, 3: {tc(21), tc(22)}},
		trials: []CardID{tc(11), tc(12), tc(24), tc(25)}})
	do(t, s, 0, speech(Snow))
	v := s.View(0)
	if !slices.Equal(v.Eligible, []game.Seat{1, 2, 3}) {
		t.Fatalf("eligible %v: everyone in the mission but the speaker", v.Eligible)
	}
	for seed := range uint64(20) {
		d := Determinize(v, seed)
		if d == nil {
			t.Fatalf("seed %d: no state", seed)
		}
		if err := d.Check(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDeterminizeRejectsNonsense(t *testing.T) {
	if Determinize(SeatView{}, 1) != nil {
		t.Fatal("zero view")
	}
	v := build(t, fixture{}).View(0)
	v.Leader = 9
	if Determinize(v, 1) != nil {
		t.Fatal("leader out of range")
	}
	var zero State
	_ = zero.View(0) // no panic on a zero State
	if _, err := zero.Apply(0, intensity(3)); err == nil {
		t.Fatal("zero state accepted an action")
	}
}

func TestViewIsAFreshCopy(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(1), tc(2)}}, nml: []CardID{tc(5)}, knocks: map[int][]CardID{1: {Mute}},
		tiles: map[int][]Tile{0: {TileL}}})
	v := s.View(0)
	v.Hand[0], v.NML[0], v.Players[1].HardKnocks[0], v.MyTiles[0] = 0, 0, 0, 0
	if s.players[0].Hand[0] != tc(1) || s.nml[0] != tc(5) || s.players[1].Knocks[0] != Mute || s.players[0].Tiles[0] != TileL {
		t.Fatal("the view aliases the state")
	}
	sp := s.View(game.Spectator)
	if sp.Hand != nil || sp.MyTiles != nil || sp.Legal != nil {
		t.Fatal("the spectator sees private fields")
	}
	if !s.View(0).CanWithdraw || s.View(0).Players[1].Mute != true {
		t.Fatal("public flags")
	}
}

// TestGameInterface drives a game through game.Game only.
func TestGameInterface(t *testing.T) {
	var g game.Game = Game{}
	if g.ID() != "grizzled" || g.Title() != "The Grizzled" {
		t.Fatal("names")
	}
	st, evs, err := g.New(game.Setup{Game: "grizzled", Names: []string{"Anna", "Ben", "Chloé"}}, 42)
	if err != nil || len(evs) == 0 {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	sawTimer := false
	for range 5000 {
		if _, over := g.Result(st); over {
			break
		}
		if tm, ok := g.Timer(st); ok {
			sawTimer = true
			if tm.After != 45*time.Second || tm.Action.(Action).Kind != ActTimeout {
				t.Fatal("timer")
			}
			if r.IntN(2) == 0 {
				if st, _, err = g.Apply(st, game.System, tm.Action); err != nil {
					t.Fatal(err)
				}
				continue
			}
		}
		w := g.Waiting(st)
		seat := w[r.IntN(len(w))]
		l := g.Legal(st, seat)
		a := l[r.IntN(len(l))]
		b, err := g.EncodeAction(a)
		if err != nil {
			t.Fatal(err)
		}
		a, err = g.DecodeAction(b)
		if err != nil {
			t.Fatal(err)
		}
		c := g.Clone(st)
		if st, _, err = g.Apply(st, seat, a); err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(c, st) {
			t.Fatal("Clone aliases or Apply did nothing")
		}
		if _, ok := g.View(st, seat).(SeatView); !ok {
			t.Fatal("view type")
		}
	}
	res, over := g.Result(st)
	if !over || res.Outcome == "" || res.Summary.IsZero() {
		t.Fatal("game did not end")
	}
	if !sawTimer {
		t.Log("no speech happened in this game")
	}
	if _, _, err := g.Apply(st, 0, "nonsense"); err == nil {
		t.Fatal("foreign action accepted")
	}
	if evs, err := g.Say(st, 2, " x\x1b[2J\u202e y "); err != nil || len(evs) != 1 || evs[0].Text != "x[2J y" || evs[0].From != 2 {
		t.Fatalf("chat: %+v %v", evs, err)
	}
	if _, err := g.Say(st, game.Spectator, "x"); err == nil {
		t.Fatal("spectator chat accepted")
	}
	two, _, _ := g.New(game.Setup{Names: []string{"A", "B"}}, 1)
	if _, err := g.Say(two, 2, "amen"); err == nil {
		t.Fatal("the chaplain does not speak")
	}
}

// TestTileChoiceRevealsNothing: whether a tile decision is asked depends only
// on the public tile count, never on which tiles are held.
func TestTileChoiceRevealsNothing(t *testing.T) {
	for _, tiles := range [][]Tile{{TileL, TileL}, {TileL, TileR}} {
		s := build(t, fixture{tiles: map[int][]Tile{0: tiles}, hands: map[int][]CardID{1: {tc(1)}}})
		do(t, s, 0, withdraw)
		if s.phase != PhaseDecision || s.decision != DecidePlaceTile {
			t.Fatalf("tiles %v: no decision asked", tiles)
		}
		s = build(t, fixture{tiles: map[int][]Tile{0: tiles}, knocks: map[int][]CardID{0: {AbsentMinded}}, hands: map[int][]CardID{1: {tc(1)}}})
		do(t, s, 0, withdraw)
		if s.phase != PhaseDecision || s.decision != DecideRemoveTile {
			t.Fatalf("tiles %v: no removal asked", tiles)
		}
	}
}

func TestViewJSONIsReadable(t *testing.T) {
	s := build(t, fixture{hands: map[int][]CardID{0: {tc(4), Wounded}}, tiles: map[int][]Tile{0: {TileL, TileDR}}})
	b, err := json.Marshal(s.View(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hand":[4,46]`, `"my_tiles":[1,4]`, `"card":4`} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("view JSON lacks %s: %s", want, b)
		}
	}
	var v SeatView
	if err := json.Unmarshal(b, &v); err != nil || !slices.Equal(v.Hand, []CardID{tc(4), Wounded}) {
		t.Fatalf("decode: %v %v", err, v.Hand)
	}
}

// Game.Views, which makes a table's views together (sharing the soldiers'
// rows), gives each seat exactly its own View, spectators included, at
// every moment of random games of every size.
func TestGameViewsAreEachSeatsView(t *testing.T) {
	views := 0
	for i := range 12 {
		humans := []int{5, 2, 4, 3}[i%4]
		o := Options{Variant: []Variant{Standard, Veteran, Beginner}[i%3], Leader: game.NoSeat}
		randomGame(t, humans, o, uint64(500+i), false, func(s *State) {
			seats := []game.Seat{game.Spectator}
			for seat := range game.Seat(len(s.players)) {
				seats = append(seats, seat)
			}
			slices.Reverse(seats) // the first made is the one the others share from
			for j, v := range (Game{}).Views(s, seats) {
				want := s.View(seats[j])
				if !reflect.DeepEqual(emptyToNil(reflect.ValueOf(want)), emptyToNil(reflect.ValueOf(v))) {
					t.Fatalf("seat %d, seq %d: Views\n%+v\nView\n%+v", seats[j], s.seq, v, want)
				}
				views++
			}
		})
	}
	if views < 500 {
		t.Fatalf("only %d views compared", views)
	}
}

// TestViewIntoReusesCleanly: ViewInto into a view last filled for another
// seat, another moment or another table size makes the same view as View
// (an empty slice where View has none is the only difference allowed), so
// nothing stale survives reuse. And every field of a view is set in some
// view of these games (a field ViewInto forgot would stay zero in both).
func TestViewIntoReusesCleanly(t *testing.T) {
	var reused SeatView
	views := 0
	set := map[string]bool{}
	mark := func(prefix string, x reflect.Value) {
		for i := range x.NumField() {
			if !x.Field(i).IsZero() {
				set[prefix+x.Type().Field(i).Name] = true
			}
		}
	}
	for i := range 24 {
		humans := []int{5, 2, 4, 3}[i%4]
		o := Options{Variant: []Variant{Standard, Veteran, Beginner}[i%3], Leader: game.NoSeat}
		randomGame(t, humans, o, uint64(300+i), false, func(s *State) {
			for seat := range game.Seat(len(s.players) + 1) {
				if int(seat) == len(s.players) {
					seat = game.Spectator
				}
				s.ViewInto(seat, &reused)
				fresh := s.View(seat)
				if !reflect.DeepEqual(emptyToNil(reflect.ValueOf(fresh)), emptyToNil(reflect.ValueOf(reused))) {
					t.Fatalf("seat %d, seq %d: ViewInto on a reused view\n%+v\nView\n%+v", seat, s.seq, reused, fresh)
				}
				views++
				mark("", reflect.ValueOf(fresh))
				for _, p := range fresh.Players {
					mark("Players.", reflect.ValueOf(p))
				}
			}
		})
	}
	if views < 1000 {
		t.Fatalf("only %d views compared", views)
	}
	// Random play never wins; a won game's view says so all the same.
	won, _ := randomGame(t, 3, Options{Leader: game.NoSeat}, 1, false, nil)
	won.won, won.loss = true, LossNone
	mark("", reflect.ValueOf(won.View(0)))
	for _, prefix := range []string{"", "Players."} {
		x := reflect.TypeOf(SeatView{})
		if prefix != "" {
			x = reflect.TypeOf(PlayerView{})
		}
		for i := range x.NumField() {
			if name := prefix + x.Field(i).Name; !set[name] {
				t.Errorf("%s is zero in every view of these games", name)
			}
		}
	}
}

// emptyToNil is a copy of v (a struct, pointer, slice or value) with every
// empty slice made nil, as a comparable interface.
func emptyToNil(v reflect.Value) any {
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		switch x.Kind() {
		case reflect.Slice:
			if x.Len() == 0 {
				if x.CanSet() {
					x.Set(reflect.Zero(x.Type()))
				}
				return
			}
			c := reflect.MakeSlice(x.Type(), x.Len(), x.Len())
			reflect.Copy(c, x)
			x.Set(c)
			for i := range c.Len() {
				walk(c.Index(i))
			}
		case reflect.Pointer:
			if !x.IsNil() {
				c := reflect.New(x.Elem().Type())
				c.Elem().Set(x.Elem())
				x.Set(c)
				walk(c.Elem())
			}
		case reflect.Struct:
			for i := range x.NumField() {
				if x.Field(i).CanSet() {
					walk(x.Field(i))
				}
			}
		}
	}
	walk(out)
	return out.Interface()
}
