package grizzledui

import (
	"github.com/bivouac-ssh/bivouac/games/grizzled"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// threatColours are the threats' colours (light background, dark
// background) in grizzled.Threat's order: each distinct, so a threat is
// known by its colour at a glance; its mark says the same under NO_COLOR.
var threatColours = [grizzled.NumThreats][2]string{
	{"#4B2C9E", "#B39DFF"}, // Night: violet
	{"#00728F", "#9BE7FF"}, // Snow: ice blue
	{"#1F4FBF", "#5F9BFF"}, // Rain: blue
	{"#B3261E", "#FF6F5E"}, // Shell: red
	{"#8A6D00", "#FFE066"}, // Whistle: yellow
	{"#2E7D32", "#7CDB7C"}, // Gas Mask: green
}

// threatInks are the threats' styles and marks for one theme and language.
type threatInks struct {
	th   *uikit.Theme
	lang i18n.Lang
	ink  [grizzled.NumThreats]uikit.Ink
	mark [grizzled.NumThreats]string // two letters of the threat's name ("Ni", "Sh")
	tag  [grizzled.NumThreats]string // mark in the threat's colour, drawn once
}

// newThreatInks builds the threats' styles from th's renderer and their
// marks from th's language.
func newThreatInks(th *uikit.Theme) threatInks {
	k := threatInks{th: th, lang: th.Lang()}
	for t, col := range threatColours {
		k.ink[t] = uikit.NewInk(th.NewStyle().Bold(true).Foreground(th.Color(col[0], col[1])))
		k.mark[t] = th.Printer().T("grizzled.threat_mark." + grizzled.Threat(t).String())
		k.tag[t] = k.ink[t].Render(k.mark[t])
	}
	return k
}

// threats are the threats' styles for the screen's theme, worked out again
// only when the theme or its language changes.
func (s *Screen) threats() *threatInks {
	if s.inks.th != s.th || s.inks.lang != s.th.Lang() {
		s.inks = newThreatInks(s.th)
	}
	return &s.inks
}

// threatInk is threat t's style.
func (s *Screen) threatInk(t grizzled.Threat) uikit.Ink { return s.threats().ink[t] }

// threatTag is threat t's mark in its colour ("Ni", "Sh", ...); a threat
// out of range gives "??".
func (s *Screen) threatTag(t grizzled.Threat) string {
	if s.spoken {
		return ""
	}
	if t >= grizzled.NumThreats {
		return "??"
	}
	return s.threats().tag[t]
}
