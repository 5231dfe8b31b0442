package uikit

import "strings"

// Hanging word-wraps one paragraph of plain text to lines of at most w
// cells, breaking only at spaces (U+0020): the first line as it starts,
// the others after indent (a hanging indent, counted in w). A word wider
// than a line gets a line of its own, uncut: a command typed from the
// help must stay whole. A no-break space (U+00A0) joins words that must
// not part.
func Hanging(s string, w int, indent string) []string {
	var lines []string
	var cur strings.Builder
	n, room := 0, w // the line's width so far, and its room
	for _, word := range strings.Split(s, " ") {
		if word == "" {
			continue
		}
		ww := Width(word)
		if n > 0 && n+1+ww > room {
			lines = append(lines, cur.String())
			cur.Reset()
			cur.WriteString(indent)
			n, room = 0, w-Width(indent)
		}
		if n > 0 {
			cur.WriteByte(' ')
			n++
		}
		cur.WriteString(word)
		n += ww
	}
	return append(lines, cur.String())
}
