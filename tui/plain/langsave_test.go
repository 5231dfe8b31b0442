package plain

import (
	"bytes"
	"sync"
	"testing"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// langRecords counts the language choices stored.
type langRecords struct {
	tui.Records
	mu     sync.Mutex
	id     string
	lang   i18n.Lang
	writes int
}

func (r *langRecords) SetLang(p table.Player, l i18n.Lang) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes++
	r.id, r.lang = p.ID, l
	return nil
}

func (r *langRecords) saved() (string, i18n.Lang, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.id, r.lang, r.writes
}

// Plain mode's language command stores as the full screen's does: once,
// at the end.
func TestThePlainLanguageCommandWritesOnce(t *testing.T) {
	a := testApp(t)
	clk := clocktest.New()
	a.Clock = clk
	recs := &langRecords{}
	a.Records = recs
	var in bytes.Buffer
	for range 500 {
		in.WriteString("lang pl\nlang de\n")
	}
	in.WriteString("quit\n")
	var out bytes.Buffer
	Run(a, Session{Ctx: t.Context(), Player: table.Player{ID: "fp-alice", Name: "alice"}, Lang: i18n.English,
		In: &in, Out: &out})
	if _, lang, n := recs.saved(); n != 1 || lang != i18n.German {
		t.Fatalf("%d writes, %s stored; want 1 of de", n, lang)
	}
}
