package notify

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/words"
)

// settled reports that nothing is on its way and nothing is due now: what
// a test waits for after moving its clock.
func (o *Outbox) settled() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, it := range o.items {
		if it.inFlight {
			return false
		}
	}
	return o.queue.Len() == 0 || o.queue.Peek().due.After(o.clock.Now())
}

// got is one request a receiver took.
type got struct {
	path, tags, body string
}

// receiver is a webhook destination on loopback; it answers with the
// statuses queued, then 200.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	all      []got
	statuses []int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		status := 200
		if len(r.statuses) > 0 {
			status, r.statuses = r.statuses[0], r.statuses[1:]
		}
		r.all = append(r.all, got{req.URL.Path, req.Header.Get("Tags"), string(b)})
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) got() []got {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]got(nil), r.all...)
}

type memLedger struct {
	mu    sync.Mutex
	marks map[string]Mark
}

func (l *memLedger) Sent(player, room string) (Mark, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.marks[player+"|"+room], nil
}

func (l *memLedger) Mark(player, room string, m Mark) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.marks[player+"|"+room] = m
	return nil
}

// fixture is an outbox on a manual clock, sending to a loopback receiver.
type fixture struct {
	t       *testing.T
	clock   *clocktest.Manual
	recv    *receiver
	ledger  *memLedger
	mu      sync.Mutex
	set     map[string]Settings
	present map[string]bool
	unsure  map[string]int // answers that cannot tell, still to come
	asked   map[string]int
	failed  map[Reason]int
	sent    int
	o       *Outbox
}

var t0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, clock: clocktest.NewAt(t0), recv: newReceiver(t), ledger: &memLedger{marks: map[string]Mark{}},
		set: map[string]Settings{}, present: map[string]bool{}, unsure: map[string]int{}, asked: map[string]int{},
		failed: map[Reason]int{}}
	f.set["anna"] = Settings{URL: f.recv.URL + "/anna"}
	f.start()
	return f
}

func (f *fixture) start() {
	f.o = New(f.config())
	f.t.Cleanup(f.o.Close)
}

func (f *fixture) config() Config {
	return Config{
		Policy: policy(f.t, "http://127.0.0.1:"+portOf(f.t, f.recv.Server)),
		Clock:  f.clock,
		Settings: func(p string) (Settings, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.set[p], nil
		},
		Ledger: f.ledger,
		Compose: func(k Kind, t Turn, _ Settings) Message {
			return Message{Title: string(k), Text: fmt.Sprintf("%s %s %d", t.Player, t.Table, t.Decision)}
		},
		Present: func(p string) (bool, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.asked[p]++
			if f.unsure[p] > 0 {
				f.unsure[p]--
				return false, errSlowNode
			}
			return f.present[p], nil
		},
		Metrics: Metrics{
			Sent: func(Format) { f.mu.Lock(); f.sent++; f.mu.Unlock() },
			Failed: func(r Reason) {
				f.mu.Lock()
				f.failed[r]++
				f.mu.Unlock()
			},
		},
	}
}

// settle waits until the outbox has done all that is due.
func (f *fixture) settle() {
	f.t.Helper()
	clocktest.CheckFor(f.t, 10*time.Second, 2*time.Millisecond, func() error {
		if !f.o.settled() {
			return errors.New("the outbox is still sending")
		}
		return nil
	})
}

func (f *fixture) advance(d time.Duration) {
	f.t.Helper()
	f.clock.Advance(d)
	f.settle()
}

func (f *fixture) wantBodies(want ...string) {
	f.t.Helper()
	var bodies []string
	for _, g := range f.recv.got() {
		bodies = append(bodies, g.body)
	}
	if fmt.Sprint(bodies) != fmt.Sprint(want) {
		f.t.Fatalf("the receiver got %q, want %q", bodies, want)
	}
}

func turn(player string, decision int, deadline time.Time, window time.Duration) Turn {
	return Turn{Player: player, Room: "K7QX@1", Table: "K7QX", Decision: decision, Deadline: deadline, Window: window,
		Game: "grizzled", Title: words.Raw("The Grizzled")}
}

// One message per move, then none about the same table within Bundle;
// a move still waiting when Bundle is over goes then.
func TestTurnIsSentOnceAndBundled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	f.wantBodies("anna K7QX 1")
	f.advance(10 * time.Minute)
	f.o.Post(turn("anna", 2, time.Time{}, 0))
	f.settle()
	f.advance(19 * time.Minute)
	f.wantBodies("anna K7QX 1")
	f.advance(time.Minute) // Bundle after the first
	f.wantBodies("anna K7QX 1", "anna K7QX 2")
	if f.recv.got()[0].path != "/anna" {
		t.Errorf("posted to %s", f.recv.got()[0].path)
	}
	// An older move posted late changes nothing.
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.advance(time.Hour)
	f.wantBodies("anna K7QX 1", "anna K7QX 2")
}

