// Package codes makes the short random codes people read aloud and type:
// table codes, campaign codes and guest reclaim codes. There is one
// alphabet, without the characters people confuse, and every character is
// drawn from crypto/rand with equal chance (no modulo bias).
package codes

import (
	"crypto/rand"
	"strings"
)

// Alphabet is the characters of every code: digits and capital letters
// without 0 O 1 I L and U (U reads as V in many hands).
const Alphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ"

// unbiased is the largest multiple of len(Alphabet) a byte can hold: bytes
// at or above it are drawn again, so that b % len(Alphabet) is uniform.
const unbiased = 256 - 256%len(Alphabet)

// New returns a code of n characters of Alphabet. Each character carries
// log2(30) ≈ 4.9 bits.
func New(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+1)
	for len(out) < n {
		rand.Read(buf) // never fails (crypto/rand, Go 1.24+)
		for _, b := range buf {
			if int(b) < unbiased && len(out) < n {
				out = append(out, Alphabet[int(b)%len(Alphabet)])
			}
		}
	}
	return string(out)
}

// Normalize is a typed code in canonical form: upper case, without spaces
// and dashes. It says nothing about validity; see Valid.
func Normalize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToUpper(strings.TrimSpace(s)))
}

// Valid reports whether s (canonical form) is n characters of Alphabet.
func Valid(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if strings.IndexByte(Alphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}
