package werewolf

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

// Preset selects how the deck is composed (spec §3.2).
type Preset string

const (
	PresetStarter Preset = "starter" // rulebook table: wolves, one seer, villagers; no sheriff
	PresetClassic Preset = "classic" // table wolves + every special card + sheriff (N ≥ 8)
	PresetCustom  Preset = "custom"  // the host picks the wolves, specials and sheriff
)

// NightTiming says whether night steps always run their full window.
type NightTiming string

const (
	TimingStrict NightTiming = "strict" // default: the night never reveals who acts
	TimingFast   NightTiming = "fast"   // [NR] steps end when their actors are done; leaks timing
)

// Timers are the phase windows in seconds (spec §7). Zero means the default.
// Discussion 0 means the formula 60 + 15 × alive, clamped to 90..300.
type Timers struct {
	NightFall       int `json:"night_fall,omitempty"`
	Thief           int `json:"thief,omitempty"`
	Cupid           int `json:"cupid,omitempty"`
	Lovers          int `json:"lovers,omitempty"`
	Seer            int `json:"seer,omitempty"`
	Wolves          int `json:"wolves,omitempty"`
	Witch           int `json:"witch,omitempty"`
	Dawn            int `json:"dawn,omitempty"`
	HunterShot      int `json:"hunter_shot,omitempty"`
	Succession      int `json:"succession,omitempty"`
	SheriffCampaign int `json:"sheriff_campaign,omitempty"`
	SheriffVote     int `json:"sheriff_vote,omitempty"`
	SheriffRunoff   int `json:"sheriff_runoff,omitempty"`
	Discussion      int `json:"discussion,omitempty"`
	Vote            int `json:"vote,omitempty"`
	Tiebreak        int `json:"tiebreak,omitempty"`
	Verdict         int `json:"verdict,omitempty"`
}

type timerSpec struct {
	def, lo, hi int
	field       func(*Timers) *int
}

var timerSpecs = map[Phase]timerSpec{
	PhaseNightFall:         {5, 3, 15, func(t *Timers) *int { return &t.NightFall }},
	PhaseThief:             {30, 15, 90, func(t *Timers) *int { return &t.Thief }},
	PhaseCupid:             {30, 15, 90, func(t *Timers) *int { return &t.Cupid }},
	PhaseLovers:            {10, 5, 30, func(t *Timers) *int { return &t.Lovers }},
	PhaseSeer:              {30, 15, 90, func(t *Timers) *int { return &t.Seer }},
	PhaseWolves:            {60, 30, 180, func(t *Timers) *int { return &t.Wolves }},
	PhaseWitch:             {30, 15, 90, func(t *Timers) *int { return &t.Witch }},
	PhaseDawn:              {10, 5, 30, func(t *Timers) *int { return &t.Dawn }},
	PhaseHunterShot:        {30, 15, 90, func(t *Timers) *int { return &t.HunterShot }},
	PhaseSheriffSuccession: {30, 15, 90, func(t *Timers) *int { return &t.Succession }},
	PhaseSheriffCampaign:   {90, 30, 300, func(t *Timers) *int { return &t.SheriffCampaign }},
	PhaseSheriffVote:       {30, 15, 120, func(t *Timers) *int { return &t.SheriffVote }},
	PhaseSheriffRunoff:     {20, 10, 60, func(t *Timers) *int { return &t.SheriffRunoff }},
	PhaseDiscussion:        {0, 30, 900, func(t *Timers) *int { return &t.Discussion }},
	PhaseVote:              {45, 15, 180, func(t *Timers) *int { return &t.Vote }},
	PhaseSheriffTiebreak:   {30, 10, 90, func(t *Timers) *int { return &t.Tiebreak }},
	PhaseVerdict:           {8, 3, 30, func(t *Timers) *int { return &t.Verdict }},
}

// Seconds is the window of phase p with alive living players, in seconds
// (0 for GameOver).
func (t Timers) Seconds(p Phase, alive int) int {
	spec, ok := timerSpecs[p]
	if !ok {
		return 0
	}
	v := *spec.field(&t)
	if p == PhaseDiscussion && v == 0 {
		return min(max(60+15*alive, 90), 300)
	}
	if v == 0 {
		return spec.def
	}
	return v
}

