package werewolf

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestGameInterface(t *testing.T) {
	var g game.Game = Game{}
	if g.ID() != "werewolf" || g.Title() != "Werewolves of Millers Hollow" {
		t.Fatal("id/title")
	}
	if _, _, err := g.New(game.Setup{Game: "grizzled", Names: namesN(8)}, 1); err == nil {
		t.Fatal("foreign setup accepted")
	}
	if _, _, err := g.New(game.Setup{Names: namesN(8), Options: []byte("{")}, 1); !errors.Is(err, ErrBadOptions) {
		t.Fatalf("bad options: %v", err)
	}
	if _, _, err := g.New(game.Setup{Names: namesN(19)}, 1); !errors.Is(err, ErrBadOptions) {
		t.Fatal("19 players accepted")
	}
	st, evs, err := g.New(game.Setup{Game: ID, Names: namesN(8), Options: ClassicOptions().Encode()}, 7)
	if err != nil || len(evs) == 0 {
		t.Fatal(err)
	}
	tm, ok := g.Timer(st)
	if !ok || tm.After != 5*time.Second || tm.ID != st.(*State).PhaseSeq {
		t.Fatalf("timer %+v", tm)
	}
	b, err := g.EncodeAction(tm.Action)
	if err != nil {
		t.Fatal(err)
	}
	a, err := g.DecodeAction(b)
	if err != nil || !reflect.DeepEqual(a, tm.Action) {
		t.Fatalf("codec %v %v", a, err)
	}
	if _, err := g.DecodeAction([]byte(`{}`)); err == nil {
		t.Fatal("empty action decoded")
	}
	if _, err := g.EncodeAction("nope"); err == nil {
		t.Fatal("foreign action encoded")
	}
	if _, _, err := g.Apply(st, 0, "nope"); !errors.Is(err, game.ErrBadAction) {
		t.Fatal("foreign action applied")
	}
	if _, _, err := g.Apply(st, 0, Action{Kind: "fly"}); !errors.Is(err, game.ErrBadAction) {
		t.Fatal("unknown kind")
	}
	c := g.Clone(st)
	next, _, _ := g.Apply(st, game.System, tm.Action)
	x, _ := EncodeState(c.(*State))
	y, _ := EncodeState(st.(*State))
	if string(x) != string(y) || next.(*State).PhaseSeq == c.(*State).PhaseSeq {
		t.Fatal("clone or apply aliasing")
	}
	if _, ok := g.Result(next); ok {
		t.Fatal("result before the end")
	}
	if _, ok := g.View(next, game.Spectator).(SeatView); !ok {
		t.Fatal("view type")
	}
	if _, err := g.Say(next, game.Spectator, "hi"); !errors.Is(err, ErrNotAllowed) {
		t.Fatal("spectator chat")
	}
	if _, err := g.Say(next, 0, " \u202e\x07 "); !errors.Is(err, ErrEmptyChat) {
		t.Fatal("empty chat")
	}
	// State round trip.
	sb, _ := EncodeState(next.(*State))
	back, err := DecodeState(sb)
	if err != nil {
		t.Fatal(err)
	}
	sb2, _ := EncodeState(back)
	if string(sb) != string(sb2) {
		t.Fatal("state codec")
	}
	// The RNG survives the round trip: the same tick gives the same state.
	tm2, _ := g.Timer(next)
	n1, _, _ := g.Apply(next, game.System, tm2.Action)
	n2, _, _ := g.Apply(back, game.System, tm2.Action)
	e1, _ := EncodeState(n1.(*State))
	e2, _ := EncodeState(n2.(*State))
	if string(e1) != string(e2) {
		t.Fatal("decoded state diverges")
	}
}

func TestViewNeverAliasesState(t *testing.T) {
	x := deal(t, "T S W V V V V V | W V", nil)
	x.until(PhaseSeer)
	x.do(P2, tgt(KindSeerInspect, P3))
	before, _ := EncodeState(x.s)
	for i := -1; i < 8; i++ {
		v := x.view(i)
		for k := range v.Players {
			v.Players[k].Card = RoleWitch
			v.Players[k].Causes = append(v.Players[k].Causes, CauseShot)
		}
		for k := range v.Deck {
			v.Deck[k] = RoleWitch
		}
		for k := range v.Middle {
			v.Middle[k] = RoleWitch
		}
		for k := range v.ThiefSaw {
			v.ThiefSaw[k] = RoleWitch
		}
		for k := range v.Visions {
			v.Visions[k].Card = RoleWitch
		}
	}
	after, _ := EncodeState(x.s)
	if string(before) != string(after) {
		t.Fatal("a view aliases the state")
	}
}

