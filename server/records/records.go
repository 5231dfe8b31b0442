// Package records serves what the store keeps of players as the screens
// need it (tui.Records, tui.Profiles): profiles and their settings,
// campaigns and the options of their missions, finished games and their
// replays. It also moves a campaign on when one of its missions ends
// (Records.OnOver, run on the room's actor).
package records

import (
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Options are what Records is built on.
type Options struct {
	Store persistence.Store
	Games tui.Catalog
	Log   *slog.Logger
	// Degraded turns a failed read into the words a player reads when the
	// store could not answer (a cluster without its majority); nil: errors
	// as they come.
	Degraded func(error) error
	// Blocked keeps apart players who blocked one another: none joins a
	// campaign of the other's (nil: nobody is kept apart).
	Blocked table.Blocks
	// Now times the campaign start limit (nil: the system's clock).
	Now func() time.Time
}

// Records serves the players' records from the store.
type Records struct {
	store    persistence.Store
	games    tui.Catalog
	log      *slog.Logger
	degraded func(error) error
	blocked  table.Blocks
	// starts bounds the campaigns a player or an address starts.
	starts *startLimit
}

var (
	_ tui.Records      = (*Records)(nil)
	_ tui.Profiles     = (*Records)(nil)
	_ tui.GenderKeeper = (*Records)(nil)
)

// New serves o.Store's records.
func New(o Options) *Records {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Degraded == nil {
		o.Degraded = func(err error) error { return err }
	}
	return &Records{store: o.Store, games: o.Games, log: o.Log, degraded: o.Degraded, blocked: o.Blocked,
		starts: newStartLimit(o.Now, campaignWindow, campaignsPerPlayer, campaignsPerAddr)}
}

func (r *Records) Profile(id string) (tui.Profile, error) {
	p, err := r.store.Player(id)
	if err != nil {
		return tui.Profile{}, r.degraded(err)
	}
	out := tui.Profile{Name: p.Name, ID: p.Fingerprint, Veteran: p.Veteran, VeteranSince: p.VeteranSince,
		FirstSeen: p.FirstSeen, LastSeen: p.LastSeen}
	out.Gender, _ = game.ParseGender(p.Gender)
	for _, st := range p.Stats {
		out.Stats = append(out.Stats, tui.StatLine{Game: st.Game, Variant: st.Variant, Players: st.Players, Played: st.Played, Won: st.Won})
	}
	return out, nil
}

// name is a player's display name, or a short form of the fingerprint.
func (r *Records) name(fp string) string {
	if p, err := r.store.Player(fp); err == nil && p.Name != "" {
		return p.Name
	}
	if len(fp) > 14 {
		return fp[:14]
	}
	return fp
}

// campaignTarget is the trials at which a campaign is won (0: the server
// offers no campaigns).
func (r *Records) campaignTarget() int {
	if g, ok := r.games.Campaigns(); ok {
		return g.Campaign.Max()
	}
	return 0
}

func (r *Records) campaign(c persistence.Campaign) tui.Campaign {
	out := tui.Campaign{Code: c.ID, Name: c.Name, Players: c.Players, MemberIDs: c.Members, Trials: c.Trials,
		Target: r.campaignTarget(), Wins: c.Wins, Losses: c.Losses, Veteran: c.Veteran}
	for _, m := range c.Members {
		out.Members = append(out.Members, r.name(m))
	}
	for _, h := range c.History {
		mh := tui.CampaignMission{When: h.When, Won: h.Won, Trials: h.Trials, Room: h.RoomID}
		for _, p := range h.Players {
			mh.Players = append(mh.Players, r.name(p))
		}
		out.History = append(out.History, mh)
	}
	out.Options, out.BotLevels = r.campaignOptions(c)
	return out
}

// Errors a player reads about campaigns.
var (
	errGuestCampaign  = game.NewError("campaign.err.guest")
	errGuestJoin      = game.NewError("campaign.err.guest_join")
	errCampaignSize   = game.NewError("campaign.err.size")
	errNoCampaignGame = game.NewError("campaign.err.no_campaign_game")
	errCampaignWon    = game.NewError("campaign.err.won")
)

// SetLang remembers a keyed player's language: a setting, worth a
// profile if the player has none yet (named as they play).
func (r *Records) SetLang(pl table.Player, l i18n.Lang) error {
	_, err := r.store.UpdatePlayer(pl.ID, func(p *persistence.Profile) error {
		p.Lang = string(l)
		if p.Name == "" {
			p.Name = pl.Name
		}
		stampNew(p)
		return nil
	})
	return err
}

func (r *Records) Campaigns(id string) ([]tui.Campaign, error) {
	cs, err := r.store.Campaigns(id)
	if err != nil {
		return nil, err
	}
	var out []tui.Campaign
	for _, c := range cs {
		out = append(out, r.campaign(c))
	}
	return out, nil
}

func (r *Records) Campaign(code string) (tui.Campaign, error) {
	c, err := r.store.Campaign(table.NormalizeCode(code))
	if err != nil {
		return tui.Campaign{}, err
	}
	return r.campaign(c), nil
}

func (r *Records) CreateCampaign(owner table.Player, name string, players int) (tui.Campaign, error) {
	if owner.Guest {
		return tui.Campaign{}, errGuestCampaign
	}
	name, err := sanitize.CampaignName(name)
	if err != nil {
		return tui.Campaign{}, err
	}
	if players < 2 || players > 5 {
		return tui.Campaign{}, errCampaignSize
	}
	g, ok := r.games.Campaigns()
	if !ok {
		return tui.Campaign{}, errNoCampaignGame
	}
	if err := r.starts.take(owner.ID, owner.Addr); err != nil {
		r.log.Info("campaign refused: too many started lately", "err", err)
		return tui.Campaign{}, err
	}
	for {
		c, err := r.store.CreateCampaign(persistence.Campaign{ID: codes.New(8), Name: name, Players: players,
			Members: []string{owner.ID}, Trials: g.Campaign.Start(players)})
		if errors.Is(err, persistence.ErrExists) {
			continue // a code collision: draw another
		}
		if err != nil {
			return tui.Campaign{}, err
		}
		_ = r.keep(owner)
		return r.campaign(c), nil
	}
}

func (r *Records) JoinCampaign(p table.Player, code string) (tui.Campaign, error) {
	if p.Guest {
		return tui.Campaign{}, errGuestJoin
	}
	code = table.NormalizeCode(code)
	if err := r.keptApart(p, code); err != nil {
		return tui.Campaign{}, err
	}
	c, err := r.store.UpdateCampaign(code, func(c *persistence.Campaign) error {
		if slices.Contains(c.Members, p.ID) {
			return nil
		}
		if len(c.Members) >= max(c.Players, 2) {
			return game.Refuse(nil, game.M("campaign.err.full", game.Text("Name", c.Name), game.Count(len(c.Members))))
		}
		c.Members = append(c.Members, p.ID)
		return nil
	})
	if errors.Is(err, persistence.ErrNotFound) {
		return tui.Campaign{}, game.Refuse(tui.ErrNoSuchCampaign, game.M("campaign.err.no_such", game.Text("Code", code)))
	}
	if err != nil {
		return tui.Campaign{}, err
	}
	_ = r.keep(p)
	return r.campaign(c), nil
}

// errCampaignApart: a member of the campaign and the player keep apart
// (one blocked the other). Neutral, as a table's refusal is.
var errCampaignApart = game.NewError("table.people.cannot_join_campaign")

// keptApart refuses p a campaign where a member blocked them or they
// blocked a member: campaign matching never seats the two together. (A
// block made after both joined is kept at each mission's table.)
func (r *Records) keptApart(p table.Player, code string) error {
	c, err := r.store.Campaign(code)
	if err != nil || slices.Contains(c.Members, p.ID) {
		return nil // an unknown code is answered by the join itself
	}
	if !r.blocked.Apart(table.Summary{Players: c.Members}, p.ID) {
		return errCampaignApart
	}
	return nil
}

// CampaignTable is a private table for the campaign's next mission: its
// members sit, bots (marked as such) fill the seats no member takes, and
// the options its members chose (campaign_options.go) apply.
func (r *Records) CampaignTable(c tui.Campaign) (uikit.Module, uikit.TableSpec, error) {
	g, ok := r.games.Campaigns()
	if !ok {
		return g, uikit.TableSpec{}, errNoCampaignGame
	}
	if c.Veteran {
		return g, uikit.TableSpec{}, errCampaignWon
	}
	opts, err := g.Campaign.Options(c.Trials)
	if err != nil {
		return g, uikit.TableSpec{}, err
	}
	o := c.Options
	title := "campaign.table_title"
	if o.Hints {
		title = "campaign.mission.title_hints" // everyone reads that h gives hints
	}
	spec := uikit.TableSpec{Seats: c.Players, GameOptions: opts,
		Options: table.Options{Private: true, Campaign: c.Code, Allowed: c.MemberIDs, TurnClock: o.TurnClock, Pace: o.Pace, Hints: o.Hints},
		Title:   game.M(title, game.Text("Name", c.Name), game.Num("Trials", c.Trials))}
	if g.Bots != nil {
		spec.BotLevel = o.BotLevel
	}
	return g, spec, nil
}

func (r *Records) Finished(id string, limit int) ([]tui.GameRecord, error) {
	rooms, err := r.store.FinishedGames(id, limit)
	if err != nil {
		return nil, r.degraded(err)
	}
	var out []tui.GameRecord
	for _, rm := range rooms {
		// Its ID: the code, or, once the code names a new table, the ID
		// its record moved to (retiredID): what `replay` finds it by.
		// When is the moment the game ended (Finished), not the record's
		// last save: a finished room is saved again when it closes, which
		// after a restart came minutes later and out of order.
		when := rm.Finished
		if when.IsZero() {
			when = rm.Updated
		}
		g := tui.GameRecord{Code: rm.ID, Game: rm.Setup.Game, Title: rm.Title, When: when}
		if rm.Result != nil {
			g.Outcome, g.Summary = rm.Result.Outcome, rm.Result.Summary
			for _, w := range rm.Result.Winners {
				if int(w) < len(rm.Seats) && rm.Seats[w].Identity == id {
					g.Won = true
				}
			}
		}
		for _, s := range rm.Seats {
			g.Players = append(g.Players, s.Name)
		}
		out = append(out, g)
	}
	return out, nil
}

// FinishedGame reads the finished game code names, or tui.ErrNoSuchGame
// in words under key (replay.err.no_game, review.err.no_game): one answer
// whether the code names nothing or a table still open (a private one
// among them), so that a replay or a review never confirms a private
// table's code. The caller counts it as a wrong guess (sshserver.Guesses).
func (r *Records) FinishedGame(code, key string) (persistence.RoomRecord, error) {
	rm, err := r.store.Room(table.NormalizeCode(code))
	switch {
	case err == nil && rm.Status == persistence.StatusFinished:
		return rm, nil
	case err == nil, errors.Is(err, persistence.ErrNotFound), errors.Is(err, persistence.ErrInvalid): // garbled: no such game either
		return rm, game.Refuse(tui.ErrNoSuchGame, game.M(key, game.Text("Code", sanitize.Line(code, 20))))
	}
	return rm, r.degraded(err)
}

func (r *Records) Replay(code string) (tui.Replay, error) {
	return r.replay(code, func(persistence.RoomRecord) game.Seat { return game.Spectator })
}

// ReplayAs is the replay from the seat p sat in (tui.Records): only a
// person's own seat, found by identity, never a bot's nor a guess.
func (r *Records) ReplayAs(code string, p table.Player) (tui.Replay, error) {
	return r.replay(code, func(rm persistence.RoomRecord) game.Seat {
		for _, s := range rm.Seats {
			if s.Bot == "" && s.Identity != "" && s.Identity == p.ID {
				return s.Seat
			}
		}
		return game.Spectator
	})
}

// replay is the finished game code names, step by step from the seat
// seatOf picks.
func (r *Records) replay(code string, seatOf func(persistence.RoomRecord) game.Seat) (tui.Replay, error) {
	rm, err := r.FinishedGame(code, "replay.err.no_game")
	if err != nil {
		return tui.Replay{}, err
	}
	seat := seatOf(rm)
	g, ok := r.games.Lookup(rm.Setup.Game)
	if !ok {
		return tui.Replay{}, game.Refuse(nil, game.M("replay.err.unknown_game", game.Text("Game", rm.Setup.Game)))
	}
	entries, err := r.store.Log(rm.ID)
	if err != nil {
		return tui.Replay{}, r.degraded(err)
	}
	steps, err := table.Replay(g.Game, rm.Setup, rm.Seed, entries, seat)
	if err != nil {
		return tui.Replay{}, err
	}
	table.AddressSteps(steps, rm.Engine().Seats)
	out := tui.Replay{Code: rm.ID, Title: rm.Title, Game: rm.Setup.Game, Seat: seat, Steps: steps, End: rm.Result}
	if rm.Result != nil && rm.Result.Summary.Key == game.RawKey {
		// Stored before results had keys: say it again from the game, so
		// that every reader gets it in their own language.
		if final, err := table.ReplayEach(g.Game, rm.Setup, rm.Seed, entries, func(int, game.Seat, game.State, []game.Event) {}); err == nil {
			if res, over := g.Game.Result(final); over {
				out.End = &res
			}
		}
	}
	for _, s := range rm.Seats {
		out.Seats = append(out.Seats, table.SeatInfo{Seat: s.Seat, ID: s.Identity, Name: s.Name, Bot: s.Bot, Badge: table.Badge(s.Badge)})
	}
	return out, nil
}

// IsMember reads a campaign's members afresh: someone who joined the
// campaign after its table opened may sit at it.
func (r *Records) IsMember(campaign, id string) bool {
	c, err := r.store.Campaign(campaign)
	return err == nil && slices.Contains(c.Members, id)
}

// OnOver runs on a room's actor when its game has ended and been saved: a
// campaign mission moves the campaign on (rules §6.5), and the table is
// told what that changed: the next mission's trials pile and the wins so
// far, or, when it made veterans, who they are.
func (r *Records) OnOver(rec table.RoomRecord) table.Over {
	if rec.Campaign == "" || rec.Result == nil {
		return table.Over{}
	}
	g, ok := r.games.Lookup(rec.Game)
	if !ok || g.Campaign == nil {
		r.log.Error("campaign result: the game has no campaigns", "room", rec.Code, "game", rec.Game)
		return table.Over{}
	}
	trials, err := g.Campaign.Trials(rec.GameOptions)
	if err != nil {
		r.log.Error("campaign result: options", "room", rec.Code, "err", err)
		return table.Over{}
	}
	next, won, veteran := g.Campaign.Next(trials, *rec.Result)
	var players []string
	var names []game.Msg
	for _, s := range rec.Seats {
		if s.Identity != "" && !s.Guest {
			players = append(players, s.Identity)
			names = append(names, game.M("list.item", game.Text("Player", s.Name)))
		}
	}
	c, err := r.store.RecordCampaignResult(rec.Campaign, rec.Code, trials, players, won, next, veteran)
	switch {
	case errors.Is(err, persistence.ErrStale):
		r.log.Info("campaign result not counted: the campaign moved on", "room", rec.Code, "campaign", rec.Campaign)
		return table.Over{Said: []game.Msg{game.M("campaign.over.stale")}}
	case err != nil:
		if !errors.Is(err, persistence.ErrExists) {
			r.log.Error("campaign result", "room", rec.Code, "campaign", rec.Campaign, "err", err)
		}
		return table.Over{}
	}
	over := table.Over{Said: campaignNews(c, won, veteran, names)}
	if veteran {
		over.Badges = map[string]table.Badge{}
		for _, id := range players {
			over.Badges[id] = tui.BadgeVeteran
		}
	}
	return over
}

// campaignNews is what a finished mission changed in its campaign, as the
// table is told it.
func campaignNews(c persistence.Campaign, won, veteran bool, names []game.Msg) []game.Msg {
	name := game.Text("Name", c.Name)
	switch {
	case veteran && len(names) > 0:
		return []game.Msg{game.M("campaign.over.veteran", name, game.List("Players", names...))}
	case veteran: // nobody keyed sat: the title goes to no one
		return []game.Msg{game.M("campaign.over.done", name)}
	case won:
		return []game.Msg{game.M("campaign.over.won", name, game.Num("Wins", c.Wins), game.Num("Trials", c.Trials))}
	default:
		return []game.Msg{game.M("campaign.over.lost", name, game.Num("Wins", c.Wins), game.Num("Trials", c.Trials))}
	}
}
