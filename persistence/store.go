package persistence

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Errors returned by Open. Each is wrapped with the path and, where known, a
// detail; test with errors.Is.
var (
	// ErrInUse: another process (usually a second server on the same data
	// directory) holds the database file lock.
	ErrInUse = errors.New("database is in use by another bivouac process")
	// ErrNotBivouac: the file is not a Bivouac database (not bbolt at all,
	// empty, or a bbolt file without Bivouac's meta bucket).
	ErrNotBivouac = errors.New("not a bivouac database")
	// ErrCorrupt: the file looks like a Bivouac (or bbolt) database but is
	// damaged: truncated, bad checksums, missing schema version.
	ErrCorrupt = errors.New("database is corrupt")
	// ErrSchemaTooNew: the file was written by a newer Bivouac whose schema
	// this build does not know. Upgrade the binary; the file is untouched.
	ErrSchemaTooNew = errors.New("database schema is newer than this build")
)

// Errors returned by the record methods.
var (
	ErrNotFound = errors.New("not found")
	ErrExists   = errors.New("already exists")
	// ErrSeq: an Append whose sequence number would leave a
	// gap, or repeats an earlier number with a different payload.
	ErrSeq = errors.New("action log sequence error")
	// ErrStale: a campaign result for a mission the campaign has moved
	// past (another table's result counted first); it changes nothing.
	ErrStale = errors.New("campaign has moved on")
	// ErrInvalid: a record or key the store refuses (empty ID, bad status...).
	ErrInvalid = errors.New("invalid record")
)

// magic is stored in the meta bucket; its presence is what makes a bbolt
// file a Bivouac database.
const magic = "bivouac"

// Bucket names. See doc.go for what each holds.
var (
	bktMeta       = []byte("meta")
	bktRooms      = []byte("rooms")
	bktRoomStatus = []byte("roomstatus")
	bktLogs       = []byte("logs")
	bktSnapshots  = []byte("snapshots")
	bktPlayers    = []byte("players")
	bktCampaigns  = []byte("campaigns")
	bktFinished   = []byte("finished")
	bktReviews    = []byte("reviews")

	keyMagic  = []byte("magic")
	keySchema = []byte("schema")
)

var allBuckets = [][]byte{bktMeta, bktRooms, bktRoomStatus, bktLogs, bktSnapshots, bktPlayers, bktCampaigns, bktFinished, bktReviews}

// migration upgrades a database from one schema version to the next inside
// the caller's write transaction. migrations[i] takes version i+1 to i+2.
type migration func(tx *bolt.Tx) error

// migrations is the upgrade table: append a function here (never edit or
// reorder one) when the layout changes.
var migrations = []migration{
	addReviews, // 1 → 2: the coach's post-game reviews
}

func addReviews(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bktReviews)
	return err
}

// schemaVersion is the version this build writes: one more than the number
// of migrations.
func schemaVersion() uint64 { return uint64(len(migrations)) + 1 }

// Options configures Open. The zero value is fine.
type Options struct {
	// Timeout bounds the wait for the file lock; after it Open fails with
	// ErrInUse. Default 1 s.
	Timeout time.Duration
	// BatchDelay is how long a write that finds no commit under way waits
	// for company before it commits. Default 0: writes that come while a
	// commit runs share the next one anyway (see groupCommit), so a wait
	// only slows a lone table.
	BatchDelay time.Duration
	// BatchSize is the most writes one transaction takes. Default 1000.
	BatchSize int
	// CommitPace is the least time from the start of a commit that had
	// company to the next's: writes that come sooner wait for the next
	// commit, together, so that a busy store makes fewer commits (two
	// fsyncs and the touched pages' upper levels each). A lone writer, or
	// a write after a pause, commits at once. Default 0: none.
	CommitPace time.Duration
	// Clock stamps Created/Updated and history times. Default time.Now.
	Clock func() time.Time
	// Log hears about the check of a large file at start (see Open); nil:
	// nothing is said.
	Log *slog.Logger
}

// checkSayAbove is the file size from which Open says it is checking the
// file, and how long that took.
const checkSayAbove = 64 << 20

// Bolt is the single-machine Store: one bbolt file. Its methods are safe for
// concurrent use.
type Bolt struct {
	db     *bolt.DB
	writes *groupCommit // Append, PutRoom and MarkAlive share its commits
	path   string
	opened os.FileInfo // the file at path when it was opened (FileReplaced)
	now    func() time.Time
}

