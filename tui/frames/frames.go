// Package frames draws a session's screen without Bubble Tea's standard
// renderer. That renderer wakes every program 60 times a second on a
// ticker, changed or not; at 2,000 idle sessions those wake-ups were
// nearly half a core (docs/PERFORMANCE.md). Here the program runs
// WithoutRenderer: after each Update a drawer builds the session's frame
// (see draw) and, unless the session's frames are being written already,
// writes it through the session's frameWriter (newest frame wins, like the
// room mailboxes), which rewrites only the lines that changed. Nothing runs while nothing changes, and a client
// that stops reading blocks only its own writer, never the program.
//
// Frames are also paced: keys faster than MinGap are drawn together, and
// the frame after a key that sent the table an action waits up to
// answerGrace for the table's answer, so a move is drawn once.
package frames

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/tui/uikit"

	tea "github.com/charmbracelet/bubbletea"
)

// Screen is the session's screens as the frames see them: the program's
// messages go to it, and its lines are drawn.
type Screen interface {
	Init() tea.Cmd
	Update(msg tea.Msg) (tea.Model, tea.Cmd)
	// Lines is the screen as it stands, line by line. It is read by one
	// goroutine at a time, while the program waits.
	Lines() []string
	// Sent reports whether the last Update sent the table an action, and
	// forgets it: the frame then waits for the answer.
	Sent() bool
	// Answer reports whether msg is the table's news, which answers an
	// action.
	Answer(msg tea.Msg) bool
	// Goodbye is why the session is ending ("" while it is not): the
	// program is quitting, and the words stay on the normal screen.
	Goodbye() string
	// Crashed logs a panic in the session (raised in Update, or while
	// drawing: then p says so and carries the drawer's stack; stack is the
	// program's) and gives the goodbye to leave on the terminal.
	Crashed(p any, stack []byte) string
}

// Ringer is a Screen that may ask for the terminal's bell (a notice came
// for the player): Bell reports whether it wants it rung, and forgets.
// The bell goes out with the next write, alone if nothing else changed.
type Ringer interface {
	Bell() bool
}

// Model wraps the session's Screen so every Update hands its lines to w.
// Its methods take a pointer: a struct of two pointers returned as a
// tea.Model would be boxed anew at every Update.
type Model struct {
	screen Screen
	w      *frameWriter

	// A frame is drawn by a drawer (see draw) while the program waits for
	// its next message.
	job     frame         // the frame to draw, lines not yet filled
	drawn   chan struct{} // the drawer is done with job (one slot)
	failed  *drawPanic    // the drawer's panic, to raise on the program's goroutine
	drawing bool          // a drawer has job: the screen is not to be touched until drawn

	// send is the program's Send (nil: drawLater's frames come by a
	// tea.Tick command); gap is the timer that sends a put-off frame's
	// drawMsg, made at the first and reset after.
	send func(tea.Msg)
	gap  *time.Timer

	// awaiting: the frame after a key that sent an action waits for the
	// table's answer, up to answerGrace.
	awaiting bool
}

// New wraps s for a program that runs WithoutRenderer, drawing on out (in
// ASCII only when ascii) until ctx ends or s says goodbye.
func New(ctx context.Context, s Screen, out io.Writer, ascii bool) *Model {
	return newModel(s, newFrameWriter(ctx, out, ascii))
}

func newModel(s Screen, w *frameWriter) *Model {
	return &Model{screen: s, w: w, drawn: make(chan struct{}, 1)}
}

// SendWith has put-off frames asked for by send, the program's Send, on
// one timer per session; without it they come by a tea.Tick command.
// Call it before the program runs.
func (f *Model) SendWith(send func(tea.Msg)) { f.send = send }

// Pending reports whether a frame is put off: by MinGap, or waiting for
// the table's answer.
func (f *Model) Pending() bool { return f.w.drawDue || f.awaiting }

func (f *Model) Init() tea.Cmd {
	f.w.offer(frame{lines: f.screen.Lines()})
	return f.screen.Init()
}

