package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/friends"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/hostkeys"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/lastknown"
	"github.com/bivouac-ssh/bivouac/logredact"
	"github.com/bivouac-ssh/bivouac/logthrottle"
	"github.com/bivouac-ssh/bivouac/metrics"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/notice"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/presence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/server/admin"
	"github.com/bivouac-ssh/bivouac/server/commands"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/server/live"
	"github.com/bivouac-ssh/bivouac/server/node"
	"github.com/bivouac-ssh/bivouac/server/people"
	"github.com/bivouac-ssh/bivouac/server/records"
	"github.com/bivouac-ssh/bivouac/server/reviews"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
	"github.com/bivouac-ssh/bivouac/tui/plain"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"
)

// Config is everything a server needs; tests build one directly.
type Config struct {
	Addr    string
	DataDir string
	// PublicHost is the host name players are told to ssh to; "" lets
	// joinHosts find the machine's names and addresses.
	PublicHost string
	Guests     bool
	// GuestsWatch lets guests watch tables, not sit at or open one
	// (--guests watch): table.Player.WatchOnly.
	GuestsWatch bool
	Log         *slog.Logger
	// Lang is the operator's language: what Run says on its output (the
	// start and stop lines); the log stays English, for grep.
	Lang     i18n.Lang
	BotDelay time.Duration
	// TakeoverAfter gives a disconnected player's seat to a bot after this long.
	TakeoverAfter time.Duration
	SSH           sshserver.Config // Addr and HostKeyPath are filled in
	// Cluster makes this server one node of a cluster on NATS JetStream;
	// nil: a single node keeping everything in one bbolt file.
	Cluster *node.Config
	// Access is who may come in and who administers (package access):
	// its Log is filled in.
	Access access.Config
	// NewKeysPerHour is how many keys the server has never seen one
	// address may bring in an hour (0: DefaultNewKeysPerHour; < 0: no
	// limit, for a load test from one address). See newkeys.go.
	NewKeysPerHour int
	// TablesPerAddr is how many open tables one address may hold (0:
	// DefaultTablesPerAddr; < 0: no limit, for a load test from one
	// address). See tables.go.
	TablesPerAddr int
	// Clock times the new-key limit (nil: the system's).
	Clock clock.Clock
	// Games are the games on offer (nil: Catalog()).
	Games tui.Catalog
	// MetricsAddr serves the operator's endpoints (/metrics, /healthz,
	// /readyz) on this address, PprofAddr Go's profiles on a loopback
	// address ("": none); only Run serves them.
	MetricsAddr, PprofAddr string

	// Notify is what the operator allows of notifications to players'
	// webhooks (--notify, --notify-hosts): off unless Notify.On.
	Notify notify.Policy
	// notifyClient, if set, sends the notifications (tests).
	notifyClient *http.Client
	// tableClock, if set, times the tables and the outbox (tests: a clock
	// that runs fast, so correspondence deadlines pass in seconds).
	tableClock clock.Clock

	// moderationStore, if set, stands in front of the store's moderation
	// (tests: a store that does not answer).
	moderationStore func(persistence.Moderation) persistence.Moderation
}

// Server is the assembled process: store, rooms, session programs, SSH.
type Server struct {
	cfg    Config
	store  persistence.Store
	hub    *table.Hub
	app    *tui.App
	ssh    *sshserver.Server
	stop   context.CancelFunc
	log    *slog.Logger
	admin  net.Listener // the backup socket
	games  game.Registry
	closed bool

	cluster *node.Node // nil on a single node

	beating      sync.WaitGroup // the heartbeat
	fileReplaced fileState      // the store's file was replaced under it (checkFile)

	guestNames guestNames
	names      nameBook
	newKeys    *newKeys
	records    *records.Records
	reviews    *reviews.Reviewer
	access     *access.Policy // admins, allowlist, invites
	mod        *moderation.Service
	live       live.Sessions                                  // this node's player sessions
	profiles   *lastknown.Copies[string, persistence.Profile] // a login's read of its profile (logins.go)
	commands   commands.Commands                              // what players run without a terminal
	console    *admin.Console                                 // what admins run
	notes      []game.Msg                                     // for the operator at start (StartNotes)
	here       *admin.Here                                    // this node's part of the admins' commands
	notices    *notice.Board                                  // notices to this node's player sessions (notices.go)
	friends    *friends.Service                               // friendships and requests (friends.go)
	presence   *presence.Hub                                  // where this node's players are, told to their friends
	circles    circleReloads                                  // presence's reloads of a player's friends (friends.go)
	outbox     *notify.Outbox                                 // messages to away players' webhooks; nil: off (notify.go)
	// joinHint is app.JoinHint for goroutines that start before Serve
	// sets it (the outbox sends what it restored at once): the configured
	// address's line until Serve stores the one it listens on.
	joinHint atomic.Pointer[string]

	metrics *metrics.Metrics // the operator's view (ops.go)
	health  func() error     // the cluster's health; nil on a single node
	// drainingTo is the ssh line new sessions are sent to while the node
	// drains ("": it does not); nil on a single node.
	drainingTo func() string
}

