package uikit

import (
	"testing"

	"bivouac/i18n"
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