// MinGap is the least time between two frames of one session. A key
// typed after a pause is drawn at once; keys that come faster than this
// (a held key, a burst from a script) are drawn together, once the gap has
// passed: a burst of n keys costs n Updates but about one View per gap.
const MinGap = 15 * time.Millisecond

// answerGrace is how long the frame after a key that sent an action to
// the table waits for the table's answer. The answer usually comes within
// a millisecond, and the mover's screen drew twice: once to say the move
// was sent, and again a gap later with the move taken. Now it draws once,
// with the move taken; only a table slower than this shows the move sent
// first. At 10,000 players that was one frame in six drawn and written.
// It is 100 ms, about the longest a reaction still reads as immediate:
// under load the answer often takes longer than a few milliseconds, and
// each such move cost a second frame, drawn and written, that showed the
// player nothing to act on.
const answerGrace = 100 * time.Millisecond

// drawMsg asks for the frame put off by MinGap or answerGrace.
type drawMsg struct{}

func (f *Model) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		// A bug in a screen ends this session alone, with the terminal
		// given back whole, instead of a stack trace on the player's screen.
		if p := recover(); p != nil {
			f.w.finish(f.screen.Crashed(p, debug.Stack()))
			cmd = tea.Quit
		}
	}()
	f.settle() // the last frame's drawer is done with the screen (or raise its panic)
	if _, ok := msg.(drawFailed); ok {
		return f, nil // settle raised the drawer's panic, unless an earlier message did
	}
	if _, ok := msg.(drawMsg); ok {
		f.w.drawDue, f.awaiting = false, false
	} else {
		// A screen's timer that comes before its time leaves the screen as
		// it was (it only waits for the next): asked before the screen
		// takes the tick and wishes again.
		t, tick := msg.(uikit.Tick)
		early := tick && !t.Due()
		_, cmd = f.screen.Update(msg)
		if early {
			return f, cmd
		}
	}
	if r, ok := f.screen.(Ringer); ok && r.Bell() {
		f.w.ring()
	}
	if n, ok := f.screen.(Notifier); ok {
		if d, ok := n.Desktop(); ok {
			f.w.notify(d)
		}
	}
	sent := f.screen.Sent()
	if f.awaiting && f.screen.Answer(msg) {
		f.awaiting, f.w.drawDue = false, false // the answer's frame goes now, not the grace's
		if f.gap != nil {
			f.gap.Stop() // a drawMsg already sent draws the same frame again: nothing to write
		}
	}
	switch ws, resized := msg.(tea.WindowSizeMsg); {
	case resized:
		f.draw(frame{redraw: true, height: ws.Height})
	case f.screen.Goodbye() != "":
		f.draw(frame{})
		f.settle()                     // the frame is offered before the goodbye ends the writes
		f.w.finish(f.screen.Goodbye()) // the program is quitting: leave the goodbye on screen
	case sent && !f.w.drawDue:
		f.w.drawDue, f.awaiting = true, true
		cmd = tea.Batch(cmd, f.drawLater(max(answerGrace, MinGap-time.Since(f.w.drawnAt))))
	case f.w.drawDue:
		// a frame is already on its way
	case time.Since(f.w.drawnAt) >= MinGap:
		f.draw(frame{})
	default:
		f.w.drawDue = true
		cmd = tea.Batch(cmd, f.drawLater(MinGap-time.Since(f.w.drawnAt)))
	}
	return f, cmd
}

// drawLater has a drawMsg come after wait, on the session's one gap timer:
// a mover's screen puts off the room's answer this way at every move, and
// a tea.Tick for it was a new goroutine each time that allocated its timer
// (and owed the collector an assist for it while a mark ran). The timer's
// goroutine only sends an empty message, which allocates nothing.
func (f *Model) drawLater(wait time.Duration) tea.Cmd {
	if f.send == nil {
		return tea.Tick(wait, func(time.Time) tea.Msg { return drawMsg{} })
	}
	if f.gap == nil {
		f.gap = time.AfterFunc(wait, func() { f.send(drawMsg{}) })
	} else {
		f.gap.Reset(wait)
	}
	return nil
}

