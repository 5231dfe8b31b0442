package grizzbot

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// TestTunePolicy is the coordinate search that tunes the rule-based
// policy of one table size (tableParams, used under every rule set) on
// deals of one rule set; it only runs when asked:
//
//	TUNE=veteran/5/20000 go test -run TunePolicy -v -timeout 1h
//
// plays that many paired deals with the easy level for every change of
// one parameter at a time, keeps a change when it wins clearly more of
// the deals (more than two standard errors of the paired difference), and
// prints the parameters it ends with, to copy into easy.go. What wins for
// the easy level need not win for the strong one, whose playouts use it:
// check a change with TestStrongCell before keeping it.
func TestTunePolicy(t *testing.T) {
	variant, n, deals, _ := cellFromEnv(t, "TUNE", false)
	cur := paramsFor(n)
	saved := *cur
	defer func() { *cur = saved }()
	best := easyWins(t, variant, n, deals)
	t.Logf("start: %d of %d deals", countWon(best), deals)
	for round := range 4 {
		improved := false
		for _, step := range policySteps(n) {
			was := *cur
			step.apply(cur)
			if *cur == was {
				continue
			}
			won := easyWins(t, variant, n, deals)
			gain, only, lost := paired(best, won)
			if gain > 0 && float64(gain)*float64(gain) > 4*float64(only+lost) {
				t.Logf("round %d: %s: %d → %d wins (%d deals only now, %d only before): kept", round, step.name, countWon(best), countWon(won), only, lost)
				best, improved = won, true
				continue
			}
			t.Logf("round %d: %s: %d wins, %+d", round, step.name, countWon(won), gain)
			*cur = was
		}
		if !improved {
			break
		}
	}
	t.Logf("end: %d of %d deals with %+v", countWon(best), deals, *cur)
}

// cellFromEnv reads variant/players/games (and /seed when withSeed) from
// the environment variable name, skipping the test when it is not set.
func cellFromEnv(t *testing.T, name string, withSeed bool) (variant g.Variant, n, games int, seed uint64) {
	want := "variant/players/games"
	if withSeed {
		want += "/seed"
	}
	spec := strings.Split(os.Getenv(name), "/")
	if os.Getenv(name) == "" {
		t.Skipf("%s=%s runs it", name, want)
	}
	var errs [3]error
	if len(spec) == strings.Count(want, "/")+1 {
		n, errs[0] = strconv.Atoi(spec[1])
		games, errs[1] = strconv.Atoi(spec[2])
		if withSeed {
			seed, errs[2] = strconv.ParseUint(spec[3], 10, 64)
		}
	}
	if len(spec) != strings.Count(want, "/")+1 || errs != [3]error{} || n < 2 || n > 5 || games < 1 {
		t.Fatalf("%s=%s: want %s", name, os.Getenv(name), want)
	}
	return g.Variant(spec[0]), n, games, seed
}

// policyStep changes one parameter of the policy.
type policyStep struct {
	name  string
	apply func(p *params)
}

// policySteps are the single changes the search tries at a table of n
// soldiers, in order.
func policySteps(n int) []policyStep {
	var steps []policyStep
	add := func(name string, f func(p *params)) { steps = append(steps, policyStep{name, f}) }
	for _, d := range []float64{-0.05, 0.05} {
		add("trapRisk "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.trapRisk += d })
	}
	for _, d := range []float64{-0.3, 0.3} {
		add("speechSafe "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.speechSafe += d })
		add("speechLow "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.speechLow += d })
	}
	for _, d := range []int{-1, 1} {
		add("knockMax "+strconv.Itoa(d), func(p *params) { p.knockMax += d })
		add("knockRel "+strconv.Itoa(d*3), func(p *params) { p.knockRel += 3 * d })
		add("kLate "+strconv.Itoa(d*2), func(p *params) { p.kLate += 2 * d })
		add("charmUnblk "+strconv.Itoa(d), func(p *params) { p.charmUnblk = max(0, p.charmUnblk+d) })
	}
	for _, d := range []float64{-0.5, 0.5} {
		add("knockBias "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.knockBias += d })
		add("closeCost "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.closeCost += d })
	}
	for _, d := range []float64{-0.2, 0.2} {
		add("openCost "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.openCost += d })
		add("needCost "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.needCost += d })
		add("kMorale "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.kMorale = max(0, p.kMorale+d) })
	}
	add("charmEager", func(p *params) { p.charmEager = !p.charmEager })
	add("mcHold", func(p *params) { p.mcHold = !p.mcHold })
	for _, d := range []float64{-1, 1} {
		add("kTarget "+strconv.FormatFloat(d, 'f', -1, 64), func(p *params) { p.kTarget[n] += d })
	}
	return steps
}

