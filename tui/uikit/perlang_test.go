package uikit

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestPerLangBuildsOncePerLanguage(t *testing.T) {
	made := 0
	p := PerLang[string]{Make: func(th *Theme) string { made++; return th.T("ui.key.quit") }}
	en, pl, en2 := New(nil), New(nil), New(nil)
	pl.SetLang(i18n.Polish)
	if got, want := p.Get(en), en.T("ui.key.quit"); got != want {
		t.Fatalf("English: %q, want %q", got, want)
	}
	if got, want := p.Get(pl), pl.T("ui.key.quit"); got != want || got == p.Get(en) {
		t.Fatalf("Polish: %q, want %q (and not the English %q)", got, want, p.Get(en))
	}
	p.Get(en2)
	if made != 2 {
		t.Fatalf("built %d times for two languages, want 2", made)
	}
}

// An ASCII session's words are romanised, a Unicode one's are not, in the
// same language: whichever came first made the help bar for both, so a
// Russian player could get "vykhod" (or an ASCII terminal "sest'", the
// per-cell swap's letters) depending on who connected first.
func TestPerLangKeepsASCIIWordsApart(t *testing.T) {
	p := PerLang[string]{Make: func(th *Theme) string { return th.T("ui.key.quit") }}
	ru, ruASCII := New(nil), New(nil)
	ru.SetLang(i18n.Russian)
	ruASCII.SetLang(i18n.Russian)
	ruASCII.SetASCII(true)
	if got, want := p.Get(ruASCII), ruASCII.T("ui.key.quit"); got != want {
		t.Errorf("ASCII first: %q, want %q", got, want)
	}
	if got, want := p.Get(ru), ru.T("ui.key.quit"); got != want {
		t.Errorf("then Unicode: %q, want %q", got, want)
	}
}
