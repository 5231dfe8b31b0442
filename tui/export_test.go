package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/table"

	tea "github.com/charmbracelet/bubbletea"
)

// What the all-pages test (allpages_test.go, package tui_test, which may
// import the registry) needs of the package's insides.

// LongNames are the names the walked pages show: 20 letters, most of them
// Cyrillic, as long as a name may be.
var LongNames = []string{"Александра Валерьевн", "Преображенская Алёна", "Константин Великий12", "Małgorzata Żółkiewsk",
	"Jörg-Hans Müllerssoh", "Екатерина Петровская", "Przemysław Wąsowiczz", "Ольга Константиновна"}

// WalkedCodes are the table, game and campaign codes the walked pages
// show, the server's name in the command friends type, and the host of a
// webhook.
var WalkedCodes = []string{"K7QX", "P2MD", "W0LF", "B3ZT", "7KQ2XM", "Q3ZZ9AB", "camp.example", "ntfy.example.org"}

// HostedCodes are the codes of the tables the walker hosts, one of each
// game: the host's waiting room says more (who begins, the bots, start).
var HostedCodes = []string{"H0ST", "H1ST", "H2ST", "H3ST"}

// WalkPages opens every page a player reaches, in language l at 80×24,
// with every registered game of cat: the lobby with a waiting table of
// each game, its help, the new-table form of each game with each of its
// fields changed, each waiting room (a guest's, and the host's with
// every page of the game's rules reference), the campaigns page and a campaign's
// page, the profile with games of each kind finished, its review list
// and lists of people, the friends page, the replay of a finished game of
// each kind (its first steps and its end) and a review under way. look
// gets each page as drawn, with where it is.
func WalkPages(t *testing.T, cat Catalog, l i18n.Lang, look func(where, view string)) {
	a := testApp(t)
	a.Games = cat
	rec := &walkRecords{cat: cat}
	a.Records = rec
	rel := &memRelations{lists: map[string]*PlayerLists{"fp-me": {
		Ignored: []Person{{ID: "fp-1", Name: LongNames[1]}}, Blocked: []Person{{ID: "fp-2", Name: LongNames[2]}}}}}
	a.Relations, a.Reports = rel, &memReports{}
	a.Friends = walkFriends{}
	a.Reviews = walkReviews{}
	a.Notifications = walkNotifications{}
	for i, m := range cat {
		spec, err := m.BuildTable(m.FormDefaults())
		if err != nil {
			t.Fatal(err)
		}
		cfg := a.Room
		cfg.Code, cfg.Game, cfg.Bots, cfg.Title, cfg.GameOptions, cfg.Seats = WalkedCodes[i%4], m.Game, m.Bots, spec.Title, spec.GameOptions, spec.Seats
		cfg.Options, cfg.Host = spec.Options, fmt.Sprintf("fp-h%d", i)
		if _, err := a.Hub.Create(cfg); err != nil {
			t.Fatalf("%s: %v", m.Game.ID(), err)
		}
		cfg.Code, cfg.Host = HostedCodes[i%len(HostedCodes)], "fp-me" // the walker's own table
		if _, err := a.Hub.Create(cfg); err != nil {
			t.Fatalf("%s: %v", m.Game.ID(), err)
		}
	}
	s := newSessionIn(t, a, "fp-me", LongNames[0], l)
	s.send(lobbyChangedMsg{})
	see := func(where string) { look(where, s.m.View()) }
	see("lobby")
	s.keys("?")
	see("lobby help")
	s.keys("x")
	for i, m := range cat {
		openForm(s.m)
		f := s.m.page.(*formPage)
		f.setGame(a, i)
		see(m.Game.ID() + " form")
		for range f.fields {
			s.keys("down")
			for v := range 6 {
				s.keys("right")
				see(fmt.Sprintf("%s form, field %d, value %d", m.Game.ID(), f.field, v))
			}
		}
		s.keys("esc")
	}
	for i, m := range cat {
		s.joinNow(WalkedCodes[i%4])
		s.pump(`● `)
		see(m.Game.ID() + " waiting room")
		s.keys("?")
		see(m.Game.ID() + " waiting room help")
		s.keys("x")
		s.keys("L")
		s.m.show(s.m.lobby)
	}
	for i, m := range cat {
		s.joinNow(HostedCodes[i%len(HostedCodes)])
		s.pump(`● `)
		see(m.Game.ID() + " waiting room, the host's")
		s.keys("R")
		if s.m.rules != nil {
			for p := range s.m.rules.pages {
				see(fmt.Sprintf("%s rules, page %d", m.Game.ID(), p+1))
				s.keys("down")
			}
			s.keys("esc")
		}
		s.keys("L")
		s.m.show(s.m.lobby)
	}
	see("lobby after the tables")
	if _, ok := cat.Campaigns(); ok {
		openCampaigns(s.m)
		see("campaigns")
		openCampaign(s.m, rec.campaign())
		see("campaign")
		cs, _ := rec.Campaigns("")
		openCampaign(s.m, cs[1])
		see("campaign won at 30")
	}
	openProfile(s.m)
	see("profile")
	for range rec.finished() {
		s.keys("down")
		see("profile, a game picked")
	}
	openNotify(s.m, s.m.page)
	see("notifications")
	openLists(s.m, s.m.lobby)
	see("people")
	openFriends(s.m, s.m.lobby)
	see("friends")
	for _, g := range rec.finished() {
		openReplay(s.m, g.Code, s.m.lobby)
		for step := range 4 {
			see(fmt.Sprintf("%s replay, step %d", g.Game, step))
			s.send(tea.KeyMsg{Type: tea.KeyRight})
		}
		s.keys("G")
		see(g.Game + " replay, the end")
		openReview(s.m, g.Code, s.m.lobby)
		see(g.Game + " review under way")
	}
}

