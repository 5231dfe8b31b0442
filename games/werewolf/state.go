package werewolf

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/bivouac-ssh/bivouac/game"
)

// Player is one seat's hidden and public facts. Only the engine reads it;
// screens and bots get SeatView.
type Player struct {
	Name     string  `json:"name"`
	Card     Role    `json:"card"`     // current card (after any thief swap)
	Original Role    `json:"original"` // card dealt
	Team     Team    `json:"team"`
	Alive    bool    `json:"alive"`
	Causes   []Cause `json:"causes,omitempty"` // how the player died
	Fired    bool    `json:"fired,omitempty"`  // hunter: shot queued or taken

	Ballot    int  `json:"ballot"` // NoBallot, Abstain or a seat
	Ready     bool `json:"ready,omitempty"`
	Candidate bool `json:"candidate,omitempty"`

	WolfSel     int        `json:"wolf_sel"`            // werewolf: tonight's selection, or nobody
	WolfDone    bool       `json:"wolf_done,omitempty"` // werewolf (fast nights): pressed Done
	KnowsWolves bool       `json:"knows_wolves,omitempty"`
	Visions     []Vision   `json:"visions,omitempty"`
	Relayed     []game.Msg `json:"relayed,omitempty"` // little girl: glimpses (selection relays)
	PeekSet     bool       `json:"peek_set,omitempty"`
}

// Vision is one thing the seer learned.
type Vision struct {
	Night  int       `json:"night"`
	Target game.Seat `json:"target"`
	Card   Role      `json:"card"`
}

// BallotRecord is one revealed ballot.
type BallotRecord struct {
	Voter  game.Seat `json:"voter"`
	Target game.Seat `json:"target"` // a seat, or Abstain
	Weight int       `json:"weight"`
}

// VoteRecord is a closed vote, revealed voter by voter.
type VoteRecord struct {
	Kind    Phase          `json:"kind"` // PhaseSheriffVote, PhaseSheriffRunoff or PhaseVote
	Day     int            `json:"day"`
	Ballots []BallotRecord `json:"ballots"`
	Tied    []game.Seat    `json:"tied,omitempty"`
	Result  game.Seat      `json:"result"` // elected / lynched seat, or -1
}

// rng is the seeded PCG kept in the state; it marshals as its binary form.
type rng struct{ pcg rand.PCG }

func (r rng) MarshalJSON() ([]byte, error) {
	b, err := r.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(b)
}

func (r *rng) UnmarshalJSON(b []byte) error {
	var raw []byte
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	return r.pcg.UnmarshalBinary(raw)
}