// New assembles a server on cfg.DataDir: host key, database, restored
// tables, the lobby and the SSH front door. Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	// A flood of connections must not flood the log: lines about one
	// client address are rate-limited, with a count of what was held back.
	cfg.Log = slog.New(logthrottle.New(cfg.Log.Handler(), logthrottle.Options{
		Every: time.Minute, Burst: 20, Sources: []string{"remote"}, Group: sshserver.AddressGroup}))
	// Private table codes and campaign codes are secrets: the log names
	// them by a tag (public table codes are shorter, and stay as they are).
	tagger := logredact.NewTagger()
	cfg.Log = slog.New(logredact.New(cfg.Log.Handler(), logredact.Options{
		Keys: []string{"room", "code", "campaign"}, Tag: tagger.Tag,
		Secret: func(v string) bool { return len(v) > table.PublicCodeLen }}))
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, err
	}
	dataOpen := warnIfOpen(cfg.Log, cfg.DataDir)
	keyPath, _, err := hostkeys.Ensure(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	var store persistence.Store
	var cluster *node.Node
	if cfg.Cluster != nil {
		cluster, err = node.Start(*cfg.Cluster, cfg.DataDir, cfg.Log)
		if err != nil {
			return nil, err
		}
		store = cluster.Store()
	} else if store, err = persistence.Open(filepath.Join(cfg.DataDir, DatabaseFile), persistence.Options{Log: cfg.Log, CommitPace: commitPace}); err != nil {
		return nil, err
	}
	hubCtx, stop := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, store: store, hub: table.NewHub(hubCtx, cfg.Log), stop: stop, log: cfg.Log, cluster: cluster}
	if dataOpen {
		s.notes = append(s.notes, game.M("op.note.data_open", game.Text("Dir", cfg.DataDir)))
	}
	if cluster != nil && len(cluster.RoutesInClear()) > 0 {
		s.notes = append(s.notes, game.M("op.note.insecure_routes", game.Text("Routes", strings.Join(cluster.RoutesInClear(), ", "))))
	}
	s.names.reserved = newReservedNames()
	s.profiles = lastknown.New[string, persistence.Profile](loginReadWithin, loginCopies)
	s.names.isAdmin = func(id string) bool { return s.mod != nil && s.mod.IsAdmin(id) }
	games := cfg.Games
	if games == nil {
		games = Catalog()
	}
	s.games = games.Registry()
	s.openMetrics()
	s.newKeys = newNewKeys(cfg.NewKeysPerHour, cfg.Clock)
	rel := people.NewRelations(store)
	s.records = records.New(records.Options{Store: store, Games: games, Log: cfg.Log, Degraded: s.degraded, Blocked: rel.Blocks})
	s.reviews = reviews.New(hubCtx, store, s.records.FinishedGame, games, cfg.Log) // before anything that may fail: Close waits for it
	if err := s.openAccess(); err != nil {
		s.Close()
		return nil, err
	}
	s.openModeration()
	journal := persistence.Journal{Store: timedStore{store, s.metrics}, Variant: variantOf(games)}
	s.hub.CodeTaken = codeTaken(store)
	s.hub.Limits = table.Limits{PerPlayer: tablesPerPlayer, PerAddr: tablesPerAddrOf(cfg.TablesPerAddr)}
	s.app = &tui.App{
		Hub:        s.hub,
		Games:      games,
		Profiles:   s.records,
		Names:      playerNames{s},
		Records:    s.records,
		Reviews:    s.reviews,
		Relations:  rel,
		Reports:    people.Reports{Mod: s.mod, AddressGroup: sshserver.AddressGroup},
		JoinHint:   joinline.For(cfg.Addr, cfg.PublicHost),
		ServerName: s.access.Name(),
		MOTD:       s.access.MOTD,
		Room: table.RoomConfig{
			Journal:       journal,
			Logger:        cfg.Log,
			BotDelay:      cfg.BotDelay,
			TakeoverAfter: cfg.TakeoverAfter,
			IdleClose:     15 * time.Minute,
			DesertedAfter: desertedAfter,
			OnOver:        s.records.OnOver,
			IsMember:      s.records.IsMember,
			Blocked:       rel.Blocks,
			MayChat:       s.mayChat,
			Banned:        s.bannedPlayer,
			Meter:         s.metrics,
			Clock:         cfg.tableClock,
		},
		NewSeed:     rand.Uint64,
		Log:         cfg.Log,
		IdleAfter:   30 * time.Minute,
		IdleWarning: time.Minute,
	}
	s.app.Degraded = s.clusterDegraded
	s.commands = commands.Commands{App: s.app}
	s.here = &admin.Here{Hub: s.hub, Live: &s.live, Mod: s.mod, Log: cfg.Log}
	s.console = &admin.Console{Here: s.here, Mod: s.mod, Access: s.access, Store: store, Names: &s.names,
		JoinLine: func() string { return s.app.JoinHint }, Log: cfg.Log}
	if cluster != nil {
		s.console.Cluster = cluster
	}
	s.wireNotices()
	s.wireFriends(rel)
	hint := s.app.JoinHint // Serve publishes the one on the port it listens on
	s.joinHint.Store(&hint)
	s.wireNotify()
	if err := store.EachPlayer(func(p persistence.Profile) error {
		s.names.seed(p.Fingerprint, p.Name, p.LastSeen)
		return nil
	}); err != nil {
		s.Close()
		return nil, err
	}
	if cluster != nil {
		s.hub.Claim, s.hub.Others, s.hub.Launched = cluster.Claim, cluster, cluster.Serve
		s.hub.CodeTaken = codeTaken(cluster.CodeStore())
		s.drainingTo = cluster.Refusal
		err = cluster.Run(node.Options{Hub: s.hub, Games: s.games, Room: &s.app.Room, Live: &s.live,
			Admin: s.here.Answer, Degraded: s.clusterDegraded, TookOver: s.metrics.TookOver})
	} else {
		err = s.restore(journal)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	s.beating.Add(2)
	go s.heartbeat(hubCtx)
	go s.runPresence(hubCtx)
	s.watchModeration(hubCtx)
	if err := s.listenAdmin(); err != nil {
		s.Close()
		return nil, err
	}
	sshCfg := cfg.SSH
	sshCfg.Addr, sshCfg.HostKeyPath, sshCfg.AllowGuests = cfg.Addr, keyPath, cfg.Guests
	s.ssh, err = sshserver.New(sshCfg, sshserver.Deps{Programs: s.program, Command: s.command, Plain: s.plain, Log: cfg.Log,
		KnownGuest: s.guestSeated, Opens: opensTUI, Verb: isVerb, Tag: tagger.Tag, Admit: s.admit,
		Doorkeeper: accessGate{s.access, s}, Refused: func(why sshserver.Refusal) { s.metrics.Refused(string(why)) }})
	if err != nil {
		s.Close()
		return nil, err
	}
	s.app.Guesses = s.ssh.Guesses()
	s.names.holdsCode = s.ssh.HoldsCode
	return s, nil
}

