package werewolf

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

var allKinds = []Kind{KindTick, KindAbandon, KindThiefTake, KindThiefKeep, KindCupidLink, KindSeerInspect,
	KindWolfSelect, KindWolfClear, KindWolfDone, KindPeek, KindWitchHeal, KindWitchPoison, KindWitchDone, KindHunterShoot,
	KindHunterHold, KindSuccessor, KindStand, KindReady, KindBallot, KindAbstain, KindTiebreak, KindSay, "bogus"}

// fuzzGame plays the bytes as a game: each 4-byte chunk is a legal action,
// a timer tick, a stale tick, a chat line or an arbitrary action by an
// arbitrary seat (System and spectator included). Nothing may panic, a
// refused action changes nothing, and the invariants hold throughout.
func fuzzGame(t *testing.T, data []byte) {
	if len(data) < 2 {
		return
	}
	if len(data) > 1600 { // at most 400 steps, so each input stays fast
		data = data[:1600]
	}
	n := 5 + int(data[0])%14
	opts := DefaultOptions()
	switch data[1] % 3 {
	case 1:
		if n >= 8 {
			opts = ClassicOptions()
		}
	case 2:
		opts.Preset, opts.Wolves = PresetCustom, 2
		opts.Seer, opts.Witch, opts.Hunter, opts.Sheriff = true, true, true, true
		opts.Cupid, opts.LittleGirl, opts.Thief = n >= 7, n >= 8, n >= 8
	}
	opts.SmallTable = n < 8
	if data[1]&8 != 0 {
		opts.NightTiming = TimingFast
	}
	if data[1]&16 != 0 {
		opts.LittleGirlRelay, opts.LittleGirlCatch = 1, 0.3
	}
	if data[1]&32 != 0 {
		opts.RevealNightCause, opts.DeadSeeAll = false, false
	}
	s, evs, err := NewState(namesN(n), opts, uint64(data[1]))
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	if err := audiences(s, evs); err != nil {
		t.Fatal(err)
	}
	g := Game{}
	for i := 2; i+3 < len(data) && !s.Over; i += 4 {
		b := data[i : i+4]
		seat := game.Seat(int(b[1])%(n+2) - 2)
		var a Action
		switch b[0] % 8 {
		case 0, 1, 2:
			for k := range n {
				seat = game.Seat((int(b[1]) + k) % n)
				if legal := s.Legal(int(seat)); len(legal) > 0 {
					a = legal[int(b[3])%len(legal)]
					break
				}
			}
			if a.Kind == "" {
				tm, _ := s.Timer()
				seat, a = game.System, tm.Action.(Action)
			}
		case 3:
			tm, _ := s.Timer()
			seat, a = game.System, tm.Action.(Action)
		case 4:
			seat, a = game.System, Action{Kind: KindTick, Seq: s.PhaseSeq - 1}
		case 5:
			text := string(data[i:min(len(data), i+12)])
			evs, err := g.Say(s, seat, text)
			if err != nil && len(evs) > 0 {
				t.Fatal("refused chat with events")
			}
			if err := audiences(s, evs); err != nil {
				t.Fatal(err)
			}
			continue
		default:
			a = Action{Kind: allKinds[int(b[2])%len(allKinds)], Target: int(int8(b[3])) % (n + 2), Second: int(b[3] >> 4), On: b[3]&1 == 1, Seq: s.PhaseSeq + uint64(b[2]&1), Text: "x"}
		}
		before, _ := EncodeState(s)
		next, evs, err := g.Apply(s, seat, a)
		if err != nil {
			after, _ := EncodeState(s)
			if len(evs) > 0 || next != game.State(s) || !bytes.Equal(before, after) {
				t.Fatalf("refused %v by %d changed something", a, seat)
			}
			continue
		}
		s = next.(*State)
		if err := invariants(s); err != nil {
			t.Fatalf("after %v by %d in %v: %v", a, seat, s.Phase, err)
		}
		if err := audiences(s, evs); err != nil {
			t.Fatal(err)
		}
	}
	b, err := EncodeState(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeState(b); err != nil {
		t.Fatal(err)
	}
}

func FuzzApply(f *testing.F) {
	f.Add([]byte{3, 1, 0, 0, 0, 0})
	f.Add([]byte{10, 2, 0, 1, 2, 3, 3, 0, 0, 0, 0, 5, 6, 7, 5, 1, 2, 3, 7, 7, 7, 7})
	f.Add(bytes.Repeat([]byte{0, 3, 9, 200}, 200))
	f.Add(bytes.Repeat([]byte{1, 7, 4, 13, 3, 0, 0, 0, 6, 9, 17, 2}, 120))
	f.Fuzz(fuzzGame)
}

// TestFuzzCorpusRandom runs the fuzz body on pseudo-random inputs so plain
// `go test` covers it broadly.
func TestFuzzCorpusRandom(t *testing.T) {
	runs := 300
	if raceEnabled || testing.Short() {
		runs = 25
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range runs {
		b := make([]byte, 40+r.IntN(1600))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		fuzzGame(t, b)
	}
}

func FuzzDecodeAction(f *testing.F) {
	f.Add([]byte(`{"kind":"ballot","target":3}`))
	f.Add([]byte(`{"kind":"say","text":"\u202eabc"}`))
	f.Add([]byte(`garbage`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g := Game{}
		a, err := g.DecodeAction(b)
		if err != nil {
			return
		}
		s, _, _ := NewState(namesN(8), ClassicOptions(), 5)
		for seat := game.Seat(-3); seat < 9; seat++ {
			next, evs, err := g.Apply(s, seat, a)
			if err != nil && (len(evs) > 0 || next != game.State(s)) {
				t.Fatal("refused action changed something")
			}
			if err == nil {
				s = next.(*State)
			}
		}
	})
}
