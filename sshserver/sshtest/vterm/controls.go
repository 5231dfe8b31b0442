package vterm

// control executes a C0 control character.
func (t *Term) control(b byte) {
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

// arg is parameter i, or def when it is omitted or 0.
func arg(params []int, i, def int) int {
	if i < len(params) && params[i] > 0 {
		return params[i]
	}
	return def
}

// csi executes a control sequence: prefix is a private marker ('?', '>'…)
// or 0, params the numbers (0 when omitted), final the final byte.
func (t *Term) csi(prefix byte, params []int, final byte) {
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
		t.moveTo(cx, max(t.y-arg(params, 0, 1), 0))
	case final == 'B' || final == 'e':
		t.moveTo(cx, t.y+arg(params, 0, 1))
	case final == 'C' || final == 'a':
		t.moveTo(cx+arg(params, 0, 1), t.y)
	case final == 'D':
		t.moveTo(cx-arg(params, 0, 1), t.y)
	case final == 'E':
		t.moveTo(0, t.y+arg(params, 0, 1))
	case final == 'F':
		t.moveTo(0, t.y-arg(params, 0, 1))
	case final == 'G' || final == '`':
		t.moveTo(arg(params, 0, 1)-1, t.y)
	case final == 'd':
		t.moveTo(cx, arg(params, 0, 1)-1)
	case final == 'H' || final == 'f':
		t.moveTo(arg(params, 1, 1)-1, arg(params, 0, 1)-1)
	case final == 'J':
		t.eraseDisplay(arg(params, 0, 0), cx)
	case final == 'K':
		switch arg(params, 0, 0) {
		case 0:
			t.eraseCells(t.y, cx, t.w)
		case 1:
			t.eraseCells(t.y, 0, cx+1)
		default:
			t.eraseCells(t.y, 0, t.w)
		}
	case final == 'X':
		t.eraseCells(t.y, cx, cx+arg(params, 0, 1))
	case final == 'L' || final == 'M':
		t.insertLines(final == 'L', arg(params, 0, 1))
	case final == '@' || final == 'P':
		t.insertChars(final == '@', cx, arg(params, 0, 1))
	case final == 'S':
		t.scrollUp(arg(params, 0, 1))
	case final == 'T':
		t.scrollDown(arg(params, 0, 1))
	case final == 'r':
		top, bot := arg(params, 0, 1)-1, arg(params, 1, t.h)-1
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
	case final == 'n' && arg(params, 0, 0) == 6:
		t.cursorReport()
	case final == 'c' && arg(params, 0, 0) == 0:
		t.reply("\x1b[?62;22c")
	}
}

// eraseDisplay is ED: below the cursor (0), above it (1), or all (2, 3).
func (t *Term) eraseDisplay(how, cx int) {
	switch how {
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
}

// insertLines is IL (insert) or DL: n lines at the cursor's row, inside
// the scroll region.
func (t *Term) insertLines(insert bool, n int) {
	if t.y < t.top || t.y > t.bot {
		return
	}
	top := t.top
	t.top = t.y
	if insert {
		t.scrollDown(n)
	} else {
		t.scrollUp(n)
	}
	t.top = top
	t.x = 0
}

// insertChars is ICH (insert) or DCH: n blank cells at column cx, or n
// cells there gone, the rest of the row shifting.
func (t *Term) insertChars(insert bool, cx, n int) {
	n = min(n, t.w-cx)
	row := t.grid[t.y]
	if insert {
		copy(row[cx+n:], row[cx:t.w-n])
		fill(row[cx:cx+n], blank)
		return
	}
	copy(row[cx:], row[cx+n:])
	fill(row[t.w-n:], blank)
}

// esc executes ESC and a final byte.
func (t *Term) esc(b byte) {
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
		t.reset()
	}
}

// osc executes an operating system command (its data, without ESC ] and
// the terminator): the colour queries are answered, a dark terminal's.
func (t *Term) osc(data []byte) {
	switch string(data) {
	case "11;?":
		t.reply("\x1b]11;rgb:0000/0000/0000\x1b\\")
	case "10;?":
		t.reply("\x1b]10;rgb:ffff/ffff/ffff\x1b\\")
	}
}
