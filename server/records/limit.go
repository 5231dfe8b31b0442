package records

import (
	"errors"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
)

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
