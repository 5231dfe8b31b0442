package plain

import (
	"context"
	"io"

	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// LineEditor is plain mode's line editing for other line-based consoles
// (the admin console): with a PTY it echoes, handles backspace and keeps a
// "> " prompt under the output; without one, lines in and lines out.
type LineEditor struct{ e *lineEditor }

// NewLineEditor writes to out; echo: the session has a PTY.
func NewLineEditor(out io.Writer, echo bool) *LineEditor {
	return &LineEditor{newLineEditor(out, echo)}
}

// Lines reads in until it ends, ctx ends, or ctrl+c/ctrl+d; each line
// typed arrives on the channel, which then closes.
func (l *LineEditor) Lines(ctx context.Context, in io.Reader) <-chan string {
	lines := make(chan string)
	go l.e.read(ctx, in, lines)
	return lines
}

// Prompt shows the prompt and what is typed so far (with a PTY).
func (l *LineEditor) Prompt() { l.e.prompt() }

// Say writes lines above the prompt, each cleaned of anything a terminal
// would act on.
func (l *LineEditor) Say(lines ...string) {
	var b []byte
	for _, line := range lines {
		b = append(b, uikit.Clean(line)...)
		b = append(b, l.e.eol...)
	}
	l.e.print(string(b))
}
