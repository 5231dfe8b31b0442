package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// vt is the load harness's terminal: just enough of an xterm to keep the
// screen a Bubble Tea renderer draws (cursor moves, erases, alt screen) and
// to answer the queries a server sends (wish's MakeRenderer asks for the
// background colour and device attributes; a cursor-position request may
// come too). It is not safe for concurrent use; the client locks around it.
type vt struct {
	w, h    int
	cells   [][]rune // 0 marks the right half of a wide character
	x, y    int
	sx, sy  int // saved cursor
	top     int // scroll region, inclusive rows
	bot     int
	replies []byte // answers to queries, to be written back in order

	// parser state
	st     int
	params []byte // CSI parameter bytes
	ps     []int  // the parsed parameters of the sequence at hand (nums)
	str    []byte // OSC string
	utf    []byte // an incomplete UTF-8 sequence
}

const (
	stGround = iota
	stEsc
	stCSI
	stOSC
	stOSCEsc
	stSkipStr // DCS, SOS, PM, APC: ignored up to ST
	stSkipEsc
	stCharset // ESC ( X and friends: one more byte
)

func newVT(w, h int) *vt {
	t := &vt{w: w, h: h, bot: h - 1}
	t.cells = make([][]rune, h)
	for i := range t.cells {
		t.cells[i] = blankRow(w)
	}
	return t
}

func blankRow(w int) []rune {
	r := make([]rune, w)
	for i := range r {
		r[i] = ' '
	}
	return r
}

