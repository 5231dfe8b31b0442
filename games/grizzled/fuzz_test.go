package grizzled

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// reach plays a random game from seed for at most steps actions.
func reach(t testing.TB, humans int, seed uint64, steps int) *State {
	s := newTestGame(t, humans, Options{Variant: Standard, Leader: game.NoSeat}, seed)
	r := rand.New(rand.NewPCG(seed, 11))
	var buf []Action
	for range steps {
		if _, over := s.Over(); over {
			break
		}
		w := s.Waiting()
		seat := w[r.IntN(len(w))]
		buf = s.AppendLegal(buf[:0], seat)
		if err := s.Step(seat, buf[r.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// rawAction builds an action from arbitrary bytes without the codec, so
// that the fuzzer reaches values the codec would never produce.
func rawAction(b []byte) Action {
	get := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	a := Action{Kind: ActionKind(get(0) % 16), K: int(int8(get(1))), Card: CardID(get(2) % 64), Threat: Threat(get(3) % 8),
		Tile: Tile(get(4) % 6), Target: game.Seat(int(get(5)%8) - 2)}
	if n := int(get(6) % 4); n > 0 {
		for i := range n {
			a.Cards = append(a.Cards, CardID(get(7+i)%64))
		}
	}
	return a
}

// FuzzApply: arbitrary actions against states reached by random play never
// panic; refused ones change nothing and accepted ones keep the invariants.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(10), []byte{byte(ActPlay), 0, 4})
	f.Add(uint64(2), uint8(4), uint8(40), []byte{byte(ActWithdraw)})
	f.Add(uint64(3), uint8(2), uint8(0), []byte{byte(ActIntensity), 3})
	f.Add(uint64(4), uint8(5), uint8(90), []byte{byte(ActBenefitDiscard), 0, 0, 0, 0, 0, 2, 46, 47})
	f.Add(uint64(5), uint8(3), uint8(25), []byte{byte(ActTimeout)})
	f.Fuzz(func(t *testing.T, seed uint64, humans, steps uint8, data []byte) {
		h := 2 + int(humans)%4
		if len(data) > 120 {
			data = data[:120] // a dozen actions is plenty; keeps each run short
		}
		s := reach(t, h, seed, int(steps))
		for len(data) > 0 {
			seat := game.Seat(int(data[0]%8) - 2)
			data = data[1:]
			var a Action
			n := min(len(data), 10)
			if d, err := DecodeAction(data[:n]); err == nil {
				a = d
			} else {
				a = rawAction(data)
			}
			data = data[n:]
			before := s.Clone()
			evs, err := s.Apply(seat, a)
			if err != nil {
				if len(evs) > 0 || !reflect.DeepEqual(before, s) {
					t.Fatalf("refused %+v changed the state or returned events", a)
				}
				if err.Error() == "" {
					t.Fatal("empty message")
				}
				continue
			}
			if err := s.Check(); err != nil {
				t.Fatalf("after %+v: %v", a, err)
			}
		}
	})
}

// FuzzDecodeAction: any bytes decode or fail cleanly, and whatever decodes
// re-encodes to an action that decodes the same.
func FuzzDecodeAction(f *testing.F) {
	for _, a := range []Action{intensity(3), play(tc(4)), speech(Mask), benefit(Wounded, Mute), mcDiscard(Mute, 3), place(TileDR), pass} {
		b, _ := EncodeAction(a)
		f.Add(b)
	}
	f.Add([]byte{byte(ActIntensity), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAction(b)
		if err != nil {
			if !errors.Is(err, ErrBadAction) {
				t.Fatalf("error %v is not ErrBadAction", err)
			}
			return
		}
		e, err := EncodeAction(a)
		if err != nil {
			t.Fatalf("decoded %+v does not encode: %v", a, err)
		}
		a2, err := DecodeAction(e)
		if err != nil || !reflect.DeepEqual(a, a2) {
			t.Fatalf("round trip %+v -> %x -> %+v (%v)", a, e, a2, err)
		}
	})
}

func TestActionCodecRoundTrip(t *testing.T) {
	seen := 0
	for seed := range uint64(30) {
		s := reach(t, 2+int(seed)%4, seed, int(seed*7))
		for _, seat := range s.Waiting() {
			for _, a := range s.Legal(seat) {
				b, err := EncodeAction(a)
				if err != nil {
					t.Fatal(err)
				}
				if len(b) > 4 && a.Kind != ActBenefitDiscard {
					t.Errorf("%s takes %d bytes", a.String(), len(b))
				}
				d, err := DecodeAction(b)
				if err != nil || !reflect.DeepEqual(a, d) {
					t.Fatalf("%+v -> %x -> %+v %v", a, b, d, err)
				}
				seen++
			}
		}
	}
	if _, err := DecodeAction([]byte{byte(ActWithdraw), 0}); err == nil {
		t.Fatal("trailing bytes accepted")
	}
	if _, err := DecodeAction(binary.AppendVarint([]byte{byte(ActIntensity)}, 1<<62)); err != nil && seen == 0 {
		t.Fatal(err)
	}
	var g Game
	b, err := g.EncodeAction(play(tc(4)))
	if err != nil {
		t.Fatal(err)
	}
	a, err := g.DecodeAction(b)
	if err != nil || a.(Action).Card != tc(4) {
		t.Fatal("Game codec")
	}
}

func TestStateSnapshotRoundTrip(t *testing.T) {
	for seed := range uint64(20) {
		s := reach(t, 2+int(seed)%4, seed, int(seed*9))
		b, err := EncodeState(s)
		if err != nil {
			t.Fatal(err)
		}
		d, err := DecodeState(b)
		if err != nil {
			t.Fatal(err)
		}
		// The decoded state continues exactly like the original.
		r := rand.New(rand.NewPCG(seed, 3))
		for range 200 {
			if _, over := s.Over(); over {
				break
			}
			w := s.Waiting()
			seat := w[r.IntN(len(w))]
			l := s.Legal(seat)
			a := l[r.IntN(len(l))]
			e1, err1 := s.Apply(seat, a)
			e2, err2 := d.Apply(seat, a)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(e1, e2) {
				t.Fatalf("seed %d: diverged: %v %v", seed, err1, err2)
			}
		}
		x, _ := EncodeState(s)
		y, _ := EncodeState(d)
		if string(x) != string(y) {
			t.Fatalf("seed %d: snapshots differ after playing on", seed)
		}
	}
	if _, err := DecodeState([]byte(`{"v":1}`)); err == nil {
		t.Fatal("empty snapshot accepted")
	}
}
