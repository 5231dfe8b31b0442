package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
	"github.com/bivouac-ssh/bivouac/table"
)

// finishMission stands in for a campaign mission's last move: the room
// actor saves the finished room and calls OnOver, exactly as here.
func finishMission(t *testing.T, srv *Server, c string, trials int, won bool, seats []table.SeatRecord) []game.Msg {
	t.Helper()
	opts, _ := json.Marshal(grizzled.Options{Variant: grizzled.Standard, StartingTrials: trials, Leader: game.NoSeat})
	code := codes.New(4)
	outcome := "loss"
	if won {
		outcome = "win"
	}
	rec := table.RoomRecord{Code: code, Game: "grizzled", Title: game.Raw("campaign"), GameOptions: opts, Seats: seats,
		Setup: game.Setup{Game: "grizzled", Options: opts}, Status: table.StatusOver, Options: table.Options{Campaign: c},
		Result: &game.Result{Outcome: outcome, Summary: game.Raw(outcome)}, Created: time.Now(), Updated: time.Now()}
	if err := (persistence.Journal{Store: srv.store}).SaveRoom(rec); err != nil {
		t.Fatal(err)
	}
	return srv.records.OnOver(rec).Said
}

func TestCampaignClimbsToVeteran(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	rec := srv.records
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	bob := table.Player{ID: "SHA256:bob", Name: "bob"}
	cid := table.Player{ID: "SHA256:cid", Name: "cid"}
	for _, p := range []table.Player{ann, bob, cid} {
		srv.store.Seen(p.ID, p.Name)
	}
	if _, err := rec.CreateCampaign(table.Player{ID: "guest:ABCDEF", Guest: true}, "nope", 2); err == nil {
		t.Fatal("a guest created a campaign")
	}
	c, err := rec.CreateCampaign(ann, "Verdun", 2)
	if err != nil {
		t.Fatal(err)
	}
	if c.Trials != 20 {
		t.Fatalf("a 2-player campaign starts at %d, want 20 (rules §6.5)", c.Trials)
	}
	if c, err = rec.JoinCampaign(bob, strings.ToLower(c.Code)); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.JoinCampaign(cid, c.Code); err == nil {
		t.Fatal("a third member joined a 2-player campaign")
	}
	// The next mission's table is seated by the members only.
	_, spec, err := rec.CampaignTable(c)
	if err != nil {
		t.Fatal(err)
	}
	var o grizzled.Options
	json.Unmarshal(spec.GameOptions, &o)
	if o.StartingTrials != 20 || spec.Seats != 2 || len(spec.Allowed) != 2 || spec.Campaign != c.Code {
		t.Fatalf("campaign table %+v options %+v", spec, o)
	}

	seats := []table.SeatRecord{{Seat: 0, Identity: ann.ID, Name: "ann"}, {Seat: 1, Identity: bob.ID, Name: "bob"}}
	// 20 → 22 → (loss keeps 22) → 24 → 26 → 28 → 30.
	steps := []struct {
		won  bool
		want int
	}{{true, 22}, {false, 22}, {true, 24}, {true, 26}, {true, 28}, {true, 30}}
	pl := i18n.For(i18n.Polish)
	wins := 0
	for i, s := range steps {
		cur, _ := rec.Campaign(c.Code)
		news := finishMission(t, srv, c.Code, cur.Trials, s.won, seats)
		got, _ := rec.Campaign(c.Code)
		if got.Trials != s.want || got.Veteran {
			t.Fatalf("mission %d: trials %d veteran %v, want %d and not yet veteran", i+1, got.Trials, got.Veteran, s.want)
		}
		// The table hears what the game changed: the wins so far and the
		// next game's pile.
		if s.won {
			wins++
		}
		want := fmt.Sprintf("Kampania Verdun: wygrane gry: %d. Stos doświadczeń w następnej grze: %d.", wins, s.want)
		if !s.won {
			want = fmt.Sprintf("Kampania Verdun: przegrana nie zmienia stosu. Wygrane gry: %d. Stos doświadczeń w następnej grze: %d.", wins, s.want)
		}
		if len(news) != 1 || pl.Msg(news[0]) != want {
			t.Fatalf("mission %d: the table is told %v, want %q", i+1, news, want)
		}
	}
	// The win at 30, played by ann and a bot: only ann becomes a veteran,
	// and the table is told so.
	news := finishMission(t, srv, c.Code, 30, true, []table.SeatRecord{{Seat: 0, Identity: ann.ID, Name: "ann"}, {Seat: 1, Bot: "easy", Name: "Bruno (bot)"}})
	if len(news) != 1 || pl.Msg(news[0]) != "Kampania Verdun wygrana: zwycięstwo przy 30 kartach w stosie doświadczeń. Status weterana: ann." {
		t.Fatalf("the veteran win told %v", news)
	}
	// The same game counted again (a retried call) says nothing; a game
	// from a pile the campaign has left says it does not count.
	if news := finishMission(t, srv, c.Code, 28, true, seats); len(news) != 1 || news[0].Key != "campaign.over.stale" {
		t.Fatalf("a stale result told %v", news)
	}
	got, _ := rec.Campaign(c.Code)
	if !got.Veteran || got.Trials != 30 || got.Wins != 6 || got.Losses != 1 || len(got.History) != 7 {
		t.Fatalf("after the win at 30: %+v", got)
	}
	if _, _, err := rec.CampaignTable(got); err == nil {
		t.Fatal("a won campaign offered another mission")
	}
	srv.Close()

	// It all survives a restart, and the badge shows where players look.
	srv2, addr := startServer(t, dir)
	pa, _ := srv2.store.Player(ann.ID)
	pb, _ := srv2.store.Player(bob.ID)
	if !pa.Veteran || pb.Veteran {
		t.Fatalf("veteran: ann %v bob %v; want only ann", pa.Veteran, pb.Veteran)
	}
	key := sshtest.NewKey(t)
	fp := sshtest.Fingerprint(key)
	srv2.store.UpdatePlayer(fp, func(p *persistence.Profile) error { p.Name, p.Veteran = "vera", true; return nil })
	c1 := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithUser("vera"))
	c1.ExpectScreen(t, `vera ★ veteran`, 5*time.Second)
	c2 := sshtest.Dial(t, addr, sshtest.WithKey(key), sshtest.WithoutPTY(), sshtest.WithCommand("profile"))
	c2.Expect(t, `vera\s+★ veteran`, 5*time.Second)
}