// Open opens the Bivouac database at path, creating it when no file exists.
//
// An existing file is first inspected read-only, every page of it (each
// bucket, key and value is read, so a damaged page is found now rather than
// in the middle of a game); a file that is not a Bivouac database, is
// damaged, or has a newer schema yields ErrNotBivouac, ErrCorrupt or
// ErrSchemaTooNew and is never written to. An older schema is
// migrated in one transaction. If another process holds the file, Open
// fails with ErrInUse after opts.Timeout.
func Open(path string, opts Options) (*Bolt, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = time.Second
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 1000
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := create(path, opts); err != nil {
			return nil, fmt.Errorf("persistence: create %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("persistence: open %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("persistence: open %s: %w: not a regular file", path, ErrNotBivouac)
	}

	if err := inspect(path, opts); err != nil {
		if errors.Is(err, ErrCorrupt) {
			return nil, fmt.Errorf("persistence: open %s: %w; %s", path, err, restoreAdvice)
		}
		return nil, fmt.Errorf("persistence: open %s: %w", path, err)
	}

	db, err := bolt.Open(path, 0o600, boltOptions(opts, false))
	if err != nil {
		return nil, fmt.Errorf("persistence: open %s: %w", path, classify(err, nil))
	}
	// Read the version again under the exclusive lock: it is what counts.
	var version uint64
	err = db.View(func(tx *bolt.Tx) error {
		version, err = readVersion(tx)
		return err
	})
	if err == nil && version < schemaVersion() {
		err = db.Update(func(tx *bolt.Tx) error { return migrate(tx, migrations) })
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("persistence: open %s: %w", path, err)
	}
	opened, err := os.Stat(path)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("persistence: open %s: %w", path, err)
	}
	writes := &groupCommit{db: db, max: opts.BatchSize, delay: opts.BatchDelay, pace: opts.CommitPace}
	return &Bolt{db: db, writes: writes, path: path, opened: opened, now: func() time.Time { return opts.Clock().UTC() }}, nil
}

// Close releases the file. It waits for a running write transaction, but
// writes still waiting for the next commit then fail: stop the actors first.
func (s *Bolt) Close() error { return s.db.Close() }

// Path is the database file.
func (s *Bolt) Path() string { return s.path }

// boltOptions: the free page list lives in memory only (bbolt rebuilds it
// from the pages when the file is opened), kept in bbolt's hash map.
// Writing it at every commit, and merging it as an array, was a seventh of
// what the store allocated while 2,000 tables played; etcd's backend skips
// the same write.
func boltOptions(opts Options, readOnly bool) *bolt.Options {
	return &bolt.Options{Timeout: opts.Timeout, ReadOnly: readOnly, NoFreelistSync: true, FreelistType: bolt.FreelistMapType}
}

// create makes a fresh database at a temporary name and links it into place,
// so a file at path is always a complete Bivouac database: a crash during
// creation leaves only a stray temporary file, never an empty or half-made
// one at path. If another process created path first, its file wins.
func create(path string, opts Options) error {
	var suffix [6]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return err
	}
	tmp := path + ".new-" + hex.EncodeToString(suffix[:])
	db, err := bolt.Open(tmp, 0o600, boltOptions(opts, false))
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bktMeta)
		if err := meta.Put(keyMagic, []byte(magic)); err != nil {
			return err
		}
		return meta.Put(keySchema, u64be(schemaVersion()))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// inspect opens path read-only (shared lock, no writes) and returns the
// reason it must not be opened for writing, if any.
func inspect(path string, opts Options) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Size() == 0 {
		return fmt.Errorf("%w: empty file", ErrNotBivouac)
	}
	db, err := bolt.Open(path, 0o600, boltOptions(opts, true))
	if err != nil {
		return classify(err, readHead(path))
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error {
		// bbolt maps the whole file and trusts the meta page's page count;
		// reading past the end of a truncated file would fault, so check
		// the size before touching any page beyond the metas.
		if want := tx.Size(); want > fi.Size() {
			return fmt.Errorf("%w: truncated: %d bytes, the database needs %d", ErrCorrupt, fi.Size(), want)
		}
		// Check the pages' structure from the file first, so a damaged
		// page is named rather than met by bbolt, out of its bounds.
		if err := checkFilePages(path, tx); err != nil {
			return err
		}
		return guard(func() error {
			if _, err := readVersion(tx); err != nil {
				return err
			}
			start := time.Now()
			if opts.Log != nil && fi.Size() > checkSayAbove {
				opts.Log.Info("checking the database", "file", path, "MiB", fi.Size()>>20)
			}
			if err := readAll(tx); err != nil {
				return err
			}
			if opts.Log != nil && fi.Size() > checkSayAbove {
				opts.Log.Info("database checked", "file", path, "took", time.Since(start).Round(time.Millisecond))
			}
			return nil
		})
	})
}

