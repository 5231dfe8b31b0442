package sshtest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// term is a small VT100/xterm screen model: enough of the control functions
// Bubble Tea's renderer and lipgloss emit to know what a player would see.
// It understands printable text (with wide characters), CR LF BS HT, cursor
// movement, erase in line/display, insert/delete lines and characters, scroll
// regions, the alternate screen and save/restore cursor. Colours and other
// attributes are ignored. It also answers the queries a server may send
// (cursor position, primary device attributes, background colour) so that,
// say, wish's MakeRenderer gets its answer at once instead of timing out.
type term struct {
	w, h      int
	main, alt [][]string // cells: "" empty, contWide the right half of a wide char
	grid      [][]string // main or alt
	inAlt     bool
	x, y      int // x == w means a wrap is pending (DECAWM)
	sx, sy    int // saved cursor
	top, bot  int // scroll region, inclusive rows
	text      []byte
	replies   []byte // answers to queries, for the caller to send
}

const contWide = "\x00"

func newTerm(w, h int) *term {
	t := &term{}
	t.resize(w, h)
	return t
}

func blankGrid(w, h int) [][]string {
	g := make([][]string, h)
	for i := range g {
		g[i] = make([]string, w)
	}
	return g
}

func (t *term) resize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	copyGrid := func(old [][]string) [][]string {
		g := blankGrid(w, h)
		for y := 0; y < h && y < len(old); y++ {
			copy(g[y], old[y])
		}
		return g
	}
	t.main, t.alt = copyGrid(t.main), copyGrid(t.alt)
	if t.inAlt {
		t.grid = t.alt
	} else {
		t.grid = t.main
	}
	t.w, t.h = w, h
	t.top, t.bot = 0, h-1
	t.x, t.y = min(t.x, w-1), min(t.y, h-1)
}

