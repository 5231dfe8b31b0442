// Package vterm is a small VT100/xterm screen model: enough of the control
// functions Bubble Tea's renderer, lipgloss and the server's frame writer
// emit to know what a player would see. It keeps printable text (wide
// characters and combining marks included), CR LF BS HT, cursor movement,
// erase in line and display, insert and delete of lines and characters,
// scroll regions, the alternate screen and save/restore cursor. Colours and
// other attributes are ignored. It answers the queries a server may send
// (cursor position, primary device attributes, foreground and background
// colour), so that wish's MakeRenderer gets its answer at once instead of
// timing out.
//
// The end-to-end tests (sshtest) and the load harness (cmd/bivouac-load)
// both use it; the harness keeps thousands at once on the machine it
// measures, so a terminal is a few kilobytes and parsing allocates nothing.
// A Term is not safe for concurrent use.
package vterm

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Term is one terminal's screen.
type Term struct {
	w, h      int
	main, alt [][]rune // cells: blank, a character, wideRight, or a cluster (below 0); main nil: lent to alt
	grid      [][]rune // main or alt
	inAlt     bool
	x, y      int // x == w means a wrap is pending (DECAWM)
	sx, sy    int // saved cursor
	top, bot  int // scroll region, inclusive rows
	replies   []byte

	keepText bool
	text     []byte

	// clusters are the characters with combining marks, each a cell -(i+1).
	clusters  []string
	clusterAt map[string]rune

	p Parser // the stream Write reads
}

const (
	blank     rune = ' '
	wideRight rune = 0 // the right half of a wide character

	// maxClusters bounds the table of characters with combining marks; a
	// mark past it is dropped, its base character kept.
	maxClusters = 1024
)

// New returns a blank w×h terminal on its main screen.
func New(w, h int) *Term {
	t := &Term{}
	t.Resize(w, h)
	return t
}

// RecordText has the terminal keep, from now on, the text it prints (see Text).
func (t *Term) RecordText() { t.keepText = true }

// Text is what was printed since RecordText, without control sequences,
// with a newline wherever the cursor changed rows. It is the terminal's
// own buffer: read it, do not keep or change it.
func (t *Term) Text() []byte { return t.text }

// TakeReplies returns the answers to queries received so far, in order, for
// the caller to send back; the terminal forgets them.
func (t *Term) TakeReplies() []byte {
	r := t.replies
	t.replies = nil
	return r
}

// Write feeds the terminal one stream of output. A second stream onto the
// same screen (stderr beside stdout) needs a Parser of its own, so that a
// sequence split across reads is not cut by the other stream.
func (t *Term) Write(data []byte) { t.p.Write(t, data) }

func fill(cells []rune, c rune) {
	for i := range cells {
		cells[i] = c
	}
}

// blankGrid is h rows of w blank cells, in one allocation.
func blankGrid(w, h int) [][]rune {
	cells := make([]rune, w*h)
	fill(cells, blank)
	g := make([][]rune, h)
	for i := range g {
		g[i] = cells[i*w : (i+1)*w : (i+1)*w]
	}
	return g
}

// Resize makes the screen w×h, keeping what fits of both screens' text.
func (t *Term) Resize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	resized := func(old [][]rune) [][]rune {
		if old == nil {
			return nil
		}
		g := blankGrid(w, h)
		for y := 0; y < h && y < len(old); y++ {
			copy(g[y], old[y])
		}
		return g
	}
	t.main, t.alt = resized(t.main), resized(t.alt)
	if t.main == nil && !t.inAlt { // a new terminal; in alt, a borrowed main screen
		t.main = blankGrid(w, h)
	}
	if t.inAlt {
		t.grid = t.alt
	} else {
		t.grid = t.main
	}
	t.w, t.h = w, h
	t.top, t.bot = 0, h-1
	t.x, t.y = min(t.x, w-1), min(t.y, h-1)
}

// Screen is the visible text: rows joined by "\n", trailing spaces cut.
func (t *Term) Screen() string {
	var b strings.Builder
	b.Grow(t.w*t.h + t.h)
	for y, row := range t.grid {
		if y > 0 {
			b.WriteByte('\n')
		}
		end := len(row)
		for end > 0 && (row[end-1] == blank || row[end-1] == wideRight) {
			end--
		}
		for _, c := range row[:end] {
			switch {
			case c > 0:
				b.WriteRune(c)
			case c < 0:
				b.WriteString(t.clusters[-c-1])
			}
		}
	}
	return b.String()
}

// width is how many cells r takes, as x/ansi (and so lipgloss) measures it.
func width(r rune) int {
	if r < 0x300 && r != 0xad { // ASCII, Latin-1 and the Latin extensions; a soft hyphen takes none
		return 1
	}
	return widthOutsideLatin(r)
}

func widthOutsideLatin(r rune) int {
	switch {
	case r < tabled:
		return int(widths()[r])
	case r >= 0x4e00 && r <= 0x9fff, r >= 0xac00 && r <= 0xd7a3: // CJK ideographs, Hangul syllables
		return 2
	}
	return ansi.StringWidth(string(r))
}

// tabled is where widths' table ends: below it are the alphabets, the
// punctuation and symbols, box drawing and arrows the screens draw, and
// the kana. x/ansi measures a character by its grapheme cluster, which
// allocates: a table made once spares the harness that on every cell.
const tabled = 0x3400