// readAll reads every bucket, key and value in tx, which makes bbolt visit
// every page in use: a page that is not what its parent says it is makes
// bbolt panic, and guard turns that into ErrCorrupt. (bbolt's own Tx.Check
// runs in a goroutine of its own, where such a panic could not be caught.)
// Every record in an envelope is checked against its checksum too
// (checkRecord), and a damaged one is named by bucket and key.
func readAll(tx *bolt.Tx) error {
	var sum uint32
	var walk func(name []byte, b *bolt.Bucket) error
	walk = func(name []byte, b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if sub := b.Bucket(k); sub != nil {
					return walk(append(append(append([]byte{}, name...), '/'), k...), sub)
				}
			}
			sum = crc32.Update(sum, crc32.IEEETable, v) // touch every byte: overflow pages too
			if bytes.HasPrefix(v, envelopeStart) {
				if _, err := checkRecord(v); errors.Is(err, ErrCorrupt) {
					return fmt.Errorf("%w (bucket %s, key %q)", err, name, k)
				}
			}
			return nil
		})
	}
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(name, b) })
}

// envelopeStart begins every record Encode writes.
var envelopeStart = []byte(`{"v":`)

// view is db.View with a damaged page turned into ErrCorrupt instead of a
// panic: one bad table must not take the server down.
func (s *Bolt) view(fn func(tx *bolt.Tx) error) error {
	return guard(func() error { return s.db.View(fn) })
}

// readHead returns the first bytes of path (nil if unreadable).
func readHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	return head[:n]
}

// readVersion checks the meta bucket and returns the schema version.
func readVersion(tx *bolt.Tx) (uint64, error) {
	meta := tx.Bucket(bktMeta)
	if meta == nil || !bytes.Equal(meta.Get(keyMagic), []byte(magic)) {
		return 0, fmt.Errorf("%w: a bbolt file without bivouac meta", ErrNotBivouac)
	}
	raw := meta.Get(keySchema)
	if len(raw) != 8 {
		return 0, fmt.Errorf("%w: no schema version", ErrCorrupt)
	}
	v := binary.BigEndian.Uint64(raw)
	switch {
	case v == 0:
		return 0, fmt.Errorf("%w: schema version 0", ErrCorrupt)
	case v > schemaVersion():
		return 0, fmt.Errorf("%w: file has version %d, this build knows up to %d", ErrSchemaTooNew, v, schemaVersion())
	}
	return v, nil
}

// migrate runs steps from the file's version up to len(steps)+1 in tx, the
// caller's single write transaction: either all of them land or none.
func migrate(tx *bolt.Tx, steps []migration) error {
	v, err := readVersion(tx)
	if err != nil {
		return err
	}
	for ; v < uint64(len(steps))+1; v++ {
		if err := steps[v-1](tx); err != nil {
			return fmt.Errorf("schema %d to %d: %w", v, v+1, err)
		}
	}
	return tx.Bucket(bktMeta).Put(keySchema, u64be(v))
}

// guard turns a panic or memory fault inside bbolt (which it raises on
// damaged pages) into ErrCorrupt, for the read-only inspection only.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		switch r := recover().(type) {
		case nil:
		case runtime.Error:
			// A Go runtime error says nothing to an operator.
			err = fmt.Errorf("%w: a damaged page stopped the read", ErrCorrupt)
		default:
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	return fn()
}

// classify maps a bbolt open error to ours. head is the start of the file,
// used to tell a damaged bbolt file from a foreign one.
func classify(err error, head []byte) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return ErrInUse
	case errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch):
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	case errors.Is(err, berrors.ErrInvalid):
		if looksLikeBolt(head) {
			return fmt.Errorf("%w: bbolt header but no valid meta page", ErrCorrupt)
		}
		return fmt.Errorf("%w: %v", ErrNotBivouac, err)
	}
	// bbolt reports a file shorter than two pages as a plain error.
	if looksLikeBolt(head) {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return err
}

// looksLikeBolt reports whether head starts with a bbolt meta page: a
// 16-byte page header, then the magic 0xED0CDAED in the machine's byte
// order (little-endian on every platform we build for).
func looksLikeBolt(head []byte) bool {
	return len(head) >= 20 && binary.LittleEndian.Uint32(head[16:20]) == 0xED0CDAED
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Check walks every page of the database and reports the first
// inconsistency as ErrCorrupt. It reads the whole file: for an operator
// command, not for the hot path.
func (s *Bolt) Check() error {
	return s.view(func(tx *bolt.Tx) error {
		var first error
		for err := range tx.Check() {
			if first == nil {
				first = fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
		}
		return first
	})
}
