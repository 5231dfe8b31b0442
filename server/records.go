package server

import (
	"errors"
	"slices"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// records serves the TUI's history pages (profiles, campaigns, replays)
// from the store, and records campaign results when games end.
type records struct{ s *Server }

var _ tui.Records = records{}

func (r records) Profile(id string) (tui.Profile, error) {
	p, err := r.s.store.Player(id)
	if err != nil {
		return tui.Profile{}, r.s.degraded(err)
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
func (r records) name(fp string) string {
	if p, err := r.s.store.Player(fp); err == nil && p.Name != "" {
		return p.Name
	}
	if len(fp) > 14 {
		return fp[:14]
	}
	return fp
}

// campaignTarget is the trials at which a campaign is won (0: the server
// offers no campaigns).
func (r records) campaignTarget() int {
	if g, ok := r.s.app.Games.Campaigns(); ok {
		return g.Campaign.Max()
	}
	return 0
}

func (r records) campaign(c persistence.Campaign) tui.Campaign {
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
func (r records) SetLang(pl table.Player, l i18n.Lang) error {
	_, err := r.s.store.UpdatePlayer(pl.ID, func(p *persistence.Profile) error {
		p.Lang = string(l)
		if p.Name == "" {
			p.Name = pl.Name
		}
		stampNew(p)
		return nil
	})
	return err
}

func (r records) Campaigns(id string) ([]tui.Campaign, error) {
	cs, err := r.s.store.Campaigns(id)
	if err != nil {
		return nil, err
	}
	var out []tui.Campaign
	for _, c := range cs {
		out = append(out, r.campaign(c))
	}
	return out, nil
}

func (r records) Campaign(code string) (tui.Campaign, error) {
	c, err := r.s.store.Campaign(table.NormalizeCode(code))
	if err != nil {
		return tui.Campaign{}, err
	}
	return r.campaign(c), nil
}

func (r records) CreateCampaign(owner table.Player, name string, players int) (tui.Campaign, error) {
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
	g, ok := r.s.app.Games.Campaigns()
	if !ok {
		return tui.Campaign{}, errNoCampaignGame
	}
	if err := r.s.campaignStarts.take(owner.ID, owner.Addr); err != nil {
		r.s.log.Info("campaign refused: too many started lately", "err", err)
		return tui.Campaign{}, err
	}
	for {
		c, err := r.s.store.CreateCampaign(persistence.Campaign{ID: codes.New(8), Name: name, Players: players,
			Members: []string{owner.ID}, Trials: g.Campaign.Start(players)})
		if errors.Is(err, persistence.ErrExists) {
			continue // a code collision: draw another
		}
		if err != nil {
			return tui.Campaign{}, err
		}
		_ = keepProfile(r.s.store, owner)
		return r.campaign(c), nil
	}
}

func (r records) JoinCampaign(p table.Player, code string) (tui.Campaign, error) {
	if p.Guest {
		return tui.Campaign{}, errGuestJoin
	}
	code = table.NormalizeCode(code)
	if err := r.keptApart(p, code); err != nil {
		return tui.Campaign{}, err
	}
	c, err := r.s.store.UpdateCampaign(code, func(c *persistence.Campaign) error {
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
	_ = keepProfile(r.s.store, p)
	return r.campaign(c), nil
}

// CampaignTable is a private table for the campaign's next mission: its
// members sit, bots (marked as such) fill the seats no member takes, and
// the options its members chose (campaign_options.go) apply.
func (r records) CampaignTable(c tui.Campaign) (tui.GameEntry, tui.TableSpec, error) {
	g, ok := r.s.app.Games.Campaigns()
	if !ok {
		return g, tui.TableSpec{}, errNoCampaignGame
	}
	if c.Veteran {
		return g, tui.TableSpec{}, errCampaignWon
	}
	opts, err := g.Campaign.Options(c.Trials)
	if err != nil {
		return g, tui.TableSpec{}, err
	}
	o := c.Options
	title := "campaign.table_title"
	if o.Hints {
		title = "campaign.mission.title_hints" // everyone reads that h gives hints
	}
	spec := tui.TableSpec{Seats: c.Players, Options: opts, Private: true, Campaign: c.Code, Allowed: c.MemberIDs, TurnClock: o.TurnClock, Hints: o.Hints,
		Title: game.M(title, game.Text("Name", c.Name), game.Num("Trials", c.Trials))}
	if g.Bots != nil {
		spec.BotLevel = o.BotLevel
	}
	return g, spec, nil
}

func (r records) Finished(id string, limit int) ([]tui.GameRecord, error) {
	rooms, err := r.s.store.FinishedGames(id, limit)
	if err != nil {
		return nil, r.s.degraded(err)
	}
	var out []tui.GameRecord
	for _, rm := range rooms {
		// Its ID: the code, or, once the code names a new table, the ID
		// its record moved to (retiredID): what `replay` finds it by.
		g := tui.GameRecord{Code: rm.ID, Game: rm.Setup.Game, Title: rm.Title, When: rm.Updated}
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

// finishedGame reads the finished game code names, or tui.ErrNoSuchGame
// in words under key (replay.err.no_game, review.err.no_game): one answer
// whether the code names nothing or a table still open (a private one
// among them), so that a replay or a review never confirms a private
// table's code. The caller counts it as a wrong guess (sshserver.Guesses).
func (r records) finishedGame(code, key string) (persistence.RoomRecord, error) {
	rm, err := r.s.store.Room(table.NormalizeCode(code))
	switch {
	case err == nil && rm.Status == persistence.StatusFinished:
		return rm, nil
	case err == nil, errors.Is(err, persistence.ErrNotFound), errors.Is(err, persistence.ErrInvalid): // garbled: no such game either
		return rm, game.Refuse(tui.ErrNoSuchGame, game.M(key, game.Text("Code", sanitize.Line(code, 20))))
	}
	return rm, r.s.degraded(err)
}

func (r records) Replay(code string) (tui.Replay, error) {
	rm, err := r.finishedGame(code, "replay.err.no_game")
	if err != nil {
		return tui.Replay{}, err
	}
	g, ok := r.s.games.Lookup(rm.Setup.Game)
	if !ok {
		return tui.Replay{}, game.Refuse(nil, game.M("replay.err.unknown_game", game.Text("Game", rm.Setup.Game)))
	}
	entries, err := r.s.store.Log(rm.ID)
	if err != nil {
		return tui.Replay{}, r.s.degraded(err)
	}
	steps, err := table.Replay(g.Game, rm.Setup, rm.Seed, entries, game.Spectator)
	if err != nil {
		return tui.Replay{}, err
	}
	table.AddressSteps(steps, rm.Engine().Seats)
	out := tui.Replay{Code: rm.ID, Title: rm.Title, Game: rm.Setup.Game, Steps: steps, End: rm.Result}
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

// isMember reads a campaign's members afresh: someone who joined the
// campaign after its table opened may sit at it.
func (r records) isMember(campaign, id string) bool {
	c, err := r.s.store.Campaign(campaign)
	return err == nil && slices.Contains(c.Members, id)
}

// onOver runs on a room's actor when its game has ended and been saved: a
// campaign mission moves the campaign on (rules §6.5).
func (r records) onOver(rec table.RoomRecord) {
	if rec.Campaign == "" || rec.Result == nil {
		return
	}
	g, ok := r.s.app.Games.Lookup(rec.Game)
	if !ok || g.Campaign == nil {
		r.s.log.Error("campaign result: the game has no campaigns", "room", rec.Code, "game", rec.Game)
		return
	}
	trials, err := g.Campaign.Trials(rec.Options)
	if err != nil {
		r.s.log.Error("campaign result: options", "room", rec.Code, "err", err)
		return
	}
	next, won, veteran := g.Campaign.Next(trials, *rec.Result)
	var players []string
	for _, s := range rec.Seats {
		if s.Identity != "" && !s.Guest {
			players = append(players, s.Identity)
		}
	}
	_, err = r.s.store.RecordCampaignResult(rec.Campaign, rec.Code, trials, players, won, next, veteran)
	switch {
	case errors.Is(err, persistence.ErrStale):
		r.s.log.Info("campaign result not counted: the campaign moved on", "room", rec.Code, "campaign", rec.Campaign)
	case err != nil && !errors.Is(err, persistence.ErrExists):
		r.s.log.Error("campaign result", "room", rec.Code, "campaign", rec.Campaign, "err", err)
	}
}
