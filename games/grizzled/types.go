package grizzled

import "github.com/bivouac-ssh/bivouac/game"

// This file is the package's public contract: the screen (tui), the bots and
// the server code against these types. Change them only with care.

// Threat is one of the six threat icons (spec §1.1), in the spec's enum order.
type Threat uint8

const (
	Night Threat = iota
	Snow
	Rain
	Shell
	Whistle
	Mask
	NumThreats = 6
)

// CardID names one of the 59 trial cards: 1..39 are T01..T39, 40..58 are
// H01..H19, 59 is Merry Christmas (spec §1.4). 0 is no card.
type CardID uint8

const (
	NoCard         CardID = 0
	FirstThreat    CardID = 1
	FirstHardKnock CardID = 40
	MerryChristmas CardID = 59
	NumCards              = 59
)

// Kind of a trial card.
type Kind uint8

const (
	KindThreat Kind = iota
	KindHardKnock
	KindMerryChristmas
)

// Tile is a support tile (spec §1, SU-2).
type Tile uint8

const (
	NoTile Tile = iota
	TileL       // goes to seat i+1
	TileR       // goes to seat i-1
	TileDL      // goes to seat i+2
	TileDR      // goes to seat i-2
)

// Variant is a rules level (spec §6).
type Variant string

const (
	Beginner Variant = "beginner" // traps ignored (§6.1)
	Standard Variant = "standard" // §6.2
	Veteran  Variant = "veteran"  // 30 trials cards (§6.3)
)

// Options are a table's rules; encoded as JSON in game.Setup.Options.
// The number of humans is len(Setup.Names) (2..5); with 2 the chaplain is
// added automatically (§6.4) and is not a seat anyone sits in.
type Options struct {
	Variant Variant `json:"variant"`
	// StartingTrials overrides the trials pile size (campaign, §6.5); 0 means
	// the variant's default (20 with 2 players, 25, or 30 for veteran).
	StartingTrials int `json:"starting_trials,omitempty"`
	// Leader is the first leader's seat, or game.NoSeat to draw one at
	// random (S5).
	Leader game.Seat `json:"leader"`
	// Soldiers are the soldiers players chose (S1), by seat: 1 + an index
	// into Characters, 0 for the draw.
	Soldiers []int `json:"soldiers,omitempty"`
}

// Phase says what the game waits for.
type Phase uint8

const (
	PhaseIntensity Phase = iota // the leader chooses k (P2)
	PhaseTurn                   // the active player takes one action (A1–A4)
	PhaseSpeech                 // eligible players answer a speech (A3)
	PhaseDecision               // one seat owes a decision (see Pending)
	PhaseBenefit                // the beneficiary chooses a support benefit (SU-5/6)
	PhaseOver                   // won or lost
)

// ActionKind is what an Action does.
type ActionKind uint8

const (
	ActIntensity        ActionKind = iota + 1 // leader: K cards each
	ActPlay                                   // play Card from hand (A1)
	ActCharm                                  // discard NML Card with the lucky charm (A2)
	ActSpeech                                 // name Threat (A3)
	ActSpeechDiscard                          // answer a speech by discarding Card
	ActSpeechPass                             // answer a speech by passing
	ActWithdraw                               // A4; tile choices follow as decisions
	ActRemoveTile                             // Absent-minded: Tile leaves the game (A4.1)
	ActPlaceTile                              // place Tile face down (A4.2)
	ActDiscardHardKnock                       // Merry Christmas: discard Card in front of Target
	ActBenefitDiscard                         // beneficiary discards Cards (up to 2, or 1 after failure)
	ActBenefitCharm                           // beneficiary turns their charm back (success only)
	ActBenefitDecline                         // beneficiary takes nothing
)

// Action is one move. Only the fields its Kind names are read. It is a plain
// value so actions compare with ==-like checks and encode compactly.
type Action struct {
	Kind   ActionKind `json:"kind"`
	K      int        `json:"k,omitempty"`
	Card   CardID     `json:"card,omitempty"`
	Cards  []CardID   `json:"cards,omitempty"`
	Threat Threat     `json:"threat,omitempty"`
	Tile   Tile       `json:"tile,omitempty"`
	Target game.Seat  `json:"target,omitempty"`
}

// DecisionKind names a pending decision in PhaseDecision.
type DecisionKind uint8

const (
	DecideNone       DecisionKind = iota
	DecideRemoveTile              // Absent-minded: which tile to remove
	DecidePlaceTile               // which tile to place face down
	DecideHardKnock               // Merry Christmas: which hard knock to discard
)

