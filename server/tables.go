package server

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
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