// easyWins plays deals 0..deals-1 of the rule set with the easy level in
// every seat and reports which were won.
func easyWins(t *testing.T, variant g.Variant, n, deals int) []bool {
	return playDeals(t, variant, n, deals, func(*g.State) game.Bot { return NewEasy() },
		func(i int) (uint64, uint64) { return uint64(5_000_000 + i), uint64(i) })
}

// playDeals plays deals 0..deals-1 of the rule set on two goroutines, a
// bot from newBot(the game's live state) in every seat, deal i from the
// seeds seeds(i) gives (of the deal, of the bots' decisions), and reports
// which were won.
func playDeals(t *testing.T, variant g.Variant, n, deals int, newBot func(truth *g.State) game.Bot, seeds func(i int) (deal, play uint64)) []bool {
	won := make([]bool, deals)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bots := make([]game.Bot, max(n, 3))
			for {
				i := int(next.Add(1) - 1)
				if i >= deals {
					return
				}
				deal, play := seeds(i)
				s, _, err := g.NewGame(names[:n], g.Options{Variant: variant, Leader: game.NoSeat}, deal)
				if err != nil {
					t.Error(err)
					return
				}
				for j := range bots {
					bots[j] = newBot(s)
				}
				if _, err := Play(s, bots, play); err != nil {
					t.Error(err)
					return
				}
				won[i], _ = s.Over()
			}
		}()
	}
	wg.Wait()
	return won
}

// countWon is the number of deals won.
func countWon(won []bool) int {
	n := 0
	for _, w := range won {
		if w {
			n++
		}
	}
	return n
}

// paired compares two runs on the same deals: the gain in wins, the deals
// only b won and the deals only a won.
func paired(a, b []bool) (gain, onlyB, onlyA int) {
	for i := range a {
		switch {
		case b[i] && !a[i]:
			onlyB++
		case a[i] && !b[i]:
			onlyA++
		}
	}
	return onlyB - onlyA, onlyB, onlyA
}

