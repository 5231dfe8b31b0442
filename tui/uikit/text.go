package uikit

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// Trunc cuts s (which may hold styles) to w cells and marks the cut with
// this theme's ellipsis: "…", or "..." on an ASCII terminal, where the
// per-cell swap would draw "…" as a lone "." that reads as a full stop.
func (t *Theme) Trunc(s string, w int) string {
	if len(s) <= w || Width(s) <= w { // a cell takes at least a byte
		return s
	}
	w = max(w, 0)
	tail := t.Ellipsis()
	if len(tail) > w { // too narrow for the whole mark: as much of it as fits
		tail = tail[:w]
	}
	return ansi.Truncate(s, w, tail)
}

// Ellipsis marks text cut short: "…", or "..." when the theme is ASCII.
func (t *Theme) Ellipsis() string {
	if t.ascii {
		return "..."
	}
	return "…"
}

// Width is how many cells s (which may hold styles) takes, as
// ansi.StringWidth counts them. Text made only of characters that take
// one cell on their own (oneCell) and colour and style sequences (ESC [ …
// final byte) is counted here, in a byte loop; anything else goes to
// ansi.StringWidth (a parser and grapheme clustering): measuring every
// line of every frame with it was a tenth of the server's CPU while
// tables played.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == '\x1b' && i+1 < len(s) && s[i+1] == '[':
			i += 2
			for i < len(s) && s[i] >= 0x20 && s[i] < 0x40 { // parameters and intermediates
				i++
			}
			if i == len(s) || s[i] < 0x40 || s[i] > 0x7e {
				return ansi.StringWidth(s)
			}
			i++ // the final byte
		case c < utf8.RuneSelf:
			return ansi.StringWidth(s) // a control character
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !oneCell(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		}
	}
	return n
}

// oneCells are ranges of characters that take one cell and never join the
// character before or after them into a cluster: Latin letters and signs
// (the soft hyphen aside), Cyrillic (its combining marks aside), general
// punctuation, arrows, box drawing, blocks and most geometric shapes, the
// first miscellaneous symbols (★) and the dingbats screens use (✓, ✗).
// TestOneCellRunesAreOneCell checks each.
var oneCells = [...][2]rune{{0xa0, 0xac}, {0xae, 0x2ff}, {0x400, 0x482}, {0x48a, 0x4ff}, {0x2010, 0x2027}, {0x2030, 0x205e},
	{0x2190, 0x21ff}, {0x2500, 0x25fc}, {0x2600, 0x2613}, {0x2713, 0x2718}}

func oneCell(r rune) bool {
	for _, rg := range oneCells {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// Clean keeps printable text in any script, as a last guard on what players
// typed (names, chat): no controls, escapes or bidi overrides; any space
// becomes a plain space.
func Clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		if unicode.IsSpace(r) {
			return ' '
		}
		return -1
	}, s)
}

// TooSmall is what a table screen of w×h shows when it needs minW×minH;
// reserved lines below it belong to the session (its help bar), so the
// window the player has is w×(h+reserved).
func TooSmall(th *Theme, w, h, reserved, minW, minH int) string {
	msg := th.T("ui.too_small_short", game.Num("MinW", minW), game.Num("MinH", minH), game.Num("W", w), game.Num("H", h+reserved))
	w = max(w, 1)
	lines := strings.Split(ansi.Wrap(msg, w, " "), "\n")
	if h >= 1 && len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = th.Warning.Render(th.Trunc(l, w))
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// Frame lays out a table screen of w×h cells, as lines: body's lines
// (asked for the space left), padded to the full height, then notice on
// lines of its own when there is one (the session's: the coach's hint, a
// problem; its lines separated by "\n"), then — when helpBar is set, as
// for a screen shown on its own — the help bar of keys (asked for only
// then). Without its own help bar the screen's window is one line taller
// (the session's help bar), so a window under minW×minH gets TooSmall
// instead.
func Frame(th *Theme, keys func() help.KeyMap, helpBar bool, w, h, minW, minH int, notice string, body func(w, h int) []string) []string {
	reserved := 0 // lines the root keeps for its own help bar
	if !helpBar {
		reserved = 1
	}
	if w < minW || h+reserved < minH {
		return strings.Split(TooSmall(th, w, h, reserved, minW, minH), "\n")
	}
	n := h // the body's lines
	foot := ""
	if helpBar {
		foot = th.Trunc(th.ShortHelp(w, keys().ShortHelp()), w)
		n--
	}
	var notes []string
	if notice != "" {
		notes = strings.Split(notice, "\n")
		n -= len(notes)
	}
	lines := body(w, n)
	for len(lines) < n {
		lines = append(lines, "")
	}
	lines = append(lines, notes...)
	if helpBar {
		lines = append(lines, foot)
	}
	return lines
}

// NoticeRows is how many lines a table's notice may take in a table area
// of h lines: four from 23 (a window of 24 with the session's help bar:
// the longest hint, in a lost game, a tile to a 20-letter name and the
// next best the same, is four lines of 78 cells in every language), three
// from 20, else one: below that the table needs every line it has.
func NoticeRows(h int) int {
	switch {
	case h >= 23:
		return 4
	case h >= 20:
		return 3
	}
	return 1
}

// NoticeLines are notice (the coach's hint, a session-level problem) on at
// most rows lines of w cells, wrapped at spaces with a cell of margin each
// side, the last cut if it still does not fit, in the theme's notice style.
func NoticeLines(th *Theme, notice string, w, rows int) []string {
	w = max(10, w-2)
	lines := Wrap(notice, w)
	if len(lines) > rows {
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " ")
		}
		rest := strings.Join(lines[rows-1:], " ")
		lines = append(lines[:rows-1:rows-1], th.Trunc(rest, w))
	}
	for i, l := range lines {
		lines[i] = th.Notice.Render(" " + strings.TrimRight(l, " ") + " ")
	}
	return lines
}