var widths = sync.OnceValue(func() *[tabled]int8 {
	var w [tabled]int8
	for r := range rune(tabled) {
		w[r] = int8(ansi.StringWidth(string(r)))
	}
	return &w
})

// print puts one character at the cursor.
func (t *Term) print(r rune) {
	if t.keepText {
		t.text = utf8.AppendRune(t.text, r)
	}
	w := width(r)
	if w == 0 { // combining mark, variation selector, ZWJ: joins the previous cell
		t.combine(r)
		return
	}
	if t.x+w > t.w { // a pending wrap, or a wide character that does not fit
		t.x = 0
		t.lineFeed()
	}
	row := t.grid[t.y]
	t.clearWide(row, t.x)
	row[t.x] = r
	if w == 2 && t.x+1 < t.w {
		t.clearWide(row, t.x+1)
		row[t.x+1] = wideRight
	}
	t.x += w
}

// combine adds the mark r to the character left of the cursor.
func (t *Term) combine(r rune) {
	px := t.x - 1
	if px < 0 || px >= t.w {
		return
	}
	row := t.grid[t.y]
	if row[px] == wideRight && px > 0 {
		px--
	}
	var base string
	switch c := row[px]; {
	case c == wideRight:
		return
	case c < 0:
		base = t.clusters[-c-1]
	default:
		base = string(c)
	}
	s := base + string(r)
	if c, ok := t.clusterAt[s]; ok {
		row[px] = c
		return
	}
	if len(t.clusters) >= maxClusters {
		return
	}
	if t.clusterAt == nil {
		t.clusterAt = map[string]rune{}
	}
	t.clusters = append(t.clusters, s)
	c := -rune(len(t.clusters))
	t.clusterAt[s] = c
	row[px] = c
}

// clearWide blanks the other half of a wide character about to be overwritten at x.
func (t *Term) clearWide(row []rune, x int) {
	if row[x] == wideRight && x > 0 {
		row[x-1] = blank
	}
	if x+1 < t.w && row[x+1] == wideRight {
		row[x+1] = blank
	}
}

func (t *Term) lineFeed() {
	if t.keepText {
		t.text = append(t.text, '\n')
	}
	if t.y == t.bot {
		t.scrollUp(1)
		return
	}
	if t.y < t.h-1 {
		t.y++
	}
}

// scrollUp moves the scroll region's lines up n, blank lines entering at
// its bottom. The rows leaving are blanked and reused.
func (t *Term) scrollUp(n int) {
	g := t.grid[t.top : t.bot+1]
	for range min(n, len(g)) {
		gone := g[0]
		copy(g, g[1:])
		fill(gone, blank)
		g[len(g)-1] = gone
	}
}

// scrollDown moves the scroll region's lines down n, blank lines entering at its top.
func (t *Term) scrollDown(n int) {
	g := t.grid[t.top : t.bot+1]
	for range min(n, len(g)) {
		gone := g[len(g)-1]
		copy(g[1:], g)
		fill(gone, blank)
		g[0] = gone
	}
}

func (t *Term) moveTo(x, y int) {
	if y != t.y && t.keepText {
		t.text = append(t.text, '\n') // keep words on different rows apart in text
	}
	t.x, t.y = min(max(x, 0), t.w-1), min(max(y, 0), t.h-1)
}

// eraseCells blanks row y's cells [from, to), and the halves of wide
// characters cut at either end.
func (t *Term) eraseCells(y, from, to int) {
	row := t.grid[y]
	from, to = max(from, 0), min(to, t.w)
	if from >= to {
		return
	}
	if row[from] == wideRight && from > 0 {
		row[from-1] = blank
	}
	if to < t.w && row[to] == wideRight {
		row[to] = blank
	}
	fill(row[from:to], blank)
}

// setAlt enters or leaves the alternate screen. Entered over a blank main
// screen (a session's first frame), it borrows the main screen's cells, and
// leaving gives them back blank: the load harness's thousands of terminals
// keep one screen each, not two.
func (t *Term) setAlt(on bool) {
	if on == t.inAlt {
		return
	}
	if on {
		t.sx, t.sy = min(t.x, t.w-1), t.y
		switch {
		case t.alt != nil:
			clearGrid(t.alt)
		case isBlank(t.main):
			t.alt, t.main = t.main, nil
		default:
			t.alt = blankGrid(t.w, t.h)
		}
		t.grid = t.alt
	} else {
		if t.main == nil {
			t.main, t.alt = t.alt, nil
			clearGrid(t.main)
		}
		t.grid = t.main
		t.x, t.y = t.sx, t.sy
	}
	t.inAlt = on
	if t.keepText {
		t.text = append(t.text, '\n')
	}
}

func clearGrid(g [][]rune) {
	for _, row := range g {
		fill(row, blank)
	}
}

func isBlank(g [][]rune) bool {
	for _, row := range g {
		for _, c := range row {
			if c != blank {
				return false
			}
		}
	}
	return true
}

// reset is RIS (ESC c): a fresh terminal of the same size, its text record kept.
func (t *Term) reset() {
	*t = Term{w: t.w, h: t.h, keepText: t.keepText, text: t.text, p: t.p,
		clusters: t.clusters, clusterAt: t.clusterAt}
	t.Resize(t.w, t.h)
}

func (t *Term) reply(s string) { t.replies = append(t.replies, s...) }

func (t *Term) cursorReport() {
	t.replies = fmt.Appendf(t.replies, "\x1b[%d;%dR", t.y+1, min(t.x, t.w-1)+1)
}