func TestOptions(t *testing.T) {
	o, err := DecodeOptions(nil)
	if err != nil || !reflect.DeepEqual(o, DefaultOptions()) {
		t.Fatal("empty options are not the defaults")
	}
	o, err = DecodeOptions([]byte(`{"preset":"classic","little_girl_catch":0}`))
	if err != nil || o.Preset != PresetClassic || o.LittleGirlCatch != 0 || o.LittleGirlRelay != 0.2 || !o.DeadSeeAll {
		t.Fatalf("%+v %v", o, err)
	}
	if o.Validate(8) != nil || !o.SheriffOn() || DefaultOptions().SheriffOn() {
		t.Fatal("classic")
	}
	for _, bad := range []func(*Options){
		func(o *Options) { o.Timers.Wolves = 10 },
		func(o *Options) { o.Timers.Discussion = 1000 },
		func(o *Options) { o.LittleGirlRelay = 0 },
		func(o *Options) { o.LittleGirlCatch = 2 },
		func(o *Options) { o.NightTiming = "slow" },
		func(o *Options) { o.Preset = "mine" },
		func(o *Options) { o.StalemateCycles = -1 },
		func(o *Options) { o.Preset, o.Wolves = PresetCustom, 0 },
	} {
		o := DefaultOptions()
		bad(&o)
		if err := o.Validate(10); !errors.Is(err, ErrBadOptions) {
			t.Fatalf("%+v accepted", o)
		}
	}
	small := DefaultOptions()
	small.SmallTable = true
	for n, w := range map[int]int{5: 1, 6: 1, 7: 2} {
		d, err := small.Deck(n)
		if err != nil || len(d) != n || slices.Index(d, RoleSeer) != w {
			t.Fatalf("small %d: %v %v", n, d, err)
		}
	}
	if len(DefaultOptions().NotRulebook()) != 0 || len(small.NotRulebook()) != 1 {
		t.Fatal("not-rulebook labels")
	}
	c := ClassicOptions()
	c.SmallTable = true
	if c.Validate(7) == nil {
		t.Fatal("classic below 8")
	}
	var tm Timers
	if tm.Seconds(PhaseDiscussion, 2) != 90 || tm.Seconds(PhaseDiscussion, 10) != 210 || tm.Seconds(PhaseDiscussion, 18) != 300 {
		t.Fatal("discussion formula")
	}
	tm.Discussion = 45
	if tm.Seconds(PhaseDiscussion, 18) != 45 || tm.Seconds(PhaseGameOver, 3) != 0 {
		t.Fatal("discussion override")
	}
}

func TestStrictNightLengths(t *testing.T) {
	// With the 6 default steps a first night lasts 195 s and later nights 125 s (spec §7).
	x := deal(t, "T C S X L W W V | W V", nil)
	total := map[int]time.Duration{}
	for x.s.Night < 3 {
		if x.s.Phase.Night() { // nightfall included
			tm, _ := x.s.Timer()
			total[x.s.Night] += tm.After
		}
		x.tick()
	}
	if total[1] != 195*time.Second || total[2] != 125*time.Second {
		t.Fatalf("night lengths %v", total)
	}
}

func TestHiddenCausesAndDeadWithoutSight(t *testing.T) {
	x := deal(t, "W W X V V V V V", func(o *Options) { o.RevealNightCause, o.DeadSeeAll = false, false })
	x.until(PhaseWolves)
	x.do(P1, sel(P7))
	x.until(PhaseWitch)
	x.do(P3, tgt(KindWitchPoison, P5))
	evs := x.until(PhaseDawn)
	var lines []string
	for _, l := range public(evs) {
		if strings.Contains(l, "found dead") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "P5 ") || !strings.HasPrefix(lines[1], "P7 ") {
		t.Fatalf("dawn %q", public(evs))
	}
	v := x.view(P4)
	if !slices.Equal(v.Players[P7].Causes, []Cause{CauseFoundDead}) {
		t.Fatalf("causes %v", v.Players[P7].Causes)
	}
	if d := x.view(P7); d.Players[P1].Card != RoleUnknown || d.History != nil {
		t.Fatal("the dead see all with DeadSeeAll off")
	}
	if d := x.view(P7); d.Players[P1].Card != RoleUnknown {
		t.Fatal("dead sees cards")
	}
}