// State is a whole table. Only this package looks inside; it is exported so
// the server can persist snapshots (EncodeState/DecodeState).
type State struct {
	// Pack is the wolves' channel, every line of the game, so that wolves
	// can re-read it all game (§5.1); only views that know the pack show it.
	Pack []PackLine `json:"pack,omitempty"`

	Opts    Options  `json:"opts"`
	Players []Player `json:"players"`
	Deck    []Role   `json:"deck"`   // public deck list, canonical order
	Middle  []Role   `json:"middle"` // the two middle cards (thief games), else empty

	ThiefSeat int    `json:"thief_seat"` // seat dealt the thief card, or nobody
	ThiefSaw  []Role `json:"thief_saw,omitempty"`
	ThiefTook int    `json:"thief_took"` // slot taken, -1 kept / not yet
	ThiefDone bool   `json:"thief_done,omitempty"`

	Phase    Phase  `json:"phase"`
	PhaseSeq uint64 `json:"phase_seq"`
	Night    int    `json:"night"`
	Day      int    `json:"day"`

	Sheriff        int   `json:"sheriff"` // badge holder (may be dead while succession is pending), -1
	Elected        bool  `json:"elected,omitempty"`
	SheriffHistory []int `json:"sheriff_history,omitempty"`

	Linked bool   `json:"linked,omitempty"`
	Lovers [2]int `json:"lovers"`
	Cupid  int    `json:"cupid"` // seat that linked the lovers, -1

	// Night.
	Victim     int  `json:"victim"` // wolves' resolved victim, or nobody
	Healed     bool `json:"healed,omitempty"`
	Poisoned   int  `json:"poisoned"`
	HealLeft   bool `json:"heal_left"`
	PoisonLeft bool `json:"poison_left"`
	WitchDone  bool `json:"witch_done,omitempty"`
	SeerDone   bool `json:"seer_done,omitempty"`
	Peeking    bool `json:"peeking,omitempty"`
	Caught     bool `json:"caught,omitempty"`
	WolfEvents int  `json:"wolf_events,omitempty"` // wolves'-channel events this step

	// Day.
	Eligible   []int        `json:"eligible,omitempty"` // sheriff ballot targets
	Tied       []int        `json:"tied,omitempty"`
	Lynch      int          `json:"lynch"` // verdict: seat to lynch, or nobody
	Votes      []VoteRecord `json:"votes,omitempty"`
	ShotQueue  []int        `json:"shot_queue,omitempty"`
	ReckonNext Phase        `json:"reckon_next"` // PhaseDiscussion (day start) or PhaseNightFall

	Deaths       int `json:"deaths"`
	DeathsAtFall int `json:"deaths_at_fall"`
	Quiet        int `json:"quiet"`

	Over    bool        `json:"over,omitempty"`
	Outcome string      `json:"outcome,omitempty"`
	Winners []game.Seat `json:"winners,omitempty"`
	Summary game.Msg    `json:"summary,omitzero"`
	History []game.Msg  `json:"history,omitempty"` // night log, public at the end

	RNG  rng    `json:"rng"`
	Salt uint64 `json:"salt"` // for Say's relay draws, which may not move the RNG
}

// Outcomes of a game (Result.Outcome).
const (
	OutcomeVillage   = "village"
	OutcomeWolves    = "wolves"
	OutcomeLovers    = "lovers"
	OutcomeNone      = "none"      // nobody alive: no winner
	OutcomeStalemate = "stalemate" // no winner (§13)
	OutcomeAbandoned = "abandoned" // no winner (§13)
)

// EncodeState serialises a state (snapshots; the log stays the source of truth).
func EncodeState(s *State) ([]byte, error) { return json.Marshal(s) }

// DecodeState reads a state written by EncodeState.
func DecodeState(b []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if len(s.Players) == 0 {
		return nil, fmt.Errorf("werewolf: state has no players")
	}
	return &s, nil
}

// Clone is a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		p := &c.Players[i]
		p.Causes = slices.Clone(p.Causes)
		p.Visions = slices.Clone(p.Visions)
		p.Relayed = slices.Clone(p.Relayed)
	}
	c.Opts = s.Opts
	c.Deck = slices.Clone(s.Deck)
	c.Middle = slices.Clone(s.Middle)
	c.ThiefSaw = slices.Clone(s.ThiefSaw)
	c.SheriffHistory = slices.Clone(s.SheriffHistory)
	c.Eligible = slices.Clone(s.Eligible)
	c.Tied = slices.Clone(s.Tied)
	c.Votes = slices.Clone(s.Votes)
	for i := range c.Votes {
		c.Votes[i].Ballots = slices.Clone(c.Votes[i].Ballots)
		c.Votes[i].Tied = slices.Clone(c.Votes[i].Tied)
	}
	c.ShotQueue = slices.Clone(s.ShotQueue)
	c.Winners = slices.Clone(s.Winners)
	c.History = slices.Clone(s.History)
	c.Pack = slices.Clone(s.Pack)
	return &c
}

// PackLine is one line of the wolves' channel.
type PackLine struct {
	Night int       `json:"night"`
	From  game.Seat `json:"from"`
	Text  string    `json:"text"`
	Line  game.Msg  `json:"line,omitzero"` // a bot's line (Text is then empty)
}