// draw hands the screen's current frame to the writer. A drawer builds it
// while the program waits for its next message, so the screen is read by
// one goroutine at a time as before: the next Update first waits for the
// drawer (settle), which has nearly always long finished. Why not draw on
// the program's own goroutine: a frame's lines are the one thing a seat's
// program allocates for a move, and a goroutine that allocates while the
// collector marks first owes it an assist of at least 64 KB of marking
// (the runtime's floor), whatever it allocates. At 10,000 players every
// seat's program paid that at every move during a mark; a few drawers,
// busy and long-lived, pay it once each per cycle. Why the program does
// not wait for the drawer at once: the drawer's "done" woke the program
// once more for every frame, only for it to go back to waiting for its
// next message. Without SendWith (screens driven alone, in tests) the
// program waits at once, as a drawer's panic has no message to wake it.
func (f *Model) draw(fr frame) {
	f.job = fr
	f.drawing = true
	drawers.hand(f)
	f.w.drawnAt = time.Now()
	if f.send == nil {
		f.settle()
	}
}

// settle waits for the drawer of the last frame, if one has it, and
// raises its panic here, on the program's goroutine (in Update, whose
// recover ends this session alone).
func (f *Model) settle() {
	if !f.drawing {
		return
	}
	f.drawing = false
	<-f.drawn
	if p := f.failed; p != nil {
		f.failed = nil
		panic(p)
	}
}

// drawFailed wakes the program when its drawer panicked, so that the
// panic is raised (by settle in Update) without waiting for a key.
type drawFailed struct{}

// drawPanic is a panic raised while drawing, with the drawer's stack.
type drawPanic struct {
	value any
	stack []byte
}

func (p *drawPanic) String() string { return fmt.Sprintf("%v (while drawing)\n%s", p.value, p.stack) }

// drawers draw frames for every session: a drawer that has just finished
// a session's frame takes the next one handed over.
var drawers = lingerPool[*Model]{idle: make(chan *Model), run: (*Model).drawJob}

// drawJob fills f.job's lines and offers it to the writer, then lets the
// program go on; a panic goes back to the program with its stack. When no
// goroutine is writing the session's frames, the drawer writes this one
// itself after the program has gone on: handing it to a writer was one
// more goroutine woken for every frame (each seat's frame after a move
// woke its pump, its program, a drawer, the program again and a writer).
// A client that stops reading then holds this drawer, as it would have
// held a writer: the others draw on, and hand starts another if none waits.
func (f *Model) drawJob() {
	if f.drawFrame() {
		f.w.write()
	}
}

// drawFrame is drawJob's drawing: true if the caller is to write the
// frame (it took the session's writing).
func (f *Model) drawFrame() (write bool) {
	defer func() {
		p := recover()
		if p != nil {
			f.failed = &drawPanic{value: p, stack: debug.Stack()}
		}
		send := f.send // read before drawn: after it, f is the program's
		f.drawn <- struct{}{}
		if p != nil && send != nil {
			send(drawFailed{})
		}
	}()
	fr := f.job
	f.job = frame{}
	fr.lines = f.screen.Lines()
	return f.w.take(fr)
}

// View is empty: there is no standard renderer to draw it.
func (f *Model) View() string { return "" }

type frame struct {
	lines  []string // the screen, line by line (not changed once offered)
	redraw bool     // the window changed: clear and draw everything
	height int
}

// frameWriter draws frames on the alternate screen of one session.
//
// It has no goroutine of its own while nothing is to be written: offer
// hands it to a write goroutine when a frame comes and none is writing it
// (see wake), which leaves it when it has caught up. Ten thousand idle
// sessions used to keep ten thousand writer goroutines (and their stacks)
// asleep on a channel; now a session costs a goroutine only while its
// screen is being written, and a client that stops reading still blocks
// only its own writes, never the program.
type frameWriter struct {
	out   io.Writer
	ascii bool          // draw every line in ASCII (Session.ASCII)
	done  chan struct{} // closed when the last write (goodbye or leaving) is out

	mu      sync.Mutex
	pending frame  // the newest frame not yet drawn, if has
	has     bool   //
	final   string // the goodbye to leave on the normal screen, if finishing
	ending  bool   // finish was called or the session's context ended
	bell    bool   // the terminal's bell is due
	desk    []byte // a desktop notification's sequence, due with the next write
	writing bool   // a write goroutine is running

	// Only the write goroutine (one at a time) uses these.
	started bool     // the alternate screen is entered
	last    []uint64 // a hash of each line on screen, to redraw only changes

	// Read and written on the program's goroutine only (Model.Update).
	drawnAt time.Time // when the last frame was offered
	drawDue bool      // a drawMsg is on its way
}

