package table

// Seats: who sits where, joining and leaving, reconnecting, handing an
// absent player's seat to a bot, and the host's choice of bots.

import (
	"slices"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
)

func (r *Room) memberSeat(box *Mailbox) (game.Seat, bool) {
	m, ok := r.members[box]
	return m.seat, ok
}

func (r *Room) join(c command) (game.Seat, error) {
	p := c.player
	// The same identity takes its seat back; an older session is closed.
	for i := range r.seats {
		s := &r.seats[i]
		if s.rec.Identity != "" && s.rec.Identity == p.ID {
			if s.rec.Left && r.started && !r.over {
				// Giving the seat to a bot is final for the game: its
				// player may watch, and is told why they do not play.
				r.attach(c.box, game.Spectator, p.ID)
				r.notices[c.box] = notice{msg: game.M("table.seat_given"), sticky: true}
				r.afterChange()
				return game.Spectator, nil
			}
			for box, m := range r.members {
				if m.id == p.ID && m.seat == game.Seat(i) {
					box.Put(Update{Room: r.cfg.Code, Closed: Elsewhere})
					delete(r.members, box)
					delete(r.notices, box)
				}
			}
			s.takeover = false
			s.awaySince = time.Time{}
			if s.rec.Left {
				s.rec.Left = false
				r.save()
			}
			if !r.started {
				s.rec.Name, s.rec.Badge = p.Name, p.Badge
			}
			if s.rec.Gender != p.Gender {
				s.rec.Gender = p.Gender // a choice made since: the sentences from now on agree
				r.save()
			}
			r.attach(c.box, game.Seat(i), p.ID)
			if m := r.missedNotice(game.Seat(i)); !m.IsZero() {
				r.notices[c.box] = notice{msg: m, sticky: true} // until they act
			}
			r.narrateAbout(game.Seat(i), game.M("table.back", game.Text("Player", s.rec.Name)))
			r.creatorSits(game.Seat(i))
			r.hostIfNone(game.Seat(i))
			r.afterChange()
			return game.Seat(i), nil
		}
	}
	if err := r.keepsOut(p.ID); err != nil {
		return game.Spectator, err
	}
	if p.WatchOnly && !c.watch {
		r.notices[c.box] = notice{msg: ErrWatchOnly.Msg, sticky: true}
		c.watch = true
	}
	if !c.watch && !r.started {
		if !r.admits(p.ID) {
			return game.Spectator, ErrNotAllowed
		}
		if err := r.maySit(p); err != nil {
			return game.Spectator, err
		}
		for i := range r.seats {
			s := &r.seats[i]
			if s.rec.Identity == "" && s.rec.Bot == "" {
				s.rec = SeatRecord{Seat: game.Seat(i), Identity: p.ID, Name: p.Name, Guest: p.Guest, Badge: p.Badge, Gender: p.Gender}
				r.attach(c.box, game.Seat(i), p.ID)
				r.narrate(game.M("table.sits_down", game.Text("Player", p.Name)))
				r.creatorSits(game.Seat(i))
				r.hostIfNone(game.Seat(i))
				r.save()
				r.afterChange()
				return game.Seat(i), nil
			}
		}
		if !c.watch {
			// No open seat: watch rather than refuse, and say so.
			r.notices[c.box] = notice{msg: game.M("table.full_watching"), sticky: true}
		}
	}
	r.attach(c.box, game.Spectator, p.ID)
	r.afterChange()
	return game.Spectator, nil
}

func (r *Room) attach(box *Mailbox, seat game.Seat, id string) {
	r.members[box] = member{seat: seat, id: id}
	if id == r.cfg.Host {
		r.hostSeen = true
	}
	if seat >= 0 && r.abandon != nil {
		r.abandon.Stop()
		r.abandon = nil
	}
	if r.idleTimer != nil {
		r.idleTimer.Stop()
		r.idleTimer = nil
	}
}

