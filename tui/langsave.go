package tui

import (
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// langSavePause is how long a keyed player's language choice waits for
// another press of the language key before it is stored. Each store is a
// committed (fsynced) write that the table's moves wait behind: a held key
// or a script pressing l wrote once a press (5,000 presses, 95 MB). Now a
// run of presses is one write, of the last choice.
const langSavePause = 2 * time.Second

// LangSave keeps a session's language choice until it is worth storing:
// after langSavePause without another choice, when the player leaves the
// lobby, or when the session ends (flush), whichever comes first.
type LangSave struct {
	clock  clock.Clock
	store  func(i18n.Lang) error
	failed func(error) // the store failed (nil: say nothing)

	mu      sync.Mutex
	lang    i18n.Lang
	pending bool
	timer   clock.Timer
	saving  sync.Mutex // one store at a time, in the order chosen
}

func NewLangSave(c clock.Clock, store func(i18n.Lang) error) *LangSave {
	if c == nil {
		c = clock.System{}
	}
	return &LangSave{clock: c, store: store}
}

// Choose records l as the choice to store, after a pause.
func (s *LangSave) Choose(l i18n.Lang) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lang, s.pending = l, true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = s.clock.AfterFunc(langSavePause, s.Flush)
}

// Flush stores the choice now if one waits. Safe from any goroutine; a
// choice already stored is not stored again.
func (s *LangSave) Flush() {
	s.saving.Lock()
	defer s.saving.Unlock()
	s.mu.Lock()
	l, pending := s.lang, s.pending
	s.pending = false
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
	if !pending {
		return
	}
	if err := s.store(l); err != nil && s.failed != nil {
		s.failed(err)
	}
}
