package server

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
)

// A new table's refusals are said in the player's words.
func TestTableLimitsAreSaidInWords(t *testing.T) {
	t.Parallel()
	srv, _ := startServer(t, t.TempDir())
	g, _ := srv.app.Games.Lookup("grizzled")
	p := table.Player{ID: "SHA256:ann", Name: "ann", Addr: "10.0.0.1"}
	var err error
	for range tablesPerPlayer + 1 {
		cfg := srv.app.Room
		cfg.Game, cfg.Seats, cfg.Host, cfg.Addr = g.Game, 2, p.ID, p.Addr
		_, err = srv.hub.Create(cfg)
	}
	if got := i18n.For(i18n.Polish).Error(err); got != "masz już 4 otwarte stoły: najpierw dokończ grę przy jednym z nich (stół, do którego nikt nie wraca, sam się zamyka)" {
		t.Fatalf("told %q", got)
	}
	if got := i18n.For(i18n.English).Error(table.ErrCannotCreate); got != "the server cannot start new tables right now; try again in a minute" {
		t.Fatalf("told %q", got)
	}
}

// A finished game gives its code up when a new table draws it: the game
// moves to an ID of its own, where the profile and `replay` find it, and
// the code names the new table. (Finished games kept their codes for
// ever: one address could use up the 810,000 public codes in 19 hours.)
func TestAFinishedGameFreesItsCode(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	g, _ := srv.games.Lookup("grizzled")
	mk := func() (*table.Room, error) {
		cfg := srv.app.Room
		cfg.Game, cfg.Bots, cfg.Seats, cfg.Host, cfg.Code, cfg.BotLevel, cfg.FillBots = g.Game, g.Bots, 2, "SHA256:ann", "ABCD", "easy", 1
		cfg.Title = game.Raw("the war")
		return srv.hub.Create(cfg)
	}
	old, err := mk()
	if err != nil {
		t.Fatal(err)
	}
	box := table.NewMailbox()
	if _, err := old.Join(t.Context(), table.Player{ID: "SHA256:ann", Name: "ann"}, box, false); err != nil {
		t.Fatal(err)
	}
	if err := old.Start(t.Context(), box); err != nil {
		t.Fatal(err)
	}
	old.Leave(box) // her seat to a bot: the bots play it to the end
	clocktest.CheckFor(t, 20*time.Second, 10*time.Millisecond, func() error {
		if done, _ := srv.store.Room("ABCD"); done.Status != persistence.StatusFinished {
			return fmt.Errorf("the bots did not finish the game: %+v", done.Status)
		}
		return nil
	})
	if _, err := mk(); !errors.Is(err, table.ErrCodeTaken) {
		t.Fatalf("the code of a table still open was given again: %v", err)
	}
	old.Close(table.Abandoned)
	<-old.Done()

	if _, err := mk(); err != nil {
		t.Fatalf("a finished game's code is not free: %v", err)
	}
	if rec, err := srv.store.Room("ABCD"); err != nil || rec.Status != persistence.StatusWaiting {
		t.Fatalf("the code names %+v, %v: want the new table", rec.Status, err)
	}
	games, err := srv.records.Finished("SHA256:ann", 0)
	if err != nil || len(games) != 1 || games[0].Code == "ABCD" || !strings.HasPrefix(games[0].Code, "ABCD") {
		t.Fatalf("ann's games %+v, %v: want the old game under an ID of its own", games, err)
	}
	id := games[0].Code
	status, said := ask(t, addr, "eve", "replay "+strings.ToLower(id))
	if status != 0 || !strings.Contains(said, id+" · the war") {
		t.Fatalf("replay %s: exit %d\n%s", id, status, said)
	}
	if _, said := ask(t, addr, "eve", "replay ABCD"); !strings.Contains(said, "no finished game ABCD") {
		t.Fatalf("replay of the new table's code: %q", said)
	}
}

// The attack as it was made: one connection in plain mode, `new`, `start`,
// `leave`, again and again (246 started tables in 20 s), and `learn`,
// `leave` (325 in 10 s). Now the fifth table is refused in words, and a
// guided mission left is closed at once, so learning again is never
// refused.
func TestOneConnectionCannotMakeTablesWithoutEnd(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	ann := dialPlain(t, addr, "ann")
	for i := range tablesPerPlayer {
		made := strings.Join(ann.do("new grizzled 2 1"), "\n")
		if !strings.Contains(made, "Table ") {
			t.Fatalf("table %d: %q", i+1, made)
		}
		ann.do("start")
		ann.do("leave")
	}
	refused := strings.Join(ann.do("new grizzled 2 1"), "\n")
	if !strings.Contains(refused, "you already have 4 open tables") {
		t.Fatalf("a fifth table: %q", refused)
	}
	if n := srv.hub.Running(); n != tablesPerPlayer {
		t.Fatalf("%d tables running, want %d", n, tablesPerPlayer)
	}
	srv.hub.Limits.PerPlayer = tablesPerPlayer + 1 // room for one guided mission at a time
	for i := range 5 {
		if said := strings.Join(ann.do("learn"), "\n"); !strings.Contains(said, "Plain mode reads the coach's lessons") {
			t.Fatalf("guided mission %d: %q", i+1, said)
		}
		ann.do("leave")
	}
	clocktest.CheckFor(t, 5*time.Second, 5*time.Millisecond, func() error {
		if n := srv.hub.Running(); n != tablesPerPlayer {
			return fmt.Errorf("%d tables running after 5 guided missions left, want %d", n, tablesPerPlayer)
		}
		return nil
	})
}
