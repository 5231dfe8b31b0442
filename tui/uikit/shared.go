package uikit

import (
	"encoding/binary"
	"hash/maphash"
	"sync/atomic"

	"github.com/bivouac-ssh/bivouac/game"
)

// SharedLines remembers drawn lines by a hash of everything they were
// drawn from, for every session at once. The seats of a table see the same
// No Man's Land, the same title and, but for their own row, the same
// soldiers: drawn once per move and theme instead of once per seat.
//
// It is direct-mapped: a key has one slot, and a newer entry for another
// key in that slot replaces it, so memory is bounded (slots × one part's
// lines) and no lock is taken. A key must cover every input of the lines
// (start it with NewKey, which covers the theme and its language): two
// inputs hashing alike would show one's lines for the other, a chance of
// one in 2^64 per pair.
type SharedLines struct {
	slots []atomic.Pointer[sharedEntry]
}

type sharedEntry struct {
	key   uint64
	lines []string
}

// NewSharedLines makes a memo of n slots (rounded up to a power of two).
func NewSharedLines(n int) *SharedLines {
	size := 1
	for size < n {
		size <<= 1
	}
	return &SharedLines{slots: make([]atomic.Pointer[sharedEntry], size)}
}

// Part is where a screen keeps the lines it drew last for one part of
// its frame: the next frame finds them there if the part did not change,
// even after their slot went to another table's lines (under load a
// session's frames are seconds apart, and tens of thousands of parts
// passed through the slots meanwhile). A nil Part keeps nothing.
type Part struct{ last *sharedEntry }

// get returns the lines drawn for key, from p or the shared slots. The
// slice is shared: append to it copies, but it must not be written to.
func (c *SharedLines) get(p *Part, key uint64) ([]string, bool) {
	if p != nil && p.last != nil && p.last.key == key {
		return p.last.lines, true
	}
	if e := c.slots[key&uint64(len(c.slots)-1)].Load(); e != nil && e.key == key {
		if p != nil {
			p.last = e
		}
		return e.lines, true
	}
	return nil, false
}

// Lines returns the lines drawn for key, from p or the shared slots, else
// those draw returns, kept there for the next one to ask. The slice is
// shared: append to it copies, but it must not be written to.
func (c *SharedLines) Lines(p *Part, key uint64, draw func() []string) []string {
	if l, ok := c.get(p, key); ok {
		return l
	}
	return c.put(p, key, draw())
}

// put keeps lines as drawn for key, in p and the shared slots, and returns
// them capped (an append to them copies), to be used as get's would be.
func (c *SharedLines) put(p *Part, key uint64, lines []string) []string {
	e := &sharedEntry{key: key, lines: lines[:len(lines):len(lines)]}
	c.slots[key&uint64(len(c.slots)-1)].Store(e)
	if p != nil {
		p.last = e
	}
	return e.lines
}

var sharedSeed = maphash.MakeSeed()

// Key hashes the inputs of some drawn lines. The zero value is not ready:
// use NewKey, and keep the key in a variable (it stays on the stack).
type Key struct {
	h   maphash.Hash
	buf [8]byte
}

// NewKey starts the key of the part named part (which tells two parts with
// alike inputs apart) as drawn with th in its language at width w.
func NewKey(th *Theme, part string, w int) Key {
	var k Key
	k.h.SetSeed(sharedSeed)
	k.Int(int(th.id))
	k.Str(string(th.Printer().Lang()))
	k.Str(part)
	k.Int(w)
	return k
}

// Int adds a number.
func (k *Key) Int(n int) *Key {
	binary.LittleEndian.PutUint64(k.buf[:], uint64(n))
	k.h.Write(k.buf[:])
	return k
}

// Bool adds a flag.
func (k *Key) Bool(b bool) *Key {
	if b {
		return k.Int(1)
	}
	return k.Int(0)
}

// Str adds a string (its length first, so that "ab","c" and "a","bc" differ).
func (k *Key) Str(s string) *Key {
	k.Int(len(s))
	k.h.WriteString(s)
	return k
}

// Msg adds a message with its arguments.
func (k *Key) Msg(m game.Msg) *Key {
	k.Str(m.Key).Int(len(m.Args))
	for _, a := range m.Args {
		k.Str(a.Name).Int(int(a.Kind)).Int(a.Num).Str(a.Str).Int(len(a.Msgs))
		for _, sub := range a.Msgs {
			k.Msg(sub)
		}
	}
	return k
}

// Sum is the key.
func (k *Key) Sum() uint64 { return k.h.Sum64() }
