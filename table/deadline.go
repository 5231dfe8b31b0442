package table

// Deadlines at a table played by correspondence (Pace). They are derived
// from the log, never kept beside it: each entry is stamped with its time,
// a decision opens at the time of the action that opened it (or when the
// game began), and a timed step of the game at the time of the action that
// began it. So a restart, or another node taking the table over, computes
// the same moment and fires at it (at once if it has passed); what firing
// does is a stand-in's move, stored in the log like any other, marked as
// made because the deadline passed (EncodeLate), so it happens once.
//
// Two kinds of deadline:
//   - a decision's, Pace.Decision after it opened, while the table waits
//     on a person and no timed step of the game runs (The Grizzled): its
//     stand-in bot makes that decision for each person it waits on;
//   - a timed step's, its window after it began (never shorter than
//     Pace.Decision): if the table allows stand-ins, the seats the game
//     names (game.Overdue) have their stand-in bots decide first, for up to
//     OverdueGrace; then the step's timer action applies.
//
// A seat whose deadline passed MissesToBot times in a row is played by its
// stand-in bot from then on, until its player comes back and acts.

import (
	"fmt"
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/game"
)

// correspondence holds what a correspondence table derives from its log;
// its zero value is a live table's.
type correspondence struct {
	startedAt  time.Time // when the game began (RoomRecord.Started)
	opened     time.Time // when the decision under way opened
	phaseID    uint64    // the game's timed step under way (game.Timer.ID; 0: none)
	phaseSince time.Time // when it began
	stamp      time.Time // the time of the entry being appended

	deadline   clock.Timer // the decision's deadline
	deadlineAt time.Time
	armedSeq   int // 1 + the decision the deadline is armed for
	firedSeq   int // 1 + the decision whose deadline has passed

	misses  map[game.Seat]int  // deadlines passed in a row, per seat
	late    map[game.Seat]bool // a stand-in decides for the seat now: its deadline passed
	overdue *overdueStep

	reported int      // 1 + the decision last told to OnTurn
	told     []string // the identities it waited on then
}

// overdueStep is a timed step past its deadline whose stand-ins decide.
type overdueStep struct {
	id     uint64
	action game.Action
	grace  clock.Timer
}

func (r *Room) byCorrespondence() bool { return r.cfg.Pace.Correspondence }

// standInsAllowed: the table lets bots decide for absent players.
func (r *Room) standInsAllowed() bool { return r.cfg.Bots != nil && !r.cfg.NoTakeover }

// timedStep is the game's timed step now, if any (its ID, else 0).
func (r *Room) timedStep() uint64 {
	if t, ok := r.cfg.Game.Timer(r.state); ok {
		return t.ID
	}
	return 0
}

// began notes, after an action stamped at, when the decision and the
// timed step under way began (replayed the same way on restore).
func (c *correspondence) began(at time.Time, step uint64) {
	c.opened = at
	if step != c.phaseID {
		c.phaseID, c.phaseSince = step, at
	}
}

// counted notes whose action e was: a stand-in's because its deadline
// passed adds a miss; the player's own clears them.
func (c *correspondence) counted(e Entry) {
	switch {
	case e.Seat < 0:
	case e.Late:
		c.misses[e.Seat]++
	case !e.StandIn:
		delete(c.misses, e.Seat)
	}
}

// actions decodes the action entries of a log, in order.
func actions(entries [][]byte) ([]Entry, error) {
	var out []Entry
	for i, b := range entries {
		e, err := DecodeEntry(b)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		if !e.IsChat() {
			out = append(out, e)
		}
	}
	return out, nil
}

// rederive replays, on restore, what a correspondence table keeps of its
// log (began, counted) after i of its actions acts, with s the state then.
func (c *correspondence) rederive(g game.Game, s game.State, i int, acts []Entry) {
	step := uint64(0)
	if t, ok := g.Timer(s); ok {
		step = t.ID
	}
	if i == 0 {
		c.phaseID = step
		c.began(c.startedAt, step)
		c.phaseSince = c.startedAt
		return
	}
	e := acts[i-1]
	c.began(e.At, step)
	c.counted(e)
}