// Screen is the visible text: rows joined by "\n", trailing spaces cut.
func (t *vt) Screen() string {
	var b strings.Builder
	b.Grow(t.w * t.h)
	for i, row := range t.cells {
		if i > 0 {
			b.WriteByte('\n')
		}
		end := len(row) // trailing spaces are left out
		for end > 0 && (row[end-1] == ' ' || row[end-1] == 0) {
			end--
		}
		for _, r := range row[:end] {
			if r != 0 {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// Write feeds output from the server.
func (t *vt) Write(p []byte) {
	for _, c := range p {
		t.step(c)
	}
}

func (t *vt) step(c byte) {
	switch t.st {
	case stGround:
		switch {
		case c == 0x1b:
			t.utf = t.utf[:0]
			t.st = stEsc
		case c < 0x20 || c == 0x7f:
			t.control(c)
		case c < 0x80:
			t.put(rune(c))
		default:
			t.utf = append(t.utf, c)
			if utf8.FullRune(t.utf) {
				r, _ := utf8.DecodeRune(t.utf)
				t.utf = t.utf[:0]
				t.put(r)
			} else if len(t.utf) >= utf8.UTFMax {
				t.utf = t.utf[:0]
			}
		}
	case stEsc:
		t.st = stGround
		switch c {
		case '[':
			t.params = t.params[:0]
			t.st = stCSI
		case ']':
			t.str = t.str[:0]
			t.st = stOSC
		case 'P', 'X', '^', '_':
			t.st = stSkipStr
		case '(', ')', '*', '+', '#', '%':
			t.st = stCharset
		case '7':
			t.sx, t.sy = t.x, t.y
		case '8':
			t.x, t.y = t.sx, t.sy
		case 'D':
			t.lineFeed()
		case 'E':
			t.x = 0
			t.lineFeed()
		case 'M':
			if t.y == t.top {
				t.scrollDown(1)
			} else if t.y > 0 {
				t.y--
			}
		case 'c':
			*t = *newVT(t.w, t.h)
		}
	case stCharset:
		t.st = stGround
	case stCSI:
		if c >= 0x40 && c <= 0x7e {
			t.st = stGround
			t.csi(c)
			return
		}
		if len(t.params) < 64 {
			t.params = append(t.params, c)
		}
	case stOSC:
		switch c {
		case 0x07:
			t.st = stGround
			t.osc()
		case 0x1b:
			t.st = stOSCEsc
		default:
			if len(t.str) < 256 {
				t.str = append(t.str, c)
			}
		}
	case stOSCEsc:
		t.st = stGround
		t.osc() // ESC \ ends the string; anything else too
	case stSkipStr:
		if c == 0x1b {
			t.st = stSkipEsc
		} else if c == 0x07 {
			t.st = stGround
		}
	case stSkipEsc:
		t.st = stGround
	}
}

func (t *vt) control(c byte) {
	switch c {
	case '\r':
		t.x = 0
	case '\n', 0x0b, 0x0c:
		t.lineFeed()
	case '\b':
		if t.x > 0 {
			t.x--
		}
	case '\t':
		t.x = min(t.w-1, (t.x/8+1)*8)
	}
}

func (t *vt) put(r rune) {
	wd := runewidth.RuneWidth(r)
	if wd == 0 {
		return // combining marks and the like: not worth a cell here
	}
	if t.x+wd > t.w {
		t.x = 0
		t.lineFeed()
	}
	t.cells[t.y][t.x] = r
	if wd == 2 && t.x+1 < t.w {
		t.cells[t.y][t.x+1] = 0
	}
	t.x += wd
	if t.x >= t.w {
		t.x = t.w - 1 // stay on the last column, as a terminal without pending wrap would
	}
}

func (t *vt) lineFeed() {
	if t.y == t.bot {
		t.scrollUp(1)
		return
	}
	if t.y < t.h-1 {
		t.y++
	}
}

func (t *vt) scrollUp(n int) {
	for range n {
		copy(t.cells[t.top:t.bot+1], t.cells[t.top+1:t.bot+1])
		t.cells[t.bot] = blankRow(t.w)
	}
}

func (t *vt) scrollDown(n int) {
	for range n {
		copy(t.cells[t.top+1:t.bot+1], t.cells[t.top:t.bot])
		t.cells[t.top] = blankRow(t.w)
	}
}

// nums parses the CSI parameters; private marks a leading '?', '>' or '='.
func (t *vt) nums() (ps []int, private byte) {
	p := t.params
	if len(p) > 0 && (p[0] == '?' || p[0] == '>' || p[0] == '=') {
		private, p = p[0], p[1:]
	}
	if len(p) == 0 {
		return nil, private
	}
	// In place, without strings: the harness parses every colour of every
	// frame of thousands of screens. Sub-parameters (after ':') are skipped.
	ps = t.ps[:0]
	n, sub := 0, false
	for _, c := range p {
		switch {
		case c == ';':
			ps, n, sub = append(ps, n), 0, false
		case c == ':':
			sub = true
		case c >= '0' && c <= '9' && !sub:
			n = n*10 + int(c-'0')
		}
	}
	ps = append(ps, n)
	t.ps = ps
	return ps, private
}

func arg(ps []int, i, def int) int {
	if i < len(ps) && ps[i] > 0 {
		return ps[i]
	}
	return def
}

func (t *vt) erase(y, from, to int) {
	row := t.cells[y]
	for x := max(0, from); x < min(to, t.w); x++ {
		row[x] = ' '
	}
}

func (t *vt) clamp() {
	t.x = max(0, min(t.x, t.w-1))
	t.y = max(0, min(t.y, t.h-1))
}

func (t *vt) csi(final byte) {
	ps, private := t.nums()
	switch final {
	case 'A':
		t.y -= arg(ps, 0, 1)
	case 'B', 'e':
		t.y += arg(ps, 0, 1)
	case 'C', 'a':
		t.x += arg(ps, 0, 1)
	case 'D':
		t.x -= arg(ps, 0, 1)
	case 'E':
		t.y += arg(ps, 0, 1)
		t.x = 0
	case 'F':
		t.y -= arg(ps, 0, 1)
		t.x = 0
	case 'G', '`':
		t.x = arg(ps, 0, 1) - 1
	case 'd':
		t.y = arg(ps, 0, 1) - 1
	case 'H', 'f':
		t.y, t.x = arg(ps, 0, 1)-1, arg(ps, 1, 1)-1
	case 'J':
		switch arg(ps, 0, 0) {
		case 0:
			t.erase(t.y, t.x, t.w)
			for y := t.y + 1; y < t.h; y++ {
				t.erase(y, 0, t.w)
			}
		case 1:
			t.erase(t.y, 0, t.x+1)
			for y := 0; y < t.y; y++ {
				t.erase(y, 0, t.w)
			}
		default:
			for y := 0; y < t.h; y++ {
				t.erase(y, 0, t.w)
			}
		}
	case 'K':
		switch arg(ps, 0, 0) {
		case 0:
			t.erase(t.y, t.x, t.w)
		case 1:
			t.erase(t.y, 0, t.x+1)
		default:
			t.erase(t.y, 0, t.w)
		}
	case 'X':
		t.erase(t.y, t.x, t.x+arg(ps, 0, 1))
	case 'P':
		n := min(arg(ps, 0, 1), t.w-t.x)
		row := t.cells[t.y]
		copy(row[t.x:], row[t.x+n:])
		t.erase(t.y, t.w-n, t.w)
	case '@':
		n := min(arg(ps, 0, 1), t.w-t.x)
		row := t.cells[t.y]
		copy(row[t.x+n:], row[t.x:])
		t.erase(t.y, t.x, t.x+n)
	case 'L', 'M':
		if t.y < t.top || t.y > t.bot {
			break
		}
		top := t.top
		t.top = t.y
		if final == 'L' {
			t.scrollDown(arg(ps, 0, 1))
		} else {
			t.scrollUp(arg(ps, 0, 1))
		}
		t.top = top
	case 'S':
		t.scrollUp(arg(ps, 0, 1))
	case 'T':
		t.scrollDown(arg(ps, 0, 1))
	case 'r':
		t.top, t.bot = arg(ps, 0, 1)-1, arg(ps, 1, t.h)-1
		if t.top < 0 || t.bot >= t.h || t.top >= t.bot {
			t.top, t.bot = 0, t.h-1
		}
		t.x, t.y = 0, 0
	case 's':
		t.sx, t.sy = t.x, t.y
	case 'u':
		t.x, t.y = t.sx, t.sy
	case 'h', 'l':
		if private == '?' {
			for _, p := range ps {
				if p == 1049 || p == 47 || p == 1047 {
					// Entering or leaving the alternate screen: a fresh page
					// either way is all a harness needs.
					for y := 0; y < t.h; y++ {
						t.erase(y, 0, t.w)
					}
					if p == 1049 && final == 'h' {
						t.sx, t.sy = t.x, t.y
					}
				}
			}
		}
	case 'n':
		if private == 0 && arg(ps, 0, 0) == 6 {
			t.replies = fmt.Appendf(t.replies, "\x1b[%d;%dR", t.y+1, t.x+1)
		}
	case 'c':
		if private == 0 {
			t.replies = append(t.replies, "\x1b[?62;22c"...)
		}
	}
	t.clamp()
}

func (t *vt) osc() {
	switch string(t.str) {
	case "11;?":
		t.replies = append(t.replies, "\x1b]11;rgb:0000/0000/0000\x1b\\"...)
	case "10;?":
		t.replies = append(t.replies, "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"...)
	}
}
