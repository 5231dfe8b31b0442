package tui

// Players protect themselves: ignoring a player's chat, blocking a player
// from the tables one hosts, reporting a player to the admins, and the
// host removing a player from a waiting room. The lists name players by
// identity (a key's fingerprint, a guest's ID), never by display name.

import (
	"slices"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"
)

// Person is another player as a list keeps them: who, and what they were
// called when they were put on it.
type Person struct{ ID, Name string }

// RelationList names one of a player's lists.
type RelationList uint8

const (
	IgnoreList RelationList = iota // their chat is not drawn on my screens
	BlockList                      // they may not sit at tables I host, nor be matched with me
)

// PlayerLists are the players one player ignores and blocks.
type PlayerLists struct{ Ignored, Blocked []Person }

// List is the list which names.
func (l *PlayerLists) List(which RelationList) *[]Person {
	if which == BlockList {
		return &l.Blocked
	}
	return &l.Ignored
}

// Has reports whether which names id.
func (l *PlayerLists) Has(which RelationList, id string) bool {
	return slices.ContainsFunc(*l.List(which), func(p Person) bool { return p.ID == id })
}

// Relations keeps whom each player ignores and blocks: the server keeps a
// keyed player's lists in their profile, and a guest's until it restarts.
type Relations interface {
	Lists(p table.Player) (PlayerLists, error)
	// Set puts other on p's list (on) or takes them off it.
	Set(p table.Player, which RelationList, other Person, on bool) error
}

// Report is one player's report of another, for the admins' queue.
type Report struct {
	From, FromName   string // who reports: identity and name
	FromAddr         string // and where they connected from
	About, AboutName string // who is reported
	Table            string // the table's code
	Reason           string // one line, cleaned
	// Evidence is the last chat lines the reporter's seat saw at the
	// table ("Name: words"), their own ignoring aside.
	Evidence []string
}

// Reports takes players' reports to the admins' queue.
type Reports interface {
	File(r Report) error
}

// Limits on reports: a reason is one chat line; a session files at most
// one report a minute (a flood of reports would bury the admins' queue);
// the evidence is the last evidenceLines chat lines.
const (
	reportEvery   = time.Minute
	evidenceLines = 10
)

var (
	errNoReports   = game.NewError("ui.people.no_reports")
	errEmptyReason = game.NewError("ui.people.empty_reason")
	errNotYou      = game.NewError("ui.people.not_you")
)

// SessionLists are a session's own lists, read once from App.Relations.
type SessionLists struct {
	PlayerLists
	loaded bool
	pace   chatLimit // changes kept: a burst, then one every changeEvery
}

// Each change to a list is a write to the player's profile: a session
// makes a burst of changeBurst, then one every changeEvery (a script
// pressing i thousands of times would otherwise queue as many writes
// ahead of every table's moves).
const (
	changeBurst = 10
	changeEvery = 2 * time.Second
)

// LoadLists reads p's lists the first time they are needed; without
// App.Relations (or when reading fails) the session starts with none.
func (a *App) LoadLists(p table.Player, l *SessionLists) {
	if l.loaded {
		return
	}
	l.loaded = true
	if a.Relations == nil {
		return
	}
	if got, err := a.Relations.Lists(p); err == nil {
		l.PlayerLists = got
	} else {
		a.logger().Warn("reading a player's lists", "err", err)
	}
}