func (r *Room) leave(box *Mailbox) {
	seat, ok := r.memberSeat(box)
	if !ok {
		return
	}
	delete(r.members, box)
	delete(r.notices, box)
	if seat >= 0 {
		s := &r.seats[seat]
		if !r.started {
			r.narrate(game.M("table.leaves", game.Text("Player", s.rec.Name)))
			r.freeSeat(seat)
			r.save()
		} else if !r.over && !r.seatConnected(seat) {
			r.narrateAbout(seat, game.M("table.has_left", game.Text("Player", s.rec.Name)))
			if r.cfg.Bots != nil {
				s.takeover, s.rec.Left = true, true
				r.save()
			}
		}
	}
	r.afterDetach()
}

// detach takes a session off its seat, which stays the player's; onPurpose:
// they went to the lobby, rather than lost the connection.
func (r *Room) detach(box *Mailbox, onPurpose bool) {
	seat, ok := r.memberSeat(box)
	if !ok {
		return
	}
	delete(r.members, box)
	delete(r.notices, box)
	if seat >= 0 && !r.seatConnected(seat) {
		s := &r.seats[seat]
		if id := s.rec.Identity; id != "" && r.cfg.Banned != nil && r.cfg.Banned(id) {
			r.giveUp(id)
			r.afterDetach()
			return
		}
		s.awaySince = r.clock.Now()
		if !r.started && s.rec.Identity == r.cfg.Host && s.rec.Identity != r.creator {
			r.passHost() // a host who went away must not strand the table; its creator keeps it
		}
		if r.started && !r.over && !r.byCorrespondence() { // at a correspondence table, coming and going is the way of it
			what := "table.lost_connection"
			if onPurpose {
				what = "table.stepped_away"
			}
			r.narrateAbout(seat, game.M(what, game.Text("Player", s.rec.Name), game.Sub("Then", r.whileAway(seat))))
			if r.cfg.TakeoverAfter > 0 && r.cfg.Bots != nil {
				seat := seat
				r.clock.AfterFunc(r.cfg.TakeoverAfter, func() { r.retrySubmit(command{kind: cmdTakeover, seat: seat}) })
			}
		}
	}
	r.afterDetach()
}

// maySit says whether p may take a new seat at a correspondence table:
// keyed players only, within their limit of such tables (MaySit).
func (r *Room) maySit(p Player) error {
	if !r.byCorrespondence() || !slices.ContainsFunc(r.seats, func(s seatState) bool { return s.rec.Identity == "" && s.rec.Bot == "" }) {
		return nil
	}
	if p.Guest {
		return ErrKeyedOnly
	}
	if r.cfg.MaySit != nil {
		return r.cfg.MaySit(p.ID)
	}
	return nil
}

// passHost makes the first other human at the table who is connected the
// host, and says so; with nobody to take over, the host stays.
func (r *Room) passHost() {
	for i := range r.seats {
		s := &r.seats[i]
		if s.rec.Identity != "" && s.rec.Identity != r.cfg.Host && r.seatConnected(game.Seat(i)) {
			r.cfg.Host = s.rec.Identity
			r.narrate(game.M("table.new_host", game.Text("Player", s.rec.Name)))
			r.save()
			return
		}
	}
}

// hostIfNone makes seat's player the host of a waiting room whose host is
// not there: a room never waits on someone who is not there (the host may
// have left an empty room, or the server restarted). Its creator is not
// passed over: while they hold a seat, connected or not, and for
// AwayGrace after they gave it up (or the room was made or restored).
func (r *Room) hostIfNone(seat game.Seat) {
	if r.started || r.creatorHolds() {
		return
	}
	for _, m := range r.members {
		if m.id == r.cfg.Host {
			return
		}
	}
	s := &r.seats[seat]
	r.cfg.Host = s.rec.Identity
	r.narrate(game.M("table.new_host", game.Text("Player", s.rec.Name)))
	r.save()
}

// AwayGrace is how long a waiting room counts a player as only away. Its
// creator stays its host while they hold a seat, connected or not, and
// for AwayGrace after they gave their seat up; a player is removed only
// while at the table or once away for AwayGrace. Answers: a newcomer
// taking a room whose creator stepped into the lobby, and removing them
// from it for good.
const AwayGrace = 5 * time.Minute