// A campaign has one mission table at a time: a second member asking for
// it gets the same table, a member who joined after it opened may sit,
// and a result from a table the campaign has moved past counts for nothing.
func TestCampaignPlaysOneMissionAtATime(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, t.TempDir())
	rec := srv.records
	ann := table.Player{ID: "SHA256:ann", Name: "ann"}
	bob := table.Player{ID: "SHA256:bob", Name: "bob"}
	c, err := rec.CreateCampaign(ann, "Somme", 2)
	if err != nil {
		t.Fatal(err)
	}
	open := func(p table.Player) *table.Room {
		t.Helper()
		g, spec, err := rec.CampaignTable(c)
		if err != nil {
			t.Fatal(err)
		}
		cfg := srv.app.Room // as the lobby's create does
		cfg.Game, cfg.Bots, cfg.Seats, cfg.Options, cfg.Title = g.Game, g.Bots, spec.Seats, spec.Options, spec.Title
		cfg.Private, cfg.Host, cfg.BotLevel, cfg.Campaign, cfg.Allowed = spec.Private, p.ID, spec.BotLevel, spec.Campaign, spec.Allowed
		r, err := srv.hub.Create(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := open(ann)
	if _, err := first.Join(t.Context(), ann, table.NewMailbox(), false); err != nil {
		t.Fatal(err)
	}
	// bob joins the campaign after its table opened, then asks for it.
	if c, err = rec.JoinCampaign(bob, c.Code); err != nil {
		t.Fatal(err)
	}
	second := open(bob)
	if second != first {
		t.Fatalf("a second mission table %s opened beside %s", second.Code(), first.Code())
	}
	if seat, err := second.Join(t.Context(), bob, table.NewMailbox(), false); err != nil || seat != 1 {
		t.Fatalf("bob, a member since the table opened, got seat %d: %v", seat, err)
	}
	outsider := table.Player{ID: "SHA256:eve", Name: "eve"}
	if _, err := first.Join(t.Context(), outsider, table.NewMailbox(), false); err == nil {
		t.Fatal("someone outside the campaign took a seat")
	}

	// Two results for the mission dealt at 20: the first counts, the
	// late one (from a table opened before the first ended) does not.
	seats := []table.SeatRecord{{Seat: 0, Identity: ann.ID, Name: "ann"}, {Seat: 1, Identity: bob.ID, Name: "bob"}}
	finishMission(t, srv, c.Code, 20, true, seats)
	finishMission(t, srv, c.Code, 20, false, seats)
	got, _ := rec.Campaign(c.Code)
	if got.Trials != 22 || got.Wins != 1 || got.Losses != 0 || len(got.History) != 1 {
		t.Fatalf("after a win and a stale loss: %+v", got)
	}
}
