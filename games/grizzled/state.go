package grizzled

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/bivouac-ssh/bivouac/game"
)

// ChaplainName is the display name of the virtual third seat of the 2-player game (§6.4).
const ChaplainName = "the chaplain"

// player is one seat's full state, hidden parts included.
type player struct {
	Name      string   `json:"name"`
	Character int      `json:"character"` // index into Characters
	CharmUsed bool     `json:"charm_used,omitempty"`
	Chaplain  bool     `json:"chaplain,omitempty"`
	Hand      []CardID `json:"hand"`
	Tiles     []Tile   `json:"tiles"`
	Knocks    []CardID `json:"knocks"`  // hard knocks in front, in arrival order
	Arrival   []uint32 `json:"arrival"` // arrival stamp of each knock (§0.3)
	Tokens    int      `json:"tokens,omitempty"`
	Withdrawn bool     `json:"withdrawn,omitempty"`
	Placed    Tile     `json:"placed,omitempty"` // face-down tile this mission
	Hidden    bool     `json:"hidden,omitempty"` // Placed was picked at random (Panicked, chaplain)

	// Known is what everybody knows of Tiles and Placed together (a part
	// of them): see PlayerView.KnownTiles and knowTiles.
	Known []Tile `json:"known,omitempty"`

	// Speech response window (A3).
	Eligible bool   `json:"eligible,omitempty"`
	Answered bool   `json:"answered,omitempty"`
	Answer   CardID `json:"answer,omitempty"` // card to discard when the window closes; NoCard = pass
}

func (p *player) owns(c CardID) bool { return slices.Contains(p.Knocks, c) }

func (p *player) arrival(c CardID) uint32 {
	if i := slices.Index(p.Knocks, c); i >= 0 {
		return p.Arrival[i]
	}
	return 0
}

func (p *player) weight() int {
	n := 0
	for _, c := range p.Knocks {
		n += c.Weight()
	}
	return n
}

// State is a whole game of The Grizzled, hidden information included. Only
// View lets information out to a seat. The zero value is not a game: use New
// (or Determinize).
//
// A State is encodable with EncodeState / DecodeState (JSON); the RNG is part
// of it, so a decoded state continues exactly like the original.
type State struct {
	opts        Options
	traps       bool
	humans      int
	startTrials int
	players     []player

	trials  []CardID // trials pile; the top is the last element
	morale  []CardID // morale reserve; the top is the last element
	nml     []CardID // No Man's Land in play order
	removed []CardID // face-up cards out of the game, in order of removal
	box     []Tile   // tiles out of the game (never drawn, or Absent-minded), hidden

	supply int
	leader int
	active int
	round  int
	phase  Phase
	failed bool
	seq    int
	stamp  uint32

	decision DecisionKind // PhaseDecision: what decider owes
	decider  int

	speaker      int // PhaseSpeech
	speechThreat Threat
	speechOpened int // seq when the window opened (Timer ID)

	beneficiary int // PhaseBenefit
	last        *SupportReveal

	won  bool
	loss Loss

	rng rand.PCG

	// Event sink for the current Apply; never part of the game.
	loud bool
	out  []game.Event
}

// ChaplainSeat is the seat of the chaplain in the 2-player game (2), or -1.
func (s *State) ChaplainSeat() game.Seat {
	if s.humans == 2 {
		return 2
	}
	return -1
}

// Seats is the number of seats, chaplain included.
func (s *State) Seats() int { return len(s.players) }

// Humans is the number of human players.
func (s *State) Humans() int { return s.humans }

// Seq is the number of actions applied so far.
func (s *State) Seq() int { return s.seq }

// Phase is what the game waits for.
func (s *State) Phase() Phase { return s.phase }

// Round is the current mission number (1-based).
func (s *State) Round() int { return s.round }

// LastSupport is the mission of the last support and whether it
// succeeded; ok is false before the first.
func (s *State) LastSupport() (round int, success, ok bool) {
	if s.last == nil {
		return 0, false, false
	}
	return s.last.Round, s.last.Success, true
}

// StartingTrials is the size of the trials pile the game started with.
func (s *State) StartingTrials() int { return s.startTrials }

// Over reports whether the game has ended, and if so whether the team won.
func (s *State) Over() (won, over bool) { return s.won, s.phase == PhaseOver }

// LossReason is why the team lost (LossNone unless it did).
func (s *State) LossReason() Loss { return s.loss }