// A move made before its held message goes sends nothing.
func TestWithdrawDropsAHeldMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	f.advance(5 * time.Minute)
	f.o.Post(turn("anna", 2, time.Time{}, 0))
	f.advance(5 * time.Minute)
	f.o.Withdraw("anna", "K7QX@1")
	f.advance(time.Hour)
	f.wantBodies("anna K7QX 1")
	if f.o.Len() != 0 {
		t.Errorf("the outbox holds %d", f.o.Len())
	}
}

// The reminder goes when a quarter of the move's time is left, once,
// and not after the deadline.
func TestReminderAtAQuarterLeft(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.o.Post(turn("anna", 1, t0.Add(time.Hour), time.Hour))
	f.settle()
	f.advance(44 * time.Minute)
	f.wantBodies("anna K7QX 1")
	f.advance(time.Minute)
	f.wantBodies("anna K7QX 1", "anna K7QX 1")
	if g := f.recv.got(); g[0].tags != "game_die,bivouac" || g[1].tags != "hourglass_flowing_sand,bivouac" {
		t.Errorf("tags %q, %q", g[0].tags, g[1].tags)
	}
	f.advance(2 * time.Hour)
	f.wantBodies("anna K7QX 1", "anna K7QX 1")
	if f.o.Len() != 0 {
		t.Errorf("the outbox holds %d after the deadline", f.o.Len())
	}
}

// After a restart the tables post what they owe again: the ledger keeps
// the move already told from going twice, and its reminder still comes.
func TestLedgerKeepsARestartFromSendingTwice(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.o.Post(turn("anna", 1, t0.Add(time.Hour), time.Hour))
	f.settle()
	f.o.Close()
	f.start()
	f.advance(10 * time.Minute)
	f.o.Post(turn("anna", 1, t0.Add(time.Hour), time.Hour))
	f.advance(34 * time.Minute)
	f.wantBodies("anna K7QX 1")
	f.advance(time.Minute)
	f.wantBodies("anna K7QX 1", "anna K7QX 1")
	f.o.Close()
	f.start()
	f.o.Post(turn("anna", 1, t0.Add(time.Hour), time.Hour))
	f.advance(10 * time.Minute)
	f.wantBodies("anna K7QX 1", "anna K7QX 1")
}

// In quiet hours, in the player's zone, a message waits for their end.
func TestQuietHoursHoldMessages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	loc, err := LoadZone("Europe/Warsaw")
	if err != nil {
		t.Fatal(err)
	}
	// 22:30 in Warsaw (UTC+1 in March).
	f.clock = clocktest.NewAt(time.Date(2026, 3, 2, 22, 30, 0, 0, loc))
	f.o.Close()
	q, _ := ParseQuiet("22:00-07:00")
	f.set["anna"] = Settings{URL: f.recv.URL + "/anna", Quiet: q, Zone: "Europe/Warsaw"}
	f.start()
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	f.advance(8*time.Hour + 29*time.Minute) // 06:59
	f.wantBodies()
	f.advance(time.Minute)
	f.wantBodies("anna K7QX 1")
}

// A connected player hears in their terminal; the message waits while
// they are there and goes once they are not.
func TestPresentPlayerWaits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.present["anna"] = true
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.advance(PresentAgain)
	f.wantBodies()
	f.mu.Lock()
	f.present["anna"] = false
	f.mu.Unlock()
	f.advance(PresentAgain)
	f.wantBodies("anna K7QX 1")
}

var errSlowNode = errors.New("a node listens for the player and did not answer in time")

// When the cluster cannot tell in time whether a player is connected (a
// node slow to answer), their message waits UnsureAgain and asks again,
// and goes at the UnsureTries-th such answer in a row: never at the first
// (they may be playing on that node), never held for ever (an away player
// must be reached). Another player's message is not held up meanwhile.
func TestAnUntoldPresenceWaitsThenSends(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.set["bert"] = Settings{URL: f.recv.URL + "/bert"}
	f.unsure["anna"] = 100 // the node never answers in time
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.o.Post(turn("bert", 1, time.Time{}, 0))
	f.settle()
	f.wantBodies("bert K7QX 1")
	for try := 2; try < UnsureTries; try++ {
		f.advance(UnsureAgain)
		f.wantBodies("bert K7QX 1")
	}
	f.advance(UnsureAgain)
	f.wantBodies("bert K7QX 1", "anna K7QX 1")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.asked["anna"] != UnsureTries {
		t.Errorf("anna's presence asked %d times, want %d", f.asked["anna"], UnsureTries)
	}
}

// An answer that tells (connected or not) starts the count again: a slow
// answer now and then never sends to a player who is playing.
func TestAToldPresenceStartsTheCountAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.present["anna"] = true
	f.unsure["anna"] = UnsureTries - 1
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	for range UnsureTries - 2 {
		f.advance(UnsureAgain)
	}
	f.advance(UnsureAgain) // told: connected
	f.mu.Lock()
	f.unsure["anna"] = UnsureTries - 1
	f.mu.Unlock()
	for range UnsureTries {
		f.advance(PresentAgain)
	}
	f.wantBodies()
	f.mu.Lock()
	f.present["anna"] = false
	f.mu.Unlock()
	f.advance(PresentAgain)
	f.wantBodies("anna K7QX 1")
}