// joinNow joins the table code and waits for the answer however long a
// loaded machine makes it (run drops a command slower than 20 ms).
func (s *session) joinNow(code string) {
	s.t.Helper()
	_, cmd := s.m.Update(joinMsg{code: code})
	batch, _ := cmd().(tea.BatchMsg)
	got := make(chan tea.Msg, len(batch))
	for _, c := range batch {
		if c != nil {
			go func() { got <- c() }()
		}
	}
	deadline := time.After(20 * time.Second)
	for {
		select {
		case msg := <-got:
			if j, ok := msg.(joinedMsg); ok {
				s.send(j)
				return
			}
		case <-deadline:
			s.t.Fatalf("table %s never answered the join", code)
		}
	}
}

// walkRecords is a player's record with a game of each registered kind
// finished, and a campaign half climbed.
type walkRecords struct {
	Records
	cat Catalog
}

func (r *walkRecords) Profile(id string) (Profile, error) {
	p := Profile{Name: LongNames[0], ID: id, Veteran: true, VeteranSince: time.Date(2026, 11, 2, 20, 0, 0, 0, time.UTC),
		FirstSeen: time.Date(2026, 10, 1, 18, 0, 0, 0, time.UTC), LastSeen: time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC)}
	for _, m := range r.cat {
		p.Stats = append(p.Stats, StatLine{Game: m.Game.ID(), Players: m.Players.Default, Played: 12, Won: 7})
	}
	return p, nil
}

func (r *walkRecords) Campaigns(string) ([]Campaign, error) {
	won := r.campaign()
	won.Code, won.Name, won.Trials, won.Veteran, won.Wins = WalkedCodes[5], LongNames[7], 30, true, 5
	return []Campaign{r.campaign(), won}, nil
}

func (r *walkRecords) Campaign(string) (Campaign, error) { return r.campaign(), nil }

// campaign is a campaign with a long name and long members, with games
// won and lost.
func (r *walkRecords) campaign() Campaign {
	c := Campaign{Code: WalkedCodes[4], Name: LongNames[1], Players: 4, Trials: 24, Target: 30, Wins: 2, Losses: 1,
		Members: LongNames[:4], MemberIDs: []string{"fp-me", "fp-1", "fp-2", "fp-3"}, BotLevels: []string{"easy", "normal", "strong"},
		Options: CampaignOptions{BotLevel: "strong", Hints: true}}
	for i := range 3 {
		c.History = append(c.History, CampaignMission{When: time.Date(2026, 11, 20+i, 21, 5, 0, 0, time.UTC),
			Players: LongNames[:4], Won: i != 1, Trials: 20 + 2*i, Room: WalkedCodes[i]})
	}
	return c
}

func (r *walkRecords) Finished(string, int) ([]GameRecord, error) { return r.finished(), nil }