// PlayerView is what everyone may see of one soldier (spec §7).
type PlayerView struct {
	Seat           game.Seat `json:"seat"`
	Name           string    `json:"name"`
	Character      string    `json:"character"` // e.g. "Félix Moreau"
	Charm          Threat    `json:"charm"`
	CharmAvailable bool      `json:"charm_available"`
	Chaplain       bool      `json:"chaplain,omitempty"`
	HandSize       int       `json:"hand_size"`
	Tiles          int       `json:"tiles"`       // number of tiles held
	HardKnocks     []CardID  `json:"hard_knocks"` // in arrival order
	Weight         int       `json:"weight"`      // hard-knock weight (Wounded = 2)
	SpeechTokens   int       `json:"speech_tokens"`
	Withdrawn      bool      `json:"withdrawn"`
	PlacedTile     bool      `json:"placed_tile"` // a tile lies face down on the card
	Mute           bool      `json:"mute,omitempty"`

	// KnownTiles are tiles everybody knows this player holds (or has
	// placed this mission): the L and R every player takes at the setup
	// and each tile received at a support, less each tile seen given.
	// Anyone who remembers the reveals knows as much (§7); the rest of
	// the player's tiles are private.
	KnownTiles []Tile `json:"known_tiles,omitempty"`

	// Added by the engine: arrival stamps of HardKnocks (same order; G-6 needs them).
	Arrivals []uint32 `json:"arrivals,omitempty"`
	// Answered: in PhaseSpeech, this eligible seat has answered (what it chose stays hidden).
	Answered bool `json:"answered,omitempty"`
}

// SupportTile is one tile revealed at SU-1, shown face up to everyone.
type SupportTile struct {
	From game.Seat `json:"from"`
	To   game.Seat `json:"to"`
	Tile Tile      `json:"tile"`
}

// SupportReveal is the last support step, face up.
type SupportReveal struct {
	Round       int           `json:"round"`
	Success     bool          `json:"success"`
	Tiles       []SupportTile `json:"tiles"`
	Beneficiary game.Seat     `json:"beneficiary"` // -1: nobody
}

// SeatView is all one seat may know (spec §7). It is a fresh value that never
// aliases the game state. A spectator's view has Seat == game.Spectator and
// no Hand, Tiles or PlacedTile.
type SeatView struct {
	Seat    game.Seat `json:"seat"`
	Seq     int       `json:"seq"` // actions applied so far; stale keypresses are refused
	Options Options   `json:"options"`
	Phase   Phase     `json:"phase"`
	Round   int       `json:"round"`
	// MinIntensity and MaxIntensity bound the leader's choice (P2).
	MinIntensity int `json:"min_intensity"`
	MaxIntensity int `json:"max_intensity"`

	Leader  game.Seat   `json:"leader"`
	Active  game.Seat   `json:"active"`  // whose turn (PhaseTurn)
	Waiting []game.Seat `json:"waiting"` // seats the game waits on

	Trials       int             `json:"trials"`        // trials pile size
	Morale       int             `json:"morale"`        // morale reserve size
	SpeechSupply int             `json:"speech_supply"` // tokens left in the supply
	NML          []CardID        `json:"nml"`           // No Man's Land, in play order
	Counts       [NumThreats]int `json:"counts"`        // active threat counts (F-1)
	Failed       bool            `json:"failed"`        // this mission has failed (F-2)
	SpeechThreat Threat          `json:"speech_threat"` // named threat while PhaseSpeech
	Speaker      game.Seat       `json:"speaker"`       // -1 unless PhaseSpeech
	Decision     DecisionKind    `json:"decision"`      // what Waiting[0] owes in PhaseDecision
	Players      []PlayerView    `json:"players"`       // every seat, chaplain included
	LastSupport  *SupportReveal  `json:"last_support,omitempty"`
	Over         bool            `json:"over"`
	Won          bool            `json:"won"`
	LossReason   Loss            `json:"loss_reason,omitempty"`

	// Only for the viewing seat:
	Hand       []CardID `json:"hand,omitempty"`
	MyTiles    []Tile   `json:"my_tiles,omitempty"`
	PlacedTile Tile     `json:"placed_tile,omitempty"` // own face-down tile this mission (NoTile if none or Panicked-hidden)
	Legal      []Action `json:"legal,omitempty"`       // what this seat may do now

	// Added by the engine:
	Removed       []CardID    `json:"removed"`                  // face-up cards out of the game (card counting)
	Eligible      []game.Seat `json:"eligible,omitempty"`       // PhaseSpeech: seats that may answer
	MustWithdraw  bool        `json:"must_withdraw,omitempty"`  // PhaseTurn: Fearful forces the active player (H12)
	CanWithdraw   bool        `json:"can_withdraw,omitempty"`   // PhaseTurn: the active player may withdraw (§5.3)
	WhyNoWithdraw game.Msg    `json:"why_no_withdraw,omitzero"` // PhaseTurn: why not
}
