package moderation

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/words"
)

// Admins says who may moderate (the access package's admins file).
type Admins interface{ IsAdmin(fp string) bool }

// The records, as the store keeps them.
type (
	Sanction = persistence.Sanction
	Entry    = persistence.AuditEntry
	Report   = persistence.Report
)

// Sanction kinds.
const (
	Ban  = persistence.SanctionBan
	Mute = persistence.SanctionMute
)

// ActionReport is the action OnAction hears for a report filed.
const ActionReport = "report"

// Actions are every action the audit log and OnAction name: the operator's
// metric serves each from the start, at 0, so the first increase() after
// a restart counts the first ban too.
var Actions = []string{Ban, "unban", Mute, "unmute", "kick", "close", "say", "invite", "uninvite",
	"redeem", "unadmit", "allow_add", "allow_remove", "admins_add", "admins_remove", "resolve", ActionReport}

// Person is a player as moderation sees them: their identity (a key's
// fingerprint or a guest ID), display name, and address (a banned guest's
// is kept).
type Person struct {
	ID    string
	Name  string
	Addr  string
	Guest bool
}

// Errors an admin or reporter reads (catalog messages).
var (
	ErrNotPermitted = words.NewError("moderation.err.not_permitted")
	ErrAdminImmune  = words.NewError("moderation.err.admin_immune")
	ErrNotBanned    = words.NewError("moderation.err.not_banned")
	ErrNotMuted     = words.NewError("moderation.err.not_muted")
	ErrNoReason     = words.NewError("moderation.err.no_reason")
	ErrSelf         = words.NewError("moderation.err.self")
)

// ErrNoSuchReport is a report number that is not in the queue, or one an
// admin has resolved already.
func ErrNoSuchReport(n int) error {
	return &words.Error{Msg: words.M("moderation.admin.more.no_such_report", words.Text("N", strconv.Itoa(n)))}
}

// Limits on what a report or a sanction carries: a reason is one line,
// evidence a few lines of chat.
const (
	MaxReason        = 200
	MaxEvidenceLines = 20
	MaxEvidenceLine  = 300
)

// Options configures New.
type Options struct {
	Store  persistence.Moderation
	Admins Admins      // nil: nobody is an admin
	Clock  clock.Clock // nil: clock.System
	// Refresh is how old this node's view of the sanctions may get before
	// a check reads the store again, and how often Watch looks for bans
	// made on other nodes. Default 2 s.
	Refresh time.Duration
	Log     *slog.Logger
	// OnAction, if set, hears each action kept (ban, mute, kick, report…:
	// a fixed word, never who), for the operator's metrics.
	OnAction func(action string)
	// Sightings keeps what was seen of each player (nil: the Store's, if
	// it keeps them).
	Sightings persistence.Sightings
	// KnownSince, if set, says since when the server has known an
	// identity that has no sightings (a profile made before they were
	// kept): a ban's address part lets in keys known before it.
	KnownSince func(id string) (time.Time, bool)
	// CheckWithin bounds how long a check on a login's path (Banned,
	// Muted) waits for the store when its view is older than Refresh:
	// past it the check answers from the sanctions last read (kept in
	// memory, and followed as they change where the store tells changes:
	// Watcher), and the read goes on without it. A login never waits on a
	// cluster node that does not answer. Default DefaultCheckWithin.
	CheckWithin time.Duration
	// Vouched, if set, reports whether an admin let a key in by name (the
	// allowlist, an invite): a player's ban's address part does not keep
	// it out, however new. Address bans still do.
	Vouched func(id string) bool
}

// DefaultCheckWithin is how long a login's ban check waits for the store
// at most: a loopback cluster reads its sanctions in about a millisecond,
// a frozen node's bucket never.
const DefaultCheckWithin = 250 * time.Millisecond

// readWithin bounds one read of the sanctions that nobody waits for any
// more: it frees the way for the next.
const readWithin = 15 * time.Second

// Watcher is a store that tells each change of its sanctions as it
// happens (the JetStream store: a watch of its bucket): Watch then keeps
// the view as the store has it, a ban made on another node holding here
// within moments, and checks need no read of the store.
type Watcher interface {
	// WatchSanctions sends every sanction, then all of them again after
	// each change, until ctx ends or the watch fails (the channel closes).
	WatchSanctions(ctx context.Context) (<-chan []Sanction, error)
}

