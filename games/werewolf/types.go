package werewolf

import (
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
)

// Role is the character card a player holds. The zero value, RoleUnknown, is
// what a view shows for a card the viewer may not see.
type Role uint8

const (
	RoleUnknown Role = iota
	RoleWerewolf
	RoleVillager
	RoleSeer
	RoleWitch
	RoleHunter
	RoleCupid
	RoleLittleGirl
	RoleThief
)

var roleNames = [...]string{"?", "Werewolf", "Villager", "Seer", "Witch", "Hunter", "Cupid", "Little Girl", "Thief"}

// String is the card's stable name, as stored ("Little Girl"); "?" for a
// hidden card. Players read Key's words.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", r)
}

// roleIDs name the roles in catalog keys: "werewolf.role.little_girl".
var roleIDs = [...]string{"unknown", "werewolf", "villager", "seer", "witch", "hunter", "cupid", "little_girl", "thief"}

// Key is the catalog key of the card's name ("werewolf.role.seer").
func (r Role) Key() string {
	if int(r) < len(roleIDs) {
		return "werewolf.role." + roleIDs[r]
	}
	return "werewolf.role.unknown"
}

// ID is the card's name in catalog keys and commands: "little_girl".
func (r Role) ID() string {
	if int(r) < len(roleIDs) {
		return roleIDs[r]
	}
	return roleIDs[RoleUnknown]
}

// HelpKey is the catalog key of the card's one-line description.
func (r Role) HelpKey() string {
	if int(r) < len(roleIDs) {
		return "werewolf.role_help." + roleIDs[r]
	}
	return "werewolf.role_help.unknown"
}

// Team is the side holding the card wins with (mixed lovers aside).
func (r Role) Team() Team {
	if r == RoleUnknown {
		return TeamNone
	}
	return teamOf(r)
}

// MarshalText encodes a role by name, so JSON shows "Seer" (and a []Role
// is an array, not base64).
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a role name written by MarshalText.
func (r *Role) UnmarshalText(b []byte) error {
	for i, n := range roleNames {
		if n == string(b) {
			*r = Role(i)
			return nil
		}
	}
	return fmt.Errorf("werewolf: unknown role %q", b)
}

// Team is the side a player wins with.
type Team uint8

const (
	TeamNone Team = iota // unknown to the viewer
	TeamVillage
	TeamWolves
	TeamLovers // a mixed couple (spec §5.6)
)

func (t Team) String() string {
	switch t {
	case TeamVillage:
		return "Village"
	case TeamWolves:
		return "Wolves"
	case TeamLovers:
		return "Lovers"
	}
	return "?"
}

// Key is the catalog key of the team's name ("werewolf.team.village").
func (t Team) Key() string {
	switch t {
	case TeamVillage:
		return "werewolf.team.village"
	case TeamWolves:
		return "werewolf.team.wolves"
	case TeamLovers:
		return "werewolf.team.lovers"
	}
	return "werewolf.team.none"
}

func teamOf(r Role) Team {
	if r == RoleWerewolf {
		return TeamWolves
	}
	return TeamVillage
}

// Cause is how a player died. Causes are public once the player is dead
// (with Options.RevealNightCause off, night deaths show CauseFoundDead).
type Cause uint8

const (
	CauseNone Cause = iota
	CauseDevoured
	CausePoisoned
	CauseHeartbreak
	CauseShot
	CauseLynched
	CauseFoundDead // a night death whose cause is hidden by the options
)

var causeNames = [...]string{"", "devoured", "poisoned", "heartbreak", "shot", "lynched", "found_dead"}

// Key is the catalog key of the cause ("werewolf.cause.shot").
func (c Cause) Key() string {
	if c == CauseNone || int(c) >= len(causeNames) {
		return "werewolf.cause.none"
	}
	return "werewolf.cause." + causeNames[c]
}

func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return fmt.Sprintf("Cause(%d)", c)
}

// Phase is the step the game is in (spec §7).
type Phase uint8

const (
	PhaseNightFall Phase = iota
	PhaseThief
	PhaseCupid
	PhaseLovers
	PhaseSeer
	PhaseWolves
	PhaseWitch
	PhaseDawn
	PhaseHunterShot
	PhaseSheriffSuccession
	PhaseSheriffCampaign
	PhaseSheriffVote
	PhaseSheriffRunoff
	PhaseDiscussion
	PhaseVote
	PhaseSheriffTiebreak
	PhaseVerdict
	PhaseGameOver
)

var phaseIDs = [...]string{
	"NightFall",
	"Thief",
	"Cupid",
	"Lovers",
	"Seer",
	"Wolves",
	"Witch",
	"Dawn",
	"HunterShot",
	"SheriffSuccession",
	"SheriffCampaign",
	"SheriffVote",
	"SheriffRunoff",
	"Discussion",
	"Vote",
	"SheriffTiebreak",
	"Verdict",
	"GameOver",
}

// String is the phase's stable identifier ("SheriffVote").
func (p Phase) String() string {
	if int(p) < len(phaseIDs) {
		return phaseIDs[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// TitleKey is the catalog key of the phase's name for a screen header
// ("Sheriff election").
func (p Phase) TitleKey() string { return "werewolf.phase." + p.String() }

// NarrationKey is the catalog key of the line that opens the phase.
func (p Phase) NarrationKey() string { return "werewolf.narr." + p.String() }

func (p Phase) Night() bool { return p <= PhaseWitch }

// nightStep reports whether p is one of the role steps of the night.
func (p Phase) nightStep() bool { return p >= PhaseThief && p <= PhaseWitch }

// Chat channels used in events.
const (
	ChannelTable  = "table"  // the living, by day; everyone after the game
	ChannelWolves = "wolves" // the living werewolves during their step (and dead watchers)
	ChannelDead   = "dead"   // the graveyard
	ChannelRelay  = "relay"  // the little girl's anonymised glimpses of the wolves' channel
)

// Ballot sentinels, used in Player.Ballot, SeatView.MyBallot and Ballot records.
const (
	NoBallot = -2 // has not voted (yet)
	Abstain  = -1 // voted to abstain
)

// Errors returned by Apply and Say. Their messages are meant for players.
// Any action a seat may not take now gets ErrNotAllowed, whatever the hidden
// reason, so an error never tells a player something about another's role.
var (
	ErrNotAllowed   = game.NewError("werewolf.err.not_allowed")
	ErrNoSuchPlayer = game.NewError("werewolf.err.no_such_player")
	ErrTargetDead   = game.NewError("werewolf.err.target_dead")
	ErrSelf         = game.NewError("werewolf.err.self")
	ErrTargetWolf   = game.NewError("werewolf.err.target_wolf")
	ErrMustSwap     = game.NewError("werewolf.err.must_swap")
	ErrBadSlot      = game.NewError("werewolf.err.bad_slot")
	ErrSamePlayer   = game.NewError("werewolf.err.same_player")
	ErrNoPotion     = game.NewError("werewolf.err.no_potion")
	ErrNoVictim     = game.NewError("werewolf.err.no_victim")
	ErrNotEligible  = game.NewError("werewolf.err.not_eligible")
	ErrLocked       = game.NewError("werewolf.err.locked")
	ErrChatClosed   = game.NewError("werewolf.err.chat_closed")
	ErrEmptyChat    = game.NewError("werewolf.err.empty_chat")
	ErrBadOptions   = game.NewError("werewolf.err.bad_options")
)

// nobody is a seat field that holds no one: no victim tonight, no
// sheriff yet, no wolf selection, no thief at the table. It is
// game.NoSeat as this package's int-typed seats spell it.
const nobody = int(game.NoSeat)