// TestStrongCell plays one cell of `bivouac sim` (the same deals and
// decision seeds, so the same wins) with the strong level and writes which
// deals were won, as a line of 0s and 1s, to compare two versions deal by
// deal; SAMPLES, HORIZON and GATE override the level's budget at that
// size. It only runs when asked:
//
//	CELL=veteran/5/200/7 GATE=1 WINS=/tmp/a go test -run StrongCell -v -timeout 1h
//
// ORACLE makes the search cheat (for every seat), to measure how much
// better sampling of the hidden cards could gain at most: with
// ORACLE=real every sample is the game's true state (hands, tiles, the
// piles in order, even the RNG that will shuffle a failed mission's cards
// back), so the samples differ only in the policy's tie-breaks; with
// ORACLE=team every sample has the true hands and tiles but the trials
// and morale piles shuffled together and a fresh RNG (all a player could
// ever infer, and more). ORACLE=intensity cheats as team does only when
// choosing the intensity, ORACLE=play at every other decision;
// ORACLE=tiles samples the cards fairly but knows every tile.
// ORACLE=blind knows less than a player: it forgets which tiles
// everybody knows each player holds (PlayerView.KnownTiles), as the bot
// did before the view said.
func TestStrongCell(t *testing.T) {
	variant, n, games, seed := cellFromEnv(t, "CELL", true)
	tuned := DefaultTuned
	cfg := &tuned[n]
	if x, err := strconv.Atoi(os.Getenv("SAMPLES")); err == nil {
		cfg.Samples = x
	}
	if x, err := strconv.Atoi(os.Getenv("HORIZON")); err == nil {
		cfg.Horizon = x
	}
	if x, err := strconv.Atoi(os.Getenv("PLAYOUTS")); err == nil {
		cfg.Playouts = x
	}
	if x, err := strconv.ParseFloat(os.Getenv("GATE"), 64); err == nil {
		cfg.Gate = x
	}
	oracle := os.Getenv("ORACLE")
	if !slices.Contains([]string{"", "real", "team", "intensity", "play", "tiles", "blind"}, oracle) {
		t.Fatalf("ORACLE=%s: want real, team, intensity, play, tiles or blind", oracle)
	}
	t.Logf("%+v oracle=%q", *cfg, oracle)
	newBot := func(truth *g.State) game.Bot {
		b := NewTuned(tuned)
		switch oracle {
		case "real":
			b.deal = func(*g.SeatView, uint64) *g.State { return truth.Clone() }
		case "team":
			b.deal = func(_ *g.SeatView, seed uint64) *g.State { return reshuffled(truth, seed) }
		case "tiles":
			b.deal = func(v *g.SeatView, seed uint64) *g.State { return trueTiles(g.Determinize(*v, seed), truth) }
		case "blind":
			b.deal = func(v *g.SeatView, seed uint64) *g.State { return g.Determinize(forgetKnownTiles(*v), seed) }
		case "intensity", "play":
			b.deal = func(v *g.SeatView, seed uint64) *g.State {
				if (v.Phase == g.PhaseIntensity) == (oracle == "intensity") {
					return reshuffled(truth, seed)
				}
				return g.Determinize(*v, seed)
			}
		}
		return b
	}
	won := playDeals(t, variant, n, games, newBot, func(i int) (uint64, uint64) {
		// The seed of `bivouac sim`'s game i, for the deal and the decisions.
		z := seed + uint64(i+1)*0x9e3779b97f4a7c15
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		return z, z
	})
	line := make([]byte, games)
	for i, w := range won {
		line[i] = '0'
		if w {
			line[i] = '1'
		}
	}
	t.Logf("%s: %d of %d won", os.Getenv("CELL"), countWon(won), games)
	if out := os.Getenv("WINS"); out != "" {
		if err := os.WriteFile(out, append(line, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// forgetKnownTiles is v without the tiles everybody knows who holds.
func forgetKnownTiles(v g.SeatView) g.SeatView {
	v.Players = slices.Clone(v.Players)
	for i := range v.Players {
		v.Players[i].KnownTiles = nil
	}
	return v
}

// reshuffled is a copy of s whose trials and morale piles are shuffled
// together (and dealt back to piles of the same sizes) and whose RNG, what
// it will shuffle and draw at random from now on, is seeded from seed. It
// panics if the snapshot does not round-trip (it runs on playDeals'
// goroutines, where t.Fatal cannot).
func reshuffled(s *g.State, seed uint64) *g.State {
	b, err := g.EncodeState(s)
	if err != nil {
		panic(err)
	}
	var snap map[string]json.RawMessage
	if err := json.Unmarshal(b, &snap); err != nil {
		panic(err)
	}
	pcg := rand.NewPCG(seed, ^seed)
	rng, err := pcg.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var trials, morale []g.CardID
	if err := json.Unmarshal(snap["trials"], &trials); err != nil {
		panic(err)
	}
	if err := json.Unmarshal(snap["morale"], &morale); err != nil {
		panic(err)
	}
	all := append(trials, morale...)
	rand.New(pcg).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	for key, x := range map[string]any{"rng": rng, "trials": all[:len(trials)], "morale": all[len(trials):]} {
		if snap[key], err = json.Marshal(x); err != nil {
			panic(err)
		}
	}
	if b, err = json.Marshal(snap); err != nil {
		panic(err)
	}
	c, err := g.DecodeState(b)
	if err != nil {
		panic(err)
	}
	return c
}

// trueTiles is the sample s with every tile where it lies in truth (tiles
// and cards are dealt independently, so the result is a consistent game).
func trueTiles(s, truth *g.State) *g.State {
	if s == nil {
		return nil
	}
	var snap, real map[string]json.RawMessage
	var players, realPlayers []map[string]json.RawMessage
	for _, x := range []struct {
		st   *g.State
		snap *map[string]json.RawMessage
		ps   *[]map[string]json.RawMessage
	}{{s, &snap, &players}, {truth, &real, &realPlayers}} {
		b, err := g.EncodeState(x.st)
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(b, x.snap); err != nil {
			panic(err)
		}
		if err := json.Unmarshal((*x.snap)["players"], x.ps); err != nil {
			panic(err)
		}
	}
	snap["box"] = real["box"]
	for i := range players {
		for _, key := range []string{"tiles", "placed", "hidden"} {
			delete(players[i], key)
			if x, ok := realPlayers[i][key]; ok {
				players[i][key] = x
			}
		}
	}
	var err error
	if snap["players"], err = json.Marshal(players); err != nil {
		panic(err)
	}
	b, err := json.Marshal(snap)
	if err != nil {
		panic(err)
	}
	c, err := g.DecodeState(b)
	if err != nil {
		panic(err)
	}
	return c
}
