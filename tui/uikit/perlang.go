package uikit

import "sync"

// PerLang keeps one value per language, made the first time a session in
// that language asks. It is for what every session would otherwise build
// for itself though it depends only on the language, such as a screen's key
// bindings with their help text: sixty small objects per session, which
// the garbage collector marks on every cycle, ten thousand times over.
// The value is returned by copy; it must not hold anything a session
// changes in place (a key.Binding's keys and help are only read).
type PerLang[T any] struct {
	Make func(th *Theme) T // builds the value in th's language

	made sync.Map // i18n.Lang → T
}

// Get returns the value for th's language.
func (p *PerLang[T]) Get(th *Theme) T {
	l := th.Lang()
	if v, ok := p.made.Load(l); ok {
		return v.(T)
	}
	v, _ := p.made.LoadOrStore(l, p.Make(th))
	return v.(T)
}
