package lease

import (
	"context"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
)

// BenchmarkValid is the check made before every accepted move.
func BenchmarkValid(b *testing.B) {
	m := &Manager{opt: Options{TTL: 3 * time.Second, Margin: 300 * time.Millisecond, Clock: clock.System{}}}
	h := newHeld(m, "ROOM", 1, time.Now())
	b.ReportAllocs()
	for b.Loop() {
		if !h.Valid() {
			b.Fatal("not valid")
		}
	}
}

// BenchmarkRenewal is one renewal's compare-and-set on an embedded
// single-server JetStream: what each held room costs every Renew.
func BenchmarkRenewal(b *testing.B) {
	url := startNATS(b)
	kv := connect(b, url).kv
	m, err := NewManager(kv, "a", Options{TTL: time.Hour, Renew: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	h, err := m.Claim(ctx, "ROOM")
	if err != nil {
		b.Fatal(err)
	}
	defer h.Release(ctx)
	b.ReportAllocs()
	for b.Loop() {
		h.renew()
		if h.Err() != nil {
			b.Fatal(h.Err())
		}
	}
}