// timedWindow is how long timed step t runs at this table: the game's
// window, and at a correspondence table never less than a decision's.
func (r *Room) timedWindow(t game.Timer) time.Duration {
	if r.byCorrespondence() {
		return max(t.After, r.cfg.Pace.Decision)
	}
	return t.After
}

// timedDeadline is when the timed step under way ends at a correspondence
// table: its window after it began.
func (r *Room) timedDeadline(t game.Timer) time.Time {
	return r.corr.phaseSince.Add(r.timedWindow(t))
}

// decisionDeadline is when the decision the table waits on must be made,
// if it has a deadline: Pace.Decision after it opened, while it waits on a
// person who plays their seat and no timed step of the game runs.
func (r *Room) decisionDeadline() (time.Time, bool) {
	if !r.byCorrespondence() || r.cfg.Pace.Decision <= 0 || !r.started || r.over || r.timer != nil || r.cfg.Bots == nil {
		return time.Time{}, false
	}
	if len(r.clockSeats()) == 0 {
		return time.Time{}, false // it waits for no one: no clock runs
	}
	return r.corr.opened.Add(r.cfg.Pace.Decision), true
}

// armDeadline sets the clock for the decision's deadline, unless it is set
// or has passed already.
func (r *Room) armDeadline() {
	at, ok := r.decisionDeadline()
	if !ok || r.corr.firedSeq == r.seq+1 {
		r.stopDeadline()
		return
	}
	if r.corr.deadline != nil && r.corr.armedSeq == r.seq+1 && r.corr.deadlineAt.Equal(at) {
		return
	}
	r.stopDeadline()
	seq := r.seq
	r.corr.armedSeq, r.corr.deadlineAt = seq+1, at
	r.corr.deadline = r.clock.AfterFunc(max(at.Sub(r.clock.Now()), 0), func() { r.retrySubmit(command{kind: cmdDeadline, seq: seq}) })
}

func (r *Room) stopDeadline() {
	if r.corr.deadline != nil {
		r.corr.deadline.Stop()
		r.corr.deadline = nil
	}
}

// deadlinePassed: if the table still waits on the same decision, a
// stand-in decides it for each person it waits on.
func (r *Room) deadlinePassed(seq int) {
	r.corr.deadline = nil
	if seq != r.seq || !r.started || r.over {
		return
	}
	at, ok := r.decisionDeadline()
	if !ok || r.clock.Now().Before(at) {
		r.afterChange() // things moved since it was set: set it again
		return
	}
	r.corr.firedSeq = r.seq + 1
	for _, seat := range r.clockSeats() {
		r.corr.late[seat] = true
	}
	r.afterChange()
}

// standInsFirst, as timed step id's deadline passes at a correspondence
// table that allows stand-ins, has the stand-ins of the seats the game
// names (game.Overdue) decide before the step's action applies. It
// reports whether they do (the action waits for endOverdue).
func (r *Room) standInsFirst(id uint64, action game.Action) bool {
	if !r.byCorrespondence() || !r.standInsAllowed() {
		return false
	}
	if r.corr.overdue != nil {
		return r.corr.overdue.id == id
	}
	seats := r.overdueSeats()
	if len(seats) == 0 {
		return false
	}
	o := &overdueStep{id: id, action: action}
	o.grace = r.clock.AfterFunc(OverdueGrace, func() { r.retrySubmit(command{kind: cmdOverdue, id: id}) })
	r.corr.overdue = o
	for _, seat := range seats {
		r.corr.late[seat] = true
	}
	r.afterChange()
	return true
}

// overdueSeats are the people the game would have a stand-in decide for
// now, if its step's deadline had passed.
func (r *Room) overdueSeats() []game.Seat {
	od, ok := r.cfg.Game.(game.Overdue)
	if !ok {
		return nil
	}
	return r.personSeats(od.Overdue(r.state))
}

// endOverdue ends an overdue step once its stand-ins have decided (or,
// forced, when OverdueGrace has run out): the step's action applies,
// unless the step has ended by itself meanwhile.
func (r *Room) endOverdue(force bool) {
	o := r.corr.overdue
	if o == nil {
		return
	}
	if !r.over && r.timedStep() == o.id && !force &&
		slices.ContainsFunc(r.overdueSeats(), func(s game.Seat) bool { return r.corr.late[s] }) {
		return // still deciding
	}
	r.clearOverdue()
	if r.over || r.timedStep() != o.id {
		return
	}
	r.timerID = 0
	if err := r.apply(game.System, o.action); err != nil {
		r.log.Warn("a timed step's action after its stand-ins was refused", "err", err)
	}
}

