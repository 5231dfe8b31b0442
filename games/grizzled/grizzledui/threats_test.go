package grizzledui

import (
	"io"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestThreatTagsAsciiArePlainMarks(t *testing.T) {
	s := New(asciiTheme())
	for tr := range grizzled.NumThreats {
		got := s.threatTag(grizzled.Threat(tr))
		if strings.Contains(got, "\x1b") {
			t.Errorf("threat %d: escape codes under Ascii: %q", tr, got)
		}
		if want := s.threats().mark[tr]; got != want {
			t.Errorf("threat %d: tag %q, want mark %q", tr, got, want)
		}
	}
}

func TestThreatMarksAreDistinct(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.English, i18n.Polish, i18n.Russian, i18n.German} {
		th := uikit.New(nil)
		th.SetLang(l)
		s := New(th)
		seen := map[string]bool{}
		for tr, m := range s.threats().mark {
			if m == "" || seen[strings.ToLower(m)] {
				t.Errorf("%s threat %d: mark %q empty or repeated", l, tr, m)
			}
			seen[strings.ToLower(m)] = true
		}
	}
	if s := New(asciiTheme()); s.threatTag(grizzled.NumThreats) != "??" {
		t.Error("out-of-range threat should render ??")
	}
}

func TestThreatMarksFollowTheLanguage(t *testing.T) {
	th := uikit.New(nil)
	s := New(th)
	en := s.threatTag(grizzled.Night)
	th.SetLang(i18n.Russian)
	if ru := s.threatTag(grizzled.Night); ru == en {
		t.Errorf("Night's mark stayed %q after the theme turned Russian", ru)
	}
}

func TestThreatColoursAreDistinct(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	s := New(uikit.New(r))
	seen := map[string]int{}
	for tr := range grizzled.NumThreats {
		out := s.threatInk(grizzled.Threat(tr)).Render("X")
		if !strings.Contains(out, "\x1b[") {
			t.Fatalf("threat %d: no colour in %q", tr, out)
		}
		if j, dup := seen[out]; dup {
			t.Errorf("threats %d and %d render the same: %q", j, tr, out)
		}
		seen[out] = tr
	}
}