// NewState builds the initial state for the names and options, dealing with
// the seed (spec §4), and enters night 1.
func NewState(names []string, opts Options, seed uint64) (*State, []game.Event, error) {
	n := len(names)
	if err := opts.Validate(n); err != nil {
		return nil, nil, err
	}
	deck := opts.deck(n)
	s := &State{
		Opts:      opts,
		Deck:      slices.Clone(deck),
		ThiefSeat: nobody, ThiefTook: -1,
		Sheriff: nobody, Cupid: nobody, Lovers: [2]int{nobody, nobody},
		Victim: nobody, Poisoned: nobody, Lynch: nobody,
		HealLeft: true, PoisonLeft: true,
		RNG: rng{*rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)},
	}
	r := s.rand()
	s.Salt = r.Uint64()
	cards := slices.Clone(deck)
	for i := len(cards) - 1; i > 0; i-- { // Fisher–Yates
		j := r.IntN(i + 1)
		cards[i], cards[j] = cards[j], cards[i]
	}
	return s.deal(names, cards)
}

// NewStateDealt is NewState with a fixed deal instead of a shuffle: cards[i]
// goes to seat i and, with the thief, the last two are the middle cards. The
// cards must be a permutation of the options' deck. For tests and puzzles.
func NewStateDealt(names []string, opts Options, seed uint64, cards []Role) (*State, []game.Event, error) {
	n := len(names)
	if err := opts.Validate(n); err != nil {
		return nil, nil, err
	}
	deck := opts.deck(n)
	a, b := slices.Clone(deck), slices.Clone(cards)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return nil, nil, badOpt("werewolf.opt.deal")
	}
	s := &State{
		Opts:      opts,
		Deck:      slices.Clone(deck),
		ThiefSeat: nobody, ThiefTook: -1,
		Sheriff: nobody, Cupid: nobody, Lovers: [2]int{nobody, nobody},
		Victim: nobody, Poisoned: nobody, Lynch: nobody,
		HealLeft: true, PoisonLeft: true,
		RNG: rng{*rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)},
	}
	s.Salt = s.rand().Uint64()
	return s.deal(names, slices.Clone(cards))
}

func (s *State) deal(names []string, cards []Role) (*State, []game.Event, error) {
	n := len(names)
	for i, name := range names {
		if strings.TrimSpace(name) == "" {
			name = fmt.Sprintf("Player %d", i+1)
		}
		c := cards[i]
		s.Players = append(s.Players, Player{
			Name: name, Card: c, Original: c, Team: teamOf(c), Alive: true,
			Ballot: NoBallot, WolfSel: nobody,
		})
		if c == RoleThief {
			s.ThiefSeat = i
		}
	}
	if len(cards) > n {
		s.Middle = slices.Clone(cards[n:])
	}
	var out []game.Event
	deck := DeckMsgs(s.Deck)
	key := "werewolf.new_game"
	if s.Opts.Unofficial() {
		key = "werewolf.new_game_small"
	}
	out = append(out, narration(game.M(key, game.Count(n), game.Joined("Deck", ", ", deck...))))
	for i := range s.Players {
		out = append(out, private(game.M("werewolf.your_card", roleArg("Role", s.Players[i].Card)), i))
	}
	s.enterNightFall(&out)
	s.settle(&out)
	return s, out, nil
}

func (s *State) rand() *rand.Rand { return rand.New(&s.RNG.pcg) }

// Helpers over players.

func (s *State) valid(i int) bool { return i >= 0 && i < len(s.Players) }

func (s *State) alive(i int) bool { return s.valid(i) && s.Players[i].Alive }

func (s *State) isWolf(i int) bool { return s.valid(i) && s.Players[i].Card == RoleWerewolf }

func (s *State) living() []int {
	var v []int
	for i, p := range s.Players {
		if p.Alive {
			v = append(v, i)
		}
	}
	return v
}

func (s *State) livingCount() int {
	n := 0
	for _, p := range s.Players {
		if p.Alive {
			n++
		}
	}
	return n
}

// holder is the living player holding card r, or -1.
func (s *State) holder(r Role) int {
	for i, p := range s.Players {
		if p.Alive && p.Card == r {
			return i
		}
	}
	return -1
}

