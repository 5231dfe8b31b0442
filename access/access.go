// Package access decides who may come into a Bivouac server and who
// administers it: the operators' keys (--admins), the allowlist (--allow),
// invites that admit a newcomer's key for good, whether keyless guests may
// play, and the server's name and message of the day.
//
// The key files are OpenSSH authorized_keys files, read again when they
// change (polled on the clock every PollEvery) or when Reload is called
// (on SIGHUP). Keys are compared by their SHA256 fingerprint, the form
// sshserver.Identity.ID takes for a key holder.
package access

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bivouac-ssh/bivouac/clock"
	"github.com/bivouac-ssh/bivouac/lastknown"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// LoginReadWithin bounds each read of the store a login makes here
// (an admitted key, an invite): in a cluster, a node that froze must not
// hold a login on another. Past it the last copy read answers, or, with
// none, the login is told the server cannot check now.
const LoginReadWithin = 500 * time.Millisecond

// loginCopies bounds the copies kept of each kind.
const loginCopies = 10000

// PollEvery is how often the files are checked for changes: an edit of
// the allowlist takes effect within this long without a signal.
const PollEvery = 2 * time.Second

// Config is what an operator sets. Zero values: no admins, no allowlist
// (everyone with a key may come in), guests as AllowGuests says.
type Config struct {
	AdminsFile string // operators' keys; "" none
	AllowFile  string // only these keys (and admins, and invited keys) may come in; "" anyone
	// NoGuests turns keyless guests away (as an allowlist does).
	NoGuests bool
	// Store keeps invites and the keys they admitted; nil: no invites.
	Store persistence.AccessStore
	// Name is the server's name, shown in the lobby and in help; "" none.
	Name string
	// MOTDFile is the message of the day (see motd.go); "" none.
	MOTDFile string
	// Shared: the server is a node of a cluster, whose store every node
	// reads; an admin's change to a key list goes there (lists.go).
	Shared bool
	// OnChange, if set, hears that a list changed (ListAdmins, ListAllow):
	// its file was read again, or an admin changed it. The server ends
	// the sessions the change shuts out.
	OnChange func(list string)

	Clock clock.Clock // polls the files; nil: clock.System
	Log   *slog.Logger
}

// Policy is the server's one record of who may come in and who is an
// admin. Its methods are safe for concurrent use.
type Policy struct {
	cfg   Config
	log   *slog.Logger
	clock clock.Clock

	admins *KeyFile // nil: none named
	allow  *KeyFile // nil: no allowlist
	store  persistence.AccessStore
	motd   *motdFiles // nil: none
	over   overrides  // admins' changes kept in the store
	// rewrite writes a key file back (rewriteKeyFile; tests: a read-only one)
	rewrite func(path string, edit func(lines [][]byte) [][]byte) error

	// A login's reads of the store, each within a deadline and answered
	// past it from the last copy (see lastknown): whether a key was
	// admitted, an invite.
	admitted *lastknown.Copies[string, bool]
	invites  *lastknown.Copies[string, persistence.Invite]

	mu     sync.Mutex
	timer  clock.Timer
	closed bool
	// A store that tells the key lists' changes (ListWatcher) is
	// followed while watching is set, and not read at each poll.
	watching   atomic.Bool
	stopFollow context.CancelFunc
}

// ListWatcher is a store that tells each change to the key lists as it
// is made (persistence/jetstream): a node of a cluster follows the
// others' changes so, rather than reading them all every PollEvery.
type ListWatcher interface {
	WatchKeyListEntries(ctx context.Context) (<-chan []persistence.KeyListEntry, error)
}

// New reads the files cfg names. A file that cannot be read is an error;
// bad lines are logged and skipped. Call Watch to follow later changes.
func New(cfg Config) (*Policy, error) {
	p := &Policy{cfg: cfg, log: cfg.Log, clock: cfg.Clock, store: cfg.Store, rewrite: rewriteKeyFile,
		admitted: lastknown.New[string, bool](LoginReadWithin, loginCopies),
		invites:  lastknown.New[string, persistence.Invite](LoginReadWithin, loginCopies)}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.clock == nil {
		p.clock = clock.System{}
	}
	var err error
	if cfg.AdminsFile != "" {
		if p.admins, err = OpenKeyFile(cfg.AdminsFile, "admins", p.log); err != nil {
			return nil, err
		}
	}
	if cfg.AllowFile != "" {
		if p.allow, err = OpenKeyFile(cfg.AllowFile, "allow", p.log); err != nil {
			return nil, err
		}
	}
	if cfg.MOTDFile != "" {
		if p.motd, err = openMOTD(cfg.MOTDFile, p.log); err != nil {
			return nil, err
		}
	}
	p.readOverrides()
	for _, f := range []*KeyFile{p.admins, p.allow} {
		if f != nil {
			f.readSince() // read as the server starts: no change to tell
		}
	}
	return p, nil
}