// Options are a table's rules; encoded as JSON in game.Setup.Options.
// Decode with DecodeOptions, which starts from DefaultOptions so missing
// fields keep their defaults.
type Options struct {
	Preset Preset `json:"preset"`

	// Custom composition (Preset == PresetCustom). Each special card replaces
	// one simple villager; the thief adds two villagers to the deck (§3.3).
	Wolves     int  `json:"wolves,omitempty"`
	Seer       bool `json:"seer,omitempty"`
	Witch      bool `json:"witch,omitempty"`
	Hunter     bool `json:"hunter,omitempty"`
	Cupid      bool `json:"cupid,omitempty"`
	LittleGirl bool `json:"little_girl,omitempty"`
	Thief      bool `json:"thief,omitempty"`
	Sheriff    bool `json:"sheriff,omitempty"` // Custom only: Starter is off, Classic on

	// SmallTable [NR] allows 5..7 seats; such games are not rulebook games
	// and their results are unofficial.
	SmallTable bool `json:"small_table,omitempty"`

	NightTiming      NightTiming `json:"night_timing"`
	LittleGirlRelay  float64     `json:"little_girl_relay"` // 0 < p ≤ 1
	LittleGirlCatch  float64     `json:"little_girl_catch"` // 0 ≤ p ≤ 1
	RevealNightCause bool        `json:"reveal_night_cause"`
	DeadSeeAll       bool        `json:"dead_see_all"`
	// BotTakeover [NR] is for the room actor (a bot drives a seat offline for
	// long); the rules ignore it.
	BotTakeover     bool   `json:"bot_takeover,omitempty"`
	StalemateCycles int    `json:"stalemate_cycles"` // 0 = off
	Timers          Timers `json:"timers"`
	// DayHours and NightHours play the game by correspondence: a day's
	// decisions take DayHours and a night's steps NightHours between them
	// (CorrespondenceWindow); 0 plays it live, by Timers. Both or neither.
	DayHours   int `json:"day_hours,omitempty"`
	NightHours int `json:"night_hours,omitempty"`
}

// Correspondence reports a game played over days (DayHours).
func (o Options) Correspondence() bool { return o.DayHours > 0 }

// The bounds of a correspondence game's day and night, in hours.
const (
	MaxDayHours   = 72
	MaxNightHours = 24
)

// Window is how long phase p runs with alive living players and steps
// role steps tonight (Thief, Cupid, Seer, Wolves, Witch as called):
// Timers' seconds live; by correspondence, the day's and the night's
// hours shared out (CorrespondenceWindow).
func (o Options) Window(p Phase, alive, steps int) time.Duration {
	if o.Correspondence() {
		if d := o.CorrespondenceWindow(p, steps); d > 0 {
			return d
		}
	}
	return time.Duration(o.Timers.Seconds(p, alive)) * time.Second
}

// CorrespondenceWindow is phase p's share of a correspondence game's day
// or night, or 0 for the phases that only tell (nightfall, the lovers'
// waking, dawn, the verdict), which keep their seconds:
//   - each role step of the night: the night's hours over tonight's steps
//     (every called step, whoever holds its card, so the windows reveal
//     nothing: the deck list is public);
//   - the discussion: two thirds of the day; the vote: one third;
//   - on day 1 with a sheriff, the campaign takes a third of a day, the
//     vote and the runoff a sixth each, before the discussion;
//   - the hunter's shot, the sheriff's successor and tie-break: a sixth.
func (o Options) CorrespondenceWindow(p Phase, steps int) time.Duration {
	day, night := time.Duration(o.DayHours)*time.Hour, time.Duration(o.NightHours)*time.Hour
	switch p {
	case PhaseThief, PhaseCupid, PhaseSeer, PhaseWolves, PhaseWitch:
		return night / time.Duration(max(steps, 1))
	case PhaseDiscussion:
		return day * 2 / 3
	case PhaseVote, PhaseSheriffCampaign:
		return day / 3
	case PhaseSheriffVote, PhaseSheriffRunoff, PhaseHunterShot, PhaseSheriffSuccession, PhaseSheriffTiebreak:
		return day / 6
	}
	return 0
}

// DefaultOptions are the spec's defaults: Starter preset, strict nights.
func DefaultOptions() Options {
	return Options{
		Preset:           PresetStarter,
		NightTiming:      TimingStrict,
		LittleGirlRelay:  0.2,
		LittleGirlCatch:  0.1,
		RevealNightCause: true,
		DeadSeeAll:       true,
		StalemateCycles:  5,
	}
}

// ClassicOptions are the defaults with the Classic preset.
func ClassicOptions() Options {
	o := DefaultOptions()
	o.Preset = PresetClassic
	return o
}

// DecodeOptions reads options encoded as JSON over the defaults. Empty input
// gives the defaults.
func DecodeOptions(b []byte) (Options, error) {
	o := DefaultOptions()
	if len(b) == 0 {
		return o, nil
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return o, fmt.Errorf("%w: %v", ErrBadOptions, err)
	}
	return o, nil
}

// Encode is the JSON for game.Setup.Options.
func (o Options) Encode() []byte {
	b, _ := json.Marshal(o)
	return b
}

// Unofficial reports whether games under these options are not rulebook
// games (small tables; the lobby must say so).
func (o Options) Unofficial() bool { return o.SmallTable }

// NotRulebook lists the options in use that are not in the rulebook, for
// the lobby to show (spec: [NR] options MUST be labelled). Fast nights also
// leak who is alive through timing.
func (o Options) NotRulebook() []game.Msg {
	var v []game.Msg
	if o.SmallTable {
		v = append(v, game.M("werewolf.nr.small_table"))
	}
	if o.NightTiming == TimingFast {
		v = append(v, game.M("werewolf.nr.fast_nights"))
	}
	if o.BotTakeover {
		v = append(v, game.M("werewolf.nr.bot_takeover"))
	}
	return v
}