// creatorHolds reports whether the room's creator still has it: they hold
// a seat, or gave theirs up less than AwayGrace ago.
func (r *Room) creatorHolds() bool {
	if r.creator == "" {
		return false
	}
	if slices.ContainsFunc(r.seats, func(s seatState) bool { return s.rec.Identity == r.creator }) {
		return true
	}
	return r.clock.Now().Sub(r.creatorGone) < AwayGrace
}

// creatorSits makes the creator, taking a seat in the waiting room, its
// host again.
func (r *Room) creatorSits(seat game.Seat) {
	s := &r.seats[seat]
	if r.started || s.rec.Identity != r.creator || r.cfg.Host == r.creator {
		return
	}
	r.cfg.Host = r.creator
	r.narrate(game.M("table.new_host", game.Text("Player", s.rec.Name)))
	r.save()
}

// freeSeat empties a waiting room's seat whose player went. Their hosting
// passes on at once, or for the room's creator after AwayGrace, if they
// are not back.
func (r *Room) freeSeat(seat game.Seat) {
	s := &r.seats[seat]
	id := s.rec.Identity
	s.rec = SeatRecord{Seat: seat}
	switch {
	case id == "" || id != r.cfg.Host:
	case id == r.creator:
		r.creatorGone = r.clock.Now()
		if r.graceTimer != nil {
			r.graceTimer.Stop()
		}
		r.graceTimer = r.clock.AfterFunc(AwayGrace, func() { r.retrySubmit(command{kind: cmdCreatorGrace}) })
	default:
		r.passHost()
	}
}

// creatorGraceOver passes the hosting of a waiting room on when its
// creator gave their seat up AwayGrace ago and is not back.
func (r *Room) creatorGraceOver() {
	r.graceTimer = nil
	if r.started || r.cfg.Host != r.creator || r.creatorHolds() {
		return
	}
	r.passHost()
	r.afterChange()
}

func (r *Room) afterDetach() {
	if r.nobodyToComeBack() || r.emptyWaitingRoom() {
		r.closeForGood(Abandoned)
		return
	}
	r.armAbandon()
	r.armIdle()
	r.afterChange()
}

// armIdle starts the count to closing a room nobody is attached to (IdleClose).
func (r *Room) armIdle() {
	if len(r.members) == 0 && r.cfg.IdleClose > 0 && r.idleTimer == nil {
		r.idleTimer = r.clock.AfterFunc(r.cfg.IdleClose, func() { r.retrySubmit(command{kind: cmdIdle}) })
	}
}

// nobodyToComeBack reports a room that waits for nobody: a guided mission
// its player left. (A table not started waits IdleClose for whoever
// comes: its host may be on the way.)
// emptyWaitingRoom reports a waiting room that nobody holds a seat at or
// looks at: its last player left it, so nobody is coming back to start it.
// It closes at once rather than stand in the lobby as "0/4 waiting" until
// IdleClose (a player who only stepped away keeps a seat, and the room).
func (r *Room) emptyWaitingRoom() bool {
	// hostSeen: a room is not closed before its host first comes in (a
	// quicker player's join and leave must not close it under them).
	if r.started || len(r.members) > 0 || !r.hostSeen {
		return false
	}
	return !slices.ContainsFunc(r.seats, func(s seatState) bool { return s.rec.Identity != "" })
}

func (r *Room) nobodyToComeBack() bool {
	return r.cfg.Practice && !r.humanConnected()
}

func (r *Room) takeover(seat game.Seat) {
	s := &r.seats[seat]
	if !r.started || r.over || r.seatConnected(seat) || s.takeover || s.awaySince.IsZero() {
		return
	}
	if r.clock.Now().Sub(s.awaySince) < r.cfg.TakeoverAfter {
		return // they came back and left again since; a newer timer is due
	}
	s.takeover = true
	if r.otherHumanConnected(seat) {
		r.narrateAbout(seat, game.M("table.bot_stands_in", game.Text("Player", s.rec.Name)))
	}
	r.afterChange()
}

