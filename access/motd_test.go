package access

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
)

func TestCleanMOTDKeepsItPrintableAndSmall(t *testing.T) {
	in := "\n\nWelcome \x1b[31mfriends\x1b[0m\x07!\r\n\n\n\nrules: be kind\x1b]0;pwned\x07\n" +
		strings.Repeat("x", 200) + "\n" + strings.Repeat("line\n", 40)
	got := CleanMOTD(in)
	lines := strings.Split(got, "\n")
	if lines[0] != "Welcome friends!" || lines[1] != "" || lines[2] != "rules: be kind" {
		t.Fatalf("cleaned = %q", got)
	}
	if strings.ContainsAny(got, "\x1b\x07\r") {
		t.Fatalf("an escape or control survived: %q", got)
	}
	if len(lines) != MaxMOTDLines || len([]rune(lines[3])) != MaxMOTDWidth || len(lines[5]) != 200-2*MaxMOTDWidth || lines[6] != "line" {
		t.Fatalf("%d lines, the long one %d wide then %q; want %d lines, %d wide", len(lines), len([]rune(lines[3])), lines[6], MaxMOTDLines, MaxMOTDWidth)
	}
	wrapped := CleanMOTD(strings.Repeat("word ", 30))
	for _, l := range strings.Split(wrapped, "\n") {
		if len(l) > MaxMOTDWidth || strings.HasPrefix(l, " ") || strings.HasSuffix(l, " ") || strings.Contains(l, "wo\n") {
			t.Fatalf("wrapped badly: %q", wrapped)
		}
	}
	if strings.Count(wrapped, "word") != 30 {
		t.Fatalf("wrapping lost words: %q", wrapped)
	}
}

func TestMOTDIsPickedByLanguageAndReadAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "motd")
	writeFile(t, path, "Hello, soldiers.\n")
	writeFile(t, path+".pl", "Witajcie, żołnierze.\n")
	clk := clocktest.New()
	p, err := New(Config{MOTDFile: path, Name: "Trench \x1b[5mNo. 9\x1b[0m", Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	p.Watch()
	defer p.Close()
	if p.Name() != "Trench No. 9" {
		t.Errorf("name = %q", p.Name())
	}
	for l, want := range map[i18n.Lang]string{i18n.English: "Hello, soldiers.", i18n.Polish: "Witajcie, żołnierze.", i18n.German: "Hello, soldiers."} {
		if got := p.MOTD(l); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
	writeFile(t, path+".de", "Willkommen.\n")
	writeFile(t, path, "Hello again.\n")
	clk.Advance(PollEvery)
	if p.MOTD(i18n.German) != "Willkommen." || p.MOTD(i18n.Russian) != "Hello again." {
		t.Errorf("after a poll: de %q, ru %q", p.MOTD(i18n.German), p.MOTD(i18n.Russian))
	}
	if _, err := New(Config{MOTDFile: filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing motd file was accepted at start")
	}
}
