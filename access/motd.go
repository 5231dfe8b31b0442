package access

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sanitize"
)

// The message of the day (--motd FILE): shown in the lobby and in help. An
// operator may add FILE.pl, FILE.ru and FILE.de: a player whose language
// is one of those reads that file, everyone else FILE. Each file is read
// again when it changes, like the key files.
//
// Its text is the operator's but reaches every player's terminal, so it is
// cleaned like anything a player typed (sanitize.Line, line by line: no
// escape sequences, no controls) and bounded to fit an 80×24 lobby:
// MaxMOTDLines lines of at most MaxMOTDWidth characters, the rest dropped.
const (
	MaxMOTDLines = 16
	MaxMOTDWidth = 76
	maxMOTDBytes = 16 << 10
)

// textFile is a small text file kept in memory and read again on change.
// An optional one may be missing (its text is then "").
type textFile struct {
	path     string
	optional bool
	log      *slog.Logger

	mu    sync.RWMutex
	text  string
	stamp fileStamp
	gone  bool // missing at the last look
}

func openTextFile(path string, optional bool, log *slog.Logger) (*textFile, error) {
	f := &textFile{path: path, optional: optional, log: log}
	if err := f.Load(); err != nil {
		return nil, err
	}
	return f, nil
}

// Load reads the file now. A missing optional file has no text (and is no
// error); on any other error the last text stays.
func (f *textFile) Load() error {
	fh, err := os.Open(f.path)
	if err != nil {
		if f.optional && os.IsNotExist(err) {
			f.mu.Lock()
			f.text, f.stamp, f.gone = "", fileStamp{}, true
			f.mu.Unlock()
			return nil
		}
		return fmt.Errorf("motd file: %w", err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return fmt.Errorf("motd file: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(fh, maxMOTDBytes))
	if err != nil {
		return fmt.Errorf("motd file: %w", err)
	}
	text := CleanMOTD(string(raw))
	f.mu.Lock()
	f.text, f.stamp, f.gone = text, stampOf(fi), false
	f.mu.Unlock()
	f.log.Info("motd read", "path", f.path, "lines", strings.Count(text, "\n")+min(1, len(text)))
	return nil
}

// Check reads the file again if it changed, appeared or went away.
func (f *textFile) Check() bool {
	fi, err := os.Stat(f.path)
	f.mu.RLock()
	stamp, gone := f.stamp, f.gone
	f.mu.RUnlock()
	switch {
	case err != nil && f.optional && os.IsNotExist(err):
		if gone {
			return false
		}
	case err != nil:
		return false // unreadable: the last text stays
	case !gone && stamp == stampOf(fi):
		return false
	}
	if err := f.Load(); err != nil {
		f.log.Warn("motd file cannot be read: its last version stays", "path", f.path, "err", err)
		return false
	}
	return true
}

func (f *textFile) Text() string {
	if f == nil {
		return ""
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.text
}

// CleanMOTD is a message of the day as players see it: each line cleaned
// of escapes and controls and wrapped at MaxMOTDWidth characters, at most
// MaxMOTDLines lines, blank lines at either end dropped, and no more than
// one blank line in a row.
func CleanMOTD(s string) string {
	var out []string
	for line := range strings.SplitSeq(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		l := sanitize.Line(line, MaxMOTDLines*MaxMOTDWidth)
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, wrapWords(l, MaxMOTDWidth)...)
		if len(out) >= MaxMOTDLines {
			out = out[:MaxMOTDLines]
			break
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// wrapWords breaks a line (one space between words, as sanitize.Line
// leaves it) into lines of at most width characters, between words where
// it can. An empty line stays one empty line.
func wrapWords(l string, width int) []string {
	var out []string
	var cur []rune
	for _, w := range strings.Split(l, " ") {
		word := []rune(w)
		for len(word) > width { // longer than a line: cut it
			if len(cur) > 0 {
				out, cur = append(out, string(cur)), nil
			}
			out, word = append(out, string(word[:width])), word[width:]
		}
		switch {
		case len(cur) == 0:
			cur = word
		case len(cur)+1+len(word) <= width:
			cur = append(append(cur, ' '), word...)
		default:
			out, cur = append(out, string(cur)), word
		}
	}
	return append(out, string(cur))
}

// motdFiles is FILE and its translations.
type motdFiles struct {
	base  *textFile
	langs map[i18n.Lang]*textFile
}

func openMOTD(path string, log *slog.Logger) (*motdFiles, error) {
	base, err := openTextFile(path, false, log)
	if err != nil {
		return nil, err
	}
	m := &motdFiles{base: base, langs: map[i18n.Lang]*textFile{}}
	for _, l := range i18n.Langs {
		if l == i18n.English {
			continue
		}
		f, err := openTextFile(path+"."+string(l), true, log)
		if err != nil {
			return nil, err
		}
		m.langs[l] = f
	}
	return m, nil
}

func (m *motdFiles) files() []*textFile {
	out := []*textFile{m.base}
	for _, l := range i18n.Langs {
		if f := m.langs[l]; f != nil {
			out = append(out, f)
		}
	}
	return out
}

// MOTD is the message of the day for a player reading lang ("" when the
// server has none): FILE.<lang> if there is one, else FILE.
func (p *Policy) MOTD(lang i18n.Lang) string {
	if p == nil || p.motd == nil {
		return ""
	}
	if t := p.motd.langs[lang].Text(); t != "" {
		return t
	}
	return p.motd.base.Text()
}

// MaxNameRunes bounds the server's name: it shares the lobby's first line
// with the player's name at 80 columns.
const MaxNameRunes = 32

// Name is the server's name (--name), cleaned; "" when none was given.
func (p *Policy) Name() string {
	if p == nil {
		return ""
	}
	return sanitize.Line(p.cfg.Name, MaxNameRunes)
}
