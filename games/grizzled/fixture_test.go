package grizzled

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// fixture describes a game position by its named parts; build turns it into
// a consistent State (every card and tile somewhere).
type fixture struct {
	humans    int // default 4
	leader    int
	active    int  // 0: the leader (see turnOf0)
	turnOf0   bool // seat 0 is active even though it does not lead
	round     int  // default 2
	beginner  bool
	prep      bool // PhaseIntensity instead of PhaseTurn
	hands     map[int][]CardID
	knocks    map[int][]CardID // in arrival order; stamps are given seat by seat
	nml       []CardID
	trials    []CardID // top first
	morale    int      // reserve size; 0: every card not placed elsewhere
	tiles     map[int][]Tile
	placed    map[int]Tile // face-down tiles of seats that already withdrew
	withdrawn []int
	tokens    map[int]int
	supply    int  // 0: as set up
	noSupply  bool // the speech supply is empty
	chars     map[int]int
	charmUsed []int
	seed      uint64
}

func build(t testing.TB, f fixture) *State {
	t.Helper()
	if f.humans == 0 {
		f.humans = 4
	}
	if f.round == 0 {
		f.round = 2
	}
	v := Standard
	if f.beginner {
		v = Beginner
	}
	s := newTestGame(t, f.humans, Options{Variant: v, Leader: game.Seat(f.leader)}, f.seed+1)
	used := map[CardID]bool{}
	use := func(cs []CardID) []CardID {
		for _, c := range cs {
			if used[c] {
				t.Fatalf("fixture uses %s twice", c)
			}
			used[c] = true
		}
		return slices.Clone(cs)
	}
	pool, _ := tileSet(5) // all 16; a fixture may give doubles at any table size
	take := func(tl Tile) {
		i := slices.Index(pool, tl)
		if i < 0 {
			t.Fatalf("fixture uses too many %s tiles", tl)
		}
		pool = slices.Delete(pool, i, i+1)
	}
	s.stamp = 0
	for i := range s.players {
		p := &s.players[i]
		p.Hand = use(f.hands[i])
		p.Knocks = use(f.knocks[i])
		p.Arrival = nil
		for range p.Knocks {
			s.stamp++
			p.Arrival = append(p.Arrival, s.stamp)
		}
		p.Tiles = slices.Clone(f.tiles[i])
		for _, tl := range p.Tiles {
			take(tl)
		}
		p.Placed, p.Hidden = NoTile, false
		p.Known = nil // a fixture's tiles came from no setup anyone saw
		if tl, ok := f.placed[i]; ok {
			take(tl)
			p.Placed = tl
		}
		p.Tokens = f.tokens[i]
		p.Withdrawn = p.Chaplain || slices.Contains(f.withdrawn, i)
		p.CharmUsed = slices.Contains(f.charmUsed, i)
		if c, ok := f.chars[i]; ok {
			p.Character = c
		} else {
			p.Character = i
		}
	}
	s.box = pool
	s.nml = use(f.nml)
	tr := use(f.trials)
	slices.Reverse(tr) // top is the last element
	s.trials = tr
	var rest []CardID
	for c := FirstThreat; c <= MerryChristmas; c++ {
		if !used[c] {
			rest = append(rest, c)
		}
	}
	if f.morale > 0 {
		s.morale = rest[:f.morale]
		s.removed = slices.Clone(rest[f.morale:])
	} else {
		s.morale = rest
		s.removed = nil
	}
	if f.noSupply {
		s.supply = 0
	} else if f.supply > 0 {
		s.supply = f.supply
	}
	s.leader = f.leader
	s.active = f.active
	if f.active == 0 && !f.turnOf0 {
		s.active = f.leader
	}
	s.round = f.round
	s.phase = PhaseTurn
	if f.prep {
		s.phase = PhaseIntensity
	}
	if err := s.Check(); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return s
}

func do(t testing.TB, s *State, seat int, a Action) []game.Event {
	t.Helper()
	evs, err := s.Apply(game.Seat(seat), a)
	if err != nil {
		t.Fatalf("seat %d %s: %v", seat, a.String(), err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("after seat %d %s: %v", seat, a.String(), err)
	}
	return evs
}

// refused applies a and checks it fails with want, returns no events and
// leaves the state deep-equal to before.
func refused(t testing.TB, s *State, seat game.Seat, a Action, want error) error {
	t.Helper()
	before := s.Clone()
	evs, err := s.Apply(seat, a)
	if !errors.Is(err, want) {
		t.Fatalf("seat %d %s: err = %v, want %v", seat, a.String(), err, want)
	}
	if len(evs) != 0 {
		t.Fatalf("refused action returned %d events", len(evs))
	}
	if !reflect.DeepEqual(before, s) {
		t.Fatalf("refused action %s changed the state", a.String())
	}
	if err.Error() == "" {
		t.Fatal("empty error message")
	}
	return err
}

func play(c CardID) Action        { return Action{Kind: ActPlay, Card: c} }
func charm(c CardID) Action       { return Action{Kind: ActCharm, Card: c} }
func speech(th Threat) Action     { return Action{Kind: ActSpeech, Threat: th} }
func answer(c CardID) Action      { return Action{Kind: ActSpeechDiscard, Card: c} }
func place(tl Tile) Action        { return Action{Kind: ActPlaceTile, Tile: tl} }
func removeT(tl Tile) Action      { return Action{Kind: ActRemoveTile, Tile: tl} }
func intensity(k int) Action      { return Action{Kind: ActIntensity, K: k} }
func benefit(cs ...CardID) Action { return Action{Kind: ActBenefitDiscard, Cards: cs} }
func mcDiscard(c CardID, target int) Action {
	return Action{Kind: ActDiscardHardKnock, Card: c, Target: game.Seat(target)}
}

var (
	withdraw = Action{Kind: ActWithdraw}
	pass     = Action{Kind: ActSpeechPass}
	restore  = Action{Kind: ActBenefitCharm}
	decline  = Action{Kind: ActBenefitDecline}
)

func hasLegal(s *State, seat int, pred func(Action) bool) bool {
	return slices.ContainsFunc(s.Legal(game.Seat(seat)), pred)
}

func kindIs(k ActionKind) func(Action) bool { return func(a Action) bool { return a.Kind == k } }

// withdrawAll makes every seat still in the mission withdraw in turn order,
// placing the first tile when asked, until the mission ends.
func withdrawAll(t testing.TB, s *State) {
	t.Helper()
	for s.phase == PhaseTurn || s.phase == PhaseDecision {
		seat := int(s.Waiting()[0])
		switch {
		case s.phase == PhaseTurn:
			do(t, s, seat, withdraw)
		case s.decision == DecidePlaceTile:
			do(t, s, seat, place(s.players[seat].Tiles[0]))
		default:
			do(t, s, seat, s.Legal(game.Seat(seat))[0])
		}
	}
}

// eventsText is the events as an English reader reads them.
func eventsText(evs []game.Event) string {
	en := i18n.For(i18n.English)
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(en.Msg(e.Msg))
		b.WriteByte('\n')
	}
	return b.String()
}

func trialsHas(s *State, cs ...CardID) bool {
	for _, c := range cs {
		if !slices.Contains(s.trials, c) {
			return false
		}
	}
	return true
}