// RoomLines are a table screen's body while it has no game to draw: the
// game's name (titleKey) and why the room closed, or that its first view
// is awaited; ok is false when the screen draws its own (the room is open
// and its view came). Every line fits w cells: the reason wraps.
func RoomLines(th *Theme, titleKey string, closed table.CloseReason, hasView bool, w int) (lines []string, ok bool) {
	switch {
	case closed != table.Open:
		lines = []string{th.Title.Render(th.Trunc(th.T(titleKey), w)), ""}
		for _, l := range Wrap(th.T("ui.room_closed", game.Term("Why", closed.Key())), w) {
			lines = append(lines, th.Danger.Render(l))
		}
		return append(lines, th.Muted.Render(th.Trunc(th.T("ui.q_leaves"), w))), true
	case !hasView:
		return []string{th.Title.Render(th.Trunc(th.T(titleKey), w)), "", th.Muted.Render(th.Trunc(th.T("ui.waiting_table"), w))}, true
	}
	return nil, false
}

// TitleLine is a table screen's first line, w cells: the table's title
// (the game's name, fallbackKey, when it has none) and its room code on
// the left, the game's own figures (right) on the right. The room code
// shows when all fits; the title gives way to the figures, which are what
// the table plays by.
func TitleLine(th *Theme, u *table.Update, fallbackKey, right string, w int) string {
	title := Clean(th.Msg(u.Title))
	if title == "" {
		title = th.T(fallbackKey)
	}
	left := th.Title.Render(title)
	if u.Room != "" {
		withRoom := left + th.Muted.Render(" · "+th.T("ui.room_code", game.Text("Code", Clean(u.Room))))
		if Width(withRoom)+2+Width(right) <= w {
			left = withRoom
		}
	}
	if room := w - Width(right) - 2; Width(left) > room {
		// The title's last parts go whole ("· 4 players"), before it is cut.
		parts := strings.Split(title, " · ")
		for len(parts) > 1 && Width(strings.Join(parts, " · ")) > room {
			parts = parts[:len(parts)-1]
		}
		left = th.Trunc(th.Title.Render(strings.Join(parts, " · ")), max(room, 0))
	}
	return Spread(th, left, right, w)
}

// RefusedLines say why the table refused the viewer's last move
// (u.Notice), or else what it tells this seat of itself (u.Info), in at
// most n lines of w cells, cut with an ellipsis beyond; none when it says
// neither.
func RefusedLines(th *Theme, u *table.Update, w, n int) []string {
	var msg string
	switch {
	case n < 1:
		return nil
	case !u.Notice.IsZero():
		msg = " ✗ " + th.T("ui.refused", game.Text("Why", Clean(th.Msg(u.Notice)))) + " "
	case !u.Info.IsZero():
		msg = " " + Clean(th.Msg(u.Info)) + " "
	default:
		return nil
	}
	lines := WrapWords(msg, w)
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = th.Trunc(lines[n-1]+" "+th.Ellipsis(), w)
	}
	for i, l := range lines {
		lines[i] = th.Notice.Render(l)
	}
	return lines
}

// Spread is left and right on one line of w cells, apart; when they do
// not fit, two spaces apart and cut to w.
func Spread(th *Theme, left, right string, w int) string {
	gap := w - Width(left) - Width(right)
	if gap < 2 {
		return th.Trunc(left+"  "+right, w)
	}
	return left + strings.Repeat(" ", gap) + right
}

// FitLinesAbove is a page's lines fitted to n (trailing empty lines
// dropped, then cut or padded) with foot on the line below. It may reuse
// lines' array.
func FitLinesAbove(lines []string, n int, foot string) []string {
	return fitLinesAbove(splitInner(lines), n, foot)
}

