package server

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
)

// How many tables one player, and one address, may hold open (waiting or
// playing) at once (table.Hub.Limits). A player needs one table, a few
// while they wait for friends at one and play a guided mission at
// another; an address may be a household or a club behind one router.
// The attack they answer: one connection made 246 started tables in 20 s,
// each holding a code, a record and an actor for good.
// An operator whose players share one address (a club, a school, a load
// test) raises the address's limit with `serve --tables-per-ip`.
const (
	tablesPerPlayer      = 4
	DefaultTablesPerAddr = 8
)

// tablesPerAddrOf is Config.TablesPerAddr as the hub's limit: 0 the
// default, below 0 none.
func tablesPerAddrOf(n int) int {
	switch {
	case n == 0:
		return DefaultTablesPerAddr
	case n < 0:
		return 0
	}
	return n
}

// desertedAfter ends a game in progress no player has been at this long
// (table.RoomConfig.DesertedAfter), for games with no such rule of their
// own (The Grizzled): long enough to get over a lost connection, or a
// restart of the server, and come back; short enough that tables left
// with their bots (start, then leave, again and again) do not pile up.
const desertedAfter = 30 * time.Minute

// codeTaken is table.Hub.CodeTaken on store: a room waiting or playing
// holds its code. A finished game gives its code up: its record, log and
// review move to retiredID, where profiles and `replay` find it, and the
// code is free for a new table (else finished games kept their codes for
// ever: at 246 tables in 20 s, one address would use up all 810,000
// public codes in about 19 hours). A room closed unfinished (kept by
// servers before they deleted those) is deleted. An error other than
// "not found" is the store not answering.
func codeTaken(store persistence.Store) func(code string) (bool, error) {
	return func(code string) (bool, error) {
		rec, err := store.Room(code)
		switch {
		case errors.Is(err, persistence.ErrNotFound):
			return false, nil
		case err != nil:
			return false, err
		case rec.Status == persistence.StatusFinished:
			err := store.RetireRoom(code, retiredID(rec))
			if errors.Is(err, persistence.ErrExists) {
				return true, nil // two old games without a finishing time: draw another code
			}
			return false, err
		case rec.Status == persistence.StatusAbandoned:
			if err := store.DeleteRoom(code); err != nil && !errors.Is(err, persistence.ErrNotFound) {
				return false, err
			}
			return false, nil
		}
		return true, nil
	}
}

// retiredID is where a finished game's record goes when its code names a
// new table: the code, then the moment the game finished in milliseconds,
// in the code's alphabet of capitals and digits (what codes.Normalize
// leaves as typed), so `replay ID` finds it.
func retiredID(rec persistence.RoomRecord) string {
	at := rec.Finished
	if at.IsZero() { // stored before finishing times were
		at = rec.Updated
	}
	return rec.Code + strings.ToUpper(strconv.FormatInt(max(at.UnixMilli(), 0), 36))
}

// How many campaigns one player, and one address, may start an hour. A
// squad starts one campaign and plays it for weeks; the attack: 230
// campaigns in 10 s from one connection, each a stored record for good.
const (
	campaignsPerPlayer = 3
	campaignsPerAddr   = 6
	campaignWindow     = time.Hour
)

// startLimit counts what players and addresses started in the last
// window, and refuses past a bound. Memory is bounded: past limitEntries
// keys the quietest are forgotten.
type startLimit struct {
	mu      sync.Mutex
	now     func() time.Time
	window  time.Duration
	player  int
	addr    int
	started map[string][]time.Time // "p:"+identity or "a:"+address → start times in the window
}

const limitEntries = 10000

func newStartLimit(now func() time.Time, window time.Duration, perPlayer, perAddr int) *startLimit {
	if now == nil {
		now = time.Now
	}
	return &startLimit{now: now, window: window, player: perPlayer, addr: perAddr, started: map[string][]time.Time{}}
}

// take counts one start for id from addr, or refuses it in words.
func (l *startLimit) take(id, addr string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	pk, ak := "p:"+id, "a:"+table.AddressGroup(addr)
	switch {
	case len(l.recent(pk, now)) >= l.player:
		return game.Refuse(errTooManyCampaigns, game.M("campaign.limit.player", game.Count(l.player)))
	case addr != "" && len(l.recent(ak, now)) >= l.addr:
		return game.Refuse(errTooManyCampaigns, game.M("campaign.limit.addr", game.Count(l.addr)))
	}
	if len(l.started) >= limitEntries {
		l.forget(now)
	}
	l.started[pk] = append(l.recent(pk, now), now)
	if addr != "" {
		l.started[ak] = append(l.recent(ak, now), now)
	}
	return nil
}

// recent is key's starts within the window (and drops older ones).
func (l *startLimit) recent(key string, now time.Time) []time.Time {
	ts := l.started[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	if i == len(ts) {
		delete(l.started, key)
		return nil
	}
	l.started[key] = ts[i:]
	return ts[i:]
}

// forget drops every key quiet for a window, or else the quietest one.
func (l *startLimit) forget(now time.Time) {
	quietest, at := "", now
	for k, ts := range l.started {
		last := ts[len(ts)-1]
		if now.Sub(last) >= l.window {
			delete(l.started, k)
			continue
		}
		if last.Before(at) {
			quietest, at = k, last
		}
	}
	if len(l.started) >= limitEntries {
		delete(l.started, quietest)
	}
}

var errTooManyCampaigns = errors.New("too many campaigns started")