// whileAway says what happens to an absent player's seat, as it will
// happen: a bot steps in after the takeover delay if the game has bots and
// someone is still at the table; otherwise the table waits.
func (r *Room) whileAway(seat game.Seat) game.Msg {
	if r.cfg.Bots == nil || r.cfg.TakeoverAfter <= 0 {
		return game.M("table.away.waits")
	}
	if !r.otherHumanConnected(seat) {
		return game.M("table.away.waits_anyone")
	}
	return game.M("table.away.bot_after", waitArg(r.cfg.TakeoverAfter))
}

// waitArg says a delay the way people do ("2 minutes", "30 seconds"), as
// the argument Wait.
func waitArg(d time.Duration) game.Arg { return waitIn("table.wait.", d) }

// waitIn is waitArg for a sentence whose duration takes another case than
// table.wait's ("longer than 3 minutes"): family holds its own minutes,
// seconds and moment.
func waitIn(family string, d time.Duration) game.Arg {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return game.Sub("Wait", game.M(family+"minutes", game.Count(int(d/time.Minute))))
	case d >= time.Second:
		return game.Sub("Wait", game.M(family+"seconds", game.Count(int((d+time.Second-1)/time.Second))))
	}
	return game.Sub("Wait", game.M(family+"moment"))
}

func (r *Room) seatConnected(seat game.Seat) bool {
	for _, m := range r.members {
		if m.seat == seat {
			return true
		}
	}
	return false
}

func (r *Room) isHost(box *Mailbox) bool {
	m, ok := r.members[box]
	return ok && m.id == r.cfg.Host
}

func (r *Room) setBot(c command) error {
	if !r.isHost(c.box) {
		return ErrNotHost
	}
	if r.started {
		return ErrStarted
	}
	if c.seat < 0 || int(c.seat) >= len(r.seats) {
		return game.Refuse(nil, game.M("table.err.no_seat", game.Num("N", int(c.seat)+1)))
	}
	s := &r.seats[c.seat]
	if s.rec.Identity != "" {
		return game.Refuse(nil, game.M("table.err.taken", game.Text("Player", s.rec.Name)))
	}
	if c.level != "" {
		if r.cfg.Bots == nil {
			return game.NewError("table.err.no_bots")
		}
		if !slices.Contains(r.cfg.Bots.Levels(), c.level) {
			return game.Refuse(nil, game.M("table.err.bot_level", game.Text("Level", c.level)))
		}
		s.rec = SeatRecord{Seat: c.seat, Bot: c.level, Name: botName(c.seat)}
	} else {
		s.rec = SeatRecord{Seat: c.seat}
	}
	r.save()
	r.afterChange()
	return nil
}

// botNames are the bots' names, one per seat, each with the gender
// sentences naming it agree with ("Ewa (bot) … она").
var botNames = []struct {
	name   string
	gender game.Gender
}{{"Ada", game.Feminine}, {"Bruno", game.Masculine}, {"Celine", game.Feminine}, {"Dmitri", game.Masculine},
	{"Ewa", game.Feminine}, {"Fabien", game.Masculine}, {"Greta", game.Feminine}, {"Hugo", game.Masculine},
	{"Irena", game.Feminine}, {"Jules", game.Masculine}, {"Kasia", game.Feminine}, {"Louis", game.Masculine},
	{"Marta", game.Feminine}, {"Nils", game.Masculine}, {"Olga", game.Feminine}, {"Pierre", game.Masculine},
	{"Quentin", game.Masculine}, {"Rosa", game.Feminine}}

// BotNames are the names the bots go by (without game.BotMark): no player
// may take one (the server reserves them).
func BotNames() []string {
	names := make([]string, len(botNames))
	for i, b := range botNames {
		names[i] = b.name
	}
	return names
}

// botName is a bot's name at a table: a name that reads in every
// language, with game.BotMark, which each screen writes in its viewer's
// language (screens show its level beside it).
func botName(seat game.Seat) string {
	return botNames[int(seat)%len(botNames)].name + game.BotMark
}

