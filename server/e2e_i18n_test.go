package server

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// rendered is a regexp for a catalog message in language l whose arguments
// are free: each placeholder matches anything on one line.
func rendered(l i18n.Lang, key string, args ...game.Arg) *regexp.Regexp {
	var holes []game.Arg
	for _, a := range args {
		holes = append(holes, game.Text(a.Name, "\x00"))
	}
	parts := strings.Split(i18n.For(l).T(key, holes...), "\x00")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(strings.Join(parts, `.*?`))
}

// gameOverIn matches The Grizzled's end line in language l, whatever the
// number of missions (each plural form of the language).
func gameOverIn(l i18n.Lang) *regexp.Regexp {
	var alts []string
	for n := 1; n <= 12; n++ {
		s := i18n.For(l).T("grizzledui.game_over", game.Count(n))
		alts = append(alts, strings.Replace(regexp.QuoteMeta(s), strconv.Itoa(n), `\d+`, 1))
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}

// anyLangMove picks a key from the help bar by its key names only (the
// words are in the player's language): answer what is asked, decline a
// benefit, deal or choose, play a card, else withdraw.
func anyLangMove(bar string) string {
	has := func(k string) bool {
		for _, seg := range strings.Split(bar, " • ") {
			if strings.HasPrefix(strings.TrimSpace(seg), k+" ") {
				return true
			}
		}
		return false
	}
	switch {
	case has("x"):
		return "x"
	case has("n"):
		return "n"
	case has("enter"):
		return "\r"
	case has("p"):
		return "p"
	case has("w"):
		return "w"
	}
	return ""
}

// englishOnly are English catalog texts a Polish, Russian or German screen
// must never show: every message without arguments, and every stretch of
// words between a message's arguments, ten characters or longer, that the
// language's own catalog does not also use.
func englishOnly(t *testing.T, l i18n.Lang) []string {
	t.Helper()
	load := func(l i18n.Lang) string {
		b, err := os.ReadFile(filepath.Join("..", "i18n", "catalog", string(l)+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := toml.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var texts []string
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				texts = append(texts, v)
			case map[string]any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(m)
		return strings.Join(texts, "\n")
	}
	theirs := load(l)
	hole := regexp.MustCompile(`\{\{[^}]*\}\}`)
	var out []string
	for _, text := range strings.Split(load(i18n.English), "\n") {
		for _, part := range hole.Split(text, -1) {
			part = strings.TrimSpace(part)
			if len(part) >= 10 && !strings.Contains(theirs, part) && strings.ContainsAny(part, " ") {
				out = append(out, part)
			}
		}
	}
	return out
}

// checkNoEnglish fails the test for every English phrase of the catalog
// that one of the screens, drawn in language l, shows.
func checkNoEnglish(t *testing.T, l i18n.Lang, screens map[string]bool) {
	t.Helper()
	english := englishOnly(t, l)
	if len(english) < 100 {
		t.Fatalf("only %d English phrases to look for", len(english))
	}
	for screen := range screens {
		for _, e := range english {
			if strings.Contains(screen, e) {
				t.Errorf("an English phrase %q on a %s screen:\n%s", e, l, screen)
			}
		}
	}
	t.Logf("%d screens checked against %d English phrases", len(screens), len(english))
}

// TestAPolishPlayerPlaysAWholeGrizzledGameInPolish: a session that sends
// LANG=pl_PL.UTF-8 makes a table with three bots, plays The Grizzled to
// its end, and no screen on the way shows an English phrase of the
// catalog.
func TestAPolishPlayerPlaysAWholeGrizzledGameInPolish(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	pl := i18n.Polish
	alice := sshtest.Dial(t, addr, sshtest.WithUser("alicja"), sshtest.WithEnv("LANG", "pl_PL.UTF-8"), sshtest.WithPTY(80, 24))
	alice.ExpectScreen(t, rendered(pl, "ui.lobby.tables").String(), 5*time.Second)
	alice.Type("n")
	alice.ExpectScreen(t, rendered(pl, "ui.form.title").String(), 5*time.Second)
	alice.Type("jjjj") // down to the bot seats
	alice.Type("lll")  // 3 bots: alice and three bots
	alice.Type("\r")
	title := rendered(pl, "ui.table.title", game.Text("Code", "")).String()
	alice.ExpectScreen(t, strings.Replace(title, ".*?", `[A-Z0-9]{4}`, 1), 5*time.Second)
	alice.Type("s")
	alice.ExpectScreen(t, regexp.QuoteMeta(i18n.For(pl).T("grizzledui.mission")), 5*time.Second)

	screens := map[string]bool{}
	over := gameOverIn(pl)
	deadline := time.Now().Add(3 * time.Minute)
	last := ""
	for {
		screen := alice.Screen()
		screens[screen] = true
		if over.MatchString(screen) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end:\n%s", screen)
		}
		if k := anyLangMove(helpBar(screen)); k != "" && screen != last {
			alice.Type(k)
			last = screen
		}
		time.Sleep(20 * time.Millisecond)
	}
	checkNoEnglish(t, pl, screens)
}

// TestOneTableThreeLanguages: a Polish host, a German player and a Russian
// spectator at one Grizzled table each read the table in their own
// language at the same moment.
func TestOneTableThreeLanguages(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	ania := sshtest.Dial(t, addr, sshtest.WithUser("ania"), sshtest.WithEnv("LANG", "pl_PL.UTF-8"), sshtest.WithPTY(80, 24))
	ania.ExpectScreen(t, rendered(i18n.Polish, "ui.lobby.tables").String(), 5*time.Second)
	ania.Type("n")
	ania.Type("jh")  // 3 players
	ania.Type("jjj") // down to the bot seats
	ania.Type("l")   // one bot
	ania.Type("\r")
	code := ania.ExpectScreen(t, `([A-Z0-9]{4})`, 5*time.Second)[1]
	bernd := sshtest.Dial(t, addr, sshtest.WithUser("bernd"), sshtest.WithEnv("LC_ALL", "de_DE.UTF-8"), sshtest.WithCommand("join "+code))
	bernd.ExpectScreen(t, rendered(i18n.German, "ui.table.seats").String(), 5*time.Second)
	ania.ExpectScreen(t, `bernd`, 5*time.Second)
	ania.Type("s")
	for who, c := range map[i18n.Lang]*sshtest.Client{i18n.Polish: ania, i18n.German: bernd} {
		c.ExpectScreen(t, rendered(who, "grizzledui.nml").String(), 5*time.Second)
	}
	vova := sshtest.Dial(t, addr, sshtest.WithUser("vova"), sshtest.WithEnv("LANG", "ru_RU.UTF-8"), sshtest.WithPTY(80, 24))
	vova.ExpectScreen(t, rendered(i18n.Russian, "ui.lobby.tables").String(), 5*time.Second)
	vova.Type("w") // watch the only table
	vova.ExpectScreen(t, rendered(i18n.Russian, "grizzledui.watching").String(), 5*time.Second)
	vova.ExpectScreen(t, rendered(i18n.Russian, "grizzledui.nml").String(), 5*time.Second)
	// At this moment each reads the same table in their own words.
	for who, c := range map[i18n.Lang]*sshtest.Client{i18n.Polish: ania, i18n.German: bernd, i18n.Russian: vova} {
		screen := c.Screen()
		if !strings.Contains(screen, i18n.For(who).T("grizzledui.nml")) {
			t.Errorf("%s does not read %q:\n%s", who, i18n.For(who).T("grizzledui.nml"), screen)
		}
		for _, other := range i18n.Langs {
			if other != who && strings.Contains(screen, i18n.For(other).T("grizzledui.nml")) {
				t.Errorf("%s reads %s's %q:\n%s", who, other, i18n.For(other).T("grizzledui.nml"), screen)
			}
		}
	}
}

// TestAPolishPlayerPlaysAWerewolvesNightInPolish: a Polish session opens a
// Werewolves table with seven bots (quick timers, fast nights), plays the
// first night and sees the village wake up, and no screen on the way shows
// an English phrase of the catalog.
func TestAPolishPlayerPlaysAWerewolvesNightInPolish(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a night over SSH")
	}
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	srv.app.NewSeed = func() uint64 { return 7 }
	pl := i18n.Polish
	ania := sshtest.Dial(t, addr, sshtest.WithUser("ania"), sshtest.WithEnv("LANG", "pl_PL.UTF-8"), sshtest.WithPTY(80, 24))
	ania.ExpectScreen(t, rendered(pl, "ui.lobby.tables").String(), 5*time.Second)
	ania.Type("n")
	ania.Type("l") // Werewolves
	ania.ExpectScreen(t, regexp.QuoteMeta(i18n.For(pl).T("werewolf.title")), 5*time.Second)
	ania.Type("jjj")     // Timers
	ania.Type("ll")      // quick, fast nights
	ania.Type("jj")      // Bot seats now
	ania.Type("lllllll") // 7 bots
	ania.Type("\r")
	ania.ExpectScreen(t, rendered(pl, "ui.table.seats").String(), 5*time.Second)
	ania.Type("s")
	ania.ExpectScreen(t, rendered(pl, "werewolfui.night_n", game.Num("N", 1)).String(), 5*time.Second)

	day := regexp.MustCompile(regexp.QuoteMeta(i18n.For(pl).T("werewolfui.day_n", game.Num("N", 1))) + "|" +
		regexp.QuoteMeta(i18n.For(pl).T("werewolfui.game_over")))
	screens := map[string]bool{}
	deadline := time.Now().Add(90 * time.Second)
	last := ""
	for {
		screen := ania.Screen()
		screens[screen] = true
		if day.MatchString(screen) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no dawn:\n%s", screen)
		}
		bar := helpBar(screen)
		key := ""
		for _, seg := range strings.Split(bar, " • ") {
			switch k := strings.Fields(seg); {
			case len(k) == 0:
			case k[0] == "enter" && key == "":
				key = "\r"
			case k[0] == "x" || k[0] == "1/2":
				key = k[0][:1]
			}
		}
		if key != "" && screen != last {
			ania.Type(key)
			last = screen
		}
		time.Sleep(20 * time.Millisecond)
	}
	checkNoEnglish(t, pl, screens)
}