func TestDeadWatchersSeeEverything(t *testing.T) {
	x := deal(t, "W W S V V V V V", nil)
	x.until(PhaseWolves)
	x.do(P1, sel(P7))
	x.until(PhaseDiscussion)
	x.until(PhaseSeer)
	evs := x.do(P3, tgt(KindSeerInspect, P1))
	if !contains(to(evs, P7), "The seer, P3, looks at the card of P1") {
		t.Fatal("the dead do not see the seer")
	}
	x.until(PhaseWolves)
	evs = x.do(P1, sel(P4))
	if !contains(to(evs, P7), "P1 points at P4") {
		t.Fatal("the dead do not see the wolves")
	}
	if v := x.view(P7); v.Players[P1].Card != RoleWerewolf || len(v.Choices) == 0 || len(v.Wolves) != 2 {
		t.Fatal("dead watcher view")
	}
}

func TestRedactWolves(t *testing.T) {
	cases := map[string]string{
		"eat Anna":             "eat Anna",
		"Wolfa, eat Anna":      "[***], eat Anna",
		"WOLFA and wolfb":      "[***] and [***]",
		"Wolfaa is not a wolf": "Wolfaa is not a wolf",
		"ask xWolfa":           "ask xWolfa",
	}
	x := dealNamed(t, "W W V V V V V V", []string{"Wolfa", "Wolfb", "Anna", "B", "C", "D", "E", "F"}, nil)
	for in, want := range cases {
		if got := x.s.redactWolves(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

func TestSeatViewJSON(t *testing.T) {
	x := deal(t, "W W S V V V V V", nil)
	b, err := json.Marshal(x.view(P1))
	if err != nil || !strings.Contains(string(b), `"deck":["Werewolf","Werewolf","Seer"`) {
		t.Fatalf("%s %v", b, err)
	}
	var v SeatView
	if err := json.Unmarshal(b, &v); err != nil || v.Card != RoleWerewolf {
		t.Fatal("view JSON round trip")
	}
}

func TestDescribeEveryLegalAction(t *testing.T) {
	st, _ := randomGame(t, namesN(10), ClassicOptions(), 3, func(s *State, _ []game.Event) {
		for i := range s.Players {
			v := s.View(game.Seat(i))
			for _, a := range v.Legal {
				if d := i18n.For(i18n.English).Msg(v.Describe(a)); d == "" || strings.Contains(d, "?") || strings.Contains(d, "werewolf.") {
					t.Fatalf("%v described as %q", a, d)
				}
			}
		}
	})
	if !st.Over {
		t.Fatal("not over")
	}
}

// A werewolf with no other werewolf alive is not told to agree with the
// others: the pack's line and the prompt say the victim is theirs alone.
func TestALoneWolfIsNotToldToAgree(t *testing.T) {
	pack := deal(t, "W W V V V V V V", nil)
	if evs := pack.until(PhaseWolves); !contains(to(evs, P1), "The werewolves are: ") {
		t.Errorf("two wolves are not told who the pack is: %q", to(evs, P1))
	}
	if p := pack.view(P1).Prompt; p.Key != "werewolf.pack_is" {
		t.Errorf("two wolves are prompted %q", p.Key)
	}
	lone := deal(t, "W V V V V V", nil)
	evs := lone.until(PhaseWolves)
	if mine := to(evs, P1); !contains(mine, "No other werewolf is alive") || contains(mine, "The werewolves are: ") {
		t.Errorf("a lone wolf is told %q", mine)
	}
	if p := lone.view(P1).Prompt; p.Key != "werewolf.pack_alone" {
		t.Errorf("a lone wolf is prompted %q", p.Key)
	}
}
