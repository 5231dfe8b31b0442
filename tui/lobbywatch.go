package tui

import (
	"sync"
	"sync/atomic"
	"time"
)

// Telling lobby screens that rooms changed, at a pace that grows with how
// many there are.
//
// The hub tells its watchers at most every table.LobbyEvery. Each lobby
// screen then draws itself again, so one change costs about a redraw per
// lobby session: at 10,000 sessions in the lobby, four changes a second
// while tables fill were more drawing than two cores do, and joins waited
// behind it. The app watches the hub once, and after telling its sessions
// it pauses lobbyPausePerSession for each one before it tells them again:
// with a few hundred players the lobby is as live as the hub makes it; at
// 10,000 it follows about once a second and a half.
//
// Only sessions with the lobby in view are told (and counted in the
// pause): a seated player's pump was woken for nothing at every change,
// about 9,000 wake-ups a second with 10,000 players at tables.

// lobbyPausePerSession is the pause after each telling, per lobby watcher.
const lobbyPausePerSession = 100 * time.Microsecond

// lobbyQuietPause is the pause after a telling that found no session
// showing the lobby (every player at a table): looking through 10,000
// sessions four times a second was 1.3% of the server's CPU while tables
// played. A session that comes back to the lobby reads the list afresh,
// so it misses nothing; it hears of the next change up to this late.
const lobbyQuietPause = time.Second

type lobbyWatchers struct {
	mu       sync.Mutex
	watchers map[chan struct{}]lobbyWatcher // by the signal
	quit     chan struct{}                  // closes the teller; nil while none runs
}

// watchLobby is the app's Hub.Watch: the channel is signalled (one slot)
// when rooms changed and wants says the session shows the lobby; stop
// unregisters it. A session that comes back to the lobby reads the list
// afresh (lobbyPage.refresh), so a signal it was spared is not missed.
func (a *App) watchLobby(wants func() bool) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	return ch, a.watchLobbyOn(ch, nil, wants)
}

// lobbyWatcher is a session watching the lobby.
type lobbyWatcher struct {
	wants func() bool  // whether its session wants the signal now
	told  *atomic.Bool // set before the signal, if not nil (ch also carries other signals)
}

// watchLobbyOn is watchLobby on the caller's channel ch (one slot), which
// may carry other signals: told, if not nil, is set before ch is
// signalled for the lobby.
func (a *App) watchLobbyOn(ch chan struct{}, told *atomic.Bool, wants func() bool) func() {
	w := &a.lobbyWatch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watchers == nil {
		w.watchers = map[chan struct{}]lobbyWatcher{}
	}
	w.watchers[ch] = lobbyWatcher{wants: wants, told: told}
	if w.quit == nil {
		w.quit = make(chan struct{})
		go a.tellLobby(w.quit)
	}
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.watchers, ch)
		if len(w.watchers) == 0 && w.quit != nil {
			close(w.quit) // the last session gone: no teller runs for nobody
			w.quit = nil
		}
	}
}

// tellLobby passes the hub's signals on to every watcher until quit.
func (a *App) tellLobby(quit chan struct{}) {
	hub, stop := a.Hub.Watch()
	defer stop()
	w := &a.lobbyWatch
	for {
		select {
		case <-quit:
			return
		case <-hub:
		}
		w.mu.Lock()
		n := 0
		for ch, lw := range w.watchers {
			if !lw.wants() {
				continue
			}
			n++
			if lw.told != nil {
				lw.told.Store(true)
			}
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		w.mu.Unlock()
		wait := time.Duration(n) * lobbyPausePerSession
		if n == 0 { // nobody shows the lobby: each look went through every session for nothing
			wait = lobbyQuietPause
		}
		pause := time.NewTimer(wait)
		select {
		case <-quit:
			pause.Stop()
			return
		case <-pause.C:
		}
	}
}