// restore rebuilds every unfinished room from its log.
func (s *Server) restore(j persistence.Journal) error {
	saved, err := j.Restorable()
	if err != nil {
		return err
	}
	stopped, err := s.store.LastAlive()
	if err != nil {
		return err
	}
	for _, sr := range saved {
		g, ok := s.games.Lookup(sr.Record.Game)
		if !ok {
			s.log.Warn("saved room of an unknown game left alone", "room", sr.Record.Code, "game", sr.Record.Game)
			continue
		}
		cfg := s.app.Room
		cfg.Game, cfg.Bots, cfg.Stopped = g.Game, g.Bots, stopped
		if _, err := s.hub.Restore(cfg, sr.Record, sr.Log); err != nil {
			s.log.Error("room could not be restored", "room", sr.Record.Code, "err", err)
			continue
		}
		s.log.Info("room restored", "room", sr.Record.Code, "actions", len(sr.Log))
	}
	return nil
}

// program is the TUI for one PTY session with a verified identity; ctx
// ends with the session.
func (s *Server) program(ctx context.Context, sess ssh.Session) *tea.Program {
	in, ok := s.player(ctx, sess)
	if !ok {
		return nil
	}
	id, p := in.id, in.p
	// On the player bus before the program reads the player's friends
	// (tui.App.JoinPresence): word from another node that they changed
	// comes here from then on.
	s.hereOnBus(ctx, id.ID)
	term := sshserver.NewTerminal(sess)
	sizes, _ := sshserver.ClaimWindowChanges(ctx) // the pump passes them on: no goroutine of its own
	prog := s.app.NewProgram(tui.Session{
		Sizes:    sizes,
		Ctx:      ctx,
		Player:   p,
		Renderer: term.Renderer,
		Lang:     in.lang,
		Command:  sess.Command(),
		Notice:   in.notice,
		Desktop:  in.desktop,
		Guest:    guestHint(id),
		Addr:     id.RemoteIP,
		Zone:     clientZone(sess.Environ()),
		Options:  bm.MakeOptions(sess),
		Input:    term.Input,
		Dropped:  term.Dropped,
		Output:   term.Output,
		ASCII:    sshserver.WantsASCII(sess),
	})
	s.register(ctx, id, p, &live.Session{Send: func(c tui.Control) { go prog.Send(c) }})
	return prog
}