// lineSeed hashes the lines on screen: a session keeps 8 bytes a line
// instead of the whole last frame. Two different lines hashing alike (one
// chance in 2^64 a pair) would leave one line stale until it changes again.
var lineSeed = maphash.MakeSeed()

// frameBufs holds the byte buffers frames are built in while no session is
// writing them: a write allocates nothing, and an idle session holds none.
var frameBufs = sync.Pool{New: func() any { return new([]byte) }}

// written counts the frames this process wrote to its sessions.
var written atomic.Uint64

// Written is how many frames (screen changes) every session of this
// process was sent since it started: the load harness divides what a
// frame costs by it (bivouac_frames_total).
func Written() uint64 { return written.Load() }

func newFrameWriter(ctx context.Context, out io.Writer, ascii bool) *frameWriter {
	w := &frameWriter{out: out, done: make(chan struct{}), ascii: ascii}
	// No goroutine waits for the end either: the context calls us.
	context.AfterFunc(ctx, func() { w.end("", false) })
	return w
}

// offer queues a frame, replacing one not yet drawn. It never blocks. A
// pending redraw is kept when a newer frame replaces it.
func (w *frameWriter) offer(f frame) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ending {
		return
	}
	w.queue(f)
	w.wake()
}

// take is offer for a drawer that writes the frame itself: instead of
// waking a writer it reports whether the caller is now the session's
// writer (none was writing), and must call write.
func (w *frameWriter) take(f frame) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ending {
		return false
	}
	w.queue(f)
	if w.writing {
		return false
	}
	w.writing = true
	return true
}

// queue makes f the pending frame (w.mu held).
func (w *frameWriter) queue(f frame) {
	if w.has && w.pending.redraw {
		f.redraw = true
		f.height = max(f.height, w.pending.height)
	}
	w.pending, w.has = f, true
}

// ring has the next write ring the terminal's bell.
func (w *frameWriter) ring() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ending {
		return
	}
	w.bell = true
	w.wake()
}

// notify has the next write carry desktop notification d (replacing one
// not yet written). It never blocks.
func (w *frameWriter) notify(d DesktopNote) {
	seq := d.Sequence(w.ascii)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ending || seq == nil {
		return
	}
	w.desk = seq
	w.wake()
}

// wake starts the write goroutine if none runs (w.mu held): one that has
// just caught up with another session's frames if one waits, else a new
// one.
func (w *frameWriter) wake() {
	if !w.writing {
		w.writing = true
		writers.hand(w)
	}
}

// writers write frames for every session. A goroutine started per frame
// began with a small stack and grew it in every SSH write (the cipher's
// padding reads crypto/rand deep down): 5% of the server's CPU while tables
// played. A writer that has caught up with one session's frames takes the
// next session's.
var writers = lingerPool[*frameWriter]{idle: make(chan *frameWriter), run: (*frameWriter).write}

// lingerPool runs jobs on goroutines that outlive them: a goroutine that
// has done no job for a second or two ends, so an idle server keeps none
// and a busy one keeps a few, long-lived.
type lingerPool[T any] struct {
	idle chan T  // to a goroutine waiting for a job
	run  func(T) // the job
}

const poolLinger = time.Second

// hand runs job on a waiting goroutine, or a new one.
func (p *lingerPool[T]) hand(job T) {
	select {
	case p.idle <- job:
	default:
		go p.serve(job)
	}
}