func (s *State) livingWolves() []int {
	var v []int
	for i, p := range s.Players {
		if p.Alive && p.Card == RoleWerewolf {
			v = append(v, i)
		}
	}
	return v
}

// partner is i's lover, or -1.
func (s *State) partner(i int) int {
	if !s.Linked {
		return -1
	}
	switch i {
	case s.Lovers[0]:
		return s.Lovers[1]
	case s.Lovers[1]:
		return s.Lovers[0]
	}
	return -1
}

func (s *State) inDeck(r Role) bool { return slices.Contains(s.Deck, r) }

// lastBreath reports whether dead seat i still has a decision to make (the
// hunter's shot, the sheriff's successor): it keeps a living player's view.
func (s *State) lastBreath(i int) bool {
	if !s.valid(i) || s.Players[i].Alive || s.Over {
		return false
	}
	return slices.Contains(s.ShotQueue, i) || s.Sheriff == i
}

// watcher reports whether dead seat i sees everything (DeadSeeAll).
func (s *State) watcher(i int) bool {
	return s.Opts.DeadSeeAll && s.valid(i) && !s.Players[i].Alive && !s.lastBreath(i)
}

func (s *State) watchers() []int {
	var v []int
	for i := range s.Players {
		if s.watcher(i) {
			v = append(v, i)
		}
	}
	return v
}

// graveyard lists the dead who may use the dead channel.
func (s *State) graveyard() []int {
	var v []int
	for i, p := range s.Players {
		if !p.Alive && !s.lastBreath(i) {
			v = append(v, i)
		}
	}
	return v
}

func (s *State) fast() bool { return s.Opts.NightTiming == TimingFast }

// Events.

func narration(m game.Msg) game.Event {
	return game.Event{Audience: game.Everyone(), Kind: game.Narration, From: -1, Msg: m}
}

// who is seat i's name as argument arg ("nobody" for no seat).
func (s *State) who(arg string, i int) game.Arg {
	if !s.valid(i) {
		return game.Term(arg, "werewolf.nobody")
	}
	return game.Text(arg, s.Players[i].Name)
}

// whoList is the seats' names as one list argument.
func (s *State) whoList(arg string, v []int) game.Arg {
	ms := make([]game.Msg, len(v))
	for i, x := range v {
		ms[i] = game.M("list.item", s.who("Player", x))
	}
	return game.List(arg, ms...)
}

func roleArg(arg string, r Role) game.Arg { return game.Term(arg, r.Key()) }

func seats(v []int) []game.Seat {
	out := make([]game.Seat, 0, len(v))
	for _, i := range v {
		if !slices.Contains(out, game.Seat(i)) {
			out = append(out, game.Seat(i))
		}
	}
	return out
}

func private(m game.Msg, to ...int) game.Event {
	return game.Event{Audience: game.Only(seats(to)...), Kind: game.Private, From: -1, Msg: m}
}

// secret is a private event for the seats plus the dead watchers.
func (s *State) secret(out *[]game.Event, m game.Msg, to ...int) {
	aud := append(slices.Clone(to), s.watchers()...)
	if len(aud) == 0 {
		return
	}
	*out = append(*out, private(m, aud...))
}

// history adds a line to the night log, read out at the end.
func (s *State) history(key string, args ...game.Arg) {
	s.History = append(s.History, game.M(key, args...))
}

// DeckMsgs names a deck's cards, like cards together: "Werewolf ×2", "Seer".
func DeckMsgs(deck []Role) []game.Msg {
	var out []game.Msg
	for i := 0; i < len(deck); {
		j := i
		for j < len(deck) && deck[j] == deck[i] {
			j++
		}
		if n := j - i; n > 1 {
			out = append(out, game.M("werewolf.deck_many", roleArg("Role", deck[i]), game.Num("N", n)))
		} else {
			out = append(out, game.M(deck[i].Key()))
		}
		i = j
	}
	return out
}