// plain runs a session in plain (screen reader) mode.
func (s *Server) plain(sess ssh.Session) int {
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	in, ok := s.player(ctx, sess)
	if !ok {
		return 1
	}
	id, p, lang, notice := in.id, in.p, in.lang, in.notice
	_, _, pty := sess.Pty()
	out := sshserver.RawOutput(sess)
	if notice != "" {
		eol := "\n"
		if pty {
			eol = "\r\n"
		}
		_, _ = io.WriteString(out, notice+eol) // best effort: a player who has gone misses it
	}
	keys, dropped := sshserver.Keyboard(sess)
	control := make(chan tui.Control)
	s.hereOnBus(ctx, id.ID) // before plain mode reads the player's friends, as program's
	s.register(ctx, id, p, &live.Session{Plain: true, Send: func(c tui.Control) {
		go func() {
			select {
			case control <- c:
			case <-ctx.Done():
			}
		}()
	}})
	return plain.Run(s.app, plain.Session{Ctx: ctx, Player: p, Lang: lang, In: keys, Dropped: dropped,
		Out: out, Echo: pty, Addr: id.RemoteIP, Zone: clientZone(sess.Environ()), ASCII: sshserver.WantsASCII(sess), Guest: guestHint(id), Control: control})
}

// login is who a verified session plays as (Server.player).
type login struct {
	id      sshserver.Identity
	p       table.Player
	lang    i18n.Lang
	notice  string // said when the session starts
	desktop string // the profile's desktop notification choice
}