// Service is one node's moderation. Its methods are safe for concurrent use.
type Service struct {
	store       persistence.Moderation
	admins      Admins
	clock       clock.Clock
	refresh     time.Duration
	checkWithin time.Duration
	log         *slog.Logger
	counted     func(action string)

	seen       *sightingKeeper
	knownSince func(id string) (time.Time, bool)
	vouched    func(id string) bool

	// life ends with Close: a read of the store waiting on a cluster
	// that does not answer is given up then (see current).
	life  context.Context
	close context.CancelFunc

	mu       sync.Mutex
	reading  chan struct{} // closed when the read of the store under way ends; nil: none
	view     []Sanction    // the store's sanctions as last read
	readAt   time.Time     // when; zero: never (or made stale by a change)
	readErr  error
	changes  int  // counts changed(): a read begun before a change does not make the view fresh
	watching bool // a watch of the store keeps view as the store has it (Watcher)

	reportLimits reportLimits
}

// ContextReader is a store whose sanctions read ends when ctx does (the
// JetStream store's: a scan of the bucket may otherwise wait out 10
// round-trip timeouts on a cluster that does not answer).
type ContextReader interface {
	SanctionsContext(ctx context.Context) ([]Sanction, error)
}

// New makes a node's moderation service on its store.
func New(o Options) *Service {
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Refresh <= 0 {
		o.Refresh = 2 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.OnAction == nil {
		o.OnAction = func(string) {}
	}
	if o.CheckWithin <= 0 {
		o.CheckWithin = DefaultCheckWithin
	}
	life, cancel := context.WithCancel(context.Background())
	s := &Service{store: o.Store, admins: o.Admins, clock: o.Clock, refresh: o.Refresh, checkWithin: o.CheckWithin,
		log: o.Log, counted: o.OnAction, life: life, close: cancel,
		seen: newSightingKeeper(o.Store, o.Sightings), knownSince: o.KnownSince, vouched: o.Vouched}
	if s.seen.store != nil {
		go s.writeSightings()
		s.prunePeriodically()
	}
	return s
}

// Close gives up any read of the store under way and makes every later
// check answer at once from the sanctions last read: a node shutting
// down waits for no store. Watch ends too, and so does the writing of
// sightings (those not yet written are lost: a login's, no action's).
func (s *Service) Close() { s.close() }

// SetAdmins replaces who counts as an admin.
func (s *Service) SetAdmins(a Admins) {
	s.mu.Lock()
	s.admins = a
	s.mu.Unlock()
}

// IsAdmin reports whether the identity may moderate (guests never may).
func (s *Service) IsAdmin(id string) bool {
	s.mu.Lock()
	a := s.admins
	s.mu.Unlock()
	return a != nil && id != "" && a.IsAdmin(id)
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.clock.Now() }

// FileReport puts a player's report in the admins' queue: the reason is
// one line (required), the evidence a few cleaned lines of chat. addr is
// the reporter's address group (sshserver.AddressGroup; "" for none). A
// reporter, or an address, past its budget (ReportsPerReporter,
// ReportsPerAddress in ReportWindow) gets ErrTooManyReports. A report
// about a player at a table they already have an open report about, or
// about a player with MaxOpenReportsAbout open reports, counts into that
// report (Report.Count) rather than adding one.
func (s *Service) FileReport(r Report, addr string) (Report, error) {
	r.Reason = sanitize.Line(r.Reason, MaxReason)
	if r.Reason == "" {
		return r, ErrNoReason
	}
	if len(r.Evidence) > MaxEvidenceLines {
		r.Evidence = r.Evidence[len(r.Evidence)-MaxEvidenceLines:]
	}
	ev := make([]string, 0, len(r.Evidence))
	for _, l := range r.Evidence {
		if l = sanitize.Line(l, MaxEvidenceLine); l != "" {
			ev = append(ev, l)
		}
	}
	r.Evidence = ev
	now := s.clock.Now()
	if r.At.IsZero() {
		r.At = now
	}
	s.forgetResolved(now)
	if !s.reportLimits.take(r.Reporter, addr, now) {
		return r, ErrTooManyReports
	}
	all, err := s.store.Reports()
	if err != nil {
		return r, err
	}
	if same := repeatOf(all, r); same != "" {
		rep, err := s.store.RepeatReport(same, r.At)
		if err == nil {
			s.counted(ActionReport)
			return rep, nil
		}
		if !errors.Is(err, persistence.ErrExists) { // resolved meanwhile: a new one
			return rep, err
		}
	}
	r, err = s.store.FileReport(r)
	if err == nil {
		s.counted(ActionReport)
	}
	return r, err
}

// repeatOf is the open report of all that r counts into (see FileReport),
// or "".
func repeatOf(all []Report, r Report) string {
	latest, open := "", 0
	for _, o := range all {
		if o.Resolved != nil || o.Subject != r.Subject {
			continue
		}
		if o.Table == r.Table {
			return o.ID
		}
		latest = o.ID // oldest first: the last one seen is the latest
		open++
	}
	if open >= MaxOpenReportsAbout {
		return latest
	}
	return ""
}

// forgetResolved deletes, at most once an hour, the reports resolved more
// than ReportsKept ago.
func (s *Service) forgetResolved(now time.Time) {
	if !s.reportLimits.sweepDue(now) {
		return
	}
	if n, err := s.store.ForgetReports(now.Add(-ReportsKept)); err != nil {
		s.log.Warn("old resolved reports could not be forgotten", "err", err)
	} else if n > 0 {
		s.log.Info("resolved reports forgotten", "reports", n, "kept", ReportsKept)
	}
}

// Reports is the admins' queue, oldest first.
func (s *Service) Reports() ([]Report, error) { return s.store.Reports() }

// Resolve marks report n handled (n counts the reports from 1, oldest
// first, as `admin reports` numbers them) with an optional note, and
// keeps it in the audit log.
func (s *Service) Resolve(by Person, n int, note string) (Report, error) {
	all, err := s.store.Reports()
	if err != nil {
		return Report{}, err
	}
	if n < 1 || n > len(all) || all[n-1].Resolved != nil {
		return Report{}, ErrNoSuchReport(n)
	}
	now := s.clock.Now().UTC()
	note = sanitize.Line(note, MaxReason)
	r, err := s.store.ResolveReport(all[n-1].ID, persistence.Resolution{By: by.ID, ByName: by.Name, At: now, Note: note})
	if errors.Is(err, persistence.ErrExists) {
		return r, ErrNoSuchReport(n) // another admin was first
	}
	if err != nil {
		return r, err
	}
	s.audit(Entry{At: now, By: by.ID, ByName: by.Name, Action: "resolve", Subject: r.ID,
		SubjectName: "#" + strconv.Itoa(n), Reason: note})
	return r, nil
}

// Log is the last limit moderation actions, oldest first.
func (s *Service) Log(limit int) ([]Entry, error) { return s.store.Audit(limit) }

// Mute keeps who silent for d (Forever: for good). Admins cannot be muted.
func (s *Service) Mute(by, who Person, d time.Duration, reason string) (Sanction, error) {
	return s.sanction(Sanction{Kind: Mute}, by, who, d, reason)
}

func (s *Service) sanction(sn Sanction, by, who Person, d time.Duration, reason string) (Sanction, error) {
	if who.ID == by.ID {
		return Sanction{}, ErrSelf
	}
	if s.IsAdmin(who.ID) {
		return Sanction{}, ErrAdminImmune
	}
	now := s.clock.Now().UTC()
	sn.Subject, sn.Name, sn.Reason = who.ID, who.Name, sanitize.Line(reason, MaxReason)
	sn.By, sn.ByName, sn.At = by.ID, by.Name, now
	if d > 0 {
		sn.Until = now.Add(d)
	}
	if err := s.store.PutSanction(sn); err != nil {
		return sn, err
	}
	s.changed(sn, false)
	s.audit(Entry{At: now, By: by.ID, ByName: by.Name, Action: sn.Kind, Subject: who.ID, SubjectName: who.Name,
		Reason: sn.Reason, Until: sn.Until, Addr: sn.Addr, AddrUntil: sn.AddrUntil})
	return sn, nil
}

// Unban lifts a ban on the identity (ErrNotBanned if none).
func (s *Service) Unban(by Person, subject string) (Sanction, error) {
	return s.lift(Ban, "unban", ErrNotBanned, by, subject)
}

// Unmute lifts a mute on the identity (ErrNotMuted if none).
func (s *Service) Unmute(by Person, subject string) (Sanction, error) {
	return s.lift(Mute, "unmute", ErrNotMuted, by, subject)
}

func (s *Service) lift(kind, action string, none error, by Person, subject string) (Sanction, error) {
	sn, err := s.store.DeleteSanction(kind, subject)
	if errors.Is(err, persistence.ErrNotFound) || (err == nil && !sn.InForceAt(s.clock.Now())) {
		return sn, none
	}
	if err != nil {
		return sn, err
	}
	s.changed(sn, true)
	s.audit(Entry{By: by.ID, ByName: by.Name, Action: action, Subject: subject, SubjectName: sn.Name})
	return sn, nil
}

// Record keeps an action that is not a sanction in the audit log: a kick,
// a table closed, a notice said, an invite made.
func (s *Service) Record(by Person, action, subject, subjectName, reason string) {
	s.audit(Entry{By: by.ID, ByName: by.Name, Action: action, Subject: subject, SubjectName: subjectName,
		Reason: sanitize.Line(reason, MaxReason)})
}

// audit keeps an action in the audit log, and writes it to the server's
// log as one line (journald and log collectors see it there).
func (s *Service) audit(e Entry) {
	if e.At.IsZero() {
		e.At = s.clock.Now().UTC()
	}
	s.counted(e.Action)
	s.log.Info("moderation", logAttrs(e)...)
	if _, err := s.store.AppendAudit(e); err != nil {
		s.log.Error("moderation: the audit log could not keep an action", "action", e.Action, "by", e.By, "err", err)
	}
}

// logAttrs is an action as the server's log line carries it: who did
// what to whom, for how long, why. A table's code goes as room, which
// the log writes as a tag when the table is private; a ban's length as
// duration (a Go duration: "2h0m0s") and its end as until.
func logAttrs(e Entry) []any {
	kv := []any{"action", e.Action, "by", e.By, "by_name", e.ByName}
	switch {
	case e.Action == "close":
		kv = append(kv, "room", e.Subject)
	case e.Subject != "":
		kv = append(kv, "subject", e.Subject)
		if e.SubjectName != "" && e.SubjectName != e.Subject {
			kv = append(kv, "subject_name", e.SubjectName)
		}
	}
	switch {
	case !e.Until.IsZero():
		kv = append(kv, "duration", e.Until.Sub(e.At).Round(time.Second), "until", e.Until)
	case e.Action == Ban || e.Action == Mute:
		kv = append(kv, "duration", "forever")
	}
	if e.Addr != "" {
		kv = append(kv, "addr", e.Addr, "addr_until", e.AddrUntil)
	}
	if e.Reason != "" {
		kv = append(kv, "reason", e.Reason)
	}
	return kv
}

// Muted returns the mute in force on an identity.
func (s *Service) Muted(id string) (Sanction, bool) {
	return s.find(func(sn Sanction) bool { return sn.Kind == Mute && sn.Subject == id })
}

// InForce is every sanction in force, bans first.
func (s *Service) InForce() ([]Sanction, error) {
	return s.inForce(s.life)
}

// Stored is every sanction in force as the store has it now, read within
// d, each with whether this node applies it yet (its logins' checks hold
// it): a ban made on another node is in the store a moment before this
// node's view has it, and an admin reading "no bans" then would be told
// something false (issue 41). When the store does not answer within d,
// fromView is true and the sanctions are this node's view, all applied.
func (s *Service) Stored(d time.Duration) (all []Sanction, applied []bool, fromView bool, err error) {
	ctx, cancel := context.WithTimeout(s.life, d)
	defer cancel()
	type answer struct {
		all []Sanction
		err error
	}
	read := make(chan answer, 1)
	go func() {
		var a answer
		if r, ok := s.store.(ContextReader); ok {
			a.all, a.err = r.SanctionsContext(ctx)
		} else {
			a.all, a.err = s.store.Sanctions()
		}
		read <- a
	}()
	var stored []Sanction
	select {
	case a := <-read:
		stored, err = a.all, a.err
	case <-ctx.Done():
		err = ctx.Err()
	}
	now := s.clock.Now()
	s.mu.Lock()
	view := s.view
	s.mu.Unlock()
	if err != nil {
		all = slices.DeleteFunc(slices.Clone(view), func(sn Sanction) bool { return !sn.InForceAt(now) })
		applied = make([]bool, len(all))
		for i := range applied {
			applied[i] = true
		}
		return all, applied, true, err
	}
	all = slices.DeleteFunc(stored, func(sn Sanction) bool { return !sn.InForceAt(now) })
	applied = make([]bool, len(all))
	for i, sn := range all {
		applied[i] = slices.ContainsFunc(view, func(v Sanction) bool { return v.Key() == sn.Key() && v.At.Equal(sn.At) })
	}
	return all, applied, false, nil
}

func (s *Service) inForce(ctx context.Context) ([]Sanction, error) {
	all, err := s.current(ctx)
	now := s.clock.Now()
	return slices.DeleteFunc(slices.Clone(all), func(sn Sanction) bool { return !sn.InForceAt(now) }), err
}

// find is the sanction in force that matches, from a view at most
// CheckWithin in the waiting: a store that cannot be read in time lets
// people in on the view it had.
func (s *Service) find(match func(Sanction) bool) (Sanction, bool) {
	ctx, cancel := context.WithTimeout(s.life, s.checkWithin)
	defer cancel()
	all, _ := s.current(ctx)
	now := s.clock.Now()
	for _, sn := range all {
		if match(sn) && sn.InForceAt(now) {
			return sn, true
		}
	}
	return Sanction{}, false
}

// current is the sanctions, read again once the view is older than
// Refresh (unless a watch keeps it). When ctx ends (or the service is
// closed) before the read does, it answers with the view it had; the read
// goes on for the next check, bounded by readWithin and Close. One read
// at a time: a check joins the one under way.
func (s *Service) current(ctx context.Context) ([]Sanction, error) {
	s.mu.Lock()
	if s.isFresh() {
		defer s.mu.Unlock()
		return s.view, s.readErr
	}
	done := s.reading
	if done == nil {
		done = make(chan struct{})
		s.reading = done
		go s.read(done)
	}
	s.mu.Unlock()
	select {
	case <-done:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.view, s.readErr
	case <-ctx.Done():
		return s.last(ctx.Err())
	case <-s.life.Done():
		return s.last(s.life.Err())
	}
}

// isFresh is whether the view needs no read (s.mu held): a watch keeps
// it, or it is younger than Refresh.
func (s *Service) isFresh() bool {
	if s.watching {
		return true
	}
	now := s.clock.Now()
	return !s.readAt.IsZero() && now.Sub(s.readAt) < s.refresh && now.Sub(s.readAt) >= 0
}

// last is the view as last read, with why it was not read again.
func (s *Service) last(why error) ([]Sanction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view, why
}

// read reads the store once, keeps what it found and closes done.
func (s *Service) read(done chan struct{}) {
	ctx, cancel := context.WithTimeout(s.life, readWithin)
	defer cancel()
	s.mu.Lock()
	changes := s.changes
	s.mu.Unlock()
	now := s.clock.Now()
	var view []Sanction
	var err error
	if r, ok := s.store.(ContextReader); ok {
		view, err = r.SanctionsContext(ctx)
	} else {
		view, err = s.store.Sanctions()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reading = nil
	defer close(done)
	if s.life.Err() != nil {
		return // closed: the view stays as it was
	}
	if changes == s.changes && err == nil {
		s.readAt = now
	}
	s.readErr = err
	if err == nil {
		s.view = view
	} else {
		s.log.Warn("moderation: sanctions could not be read; the last ones read still hold", "err", err)
	}
}

// changed puts a sanction made here (or takes one lifted here) in the
// view at once, and makes the next check read the store again (a watch
// hears of it from the store too).
func (s *Service) changed(sn Sanction, lifted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readAt = time.Time{}
	s.changes++
	view := slices.DeleteFunc(slices.Clone(s.view), func(o Sanction) bool { return o.Key() == sn.Key() })
	if !lifted {
		view = append(view, sn)
		persistence.SortSanctions(view)
	}
	s.view = view
}

// Watch calls onBan with each ban in force it has not seen before until
// ctx ends or the service is closed: a node ends the sessions of a player
// banned on another node. The bans in force when it starts are seen
// already. A store that tells its changes (Watcher) is followed, the view
// kept as the store has it; otherwise, or while that watch is down, the
// store is read every Refresh. It returns as soon as ctx ends, even while
// a read of the store is under way.
func (s *Service) Watch(ctx context.Context, onBan func(Sanction)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	seen := map[string]time.Time{}
	look := func(tell bool) {
		all, err := s.inForce(ctx)
		if err != nil {
			return
		}
		for _, sn := range all {
			if sn.Kind != Ban || seen[sn.Key()].Equal(sn.At) {
				continue
			}
			seen[sn.Key()] = sn.At
			if tell {
				onBan(sn)
			}
		}
	}
	look(false)
	w, _ := s.store.(Watcher)
	for {
		if w != nil {
			s.follow(ctx, w, func() { look(true) })
		}
		done := make(chan struct{})
		t := s.clock.AfterFunc(s.refresh, func() { close(done) })
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-done:
			look(true)
		}
	}
}

// follow keeps the view as the store's watch sends it, calling changed
// after each, until the watch ends (or ctx does).
func (s *Service) follow(ctx context.Context, w Watcher, changed func()) {
	views, err := w.WatchSanctions(ctx)
	if err != nil {
		return
	}
	for view := range views {
		s.mu.Lock()
		s.view, s.readAt, s.readErr, s.watching = view, s.clock.Now(), nil, true
		s.mu.Unlock()
		changed()
	}
	s.mu.Lock()
	s.watching = false
	s.mu.Unlock()
}