// serve runs job, then the jobs handed to it, until a whole beat of
// poolLinger passed without one. The beat's timer is set once a beat, not
// after every job: reset at every frame it was 1% of the server's CPU
// while tables played (a drawer draws several hundred frames a second).
func (p *lingerPool[T]) serve(job T) {
	linger := time.NewTimer(poolLinger)
	defer linger.Stop()
	busy := false // a job was run since the beat last struck
	for {
		p.run(job)
		busy = true
		for waiting := true; waiting; {
			select {
			case job = <-p.idle:
				waiting = false
			case <-linger.C:
				if !busy {
					return
				}
				busy = false
				linger.Reset(poolLinger)
			}
		}
	}
}

// finish leaves the alternate screen with msg printed on the normal one.
// It waits (briefly) for the writer, so the words are out before the
// session closes.
func (w *frameWriter) finish(msg string) {
	if !w.end(msg, true) {
		return // already finishing
	}
	select {
	case <-w.done:
	case <-time.After(time.Second):
	}
}

// end stops the frames and has the writer leave the alternate screen, with
// msg after it when say. Only the first call counts.
func (w *frameWriter) end(msg string, say bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ending {
		return false
	}
	w.ending, w.has = true, false
	if say {
		w.final = msg + "\n"
	}
	w.wake()
	return true
}

const (
	enterAlt = "\x1b[?1049h\x1b[?25l\x1b[2J"
	leaveAlt = "\x1b[0m\x1b[?25h\x1b[?1049l" // plain attributes, cursor shown, normal screen
)

// write draws frames until none is pending, then returns; at the end it
// leaves the alternate screen and closes done.
func (w *frameWriter) write() {
	bp := frameBufs.Get().(*[]byte)
	defer frameBufs.Put(bp)
	for {
		w.mu.Lock()
		f, has, ending, final, bell, desk := w.pending, w.has, w.ending, w.final, w.bell, w.desk
		// The frame is let go once taken: kept, every idle session held
		// its last screen's lines (two dozen strings the collector marks).
		w.pending, w.has, w.bell, w.desk = frame{}, false, false, nil
		if !has && !ending && !bell && desk == nil {
			w.writing = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		if ending {
			msg := final
			if w.ascii {
				msg = uikit.ToASCII(uikit.Romanize(msg))
			}
			if w.started {
				msg = leaveAlt + msg
			}
			if msg != "" {
				_, _ = io.WriteString(w.out, strings.ReplaceAll(msg, "\n", "\r\n"))
			}
			close(w.done) // writing stays true: nothing is written after this
			return
		}
		*bp = (*bp)[:0]
		if bell {
			*bp = append(*bp, '\a')
		}
		*bp = append(*bp, desk...)
		if has {
			*bp = w.draw(*bp, f)
		}
		if len(*bp) > 0 {
			_, _ = w.out.Write(*bp)
			if has {
				written.Add(1)
			}
		}
	}
}

// draw appends what turns the screen on the terminal into f.
func (w *frameWriter) draw(b []byte, f frame) []byte {
	if !w.started {
		w.started = true
		b = append(b, enterAlt...)
	}
	if f.redraw {
		b = append(b, "\x1b[2J"...)
		w.last = w.last[:0]
	}
	n := 0
	for ; n < len(f.lines); n++ {
		l := f.lines[n]
		h := maphash.String(lineSeed, l)
		if n < len(w.last) && w.last[n] == h {
			continue
		}
		if n < len(w.last) {
			w.last[n] = h
		} else {
			w.last = append(w.last, h)
		}
		// Erase first, then write: erasing after a full-width line
		// would take its last cell with it (the cursor waits there).
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(n+1), 10)
		b = append(b, ";1H\x1b[2K"...)
		if w.ascii {
			b = uikit.AppendASCII(b, l)
		} else {
			b = append(b, l...)
		}
		b = append(b, "\x1b[0m"...)
	}
	if n < len(w.last) {
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(n+1), 10)
		b = append(b, ";1H\x1b[J"...)
		w.last = w.last[:n]
	}
	return b
}
