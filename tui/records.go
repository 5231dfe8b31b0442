package tui

import (
	"errors"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// ErrNoSuchCampaign is JoinCampaign's answer to a code that names no campaign.
var ErrNoSuchCampaign = errors.New("no campaign with code")

// Records is what the session shows of stored history: profiles, campaigns
// and finished games. Guests have none of these. The server implements it
// over its store; nil means a server that keeps nothing.
type Records interface {
	Profile(id string) (Profile, error)
	Campaigns(id string) ([]Campaign, error)
	Campaign(code string) (Campaign, error)
	CreateCampaign(owner table.Player, name string, players int) (Campaign, error)
	// JoinCampaign adds p to the campaign with that code; an unknown code is
	// ErrNoSuchCampaign (a wrong guess).
	JoinCampaign(p table.Player, code string) (Campaign, error)
	// CampaignTable is the table spec for the campaign's next mission,
	// played with its options (Campaign.Options).
	CampaignTable(c Campaign) (uikit.Module, uikit.TableSpec, error)
	// SetCampaignOptions keeps how the campaign code's next missions are
	// played, chosen by its member p; values it does not offer are refused.
	SetCampaignOptions(p table.Player, code string, o CampaignOptions) (Campaign, error)
	Finished(id string, limit int) ([]GameRecord, error)
	// SetLang remembers the language a keyed player chose in the lobby
	// (a setting worth keeping: a player with no profile gets one, under
	// p's name).
	SetLang(p table.Player, l i18n.Lang) error
	Replay(code string) (Replay, error)
	// ReplayAs is Replay from the seat p sat in: their own hand as it was
	// at every step, and never another player's hidden one (a seat's
	// view shows what that seat saw, no more). Someone who did not sit in
	// the game gets the spectator's replay.
	ReplayAs(code string, p table.Player) (Replay, error)
}

// Profile is a keyed player's record.
type Profile struct {
	Name                string
	ID                  string
	Veteran             bool
	VeteranSince        time.Time
	FirstSeen, LastSeen time.Time
	Stats               []StatLine
	Gender              game.Gender // how the player asked to be addressed (GenderKeeper)
}

// StatLine counts games of one kind.
type StatLine struct {
	Game, Variant        string
	Players, Played, Won int
}

// Campaign is a squad playing The Grizzled's "+2 cards per win" challenge.
type Campaign struct {
	Code      string
	Name      string
	Players   int      // seats at its tables
	Members   []string // display names
	MemberIDs []string
	Trials    int // trials pile of the next mission
	Target    int // trials count whose win earns veteran status (30)
	Wins      int
	Losses    int
	Veteran   bool
	History   []CampaignMission
	Options   CampaignOptions // how its next missions are played
	BotLevels []string        // the bot levels Options may name
}

// CampaignMission is one game of a campaign.
type CampaignMission struct {
	When    time.Time
	Players []string
	Won     bool
	Trials  int // the campaign's trials after this mission
	Room    string
}

// GameRecord is a finished game in a player's history.
type GameRecord struct {
	Code    string
	Game    string // Game.ID()
	Title   game.Msg
	When    time.Time
	Outcome string
	Summary game.Msg
	Players []string
	Won     bool
}

// Replay is a finished game step by step, as a spectator saw it, or as
// the player in Seat did (ReplayAs).
type Replay struct {
	Code  string
	Title game.Msg
	Game  string
	Seat  game.Seat // whose views the steps are: Spectator, or a player's own
	Seats []table.SeatInfo
	Steps []table.Step
	End   *game.Result
}

// StepAfter is the index of the first step with at least actions actions
// applied (a decision a review names, as it was), or the last step.
func (r Replay) StepAfter(actions int) int {
	for i, s := range r.Steps {
		if s.Index >= actions {
			return i
		}
	}
	return len(r.Steps) - 1
}

// UpdateAt is step's table update, as a screen draws it: that step's
// view, the last 40 events up to it, and the result at the last step.
func (r Replay) UpdateAt(step int) table.Update {
	var log []game.Event
	for _, s := range r.Steps[:step+1] {
		log = append(log, s.Events...)
	}
	if len(log) > 40 {
		log = log[len(log)-40:]
	}
	last := step == len(r.Steps)-1
	u := table.Update{Room: r.Code, Title: r.Title, Game: r.Game, Seat: r.Seat, Seq: step,
		View: r.Steps[step].View, Log: game.Refs(log), Seats: r.Seats, Started: true, Over: last && r.End != nil}
	if u.Over {
		u.Result = r.End
	}
	return u
}

// Reviews is the coach: post-game reviews of games whose registry entry
// brings a reviewer. Unlike Records it serves guests too (their own games,
// while they are here).
type Reviews interface {
	// Review starts, or finds under way or done, the review of the
	// finished game with that code, for a player who sat in it.
	Review(code string, p table.Player) (ReviewJob, error)
}

// ReviewJob is a review being computed, or done.
type ReviewJob interface {
	// Progress is how many of the game's decisions are rated so far.
	Progress() (done, total int)
	// Done is closed once Result is ready.
	Done() <-chan struct{}
	Result() (Review, error)
}

// Review is the coach's reading of a finished game, with what it takes to
// show it.
type Review struct {
	Code  string
	Title game.Msg
	Seats []table.SeatInfo
	Coach uikit.Review // once done
}

// BadgeVeteran marks a player who finished a campaign of The Grizzled
// (rules §6.5): the server gives it, tables carry it, screens draw a star.
const BadgeVeteran table.Badge = "veteran"

// TakeBadge makes a badge the player's seat now carries (the veteran title
// their campaign's win at 30 gave, table.Over) p's at once: the lobby's
// title shows it, and the tables p sits at next carry it, with no new
// login (issue 42). Full screen and plain mode take it from every update.
func TakeBadge(p *table.Player, u table.Update) {
	for _, s := range u.Seats {
		if s.Seat == u.Seat && s.ID == p.ID && s.Badge != "" {
			p.Badge = s.Badge
		}
	}
}

// badgeMark is how a badge shows after a name ("" for none).
func badgeMark(b table.Badge) string {
	switch b {
	case "":
		return ""
	case BadgeVeteran:
		return "★"
	}
	return "•"
}