// Loss is why the team lost; its values are stored in snapshots.
type Loss string

const (
	LossNone   Loss = ""
	LossKnocks Loss = "hard knocks" // L-1
	LossMorale Loss = "morale"      // M-3
)

// Key is the catalog key naming the loss ("grizzled.loss.morale").
func (l Loss) Key() string {
	if l == LossKnocks {
		return "grizzled.loss.knocks"
	}
	return "grizzled.loss.morale"
}

// intn returns a uniform int in [0,n) from the state's RNG.
func (s *State) intn(n int) int {
	hi, _ := bits.Mul64(s.rng.Uint64(), uint64(n))
	return int(hi)
}

func shuffle[T any](s *State, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := s.intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// ParseOptions decodes Options from JSON; empty input gives the defaults
// (standard variant, random first leader).
func ParseOptions(b []byte) (Options, error) {
	o := Options{Variant: Standard, Leader: game.NoSeat}
	if len(b) == 0 {
		return o, nil
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return o, fmt.Errorf("grizzled options: %w", err)
	}
	if o.Variant == "" {
		o.Variant = Standard
	}
	return o, nil
}

// Setup errors.
var (
	ErrPlayers = errors.New("a game of The Grizzled needs 2 to 5 players")
	ErrOptions = errors.New("invalid options for The Grizzled")
)

// New builds a game from a setup (Names are the 2..5 humans; Options JSON)
// and a seed. It returns the first state and the setup narration.
func New(setup game.Setup, seed uint64) (*State, []game.Event, error) {
	o, err := ParseOptions(setup.Options)
	if err != nil {
		return nil, nil, err
	}
	if setup.First > 0 {
		o.Leader = game.Seat(setup.First - 1) // named at the table (S5)
	}
	for i, id := range setup.Picks {
		if c := pickIndex(id); c > 0 && i < len(setup.Names) {
			if o.Soldiers == nil {
				o.Soldiers = make([]int, len(setup.Names))
			}
			o.Soldiers[i] = c
		}
	}
	return NewGame(setup.Names, o, seed)
}

// pickIndex is 1 + the character a pick ID ("C1".."C6") names, or 0.
func pickIndex(id string) int {
	for i := range Characters {
		if id == fmt.Sprintf("C%d", i+1) {
			return i + 1
		}
	}
	return 0
}

// NewGame is New with decoded options.
func NewGame(names []string, o Options, seed uint64) (*State, []game.Event, error) {
	o, n, err := checkOptions(len(names), o)
	if err != nil {
		return nil, nil, err
	}
	h := len(names)
	s := &State{
		opts:        o,
		traps:       o.Variant != Beginner,
		humans:      h,
		startTrials: n,
		round:       1,
		speaker:     -1,
		beneficiary: -1,
		decider:     -1,
		rng:         *rand.NewPCG(seed, seed^0x9e3779b97f4a7c15),
	}
	s.seatPlayers(names)
	s.dealSoldiers(o.Soldiers)
	s.dealTiles()
	s.dealPiles()
	// S4: speech supply.
	switch h {
	case 2, 3:
		s.supply = 5
	case 4:
		s.supply = 4
	default:
		s.supply = 3
	}
	// S5: leader.
	if o.Leader != game.NoSeat {
		s.leader = int(o.Leader)
	} else {
		s.leader = s.intn(h)
	}
	s.active = s.leader
	s.phase = PhaseIntensity
	s.announceSetup()
	return s, s.flush(), nil
}

// checkOptions refuses options no game of h players can have, and fills
// in the defaults: the variant, and the starting trials it returns.
func checkOptions(h int, o Options) (Options, int, error) {
	if h < 2 || h > 5 {
		return o, 0, fmt.Errorf("%w (got %d)", ErrPlayers, h)
	}
	if o.Variant == "" {
		o.Variant = Standard
	}
	switch o.Variant {
	case Beginner, Standard, Veteran:
	default:
		return o, 0, fmt.Errorf("%w: unknown variant %q", ErrOptions, o.Variant)
	}
	if o.Leader < game.NoSeat || int(o.Leader) >= h {
		return o, 0, fmt.Errorf("%w: first leader %d is not a player seat", ErrOptions, o.Leader)
	}
	n := o.Trials(h)
	if n < 1 || n > NumCards-1 {
		return o, 0, fmt.Errorf("%w: starting trials %d must be 1..%d", ErrOptions, n, NumCards-1)
	}
	return o, n, nil
}

// Trials is the trials pile a game of these options starts with at a
// table of humans soldiers: StartingTrials when set (a campaign's, §6.5),
// else 30 for veteran rules (§6.3), 20 with two soldiers (§6.4), or 25.
func (o Options) Trials(humans int) int {
	switch {
	case o.StartingTrials != 0:
		return o.StartingTrials
	case o.Variant == Veteran:
		return 30
	case humans == 2:
		return 20
	}
	return 25
}

// seatPlayers seats the named players, and with two of them the chaplain.
func (s *State) seatPlayers(names []string) {
	h := len(names)
	seats := h
	if h == 2 {
		seats = 3 // §6.4: the chaplain sits in seat 2
	}
	s.players = make([]player, seats)
	for i := range s.players {
		p := &s.players[i]
		if i < h {
			p.Name = names[i]
			if p.Name == "" {
				p.Name = fmt.Sprintf("Player %d", i+1)
			}
		} else {
			p.Name = ChaplainName
			p.Chaplain = true
			p.Withdrawn = true // §6.4: never in a mission
		}
	}
}

// dealSoldiers is S1: the soldiers players chose (1 + a character, by
// seat), the rest at random. The draw happens either way, so a game's dice
// do not depend on the choices.
func (s *State) dealSoldiers(chosen []int) {
	chars := []int{0, 1, 2, 3, 4, 5}
	shuffle(s, chars)
	want := make([]int, len(s.players))
	taken := map[int]bool{}
	for i := range want {
		want[i] = -1
		if i < len(chosen) && i < s.humans {
			if c := chosen[i] - 1; c >= 0 && c < len(Characters) && !taken[c] {
				want[i], taken[c] = c, true
			}
		}
	}
	rest := slices.DeleteFunc(slices.Clone(chars), func(c int) bool { return taken[c] })
	for i := range s.players {
		if want[i] >= 0 {
			s.players[i].Character = want[i]
		} else {
			s.players[i].Character, rest = rest[0], rest[1:]
		}
	}
}

// dealTiles is S2: everyone takes one L and one R and draws a third tile;
// the rest go back to the box.
func (s *State) dealTiles() {
	seats := len(s.players)
	pool, box := tileSet(seats)
	s.box = box
	pool = pool[2*seats:] // pool alternates L,R so the first 2*seats are the fixed ones
	shuffle(s, pool)
	for i := range s.players {
		s.players[i].Tiles = []Tile{TileL, TileR, pool[i]}
		s.players[i].Known = []Tile{TileL, TileR}
	}
	s.box = append(s.box, pool[seats:]...)
}

// dealPiles is S3: the shuffled deck makes the trials (startTrials cards)
// and the morale reserve.
func (s *State) dealPiles() {
	n := s.startTrials
	deck := make([]CardID, NumCards)
	for i := range deck {
		deck[i] = CardID(i + 1)
	}
	shuffle(s, deck)
	s.trials = slices.Clip(deck[:n])
	s.morale = slices.Clone(deck[n:])
}

// announceSetup tells the table how the game begins: the variant and
// piles to all, each soldier, each player their own tiles, the first
// leader.
func (s *State) announceSetup() {
	s.loud = true
	s.pub("grizzled.new_game", game.Term("Variant", "grizzled.variant."+string(s.opts.Variant)),
		game.Num("Trials", len(s.trials)), game.Num("Morale", len(s.morale)), game.Num("Tokens", s.supply))
	for i := range s.players {
		p := &s.players[i]
		c := Characters[p.Character]
		s.pub("grizzled.plays_soldier", named(p.Name), game.Text("Soldier", c.Name), threatArg(c.Charm))
		if !p.Chaplain {
			s.priv(i, "grizzled.your_tiles", tilesArg(p.Tiles))
		}
	}
	s.pub("grizzled.first_mission", s.who(s.leader))
}

// tileSet is the 16 tiles (S2): those in use, in the order L,R,L,R,...
// then the doubles, and those back in the box (the doubles with 2 or 3
// seats).
func tileSet(seats int) (inUse, box []Tile) {
	inUse = make([]Tile, 0, 16)
	for range 6 {
		inUse = append(inUse, TileL, TileR)
	}
	doubles := []Tile{TileDL, TileDL, TileDR, TileDR}
	if seats >= 4 {
		return append(inUse, doubles...), nil
	}
	return inUse, doubles
}

// Clone returns a deep copy of s. It is cheap (a handful of allocations):
// bots clone once per sample.
func (s *State) Clone() *State {
	c := *s
	c.loud, c.out = false, nil
	// c.last is shared: a SupportReveal is never changed once made.
	const room = 4 // space to grow before a slice must reallocate
	nc, nt, na := len(s.trials)+len(s.morale)+len(s.nml)+len(s.removed)+4*room, len(s.box), 0
	for i := range s.players {
		p := &s.players[i]
		nc += len(p.Hand) + len(p.Knocks) + 2*room
		nt += len(p.Tiles) + len(p.Known) + 2*room
		na += len(p.Arrival) + room
	}
	cs := arena[CardID]{buf: make([]CardID, 0, nc)}
	ts := arena[Tile]{buf: make([]Tile, 0, nt)}
	as := arena[uint32]{buf: make([]uint32, 0, na)}
	c.players = make([]player, len(s.players))
	for i := range s.players {
		p, q := &s.players[i], &c.players[i]
		*q = *p
		q.Hand = cs.copy(p.Hand, room)
		q.Knocks = cs.copy(p.Knocks, room)
		q.Tiles = ts.copy(p.Tiles, room)
		q.Known = ts.copy(p.Known, room)
		q.Arrival = as.copy(p.Arrival, room)
	}
	c.trials = cs.copy(s.trials, room)
	c.morale = cs.copy(s.morale, 0)
	c.nml = cs.copy(s.nml, room)
	c.removed = cs.copy(s.removed, room)
	c.box = ts.copy(s.box, 0)
	return &c
}

// arena hands out windows of one buffer. Each window's capacity is capped,
// so appending past it reallocates rather than spilling into the next one.
type arena[T any] struct{ buf []T }

func (a *arena[T]) copy(src []T, room int) []T {
	if src == nil {
		return nil
	}
	start := len(a.buf)
	a.buf = append(a.buf, src...)
	end := len(a.buf)
	if end+room > cap(a.buf) {
		room = cap(a.buf) - end
	}
	a.buf = a.buf[:end+room]
	return a.buf[start : end : end+room]
}

// snapshot is the encoded form of a State.
type snapshot struct {
	V            int            `json:"v"`
	Opts         Options        `json:"opts"`
	Traps        bool           `json:"traps"`
	Humans       int            `json:"humans"`
	StartTrials  int            `json:"start_trials"`
	Players      []player       `json:"players"`
	Trials       []CardID       `json:"trials"`
	Morale       []CardID       `json:"morale"`
	NML          []CardID       `json:"nml"`
	Removed      []CardID       `json:"removed"`
	Box          []Tile         `json:"box"`
	Supply       int            `json:"supply"`
	Leader       int            `json:"leader"`
	Active       int            `json:"active"`
	Round        int            `json:"round"`
	Phase        Phase          `json:"phase"`
	Failed       bool           `json:"failed"`
	Seq          int            `json:"seq"`
	Stamp        uint32         `json:"stamp"`
	Decision     DecisionKind   `json:"decision"`
	Decider      int            `json:"decider"`
	Speaker      int            `json:"speaker"`
	SpeechThreat Threat         `json:"speech_threat"`
	SpeechOpened int            `json:"speech_opened"`
	Beneficiary  int            `json:"beneficiary"`
	Last         *SupportReveal `json:"last,omitempty"`
	Won          bool           `json:"won"`
	Loss         Loss           `json:"loss,omitempty"`
	RNG          []byte         `json:"rng"`
}

const snapshotVersion = 1

// EncodeState is a snapshot of s (JSON, versioned). It includes hidden
// information: store it, never send it to a player.
func EncodeState(s *State) ([]byte, error) {
	rng, err := s.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(snapshot{
		V: snapshotVersion, Opts: s.opts, Traps: s.traps, Humans: s.humans, StartTrials: s.startTrials,
		Players: s.players, Trials: s.trials, Morale: s.morale, NML: s.nml, Removed: s.removed, Box: s.box,
		Supply: s.supply, Leader: s.leader, Active: s.active, Round: s.round, Phase: s.phase, Failed: s.failed,
		Seq: s.seq, Stamp: s.stamp, Decision: s.decision, Decider: s.decider, Speaker: s.speaker,
		SpeechThreat: s.speechThreat, SpeechOpened: s.speechOpened, Beneficiary: s.beneficiary, Last: s.last,
		Won: s.won, Loss: s.loss, RNG: rng,
	})
}

// DecodeState restores a snapshot made by EncodeState and checks that it is
// a consistent game (every card and tile exactly once).
func DecodeState(b []byte) (*State, error) {
	var x snapshot
	if err := json.Unmarshal(b, &x); err != nil {
		return nil, fmt.Errorf("grizzled snapshot: %w", err)
	}
	if x.V != snapshotVersion {
		return nil, fmt.Errorf("grizzled snapshot: unknown version %d", x.V)
	}
	s := &State{
		opts: x.Opts, traps: x.Traps, humans: x.Humans, startTrials: x.StartTrials, players: x.Players,
		trials: x.Trials, morale: x.Morale, nml: x.NML, removed: x.Removed, box: x.Box,
		supply: x.Supply, leader: x.Leader, active: x.Active, round: x.Round, phase: x.Phase, failed: x.Failed,
		seq: x.Seq, stamp: x.Stamp, decision: x.Decision, decider: x.Decider, speaker: x.Speaker,
		speechThreat: x.SpeechThreat, speechOpened: x.SpeechOpened, beneficiary: x.Beneficiary, last: x.Last,
		won: x.Won, loss: x.Loss,
	}
	if err := s.rng.UnmarshalBinary(x.RNG); err != nil {
		return nil, fmt.Errorf("grizzled snapshot: rng: %w", err)
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("grizzled snapshot: %w", err)
	}
	return s, nil
}

// Check verifies the invariants: every one of the 59 cards is in exactly one
// place (hands, piles, NML, in front of players, removed), the right number
// of tiles exist, and seat indices are in range.
func (s *State) Check() error {
	n := len(s.players)
	if s.humans < 2 || s.humans > 5 || n != max(s.humans, 3) {
		return fmt.Errorf("bad seat count %d for %d humans", n, s.humans)
	}
	if s.leader < 0 || s.leader >= s.humans || s.active < 0 || s.active >= s.humans {
		return fmt.Errorf("bad leader %d or active seat %d", s.leader, s.active)
	}
	var tally cardTally
	tiles := len(s.box)
	for i := range s.players {
		p := &s.players[i]
		if err := tally.mark(p.Hand, "the hand of", p.Name); err != nil {
			return err
		}
		if err := tally.mark(p.Knocks, "the front of", p.Name); err != nil {
			return err
		}
		if len(p.Arrival) != len(p.Knocks) {
			return fmt.Errorf("%s: arrival stamps out of step", p.Name)
		}
		for _, k := range p.Knocks {
			if !k.IsHardKnock() {
				return fmt.Errorf("%s in front of %s is not a hard knock", k, p.Name)
			}
		}
		if p.Chaplain && (len(p.Hand) > 0 || len(p.Knocks) > 0) {
			return errors.New("the chaplain holds cards")
		}
		if p.Character < 0 || p.Character >= len(Characters) {
			return fmt.Errorf("%s: bad character", p.Name)
		}
		for _, t := range p.Tiles {
			if !t.Valid() {
				return fmt.Errorf("%s holds an invalid tile", p.Name)
			}
		}
		tiles += len(p.Tiles)
		if p.Placed != NoTile {
			tiles++
		}
		if !knownHeld(p) {
			return fmt.Errorf("%s: the tiles known to be held are not all held", p.Name)
		}
	}
	for i, cs := range [4][]CardID{s.trials, s.morale, s.nml, s.removed} {
		if err := tally.mark(cs, [4]string{"the trials pile", "the morale reserve", "No Man's Land", "the removed cards"}[i], ""); err != nil {
			return err
		}
	}
	if tally.count != NumCards {
		return fmt.Errorf("%d cards accounted for, want %d", tally.count, NumCards)
	}
	if tiles != 16 {
		return fmt.Errorf("%d tiles accounted for, want 16", tiles)
	}
	return nil
}

// cardTally checks that no card is in two places (Check).
type cardTally struct {
	seen  [NumCards + 1]bool
	count int
}

func (t *cardTally) mark(cs []CardID, where, whose string) error {
	for _, c := range cs {
		if !c.Valid() {
			return fmt.Errorf("invalid card %d in %s %s", c, where, whose)
		}
		if t.seen[c] {
			return fmt.Errorf("card %s twice (again in %s %s)", c, where, whose)
		}
		t.seen[c] = true
		t.count++
	}
	return nil
}
