package uikit

import (
	"sync"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// PerLang keeps one value per language, made the first time a session in
// that language asks. It is for what every session would otherwise build
// for itself though it depends only on the language, such as a screen's key
// bindings with their help text: sixty small objects per session, which
// the garbage collector marks on every cycle, ten thousand times over.
// The value is returned by copy; it must not hold anything a session
// changes in place (a key.Binding's keys and help are only read).
type PerLang[T any] struct {
	Make func(th *Theme) T // builds the value in th's language

	made sync.Map // perLangKey → T
}

// perLangKey is what the words depend on: the language, and whether they
// are romanised (an ASCII theme's words are, before they are laid out).
type perLangKey struct {
	lang  i18n.Lang
	ascii bool
}

// Get returns the value for th's language (and ASCII mode).
func (p *PerLang[T]) Get(th *Theme) T {
	k := perLangKey{th.Lang(), th.ASCII()}
	if v, ok := p.made.Load(k); ok {
		return v.(T)
	}
	v, _ := p.made.LoadOrStore(k, p.Make(th))
	return v.(T)
}