// A destination that fails is tried again after backoff; one that
// refuses the message is not; each failure is counted by its reason.
func TestRetriesAndRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.recv.statuses = []int{503, 503}
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	f.advance(29 * time.Second)
	if n := len(f.recv.got()); n != 1 {
		t.Fatalf("%d tries before the first backoff", n)
	}
	f.advance(time.Second)
	f.advance(2 * time.Minute)
	if g := f.recv.got(); len(g) != 3 {
		t.Fatalf("%d tries, want 3", len(g))
	}
	f.mu.Lock()
	if f.failed[ReasonServer] != 2 || f.sent != 1 {
		t.Errorf("failed %v, sent %d", f.failed, f.sent)
	}
	f.mu.Unlock()

	f.recv.statuses = []int{400}
	f.set["bob"] = Settings{URL: f.recv.URL + "/bob"}
	f.o.Post(turn("bob", 1, time.Time{}, 0))
	f.settle()
	f.advance(2 * time.Hour)
	if g := f.recv.got(); len(g) != 4 {
		t.Errorf("a refused message was tried %d times", len(g)-3)
	}
	f.mu.Lock()
	if f.failed[ReasonRejected] != 1 {
		t.Errorf("failed %v", f.failed)
	}
	f.mu.Unlock()
}

// A destination that never takes it is given up after MaxAttempts.
func TestGivesUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for range MaxAttempts + 2 {
		f.recv.statuses = append(f.recv.statuses, 503)
	}
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	for range 10 {
		f.advance(time.Hour)
	}
	if n := len(f.recv.got()); n != MaxAttempts {
		t.Errorf("%d tries, want %d", n, MaxAttempts)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed[ReasonGaveUp] != 1 {
		t.Errorf("failed %v", f.failed)
	}
}

// A URL the operator's list no longer takes sends nothing.
func TestListChangedSinceTheURLWasSet(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.set["anna"] = Settings{URL: "https://ntfy.sh/anna"}
	f.o.Post(turn("anna", 1, time.Time{}, 0))
	f.settle()
	f.wantBodies()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed[ReasonHost] != 1 {
		t.Errorf("failed %v", f.failed)
	}
}

// One player's messages are paced: PlayerBurst at once, then one every
// PlayerEvery.
func TestPlayerRate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range PlayerBurst + 2 {
		tt := turn("anna", 1, time.Time{}, 0)
		tt.Room, tt.Table = fmt.Sprintf("T%02d@1", i), fmt.Sprintf("T%02d", i)
		f.o.Post(tt)
	}
	f.settle()
	if n := len(f.recv.got()); n != PlayerBurst {
		t.Fatalf("%d sent at once, want %d", n, PlayerBurst)
	}
	f.advance(PlayerEvery)
	if n := len(f.recv.got()); n != PlayerBurst+1 {
		t.Fatalf("%d sent after one interval", n)
	}
	f.advance(PlayerEvery)
	if n := len(f.recv.got()); n != PlayerBurst+2 {
		t.Fatalf("%d sent after two", n)
	}
}

// The outbox holds at most MaxQueued messages; past it they are counted
// and dropped.
func TestQueueIsBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.present["anna"] = true
	for i := range MaxQueued + 1 {
		tt := turn("anna", 1, time.Time{}, 0)
		tt.Room = fmt.Sprint(i)
		f.o.Post(tt)
	}
	if n := f.o.Len(); n != MaxQueued {
		t.Errorf("holds %d", n)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed[ReasonQueueFull] != 1 {
		t.Errorf("failed %v", f.failed)
	}
}

// notify test sends at once and says what came back; a second test must
// wait; a player without a URL is told so.
func TestTestSendsAtOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	q, _ := ParseQuiet("00:00-23:59")
	f.set["anna"] = Settings{URL: f.recv.URL + "/anna", Quiet: q} // a test ignores quiet hours
	f.present["anna"] = true                                      // and presence
	out, err := f.o.Test("anna")
	if err != nil || !out.OK() || out.Status != 200 || out.Msg.Key != "notify.sent" {
		t.Fatalf("test: %+v, %v", out, err)
	}
	if g := f.recv.got(); len(g) != 1 || g[0].tags != "white_check_mark,bivouac" {
		t.Fatalf("got %+v", g)
	}
	if _, err := f.o.Test("anna"); !errors.Is(err, ErrTestWait) {
		t.Errorf("a second test at once: %v", err)
	}
	f.clock.Advance(TestEvery)
	f.recv.statuses = []int{404}
	if out, err := f.o.Test("anna"); err != nil || out.Reason != ReasonRejected || out.Status != 404 {
		t.Errorf("a test the destination refuses: %+v, %v", out, err)
	}
	if _, err := f.o.Test("nobody"); !errors.Is(err, ErrNoURL) {
		t.Errorf("a player without a URL: %v", err)
	}
}
