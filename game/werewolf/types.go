package werewolf

import (
	"errors"
	"fmt"

	"bivouac/game"
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

// String is the card's English name ("Little Girl"); "?" for a hidden card.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", r)
}

var roleHelp = [...]string{
	"A card you cannot see.",
	"Each night the werewolves agree on a villager to devour. By day, blend in.",
	"No power: reason, talk and vote.",
	"Each night, see one player's card.",
	"One healing potion and one death potion, each usable once.",
	"When you die, shoot a player with your last breath.",
	"On the first night, make two players fall in love; then a simple villager.",
	"While the werewolves are awake, you may peek at them — at your own risk.",
	"On the first night, you may swap your card for one of the two middle cards.",
}

// Help is a one-line description of the card for screens.
func (r Role) Help() string {
	if int(r) < len(roleHelp) {
		return roleHelp[r]
	}
	return ""
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

var causeNames = [...]string{"", "devoured", "poisoned", "heartbreak", "shot", "lynched", "found dead"}

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

var phaseInfo = [...]struct{ id, title, narration string }{
	{"NightFall", "Nightfall", "Night falls. The village sleeps."},
	{"Thief", "The thief", "The thief wakes up…"},
	{"Cupid", "Cupid", "Cupid wakes up…"},
	{"Lovers", "The lovers", "The lovers wake up and look into each other's eyes…"},
	{"Seer", "The seer", "The seer wakes up…"},
	{"Wolves", "The werewolves", "The werewolves wake up and choose a victim…"},
	{"Witch", "The witch", "The witch wakes up…"},
	{"Dawn", "Dawn", "The sun rises and the village wakes up."},
	{"HunterShot", "The hunter's last shot", "The hunter takes aim with his last breath…"},
	{"SheriffSuccession", "Sheriff succession", "The dying sheriff names a successor…"},
	{"SheriffCampaign", "Sheriff campaign", "Who will stand for sheriff?"},
	{"SheriffVote", "Sheriff election", "Elect the sheriff (sealed ballots)."},
	{"SheriffRunoff", "Sheriff runoff", "Runoff between the tied candidates (sealed ballots)."},
	{"Discussion", "Discussion", "The villagers debate: who is a werewolf?"},
	{"Vote", "The vote", "Vote: whom does the village lynch? (sealed ballots)"},
	{"SheriffTiebreak", "Sheriff's tie-break", "The vote is tied: the sheriff decides."},
	{"Verdict", "Verdict", "The village has spoken."},
	{"GameOver", "Game over", "The game is over."},
}

// String is the phase's stable identifier ("SheriffVote").
func (p Phase) String() string {
	if int(p) < len(phaseInfo) {
		return phaseInfo[p].id
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// Title is the phase's name for a screen header ("Sheriff election").
func (p Phase) Title() string {
	if int(p) < len(phaseInfo) {
		return phaseInfo[p].title
	}
	return p.String()
}

// Narration is the public line said when the phase begins. It is the same
// for everyone whatever roles are alive (spec §11.2).
func (p Phase) Narration() string {
	if int(p) < len(phaseInfo) {
		return phaseInfo[p].narration
	}
	return ""
}

// Night reports whether the phase belongs to the night (public chat closed).
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
	ErrNotAllowed   = errors.New("you can't do that now")
	ErrNoSuchPlayer = errors.New("there is no such player")
	ErrTargetDead   = errors.New("that player is dead")
	ErrSelf         = errors.New("you can't choose yourself")
	ErrTargetWolf   = errors.New("werewolves can't devour a werewolf")
	ErrMustSwap     = errors.New("both middle cards are werewolves: you must take one")
	ErrBadSlot      = errors.New("there are only two middle cards (0 and 1)")
	ErrSamePlayer   = errors.New("choose two different players")
	ErrNoPotion     = errors.New("you have no such potion left")
	ErrNoVictim     = errors.New("there is no victim to heal tonight")
	ErrNotEligible  = errors.New("that player can't receive this vote")
	ErrLocked       = errors.New("the werewolves' choice is locked tonight")
	ErrChatClosed   = errors.New("the village sleeps: you can't speak now")
	ErrEmptyChat    = errors.New("say something")
	ErrBadOptions   = errors.New("invalid table options")
)

// nobody is a seat field that holds no one: no victim tonight, no
// sheriff yet, no wolf selection, no thief at the table. It is
// game.NoSeat as this package's int-typed seats spell it.
const nobody = int(game.NoSeat)
