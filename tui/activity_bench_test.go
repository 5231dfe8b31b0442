package tui

import (
	"sync/atomic"
	"testing"

	"github.com/bivouac-ssh/bivouac/presence"
)

// oneByte reads one byte at a time, as a player's keys come.
type oneByte struct{}

func (oneByte) Read(p []byte) (int, error) { p[0] = 'j'; return 1, nil }

// What a key costs the session's reader: the idle clock's stamp alone
// (a guest, and every session before away), and with presence's Key (a
// keyed player: one more atomic store and load).
func BenchmarkKeyStamp(b *testing.B) {
	h := presence.New("", nil)
	w := &Whereabouts{Session: h.Join("anna", "anna", presence.Circle{Friends: []string{"bob"}})}
	defer w.Close()
	buf := make([]byte, 64)
	for _, c := range []struct {
		name  string
		where *Whereabouts
	}{{"stamp", nil}, {"stamp+presence", w}} {
		b.Run(c.name, func(b *testing.B) {
			var last atomic.Int64
			r := activityReader{oneByte{}, &last, c.where}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = r.Read(buf)
			}
		})
	}
}