// player is who a verified session plays as: its name (the one it logged
// in with, its profile's, or one the server gives when that is taken, said
// in notice), its language (the client's environment, else the player's
// saved choice, else English) and its profile's desktop notification
// choice. The name is held until ctx ends.
func (s *Server) player(ctx context.Context, sess ssh.Session) (login, bool) {
	id, ok := sshserver.IdentityOf(sess)
	if !ok {
		return login{id: id, lang: i18n.English}, false
	}
	desktop := ""
	p := table.Player{ID: id.ID, Guest: id.Guest, Addr: id.RemoteIP, WatchOnly: id.Guest && s.cfg.GuestsWatch}
	name, err := sanitize.Name(id.User)
	if err == nil {
		err = s.names.checkReserved(id.ID, name)
	}
	refused := err // the login name cannot be a player's name: say why
	if err != nil {
		name = s.guestNames.nameFor(id.ID) // never derived from a reclaim code
	}
	p.Name = name
	lang, fromEnv := i18n.FromEnv(sess.Environ())
	if !id.Guest {
		// A key with no profile stores none until it does something worth
		// keeping (profiles.Keep); but it counts as a new key of its address.
		prof, err := s.loginProfile(id.ID, name)
		if errors.Is(err, persistence.ErrNotFound) {
			if ok, log := s.newKeys.admit(sshserver.AddressGroup(id.RemoteIP), id.ID); !ok {
				if log {
					s.log.Warn("sessions refused: too many new keys from one address", "addr", id.RemoteIP, "limit", s.newKeys.limit)
				}
				s.ssh.RefuseFor(sess, sshserver.RefusedNewKeys, i18n.For(lang).T("ssh.newkeys.too_many", game.Num("N", s.newKeys.limit)))
				return login{id: id, lang: lang}, false
			}
		}
		if err == nil {
			p.Name = prof.Name
			if prof.Veteran {
				p.Badge = tui.BadgeVeteran
			}
			p.Gender, _ = game.ParseGender(prof.Gender)
			desktop = prof.Notify.Desktop
			if l, ok := i18n.Parse(prof.Lang); ok && !fromEnv {
				lang = l
			}
		}
	}
	notice := ""
	if refused != nil && id.User != "" && p.Name == name { // no saved name took its place
		pr := i18n.For(lang)
		notice = pr.T("name.login_refused", game.Text("Name", sanitize.Cut(id.User, sanitize.MaxNameRunes+4)),
			game.Text("Why", pr.Error(refused)), game.Text("Given", name))
	}
	if err := s.names.checkReserved(id.ID, p.Name); err != nil {
		// A saved name from before it was reserved (a bot's, "admin").
		given, pr := s.guestNames.nameFor(id.ID), i18n.For(lang)
		notice = pr.T("name.saved_refused", game.Text("Name", p.Name),
			game.Text("Why", pr.Error(err)), game.Text("Given", given))
		p.Name = given
	}
	if given := s.names.login(id.ID, p.Name); given != p.Name {
		notice = i18n.For(lang).T("name.renamed", game.Text("Name", p.Name), game.Text("Given", given))
		p.Name = given
	}
	context.AfterFunc(ctx, func() {
		s.names.logout(id.ID)
		if !id.Guest {
			s.left(id.ID)
		}
	})
	return login{id: id, p: p, lang: lang, notice: notice, desktop: desktop}, true
}

// left stamps the end of a keyed player's session in their profile
// (LastSeen): a friend who logs in after they left reads the day, not
// just "offline". A key with no profile has nothing stamped; a store
// closing under a server's stop is no news.
func (s *Server) left(id string) {
	if err := s.store.Left(id); err != nil && !errors.Is(err, persistence.ErrNotFound) {
		s.log.Debug("a session's end was not stamped", "id", id, "err", err)
	}
}

// warnIfOpen warns, and reports, when the data directory lets others
// than its owner in: it holds the host key and every player's games. It
// is the operator's directory, so it is not changed behind their back.
func warnIfOpen(log *slog.Logger, dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil {
		return false
	}
	mode := fi.Mode().Perm()
	if mode&0o077 != 0 {
		log.Warn("the data directory is open to other users: it holds the host key and every game",
			"dir", dir, "mode", fmt.Sprintf("%04o", mode), "fix", "chmod 700 "+dir)
	}
	return mode&0o077 != 0
}

// StartNotes are what the operator should know of how the server was
// started (no admins, a data directory others may read, routes in
// clear): the log says each as a warning, and Run's banner in the
// operator's language.
func (s *Server) StartNotes() []game.Msg { return s.notes }

// guestHint is the reclaim code as its owner types it ("" for key holders).
func guestHint(id sshserver.Identity) string {
	if !id.Guest {
		return ""
	}
	return sshserver.FormatGuestCode(id.Code)
}

// guestSeated reports whether a guest holds a seat at a table (restored
// tables keep their guests' hashed IDs): such a guest may reclaim it with
// their code after a restart.
func (s *Server) guestSeated(id string) bool {
	for _, r := range s.hub.List() {
		if slices.Contains(r.Players, id) {
			return true
		}
	}
	return false
}

// HostKeyFingerprint is the SSH host key's fingerprint, for players to check.
func (s *Server) HostKeyFingerprint() string { return s.ssh.HostKeyFingerprint() }

// Serve accepts SSH connections on l until Shutdown. The join line players
// are shown names the port actually listened on.
func (s *Server) Serve(l net.Listener) error {
	s.app.JoinHint = joinline.For(l.Addr().String(), s.cfg.PublicHost)
	hint := s.app.JoinHint
	s.joinHint.Store(&hint)
	if s.cluster != nil {
		s.cluster.Announce(s.app.JoinHint)
	}
	return s.ssh.Serve(l)
}

// sightingsFlushWithin bounds how long a stopping server waits to write
// what logins showed of players (moderation.Saw): a store that does not
// answer does not hold the stop up.
const sightingsFlushWithin = 500 * time.Millisecond