// finished is a game of each kind, won and lost in turn.
func (r *walkRecords) finished() []GameRecord {
	var out []GameRecord
	for i, m := range r.cat {
		spec, _ := m.BuildTable(m.FormDefaults())
		out = append(out, GameRecord{Code: WalkedCodes[i%4], Game: m.Game.ID(), Title: spec.Title,
			When: time.Date(2026, 11, 28, 21, 30+i, 0, 0, time.UTC), Outcome: "over", Players: LongNames[:min(spec.Seats, len(LongNames))], Won: i%2 == 0})
	}
	return out
}

// Replay is the game with that code, played to its end with the first
// legal move at every step.
func (r *walkRecords) Replay(code string) (Replay, error) {
	for i, m := range r.cat {
		if WalkedCodes[i%4] != code {
			continue
		}
		spec, _ := m.BuildTable(m.FormDefaults())
		g := m.Game
		names := LongNames[:min(spec.Seats, len(LongNames))]
		for len(names) < spec.Seats {
			names = append(names, fmt.Sprintf("Гость номер %d", len(names)))
		}
		st, evs, err := g.New(game.Setup{Game: g.ID(), Names: names, Options: spec.GameOptions}, 7)
		if err != nil {
			return Replay{}, err
		}
		rp := Replay{Code: code, Title: spec.Title, Game: g.ID(), Seat: game.Spectator}
		for i, n := range names {
			rp.Seats = append(rp.Seats, table.SeatInfo{Seat: game.Seat(i), ID: fmt.Sprintf("fp-%d", i), Name: n})
		}
		rp.Steps = append(rp.Steps, table.Step{View: g.View(st, game.Spectator), Events: evs})
		for range 2000 {
			if res, over := g.Result(st); over {
				rp.End = &res
				break
			}
			seat, a, ok := firstMove(g, st)
			if !ok {
				break
			}
			if st, evs, err = g.Apply(st, seat, a); err != nil {
				return Replay{}, err
			}
			rp.Steps = append(rp.Steps, table.Step{View: g.View(st, game.Spectator), Events: evs})
		}
		return rp, nil
	}
	return Replay{}, ErrNoSuchGame
}

func (r *walkRecords) ReplayAs(code string, _ table.Player) (Replay, error) { return r.Replay(code) }

// firstMove is a move the game waits for: a waiting seat's first legal
// action, else its timer's.
func firstMove(g game.Game, st game.State) (game.Seat, game.Action, bool) {
	for _, seat := range g.Waiting(st) {
		if legal := g.Legal(st, seat); len(legal) > 0 {
			return seat, legal[len(legal)-1], true
		}
	}
	if tm, ok := g.Timer(st); ok {
		return game.System, tm.Action, true
	}
	return 0, nil, false
}

// walkFriends are friends, requests both ways and players met, all with
// long names.
type walkFriends struct{ Friends }

func (walkFriends) Lists(table.Player) (FriendLists, error) {
	p := func(i int) Person { return Person{ID: fmt.Sprintf("fp-%d", i), Name: LongNames[i]} }
	return FriendLists{Friends: []Person{p(1), p(2)}, Asked: []Person{p(3)}, Askers: []Person{p(4)}, Met: []Person{p(5), p(6), p(7)},
		Seen: map[string]time.Time{"fp-2": time.Date(2026, 11, 20, 21, 0, 0, 0, time.UTC)}}, nil
}

func (walkFriends) Circle(string) (presence.Circle, func()) { return presence.Circle{}, nil }

// walkNotifications are every setting on, with a long webhook.
type walkNotifications struct{ Notifications }

func (walkNotifications) Settings(string) ([]game.Msg, error) {
	return []game.Msg{game.M("notify.cmd.server_off"),
		game.M("notify.cmd.url", game.Text("URL", "https://ntfy.example.org/…"), game.Text("Format", "ntfy")),
		game.M("notify.cmd.quiet", game.Text("Hours", "22:00-07:30"), game.Text("Zone", "America/Argentina/Buenos_Aires")),
		game.M("notify.cmd.desktop_on", game.Text("Seq", "OSC 777"))}, nil
}

// walkReviews is a coach still at work on every game.
type walkReviews struct{}

func (walkReviews) Review(string, table.Player) (ReviewJob, error) { return walkJob{}, nil }

type walkJob struct{}

func (walkJob) Progress() (int, int)    { return 7, 31 }
func (walkJob) Done() <-chan struct{}   { return nil }
func (walkJob) Result() (Review, error) { return Review{}, nil }