// SetRelation puts other on (or takes them off) the session's list which
// and keeps it; it returns what to tell the player.
func (a *App) SetRelation(th *uikit.Theme, p table.Player, l *SessionLists, which RelationList, other Person, on bool) string {
	a.LoadLists(p, l)
	if other.ID == p.ID {
		return th.Err(errNotYou)
	}
	list := l.List(which)
	i := slices.IndexFunc(*list, func(q Person) bool { return q.ID == other.ID })
	if !on && i < 0 {
		return th.T("ui.people.not_listed", game.Text("Player", other.Name))
	}
	if l.pace.burst == 0 {
		l.pace = newChatLimit(changeBurst, changeEvery)
	}
	if wait := l.pace.take(time.Now()); wait > 0 {
		return th.T("ui.people.slow", game.Count(int((wait+time.Second-1)/time.Second)))
	}
	if a.Relations != nil {
		if err := a.Relations.Set(p, which, other, on); err != nil {
			return th.Err(err)
		}
	}
	switch {
	case on && i >= 0:
		(*list)[i].Name = other.Name
	case on:
		*list = append(*list, other)
	default:
		other.Name = (*list)[i].Name
		*list = slices.Delete(*list, i, i+1)
	}
	key := map[RelationList][2]string{IgnoreList: {"ui.people.unignored", "ui.people.ignored"},
		BlockList: {"ui.people.unblocked", "ui.people.blocked"}}[which][b2i(on)]
	said := th.T(key, game.Text("Player", other.Name))
	if on && p.Guest {
		said += " " + th.T("ui.people.guest_note")
	}
	return said
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MutedSeats are the seats of u held by players the session ignores.
func (l *SessionLists) MutedSeats(u *table.Update) []game.Seat {
	if len(l.Ignored) == 0 {
		return nil
	}
	var seats []game.Seat
	for i, s := range u.Seats {
		if s.ID != "" && l.Has(IgnoreList, s.ID) {
			seats = append(seats, game.Seat(i))
		}
	}
	return seats
}

// WithoutMuted is u without the chat lines of the muted seats, in its log
// and its public log; everything else (narration, votes, deaths, a relay
// that names nobody) stays. An Update with no such line comes back as it
// was, its logs still shared.
func WithoutMuted(u table.Update, muted []game.Seat) table.Update {
	if len(muted) > 0 {
		u.Log, u.Public = dropChat(u.Log, muted), dropChat(u.Public, muted)
	}
	return u
}

func dropChat(log []*game.Event, muted []game.Seat) []*game.Event {
	hides := func(e *game.Event) bool { return mutedChat(e, muted) }
	i := slices.IndexFunc(log, hides)
	if i < 0 {
		return log
	}
	out := append(make([]*game.Event, 0, len(log)), log[:i]...)
	for _, e := range log[i:] {
		if !hides(e) {
			out = append(out, e)
		}
	}
	return out
}

// mutedChat reports whether e is a chat line said by one of muted.
func mutedChat(e *game.Event, muted []game.Seat) bool {
	return e.Kind == game.Chat && e.From >= 0 && slices.Contains(muted, e.From)
}

// people are the other humans seated at the table of u, in seat order.
func people(u *table.Update, me string) []table.SeatInfo {
	var out []table.SeatInfo
	for _, s := range u.Seats {
		if s.ID != "" && s.ID != me {
			out = append(out, s)
		}
	}
	return out
}

// PersonNamed is the seated player called name (case and accents aside).
func PersonNamed(u *table.Update, me, name string) (table.SeatInfo, bool) {
	want := sanitize.Fold(name)
	for _, s := range people(u, me) {
		if sanitize.Fold(s.Name) == want {
			return s, true
		}
	}
	return table.SeatInfo{}, false
}

// evidence is the last chat lines u's seat saw, as a report carries them.
func evidence(u *table.Update) []string {
	var out []string
	for _, e := range u.Log {
		if e.Kind == game.Chat && e.From >= 0 && int(e.From) < len(u.Seats) {
			out = append(out, u.Seats[e.From].Name+": "+e.Text)
		}
	}
	return out[max(0, len(out)-evidenceLines):]
}

// FileReport sends a report about who from the table of u; last is when
// this session last reported (the one-a-minute limit), and now. It
// returns what to tell the player.
func (a *App) FileReport(th *uikit.Theme, p table.Player, u *table.Update, who table.SeatInfo, reason string, last *time.Time, now time.Time) string {
	reason = sanitize.Line(reason, ChatMax)
	switch {
	case a.Reports == nil:
		return th.Err(errNoReports)
	case who.ID == p.ID:
		return th.Err(errNotYou)
	case reason == "":
		return th.Err(errEmptyReason)
	case !last.IsZero() && now.Sub(*last) < reportEvery:
		return th.T("ui.people.report_wait", game.Count(int((reportEvery-now.Sub(*last)+time.Second-1)/time.Second)))
	}
	err := a.Reports.File(Report{From: p.ID, FromName: p.Name, FromAddr: p.Addr, About: who.ID, AboutName: who.Name,
		Table: u.Room, Reason: reason, Evidence: evidence(u)})
	if err != nil {
		return th.Err(err)
	}
	*last = now
	return th.T("ui.people.reported", game.Text("Player", who.Name))
}