// botGender is the gender of the bot named name (botName), unset for
// any other name.
func botGender(name string) game.Gender {
	base, ok := strings.CutSuffix(name, game.BotMark)
	if !ok {
		return game.GenderUnset
	}
	for _, b := range botNames {
		if b.name == base {
			return b.gender
		}
	}
	return game.GenderUnset
}

// admits reports whether id may take a seat: anyone, or for a campaign's
// table its members as they are now.
func (r *Room) admits(id string) bool {
	if r.cfg.Campaign != "" && r.cfg.IsMember != nil {
		return r.cfg.IsMember(r.cfg.Campaign, id)
	}
	return len(r.cfg.Allowed) == 0 || slices.Contains(r.cfg.Allowed, id)
}

// armAbandon starts the count to ending the game once every human player
// is away (AbandonAfter).
func (r *Room) armAbandon() {
	after := r.abandonAfter()
	if after <= 0 || !r.started || r.over || r.abandon != nil || r.humanConnected() {
		return
	}
	r.abandon = r.clock.AfterFunc(after, func() { r.retrySubmit(command{kind: cmdAbandon}) })
}

// abandonAfter is how long a game waits for its absent players: the
// game's own AbandonAfter, else the server's DesertedAfter.
func (r *Room) abandonAfter() time.Duration {
	if r.cfg.AbandonAfter > 0 {
		return r.cfg.AbandonAfter
	}
	return r.cfg.DesertedAfter
}

// abandonIfEmpty ends the game, unfinished, if still no human is back.
func (r *Room) abandonIfEmpty() {
	r.abandon = nil
	if !r.started || r.over || r.humanConnected() {
		return
	}
	r.narrate(game.M("table.abandoned", waitArg(r.abandonAfter())))
	if a, ok := r.cfg.Game.(game.Abandoner); ok {
		if err := r.apply(game.System, a.AbandonAction(r.state)); err == nil && r.over {
			return // over, with the game's own "abandoned" result
		}
	}
	r.publish()
	r.closeForGood(Abandoned) // without a result: not restored, not counted
}

// humanConnected reports whether any human player's seat has a session.
func (r *Room) humanConnected() bool {
	for i, s := range r.seats {
		if s.rec.Identity != "" && r.seatConnected(game.Seat(i)) {
			return true
		}
	}
	return false
}

// pick records a seat's own choice before the game (game.Prelude).
func (r *Room) pick(c command) error {
	seat, ok := r.memberSeat(c.box)
	pre, has := r.cfg.Game.(game.Prelude)
	switch {
	case !ok || seat < 0:
		return ErrNotSeated
	case r.started:
		return ErrStarted
	case !has:
		return game.NewError("table.err.no_picks")
	}
	if c.text != "" {
		if !slices.ContainsFunc(pre.Picks(), func(p game.Pick) bool { return p.ID == c.text }) {
			return game.Refuse(nil, game.M("table.err.no_choice", game.Text("Choice", c.text)))
		}
		for i, s := range r.seats {
			if game.Seat(i) != seat && s.rec.Pick == c.text {
				return game.Refuse(nil, game.M("table.err.chosen", game.Text("Player", s.rec.Name)))
			}
		}
	}
	r.seats[seat].rec.Pick = c.text
	r.save()
	r.afterChange()
	return nil
}

// nameFirst is the host naming who begins (game.Prelude).
func (r *Room) nameFirst(c command) error {
	pre, has := r.cfg.Game.(game.Prelude)
	switch {
	case !r.isHost(c.box):
		return ErrNotHost
	case r.started:
		return ErrStarted
	case !has || !pre.NamesFirst():
		return game.NewError("table.err.draws_first")
	case c.seat != game.NoSeat && (c.seat < 0 || int(c.seat) >= len(r.seats)):
		return game.Refuse(nil, game.M("table.err.no_seat", game.Num("N", int(c.seat)+1)))
	}
	r.first = c.seat
	r.save()
	r.afterChange()
	return nil
}