// SheriffOn reports whether the sheriff is elected in this game.
func (o Options) SheriffOn() bool {
	switch o.Preset {
	case PresetClassic:
		return true
	case PresetCustom:
		return o.Sheriff
	}
	return false
}

// TableWolves is the rulebook's werewolf count for n players (small-table
// defaults below 8).
func TableWolves(n int) int {
	switch {
	case n <= 6:
		return 1
	case n <= 11:
		return 2
	case n <= 17:
		return 3
	}
	return 4
}

// Deck returns the public deck list for n players in canonical order:
// werewolves, specials, simple villagers (the thief's two extra villagers
// included, so the deck holds n or n+2 cards), or why the options are invalid.
func (o Options) Deck(n int) ([]Role, error) {
	if err := o.Validate(n); err != nil {
		return nil, err
	}
	return o.deck(n), nil
}

func (o Options) composition(n int) (wolves int, specials []Role) {
	switch o.Preset {
	case PresetClassic:
		return TableWolves(n), []Role{RoleSeer, RoleWitch, RoleHunter, RoleCupid, RoleLittleGirl, RoleThief}
	case PresetCustom:
		for _, c := range []struct {
			on bool
			r  Role
		}{{o.Seer, RoleSeer}, {o.Witch, RoleWitch}, {o.Hunter, RoleHunter}, {o.Cupid, RoleCupid}, {o.LittleGirl, RoleLittleGirl}, {o.Thief, RoleThief}} {
			if c.on {
				specials = append(specials, c.r)
			}
		}
		return o.Wolves, specials
	}
	return TableWolves(n), []Role{RoleSeer}
}

func (o Options) deck(n int) []Role {
	wolves, specials := o.composition(n)
	var d []Role
	for range wolves {
		d = append(d, RoleWerewolf)
	}
	d = append(d, specials...)
	villagers := n - wolves - len(specials)
	for range villagers {
		d = append(d, RoleVillager)
	}
	for _, r := range specials {
		if r == RoleThief {
			d = append(d, RoleVillager, RoleVillager)
		}
	}
	return d
}

func badOpt(key string, args ...game.Arg) error {
	return game.Refuse(ErrBadOptions, game.M(key, args...))
}

// Validate checks the options for a table of n players (spec §3.2).
func (o Options) Validate(n int) error {
	switch {
	case n >= 8 && n <= 18:
	case n >= 5 && n <= 7 && o.SmallTable:
	case n >= 5 && n <= 7:
		return badOpt("werewolf.opt.small_needed", game.Count(n))
	default:
		return badOpt("werewolf.opt.players", game.Count(n))
	}
	switch o.Preset {
	case PresetStarter, PresetCustom:
	case PresetClassic:
		if n < 8 {
			return badOpt("werewolf.opt.classic_size")
		}
	default:
		return badOpt("werewolf.opt.preset", game.Text("Preset", string(o.Preset)))
	}
	wolves, specials := o.composition(n)
	if wolves < 1 || wolves > 4 {
		return badOpt("werewolf.opt.wolves", game.Count(wolves))
	}
	if n-wolves-len(specials) < 0 {
		return badOpt("werewolf.opt.too_many", game.Count(n))
	}
	for _, r := range specials {
		if r == RoleThief && wolves < 2 {
			return badOpt("werewolf.opt.thief")
		}
	}
	switch o.NightTiming {
	case TimingStrict, TimingFast:
	default:
		return badOpt("werewolf.opt.timing")
	}
	if !(o.LittleGirlRelay > 0 && o.LittleGirlRelay <= 1) {
		return badOpt("werewolf.opt.relay")
	}
	if !(o.LittleGirlCatch >= 0 && o.LittleGirlCatch <= 1) {
		return badOpt("werewolf.opt.catch")
	}
	if o.StalemateCycles < 0 {
		return badOpt("werewolf.opt.stalemate")
	}
	if (o.DayHours > 0) != (o.NightHours > 0) || o.DayHours < 0 || o.DayHours > MaxDayHours || o.NightHours < 0 || o.NightHours > MaxNightHours {
		return badOpt("werewolf.opt.hours", game.Num("Day", MaxDayHours), game.Num("Night", MaxNightHours))
	}
	if o.Correspondence() && o.NightTiming == TimingFast {
		return badOpt("werewolf.opt.fast_by_correspondence")
	}
	for p := PhaseNightFall; p < PhaseGameOver; p++ {
		spec, ok := timerSpecs[p]
		if !ok {
			continue
		}
		t := o.Timers
		v := *spec.field(&t)
		if v != 0 && (v < spec.lo || v > spec.hi) {
			return badOpt("werewolf.opt.timer", game.Term("Phase", p.TitleKey()), game.Num("Lo", spec.lo), game.Num("Hi", spec.hi))
		}
	}
	return nil
}
