package grizzledui

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/*.golden")

// asciiTheme is a theme whose renderer writes plain text (NO_COLOR).
func asciiTheme() *uikit.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return uikit.New(r)
}

func newScreen(u table.Update, w, h int) *Screen {
	s := New(asciiTheme())
	s.SetHelpBar(true) // on its own, as at 80×24 with its help bar
	s.SetSize(w, h)
	s.SetUpdate(u)
	return s
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// checkFits: exactly h lines, none wider than w, no escape codes.
func checkFits(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide (max %d): %q", i+1, n, w, l)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("escape codes in Ascii output")
	}
}

// goldenCase is one of the screens drawn by TestGoldenScreens (and, in
// every language, by TestEveryScreenFitsInEveryLanguage).
type goldenCase struct {
	name string
	u    table.Update
	want []string // text that must be on the screen
}

func goldenCases() []goldenCase {
	return []goldenCase{
		{"intensity", intensity(), []string{"how many cards", "Mission 3 succeeded", "Bob benefits (2 tiles)", "Cards to each soldier: [1] 2 3"}},
		{"mid-mission", midMission(), []string{"!! Night and Shell at 2", "Trauma(Cid)", "Your turn", "[1 T11 Sn Sh]", "Playing it fails the mission: Shell would reach 3", "No withdrawal: Bob is Fragile"}},
		{"speech-answer", speechAnswer(), []string{"Speech by Cid", "Sn Snow", "pass (x)", "x pass"}},
		{"tile-placement", tilePlacement(), []string{"place one support tile", "L → Bob", "R → Dee", "DL → Cid"}},
		{"support-reveal", supportReveal(), []string{"Support: Bob R→Ann", "Ann benefits (2 tiles)", "r charm", "Wounded + Fearful"}},
		{"mc-target", mcTarget(), []string{"Merry Christmas: choose", "Bob: Fragile", "Dee: Wounded"}},
		{"absent-minded", absentMinded(), []string{"Absent-minded", "remove tile"}},
		{"game-over", gameOver(), []string{"DEFEAT", "Bob (4)", "Lost in mission 6", "failed"}},
		{"spectator", spectator(), []string{"You are watching", "Q leave"}},
		{"notice", withNotice(midMission(), "the mission has moved on: that key was pressed on an older table"),
			[]string{"✗ Refused: the mission has moved on"}},
	}
}

func TestGoldenScreens(t *testing.T) {
	tests := goldenCases()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := newScreen(tt.u, 80, 24).View()
			checkFits(t, out, 80, 24)
			flat := strings.Join(strings.Fields(out), " ") // wrapping may split a phrase
			for _, w := range tt.want {
				if !strings.Contains(flat, w) {
					t.Errorf("screen lacks %q", w)
				}
			}
			golden(t, tt.name, out)
		})
	}
}

func TestGoldenLarge(t *testing.T) {
	out := newScreen(midMission(), 120, 36).View()
	checkFits(t, out, 120, 36)
	golden(t, "mid-mission-120x36", out)
}

func TestWindowTooSmall(t *testing.T) {
	out := newScreen(midMission(), 20, 5).View()
	checkFits(t, out, 20, 5)
	if got := strings.Join(strings.Fields(out), " "); !strings.Contains(got, "window too small: need 80×24, have 20×5") {
		t.Errorf("too-small message missing: %q", out)
	}
	golden(t, "too-small", out)
	// One column short is too small too; the full size is not.
	if out := newScreen(midMission(), 79, 24).View(); !strings.Contains(out, "too small") {
		t.Error("79×24 should be too small")
	}
	if out := newScreen(midMission(), 80, 24).View(); strings.Contains(out, "too small") {
		t.Error("80×24 should fit")
	}
}

func TestHelpBarOffGivesTheLineBack(t *testing.T) {
	s := newScreen(midMission(), 80, 23)
	s.SetHelpBar(false)
	out := s.View()
	checkFits(t, out, 80, 23)
	if strings.Contains(out, "too small") || strings.Contains(out, "p/enter play card") {
		t.Errorf("without the help bar 80×23 should be the table alone:\n%s", out)
	}
}

// TestDumpFixtures writes the fixtures as JSON for a throwaway viewer:
// GRIZZLEDUI_DUMP=/tmp/fx go test -run DumpFixtures ./games/grizzled/grizzledui/
func TestDumpFixtures(t *testing.T) {
	dir := os.Getenv("GRIZZLEDUI_DUMP")
	if dir == "" {
		t.Skip("GRIZZLEDUI_DUMP not set")
	}
	for name, u := range map[string]table.Update{
		"intensity": intensity(), "mid-mission": midMission(), "speech-answer": speechAnswer(),
		"tile-placement": tilePlacement(), "support-reveal": supportReveal(), "mc-target": mcTarget(),
		"absent-minded": absentMinded(), "game-over": gameOver(), "spectator": spectator(),
	} {
		b, err := json.MarshalIndent(u, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func withNotice(u table.Update, notice string) table.Update {
	u.Notice = game.Raw(notice)
	return u
}

func TestNotAGrizzledView(t *testing.T) {
	s := newScreen(midMission(), 80, 24)
	s.SetUpdate(table.Update{Seat: 0, Started: true, View: "something else"})
	if out := s.View(); !strings.Contains(out, "Waiting for the table") {
		t.Errorf("a foreign view should leave the table empty:\n%s", out)
	}
	if got := keys(s, "p", "enter", "w", "1"); len(got) != 0 {
		t.Errorf("keys on an empty table: %#v", got)
	}
}

// TestEveryScreenFitsInEveryLanguage draws every golden screen in every
// language the server speaks, at 80×24 and 120×36: no line wider than the
// window (display cells), never more lines than it has.
func TestEveryScreenFitsInEveryLanguage(t *testing.T) {
	for _, l := range i18n.Langs {
		for _, tt := range goldenCases() {
			for _, size := range [][2]int{{80, 24}, {120, 36}} {
				th := asciiTheme()
				th.SetLang(l)
				s := New(th)
				s.SetHelpBar(true)
				s.SetSize(size[0], size[1])
				s.SetUpdate(tt.u)
				t.Run(fmt.Sprintf("%s/%s/%dx%d", l, tt.name, size[0], size[1]), func(t *testing.T) {
					checkFits(t, s.View(), size[0], size[1])
				})
			}
		}
		th := asciiTheme()
		th.SetLang(l)
		if g := New(th).Guide(); strings.Contains(g, "grizzledui.") {
			t.Errorf("%s: the guide is not in the catalog: %q", l, g)
		}
	}
}
