package vterm

import "unicode/utf8"

// Parser turns one byte stream into changes to a Term. Its zero value is
// ready; a Term has one of its own for Write.
type Parser struct {
	state int
	utf   []byte // a partial UTF-8 character

	// The control sequence being read. Parameters are parsed as they come,
	// into a fixed array: the load harness parses every colour of every
	// frame of thousands of screens.
	prefix byte // a private marker ('?', '>', …) or 0
	params [16]int
	n      int  // parameters begun
	sub    bool // in a sub-parameter (after ':'), whose digits are skipped
	inter  bool // an intermediate byte or a misplaced marker: nothing that changes the text

	osc   []byte // an OSC string, up to maxOSC bytes
	isOSC bool   // the string being read is an OSC (the others are skipped)
}

const (
	stGround = iota
	stEsc
	stEscInter
	stCSI
	stString // OSC, DCS, SOS, PM, APC: up to BEL or ST
	stStringEsc

	maxOSC = 256
)

// Write feeds t the bytes of this parser's stream.
func (p *Parser) Write(t *Term, data []byte) {
	for _, b := range data {
		if p.state == stGround && b >= 0x20 && b < 0x7f && len(p.utf) == 0 {
			t.print(rune(b)) // the most of a screen's bytes
			continue
		}
		p.step(t, b)
	}
}

func (p *Parser) step(t *Term, b byte) {
	switch p.state {
	case stEsc:
		p.escape(t, b)
	case stEscInter:
		if b < 0x20 || b > 0x2f {
			p.state = stGround
		}
	case stCSI:
		p.csiByte(t, b)
	case stString:
		switch b {
		case 0x07:
			p.state = stGround
			p.endString(t)
		case 0x1b:
			p.state = stStringEsc
		case 0x18, 0x1a:
			p.state = stGround
		default:
			if p.isOSC && len(p.osc) < maxOSC {
				p.osc = append(p.osc, b)
			}
		}
	case stStringEsc:
		p.endString(t)
		p.state = stGround
		if b != '\\' {
			p.state = stEsc
			p.step(t, b)
		}
	default:
		p.ground(t, b)
	}
}

func (p *Parser) escape(t *Term, b byte) {
	switch {
	case b == '[':
		p.state = stCSI
		p.prefix, p.n, p.sub, p.inter = 0, 0, false, false
		p.params[0] = 0
	case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
		p.state = stString
		p.isOSC = b == ']'
		p.osc = p.osc[:0]
	case b >= 0x20 && b <= 0x2f: // ESC ( B and friends: character sets
		p.state = stEscInter
	default:
		p.state = stGround
		if b >= 0x30 && b <= 0x7e {
			t.esc(b)
		}
	}
}

func (p *Parser) csiByte(t *Term, b byte) {
	switch {
	case b >= '0' && b <= '9':
		if p.n == 0 {
			p.n = 1
		}
		if !p.sub && p.n <= len(p.params) {
			v := &p.params[p.n-1]
			*v = min(*v*10+int(b-'0'), 1<<16)
		}
	case b == ';':
		if p.n == 0 {
			p.n = 1
		}
		p.n++
		p.sub = false
		if p.n <= len(p.params) {
			p.params[p.n-1] = 0
		}
	case b == ':':
		if p.n == 0 {
			p.n = 1
		}
		p.sub = true
	case b >= 0x3c && b <= 0x3f:
		if p.n == 0 && p.prefix == 0 {
			p.prefix = b
		} else {
			p.inter = true
		}
	case b >= 0x20 && b <= 0x2f:
		p.inter = true // DECSCUSR and friends
	case b >= 0x40 && b <= 0x7e:
		p.state = stGround
		if !p.inter {
			t.csi(p.prefix, p.params[:min(p.n, len(p.params))], b)
		}
	case b == 0x1b:
		p.state = stEsc
	case b == 0x18 || b == 0x1a:
		p.state = stGround
	default:
		t.control(b)
	}
}

func (p *Parser) endString(t *Term) {
	if p.isOSC {
		t.osc(p.osc)
	}
	p.osc = p.osc[:0]
}

func (p *Parser) ground(t *Term, b byte) {
	if len(p.utf) > 0 { // inside a multi-byte character
		if b >= 0x80 && b < 0xc0 {
			p.utf = append(p.utf, b)
			if utf8.FullRune(p.utf) {
				r, _ := utf8.DecodeRune(p.utf)
				p.utf = p.utf[:0]
				if r >= 0xa0 { // C1 controls are not printed
					t.print(r)
				}
			}
			return
		}
		p.utf = p.utf[:0] // a broken character: dropped, b read afresh
	}
	switch {
	case b == 0x1b:
		p.state = stEsc
	case b < 0x20 || b == 0x7f:
		t.control(b)
	case b < 0x80:
		t.print(rune(b))
	case b >= 0xc0:
		p.utf = append(p.utf, b)
	}
}