// NoAdminsHint is the start-up log line of a server without --admins.
const NoAdminsHint = "no admins: name the operators' SSH public keys in a file in authorized_keys form " +
	"and start with --admins FILE (env BIVOUAC_ADMINS); a player's key fingerprint is in their profile"

// IsAdmin reports whether fp (a key fingerprint, "SHA256:…") is one of
// the admins' keys: in the admins file, or added by an admin, and not
// taken off. Guests are never admins.
func (p *Policy) IsAdmin(fp string) bool {
	return p != nil && p.admins != nil && fp != "" && p.onList(ListAdmins, p.admins, fp)
}

// Admins is the admins' keys: the file's in its order, then those added.
func (p *Policy) Admins() []Key {
	if p == nil {
		return nil
	}
	return p.ListKeys(ListAdmins)
}

// HasAdmins reports whether an admins file was named.
func (p *Policy) HasAdmins() bool { return p != nil && p.admins != nil }

// Watch checks the files every PollEvery on the clock until Close, and
// follows a ListWatcher store's changes to the key lists.
func (p *Policy) Watch() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.timer != nil {
		return
	}
	p.timer = p.clock.AfterFunc(PollEvery, p.poll)
	if w, ok := p.store.(ListWatcher); ok {
		ctx, cancel := context.WithCancel(context.Background())
		p.stopFollow = cancel
		go p.follow(ctx, w)
	}
}

// follow keeps the store's key list entries as its watch sends them,
// starting the watch again when it ends; the polls read the store while
// it is down.
func (p *Policy) follow(ctx context.Context, w ListWatcher) {
	for {
		if views, err := w.WatchKeyListEntries(ctx); err == nil {
			for view := range views {
				p.watching.Store(true)
				if p.over.set(view) {
					for _, l := range []struct {
						name string
						f    *KeyFile
					}{{ListAdmins, p.admins}, {ListAllow, p.allow}} {
						if l.f != nil {
							p.changed(l.name)
						}
					}
				}
			}
		}
		p.watching.Store(false)
		select {
		case <-ctx.Done():
			return
		case <-time.After(PollEvery):
		}
	}
}

func (p *Policy) poll() {
	p.Check()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.timer = p.clock.AfterFunc(PollEvery, p.poll)
	}
}

// Check reads again each file that changed since it was last read, and
// the admins' changes kept in the store (unless a watch follows them).
func (p *Policy) Check() {
	for _, f := range p.files() {
		f.Check()
	}
	changed := false
	if !p.watching.Load() {
		changed = p.readOverrides()
	}
	for _, l := range []struct {
		name string
		f    *KeyFile
	}{{ListAdmins, p.admins}, {ListAllow, p.allow}} {
		if l.f != nil && (l.f.readSince() || changed) {
			p.changed(l.name)
		}
	}
}

// Reload reads every file again now, changed or not (SIGHUP). A file that
// cannot be read keeps its last version; the errors are logged.
func (p *Policy) Reload() {
	for _, f := range p.files() {
		if err := f.Load(); err != nil {
			p.log.Warn("file cannot be read: its last version stays in force", "err", err)
		}
	}
	p.readOverrides()
	for _, l := range []string{ListAdmins, ListAllow} {
		if f, _ := p.file(l); f != nil {
			f.readSince() // told below
			p.changed(l)
		}
	}
}

// changed tells OnChange that list changed.
func (p *Policy) changed(list string) {
	if p.cfg.OnChange != nil {
		p.cfg.OnChange(list)
	}
}

// watched is a file the policy follows: a key file or a text file.
type watched interface {
	Load() error
	Check() bool
}

func (p *Policy) files() []watched {
	var out []watched
	for _, f := range []*KeyFile{p.admins, p.allow} {
		if f != nil {
			out = append(out, f)
		}
	}
	if p.motd != nil {
		for _, f := range p.motd.files() {
			out = append(out, f)
		}
	}
	return out
}

// Close stops watching the files.
func (p *Policy) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	if p.stopFollow != nil {
		p.stopFollow()
	}
}
