//go:build unix

package sanitize

import (
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// guarded is a string of n bytes of which only the first readable are
// mapped readable: touching any byte after them faults, which
// debug.SetPanicOnFault turns into a panic the test can report.
func guarded(t *testing.T, fill string, readable, n int) string {
	t.Helper()
	page := os.Getpagesize()
	open := (readable + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, n+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	for i := 0; i < open; i += len(fill) {
		copy(mem[i:open], fill)
	}
	if err := syscall.Mprotect(mem[open:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	return unsafe.String(&mem[0], n)
}

// Line reads no further than its cut (maxRunes*bytesPerRune+64 bytes,
// rounded up to a page here), however long the paste: the rest of a 10 MB
// input is unreadable memory. Invalid bytes and an endless escape are the
// inputs that would otherwise be scanned to their end.
func TestLineReadsNoFurtherThanItsCut(t *testing.T) {
	const max = 200
	for _, tc := range []struct{ name, fill, want string }{
		{"text", "ą\x1b[31m", strings.Repeat("ą", max)},
		{"invalid bytes", "\xff", ""},
		{"endless escape", "\x1b]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			huge := guarded(t, tc.fill, max*bytesPerRune+64, 10<<20)
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Line read past its cut: %v", r)
				}
			}()
			if got := Line(huge, max); got != tc.want {
				t.Errorf("got %.20q…, want %.20q…", got, tc.want)
			}
		})
	}
}