// Shutdown tells every player, closes rooms (their state is already on
// disk), disconnects sessions and closes the store, within ctx.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.closed { // the store and rooms are gone already; stop serving
		return s.ssh.Shutdown(ctx)
	}
	// What logins showed of players is written first, for half a second
	// at most. Then moderation stops: its watcher and any check made while
	// rooms close answer from the sanctions last read instead of waiting
	// on a store that may not answer (a cluster losing this node).
	flushed := make(chan struct{})
	go func() { s.mod.Flush(); close(flushed) }()
	select {
	case <-flushed:
	case <-time.After(sightingsFlushWithin):
	}
	s.mod.Close()
	// Every player sees why first, on a terminal given back whole; a
	// client that does not read gets at most two seconds.
	tell, cancel := context.WithTimeout(ctx, 2*time.Second)
	s.app.Shutdown(tell)
	_ = s.ssh.Drain(tell) // sessions still open after this are cut below
	cancel()
	if s.cluster != nil {
		s.cluster.StopTakingOver() // the rooms let go below are for the other nodes
	}
	// Timed steps stop here: a restart gives them back what they have
	// left. The mark is stored while the tables close (each letting its
	// lease go): a cluster that cannot answer costs the wait of one.
	marked := make(chan error, 1)
	go func() { marked <- s.markStopped(time.Now()) }()
	herr := s.hub.Shutdown(ctx, table.Restarting)
	err := <-marked
	if herr != nil {
		if s.cluster == nil {
			err = errors.Join(err, herr)
		} else {
			// Each table's lease lapses on its own, and another node
			// (or this one, back) runs it from its log.
			s.log.Warn("some tables did not close in time; every move they accepted was stored before it was played", "tables", s.hub.Running(), "err", herr)
		}
	}
	err = errors.Join(err, s.ssh.Shutdown(ctx))
	s.Close()
	return err
}

// stopWriteWithin bounds the one write a cluster node makes as it stops
// (when it stopped): the last node of a cluster, with no majority left,
// can store nothing and must still stop within run's bound.
const stopWriteWithin = time.Second

// commitPace is the least time from a busy commit of the store to the
// next (persistence.Options.CommitPace). At 10,000 players playing at a
// bot's pace, 720 moves a second, commits held 1.8 moves each (400 a
// second, two fsyncs each); with the writes of 5 ms in one, CPU per move
// fell 14% (0.99 / 1.07 ms against 1.17 / 1.25, two A/B pairs), the
// mover's screen p50 rising by 3–4 ms (3.0 / 4.3 → 7.0 / 7.3 ms). With
// 10 ms, a commit holds about twice the moves: each commit reads and
// rewrites the logs bucket's branch pages (~115 entries each) and the
// meta page, and syncs twice, whatever it holds. CPU per move fell
// another 9–11% (0.87 / 0.79 → 0.79 / 0.70 ms), the mover's p50 rising
// by 4 ms (6.3 / 5.8 → 10.1 / 9.6 ms). A lone writer still never waits.
const commitPace = 10 * time.Millisecond

// markStopped stores when the server stopped. A cluster node that cannot
// (no majority left: the last node to stop) says so and what it means,
// and stops all the same: nothing else is lost, every move having been
// stored before it was played (issue 41: the last node exited 1).
func (s *Server) markStopped(at time.Time) error {
	if s.cluster == nil {
		return s.store.MarkAlive(at)
	}
	if err := s.cluster.Store().WithTimeout(stopWriteWithin).MarkAlive(at); err != nil {
		s.log.Warn("could not store when this node stopped (the cluster has no majority left, or did not answer): "+
			"a table's timed step resumes from the last mark, a second earlier at most; every accepted move was stored before it was played", "err", err)
	}
	return nil
}

// Close releases everything without ceremony.
func (s *Server) Close() {
	if s.closed {
		return
	}
	s.closed = true
	if s.admin != nil {
		s.admin.Close()
	}
	if s.cluster != nil {
		s.cluster.StopTakingOver() // before the rooms stop and let their leases go
	}
	s.stop()
	if s.mod != nil {
		s.mod.Close() // its watcher is one of the beating
	}
	if s.access != nil {
		s.access.Close()
	}
	s.beating.Wait()
	s.reviews.Wait()
	if s.outbox != nil {
		s.outbox.Close() // before the store its ledger writes to
	}
	s.store.Close()
	if s.cluster != nil {
		s.cluster.Close()
	}
}