// screen returns the visible rows, trailing spaces trimmed, joined by "\n".
func (t *term) screen() string {
	var b strings.Builder
	for y, row := range t.grid {
		var line strings.Builder
		for _, c := range row {
			switch c {
			case "":
				line.WriteByte(' ')
			case contWide:
			default:
				line.WriteString(c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		if y < len(t.grid)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// print puts one rune at the cursor.
func (t *term) print(r rune) {
	t.text = utf8.AppendRune(t.text, r)
	width := ansi.StringWidth(string(r))
	if width == 0 { // combining mark, variation selector, ZWJ: joins the previous cell
		px, py := t.x-1, t.y
		if px >= 0 && px < t.w {
			if t.grid[py][px] == contWide && px > 0 {
				px--
			}
			t.grid[py][px] += string(r)
		}
		return
	}
	if t.x >= t.w || t.x+width > t.w {
		t.x = 0
		t.lineFeed()
	}
	t.clearWide(t.x)
	t.grid[t.y][t.x] = string(r)
	if width == 2 && t.x+1 < t.w {
		t.clearWide(t.x + 1)
		t.grid[t.y][t.x+1] = contWide
	}
	t.x += width
}

// clearWide blanks the other half of a wide character about to be overwritten at x.
func (t *term) clearWide(x int) {
	row := t.grid[t.y]
	if row[x] == contWide && x > 0 {
		row[x-1] = ""
	}
	if x+1 < t.w && row[x+1] == contWide {
		row[x+1] = ""
	}
}

func (t *term) lineFeed() {
	t.text = append(t.text, '\n')
	if t.y == t.bot {
		t.scrollUp(1)
		return
	}
	if t.y < t.h-1 {
		t.y++
	}
}

// scrollUp moves the scroll region's lines up n, blank lines entering at its bottom.
func (t *term) scrollUp(n int) {
	for range min(n, t.bot-t.top+1) {
		copy(t.grid[t.top:t.bot+1], t.grid[t.top+1:t.bot+1])
		t.grid[t.bot] = make([]string, t.w)
	}
}

// scrollDown moves the scroll region's lines down n, blank lines entering at its top.
func (t *term) scrollDown(n int) {
	for range min(n, t.bot-t.top+1) {
		copy(t.grid[t.top+1:t.bot+1], t.grid[t.top:t.bot])
		t.grid[t.top] = make([]string, t.w)
	}
}

func (t *term) moveTo(x, y int) {
	if y != t.y {
		t.text = append(t.text, '\n') // keep words on different rows apart in text
	}
	t.x, t.y = min(max(x, 0), t.w-1), min(max(y, 0), t.h-1)
}

func (t *term) eraseCells(y, from, to int) { // [from, to)
	row := t.grid[y]
	for x := max(from, 0); x < min(to, t.w); x++ {
		row[x] = ""
	}
	if from > 0 && from < t.w && row[from-1] != "" && ansi.StringWidth(row[from-1]) == 2 {
		row[from-1] = ""
	}
}

// csi executes a control sequence: prefix is a private marker ('?', '>'…) or
// 0, params the numbers (-1 when omitted), final the final byte.
func (t *term) csi(prefix byte, params []int, final byte) {
	p := func(i, def int) int {
		if i < len(params) && params[i] > 0 {
			return params[i]
		}
		return def
	}
	p0 := func() int { // for erase functions, where 0 is meaningful
		if len(params) > 0 && params[0] > 0 {
			return params[0]
		}
		return 0
	}
	cx := min(t.x, t.w-1)
	switch {
	case prefix == '?' && (final == 'h' || final == 'l'):
		for _, m := range params {
			if m == 1049 || m == 1047 || m == 47 {
				t.setAlt(final == 'h')
			}
		}
	case prefix != 0:
		// other private sequences (DA2, kitty keyboard, …): ignored
	case final == 'A':
		t.moveTo(cx, max(t.y-p(0, 1), 0))
	case final == 'B':
		t.moveTo(cx, t.y+p(0, 1))
	case final == 'C':
		t.moveTo(cx+p(0, 1), t.y)
	case final == 'D':
		t.moveTo(cx-p(0, 1), t.y)
	case final == 'E':
		t.moveTo(0, t.y+p(0, 1))
	case final == 'F':
		t.moveTo(0, t.y-p(0, 1))
	case final == 'G' || final == '`':
		t.moveTo(p(0, 1)-1, t.y)
	case final == 'd':
		t.moveTo(cx, p(0, 1)-1)
	case final == 'H' || final == 'f':
		t.moveTo(p(1, 1)-1, p(0, 1)-1)
	case final == 'J':
		switch p0() {
		case 0:
			t.eraseCells(t.y, cx, t.w)
			for y := t.y + 1; y < t.h; y++ {
				t.eraseCells(y, 0, t.w)
			}
		case 1:
			t.eraseCells(t.y, 0, cx+1)
			for y := 0; y < t.y; y++ {
				t.eraseCells(y, 0, t.w)
			}
		default:
			for y := 0; y < t.h; y++ {
				t.eraseCells(y, 0, t.w)
			}
		}
	case final == 'K':
		switch p0() {
		case 0:
			t.eraseCells(t.y, cx, t.w)
		case 1:
			t.eraseCells(t.y, 0, cx+1)
		default:
			t.eraseCells(t.y, 0, t.w)
		}
	case final == 'X':
		t.eraseCells(t.y, cx, cx+p(0, 1))
	case final == 'L' || final == 'M':
		if t.y < t.top || t.y > t.bot {
			return
		}
		top := t.top
		t.top = t.y
		if final == 'L' {
			t.scrollDown(p(0, 1))
		} else {
			t.scrollUp(p(0, 1))
		}
		t.top = top
		t.x = 0
	case final == '@':
		n := min(p(0, 1), t.w-cx)
		row := t.grid[t.y]
		copy(row[cx+n:], row[cx:t.w-n])
		for i := cx; i < cx+n; i++ {
			row[i] = ""
		}
	case final == 'P':
		n := min(p(0, 1), t.w-cx)
		row := t.grid[t.y]
		copy(row[cx:], row[cx+n:])
		for i := t.w - n; i < t.w; i++ {
			row[i] = ""
		}
	case final == 'S':
		t.scrollUp(p(0, 1))
	case final == 'T':
		t.scrollDown(p(0, 1))
	case final == 'r':
		top, bot := p(0, 1)-1, p(1, t.h)-1
		if top < bot && bot < t.h {
			t.top, t.bot = top, bot
		} else {
			t.top, t.bot = 0, t.h-1
		}
		t.moveTo(0, 0)
	case final == 's':
		t.sx, t.sy = cx, t.y
	case final == 'u':
		t.moveTo(t.sx, t.sy)
	case final == 'n' && p(0, 0) == 6:
		t.replies = fmt.Appendf(t.replies, "\x1b[%d;%dR", t.y+1, cx+1)
	case final == 'c' && p(0, 0) == 0:
		t.replies = append(t.replies, "\x1b[?62;22c"...)
	}
}

func (t *term) setAlt(on bool) {
	if on == t.inAlt {
		return
	}
	if on {
		t.sx, t.sy = min(t.x, t.w-1), t.y
		t.alt = blankGrid(t.w, t.h)
		t.grid = t.alt
	} else {
		t.grid = t.main
		t.x, t.y = t.sx, t.sy
	}
	t.inAlt = on
	t.text = append(t.text, '\n')
}

// osc executes an operating system command (data without ESC ] and terminator).
func (t *term) osc(data string) {
	switch data {
	case "11;?": // background colour: say black, a dark terminal
		t.replies = append(t.replies, "\x1b]11;rgb:0000/0000/0000\x1b\\"...)
	case "10;?":
		t.replies = append(t.replies, "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"...)
	}
}

func (t *term) esc(b byte) {
	switch b {
	case '7':
		t.sx, t.sy = min(t.x, t.w-1), t.y
	case '8':
		t.moveTo(t.sx, t.sy)
	case 'D':
		t.lineFeed()
	case 'E':
		t.x = 0
		t.lineFeed()
	case 'M': // reverse index
		if t.y == t.top {
			t.scrollDown(1)
		} else if t.y > 0 {
			t.y--
		}
	case 'c':
		w, h := t.w, t.h
		text := t.text
		*t = term{}
		t.resize(w, h)
		t.text = text
	}
}

// parser turns one byte stream into term calls. stdout and stderr each have
// their own parser (a sequence split across reads must not be cut by the
// other stream) over the same term.
type parser struct {
	state int
	buf   []byte // sequence bytes or a partial UTF-8 rune
}

const (
	stGround = iota
	stEsc
	stEscInter
	stCSI
	stString // OSC, DCS, SOS, PM, APC: collect until BEL or ST
	stStringEsc
)

func (p *parser) write(t *term, data []byte) {
	for _, b := range data {
		p.step(t, b)
	}
}

func (p *parser) step(t *term, b byte) {
	switch p.state {
	case stEsc:
		p.buf = p.buf[:0]
		switch {
		case b == '[':
			p.state = stCSI
		case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
			p.state = stString
			p.buf = append(p.buf, b)
		case b >= 0x20 && b <= 0x2f:
			p.state = stEscInter
		default:
			p.state = stGround
			if b >= 0x30 && b <= 0x7e {
				t.esc(b)
			}
		}
		return
	case stEscInter:
		if b < 0x20 || b > 0x2f {
			p.state = stGround
		}
		return
	case stCSI:
		switch {
		case b >= 0x20 && b <= 0x3f:
			p.buf = append(p.buf, b)
		case b >= 0x40 && b <= 0x7e:
			p.state = stGround
			p.execCSI(t, b)
		case b == 0x1b:
			p.state = stEsc
		case b == 0x18 || b == 0x1a:
			p.state = stGround
		default:
			p.control(t, b)
		}
		return
	case stString:
		switch b {
		case 0x07:
			p.state = stGround
			p.execString(t)
		case 0x1b:
			p.state = stStringEsc
		case 0x18, 0x1a:
			p.state = stGround
		default:
			if len(p.buf) < 4096 {
				p.buf = append(p.buf, b)
			}
		}
		return
	case stStringEsc:
		p.execString(t)
		p.state = stGround
		if b != '\\' {
			p.state = stEsc
			p.step(t, b)
		}
		return
	}

	// ground
	if len(p.buf) > 0 { // inside a multi-byte rune
		if b < 0x80 || b >= 0xc0 {
			p.buf = p.buf[:0] // broken rune: drop it, read b afresh
		} else {
			p.buf = append(p.buf, b)
			if utf8.FullRune(p.buf) {
				r, _ := utf8.DecodeRune(p.buf)
				p.buf = p.buf[:0]
				if r >= 0xa0 {
					t.print(r)
				}
			}
			return
		}
	}
	switch {
	case b == 0x1b:
		p.state = stEsc
	case b < 0x20 || b == 0x7f:
		p.control(t, b)
	case b < 0x80:
		t.print(rune(b))
	case b >= 0xc0:
		p.buf = append(p.buf, b)
	}
}

func (p *parser) control(t *term, b byte) {
	switch b {
	case '\r':
		t.x = 0
	case '\n', 0x0b, 0x0c:
		t.lineFeed()
	case '\b':
		if t.x >= t.w {
			t.x = t.w - 1
		}
		if t.x > 0 {
			t.x--
		}
	case '\t':
		t.x = min((min(t.x, t.w-1)/8+1)*8, t.w-1)
	}
}

func (p *parser) execCSI(t *term, final byte) {
	s := string(p.buf)
	var prefix byte
	if s != "" && s[0] >= 0x3c && s[0] <= 0x3f {
		prefix, s = s[0], s[1:]
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return r >= 0x20 && r <= 0x2f }); i >= 0 {
		return // intermediates (DECSCUSR and friends): nothing that changes the text
	}
	var params []int
	if s != "" {
		for _, f := range strings.Split(s, ";") {
			if i := strings.IndexByte(f, ':'); i >= 0 {
				f = f[:i]
			}
			n, err := strconv.Atoi(f)
			if err != nil {
				n = -1
			}
			params = append(params, n)
		}
	}
	t.csi(prefix, params, final)
}

func (p *parser) execString(t *term) {
	if len(p.buf) > 0 && p.buf[0] == ']' {
		t.osc(string(p.buf[1:]))
	}
	p.buf = p.buf[:0]
}