// fitLinesAbove is FitLinesAbove for lines split already.
func fitLinesAbove(lines []string, n int, foot string) []string {
	for len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if n <= 0 {
		return strings.Split(foot, "\n")
	}
	lines = lines[:min(len(lines), n)]
	if cap(lines) < n+1 { // room for the padding and the foot, once
		lines = append(make([]string, 0, n+1), lines...)
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	if strings.IndexByte(foot, '\n') < 0 {
		return append(lines, foot)
	}
	return append(lines, strings.Split(foot, "\n")...)
}

// FrameFit is FitLinesAbove then FitLinesWidth for one session's frames,
// which looks again at none of the lines it passed in the last frame: a
// game screen's lines are mostly the same strings from frame to frame
// (its parts are shared and remembered, see SharedLines), and reading
// every byte of every line to find a line break and measure its width
// was 4% of the server's CPU while tables played. A line is known by its
// address and length: the memo holds the last frame's strings, so no other
// text can be at that address meanwhile. The zero value is ready; Forget
// lets the lines go (an idle session need not keep them for the collector
// to mark).
type FrameFit struct {
	last []string // the last frame's lines as passed (fitted), empty after Forget
	w    int      // the width they were fitted to
}

// Fit is t.FitLinesWidth(FitLinesAbove(lines, n, foot), w), remembering
// the result for the next frame. It may reuse lines' array.
func (f *FrameFit) Fit(t *Theme, lines []string, n int, foot string, w int) []string {
	if f.w != w {
		f.Forget()
		f.w = w
	}
	for i, l := range lines {
		if !f.known(l, i) && strings.IndexByte(l, '\n') >= 0 {
			lines = splitInner(lines)
			break
		}
	}
	lines = fitLinesAbove(lines, n, foot)
	if w > 0 {
		for i, l := range lines {
			if len(l) > w && !f.known(l, i) && Width(l) > w {
				lines[i] = t.Trunc(l, w)
			}
		}
	}
	clear(f.last)
	f.last = append(f.last[:0], lines...)
	return lines
}

// known says whether l is one of the last frame's lines at i or up to
// two lines from it (a log scrolls by a line or two).
func (f *FrameFit) known(l string, i int) bool {
	if len(l) == 0 {
		return true
	}
	p := unsafe.StringData(l)
	for j := max(i-2, 0); j < min(i+3, len(f.last)); j++ {
		if len(f.last[j]) == len(l) && unsafe.StringData(f.last[j]) == p {
			return true
		}
	}
	return false
}

// Forget lets the last frame's lines go.
func (f *FrameFit) Forget() {
	clear(f.last)
	f.last = f.last[:0]
}

// SplitLines is strings.Split(s, "\n") with room for one line more (a
// help bar under it).
func SplitLines(s string) []string {
	out := make([]string, 0, strings.Count(s, "\n")+2)
	for {
		l, rest, more := strings.Cut(s, "\n")
		out = append(out, l)
		if !more {
			return out
		}
		s = rest
	}
}

// FitLinesWidth cuts every line to w cells, in place, marked as cut. A line past the edge
// wraps in the terminal and shifts every line below it, which the frame
// writer, redrawing only changed lines, would never clean up.
func (t *Theme) FitLinesWidth(lines []string, w int) []string {
	if w <= 0 {
		return lines
	}
	for i, l := range lines {
		if len(l) > w && Width(l) > w {
			lines[i] = t.Trunc(l, w)
		}
	}
	return lines
}

// splitInner splits any of lines that holds a line break, so that each is
// one line on screen.
func splitInner(lines []string) []string {
	for i, l := range lines {
		if strings.IndexByte(l, '\n') >= 0 {
			out := append([]string(nil), lines[:i]...)
			for _, l := range lines[i:] {
				out = append(out, strings.Split(l, "\n")...)
			}
			return out
		}
	}
	return lines
}

// FitHeight pads or cuts s to exactly n lines. It counts rather than
// splits: it runs on every frame.
func FitHeight(s string, n int) string {
	if n <= 0 {
		return ""
	}
	s, have := cutLines(s, n)
	if have < n {
		s += strings.Repeat("\n", n-have)
	}
	return s
}

// cutLines drops s's trailing newlines and any lines past the nth, and
// says how many lines are left.
func cutLines(s string, n int) (string, int) {
	s = strings.TrimRight(s, "\n")
	have := strings.Count(s, "\n") + 1
	for ; have > n; have-- {
		s = s[:strings.LastIndexByte(s, '\n')]
	}
	return s, have
}

// WrapWords is strings.Split(ansi.Wrap(s, w, " "), "\n"): s (which may
// hold styles) word-wrapped at spaces to lines of w cells. A line that
// already fits (most of what screens wrap, on every frame) comes back as
// it is without going through ansi's parser.
func WrapWords(s string, w int) []string {
	if w >= 1 && strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\t') < 0 && Width(s) <= w {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}

// Wrap breaks plain text into lines of at most w cells, at spaces where it
// can (a word longer than w is cut).
func Wrap(s string, w int) []string {
	if w < 1 {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// Paragraphs wraps text whose paragraphs are separated by newlines (as a
// catalog holds a long text) to lines of at most w cells.
func Paragraphs(s string, w int) string {
	var out []string
	for _, p := range strings.Split(s, "\n") {
		out = append(out, Wrap(p, w)...)
	}
	return strings.Join(out, "\n")
}