func (r *Room) clearOverdue() {
	if o := r.corr.overdue; o != nil {
		o.grace.Stop()
		r.corr.overdue = nil
	}
	clear(r.corr.late)
}

// decidedLate follows a stand-in's move made because seat's deadline
// passed: the seat's player is told, on their own (what a seat decides at
// night is nobody else's business); past MissesToBot in a row, the
// stand-in plays the seat until they act again.
func (r *Room) decidedLate(seat game.Seat) {
	delete(r.corr.late, seat)
	r.corr.misses[seat]++
	s := &r.seats[seat]
	n := r.corr.misses[seat]
	said := game.M("table.deadline.decided_once")
	if n > 1 {
		said = game.M("table.deadline.decided", game.Count(n))
	}
	r.record([]game.Event{{Audience: game.Only(seat), Kind: game.Narration, From: game.NoSeat, Msg: said}})
	if n >= MissesToBot && !s.takeover {
		s.takeover = true
		r.narrateAbout(seat, game.M("table.deadline.bot_plays", game.Text("Player", s.rec.Name), game.Count(n)))
	}
}

// forgetLate drops the marks of seats the table no longer waits on.
func (r *Room) forgetLate() {
	if len(r.corr.late) == 0 {
		return
	}
	waiting := r.cfg.Game.Waiting(r.state)
	for seat := range r.corr.late {
		if !slices.Contains(waiting, seat) {
			delete(r.corr.late, seat)
		}
	}
}

// missedNotice is what a player coming back to a correspondence table is
// told of the deadlines they missed meanwhile (zero: none).
func (r *Room) missedNotice(seat game.Seat) game.Msg {
	n := r.corr.misses[seat]
	if n == 0 {
		return game.Msg{}
	}
	switch {
	case n >= MissesToBot:
		return game.M("table.deadline.back_bot", game.Count(n))
	case n > 1:
		return game.M("table.deadline.back", game.Count(n))
	}
	return game.M("table.deadline.back_once")
}

// reportTurn tells OnTurn whom the table waits on, when that changed.
func (r *Room) reportTurn() {
	if !r.byCorrespondence() || r.cfg.OnTurn == nil {
		return
	}
	var waiting []TurnSeat
	var ids []string
	if r.started && !r.over {
		for _, seat := range r.clockSeats() {
			s := r.seats[seat]
			waiting = append(waiting, TurnSeat{Seat: seat, Identity: s.rec.Identity, Name: s.rec.Name, Here: r.seatConnected(seat)})
			ids = append(ids, s.rec.Identity)
		}
	}
	if r.corr.reported == r.seq+1 && slices.Equal(ids, r.corr.told) {
		return
	}
	var done []string
	for _, id := range r.corr.told {
		if !slices.Contains(ids, id) {
			done = append(done, id)
		}
	}
	r.corr.reported, r.corr.told = r.seq+1, ids
	deadline, window := r.turnDeadline()
	r.cfg.OnTurn(Turn{Room: r.cfg.Code, Since: r.created, Game: r.cfg.Game.ID(), Title: r.cfg.Title, Private: r.cfg.Private,
		Decision: r.seq, Deadline: deadline, Window: window, Waiting: waiting, Done: done})
	r.save() // the lobby of another node reads whose move it is from the record
}

// turnDeadline is the deadline of what the table waits on now and its
// whole window (zero: none).
func (r *Room) turnDeadline() (time.Time, time.Duration) {
	if !r.started || r.over || !r.byCorrespondence() {
		return time.Time{}, 0
	}
	if at, ok := r.decisionDeadline(); ok {
		return at, r.cfg.Pace.Decision
	}
	if t, ok := r.cfg.Game.Timer(r.state); ok {
		return r.timedDeadline(t), r.timedWindow(t)
	}
	return time.Time{}, 0
}
