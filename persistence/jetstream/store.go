package jetstream

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// Options configures Open. The zero value opens a single-replica store
// named "bivouac".
type Options struct {
	// Name prefixes the stream, the buckets and the log subjects, so
	// several stores can share one NATS account (tests do). Letters,
	// digits, - and _ only. Default "bivouac".
	Name string
	// Replicas is how many nodes keep each stream and bucket: min(3,
	// cluster size). Default 1. It applies when the assets are created.
	Replicas int
	// Timeout bounds each call's round trips to the cluster. Default 5 s.
	Timeout time.Duration
	// Clock stamps Created/Updated and history times. Default time.Now.
	Clock func() time.Time
}

// Store is a persistence.Store on JetStream. Its methods are safe for
// concurrent use.
type Store struct {
	name    string
	js      js.JetStream
	logs    js.Stream
	timeout time.Duration
	now     func() time.Time

	rooms, players, campaigns, finished, reviews, alive *bucket

	sanctions, audit, reports *bucket // moderation.go
	access                    *bucket // invites and the keys they admitted (access.go)
	nodes                     *bucket // the node directory (nodes.go)
	sightings                 *bucket // what was seen of each player (sightings.go)

	tips *tipCache // shared with the copies WithTimeout makes
}

// WithTimeout is the same store with each call bounded to d instead: a
// node taking rooms over while the cluster elects leaders asks in short
// tries (a request to a group without a leader is never answered).
func (s *Store) WithTimeout(d time.Duration) *Store {
	c := *s
	c.timeout = d
	return &c
}

var _ persistence.Store = (*Store)(nil)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Open binds a store to nc's JetStream, creating the log stream and the
// buckets on first use. The caller keeps nc and closes it after Close.
//
// Open waits, until ctx ends, for each stream and bucket to answer: after
// a whole cluster restarts, each replicated group elects its leader in its
// own time (seconds to tens of seconds).
func Open(ctx context.Context, nc *nats.Conn, opts Options) (*Store, error) {
	if opts.Name == "" {
		opts.Name = "bivouac"
	}
	if !validName.MatchString(opts.Name) {
		return nil, fmt.Errorf("persistence/jetstream: store name %q: letters, digits, - and _ only", opts.Name)
	}
	if opts.Replicas <= 0 {
		opts.Replicas = 1
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	j, err := js.New(nc)
	if err != nil {
		return nil, err
	}
	s := &Store{name: opts.Name, js: j, timeout: opts.Timeout, now: func() time.Time { return opts.Clock().UTC() }, tips: &tipCache{}}
	// The assets are made in parallel: in a cluster each is a replicated
	// group of its own, and creating one waits for its leader.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	do := func(f func(ctx context.Context) error) {
		wg.Go(func() {
			if err := Patiently(ctx, f); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	do(func(ctx context.Context) error {
		var err error
		s.logs, err = j.CreateOrUpdateStream(ctx, js.StreamConfig{
			Name:        opts.Name + "-logs",
			Description: "Bivouac: every room's action log, one subject per room",
			Subjects:    []string{opts.Name + ".log.>"},
			Storage:     js.FileStorage,
			Replicas:    opts.Replicas,
			DenyDelete:  true, // entries go only with their whole room (a purge)
		})
		if err != nil {
			return fmt.Errorf("log stream: %w", err)
		}
		return nil
	})
	var records, sightings kvStream
	do(func(ctx context.Context) error {
		var err error
		if records, err = openKV(ctx, j, js.KeyValueConfig{
			Bucket: opts.Name + "-" + recordsSuffix, Description: "Bivouac's records, one key prefix a kind: " + kindsList(),
			Replicas: opts.Replicas, Storage: js.FileStorage, History: 1,
		}, 0); err != nil {
			return fmt.Errorf("bucket %s: %w", recordsSuffix, err)
		}
		return nil
	})
	do(func(ctx context.Context) error {
		var err error
		if sightings, err = openKV(ctx, j, js.KeyValueConfig{
			Bucket: opts.Name + "-sightings", Description: "Bivouac id.identity → names, addresses and key seen; name.fold → identities",
			Replicas: opts.Replicas, Storage: js.FileStorage, History: 1,
		}, MaxSightingMessages); err != nil {
			return fmt.Errorf("bucket sightings: %w", err)
		}
		return nil
	})
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("persistence/jetstream: %w", err)
	}
	s.sightings = sightings.bucket("")
	for _, k := range kinds {
		*k.of(s) = records.bucket(k.kind)
	}
	if err := upgrade(ctx, j, opts.Name, s); err != nil {
		return nil, fmt.Errorf("persistence/jetstream: moving the records of an earlier release: %w", err)
	}
	return s, nil
}

// Patiently runs f until it succeeds or ctx ends, each try bounded to a
// few seconds: while a replicated group has no leader, requests to it go
// unanswered or are refused as temporarily unavailable.
func Patiently(ctx context.Context, f func(ctx context.Context) error) error {
	for {
		try, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := f(try)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// kvStream is a KV bucket and the stream under it, which scans walk.
type kvStream struct {
	kv     js.KeyValue
	stream js.Stream
}

// bucket is the records of one kind: a bucket of its own (kind ""), or
// the keys "<kind>.…" of the shared records bucket (kinds, upgrade.go).
type bucket struct {
	kvStream
	kind   string
	prefix string // of its keys' subjects: "$KV.<bucket>.<kind>."
}

func (k kvStream) bucket(kind string) *bucket {
	b := &bucket{kvStream: k, kind: kind, prefix: "$KV." + k.kv.Bucket() + "."}
	if kind != "" {
		b.prefix += kind + "."
	}
	return b
}

// full is the key k of b in its KV bucket.
func (b *bucket) full(k string) string {
	if b.kind == "" {
		return k
	}
	return b.kind + "." + k
}

// short is a key of b's KV bucket as b names it (full undone).
func (b *bucket) short(k string) string {
	if b.kind == "" {
		return k
	}
	return strings.TrimPrefix(k, b.kind+".")
}

func (b *bucket) Get(ctx context.Context, k string) (js.KeyValueEntry, error) {
	return b.kv.Get(ctx, b.full(k))
}

func (b *bucket) Put(ctx context.Context, k string, v []byte) (uint64, error) {
	return b.kv.Put(ctx, b.full(k), v)
}

func (b *bucket) Create(ctx context.Context, k string, v []byte) (uint64, error) {
	return b.kv.Create(ctx, b.full(k), v)
}

func (b *bucket) Update(ctx context.Context, k string, v []byte, rev uint64) (uint64, error) {
	return b.kv.Update(ctx, b.full(k), v, rev)
}

func (b *bucket) Delete(ctx context.Context, k string, opts ...js.KVDeleteOpt) error {
	return b.kv.Delete(ctx, b.full(k), opts...)
}

func (b *bucket) Purge(ctx context.Context, k string, opts ...js.KVDeleteOpt) error {
	return b.kv.Purge(ctx, b.full(k), opts...)
}

// openKV opens a KV bucket, creating it if needed, with direct gets
// off: a direct get may be answered by a replica that has not applied the
// latest write yet, and a store must read its own writes.
//
// The bucket is bound only once its stream has direct gets off. A handle
// keeps the setting it was bound with, and nodes open the store at once:
// one bound while another node's new bucket still had them on would ask
// for direct gets for good, which nobody answers once they are off (every
// read "no responders"; that node's rooms never reached the directory).
//
// With maxMsgs > 0 the stream keeps at most that many messages, the
// oldest going first: a bucket of records that may be forgotten.
func openKV(ctx context.Context, j js.JetStream, cfg js.KeyValueConfig, maxMsgs int64) (kvStream, error) {
	_, err := j.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, js.ErrBucketNotFound) {
		_, err = j.CreateKeyValue(ctx, cfg)
		if errors.Is(err, js.ErrBucketExists) { // another node made it first
			err = nil
		}
	}
	if err != nil {
		return kvStream{}, err
	}
	st, err := j.Stream(ctx, "KV_"+cfg.Bucket)
	if err != nil {
		return kvStream{}, err
	}
	if sc := st.CachedInfo().Config; sc.AllowDirect || maxMsgs > 0 && (sc.MaxMsgs != maxMsgs || sc.Discard != js.DiscardOld) {
		sc.AllowDirect = false
		if maxMsgs > 0 {
			sc.MaxMsgs, sc.Discard = maxMsgs, js.DiscardOld
		}
		if st, err = j.UpdateStream(ctx, sc); err != nil {
			return kvStream{}, err
		}
	}
	kv, err := j.KeyValue(ctx, cfg.Bucket)
	if err != nil {
		return kvStream{}, err
	}
	return kvStream{kv: kv, stream: st}, nil
}

// Close forgets the store's caches. The connection stays the caller's.
func (s *Store) Close() error {
	s.tips.clear()
	return nil
}

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.timeout)
}

// scanCtx bounds a walk over a whole bucket: one round trip per record.
func (s *Store) scanCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*s.timeout)
}

// key turns an ID or fingerprint into a KV key or subject token: IDs may
// hold any byte but NUL, keys only letters, digits and -_=./.
func key(id string) string { return base64.RawURLEncoding.EncodeToString([]byte(id)) }

func unkey(k string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(k)
	return string(b), err
}

// maxAttempts bounds compare-and-set retries: each retry means another
// writer succeeded, so this many in a row is contention worth reporting.
const maxAttempts = 1000

var errContention = errors.New("persistence/jetstream: too many concurrent writers on one record")

// conflict reports whether a write lost a compare-and-set race.
func conflict(err error) bool {
	return errors.Is(err, js.ErrKeyExists) || errors.Is(err, js.ErrKeyRevisionMismatch)
}

// get reads and decodes one record; found is false for no record.
func get[T any](ctx context.Context, kv *bucket, k string) (v T, rev uint64, found bool, err error) {
	e, err := kv.Get(ctx, k)
	if errors.Is(err, js.ErrKeyNotFound) {
		return v, 0, false, nil
	}
	if err != nil {
		return v, 0, false, err
	}
	v, err = persistence.Decode[T](e.Value())
	return v, e.Revision(), true, err
}

// one reads the record stored under id in b: ErrInvalid for an id no
// store accepts, ErrNotFound if there is none. kind names the id in errors
// ("room id", "fingerprint"...).
func one[T any](ctx context.Context, b *bucket, kind, id string) (T, error) {
	if err := persistence.CheckKey(kind, id); err != nil {
		var zero T
		return zero, err
	}
	v, _, found, err := get[T](ctx, b, key(id))
	if err == nil && !found {
		err = fmt.Errorf("%s %q: %w", kind, id, persistence.ErrNotFound)
	}
	return v, err
}

// put writes v over revision rev (0: the key must not exist).
func put[T any](ctx context.Context, kv *bucket, k string, v T, rev uint64) error {
	raw, err := persistence.Encode(v)
	if err != nil {
		return err
	}
	if rev == 0 {
		_, err = kv.Create(ctx, k, raw)
	} else {
		_, err = kv.Update(ctx, k, raw, rev)
	}
	return err
}

// overwrite writes v under k whatever is there: for records a single
// writer owns, or whose last write rightly wins.
func overwrite[T any](ctx context.Context, kv *bucket, k string, v T) error {
	raw, err := persistence.Encode(v)
	if err != nil {
		return err
	}
	_, err = kv.Put(ctx, k, raw)
	return err
}

// update is a compare-and-set loop on one record: read it (zero value and
// found false if absent), let change modify it, write it over the
// revision read; on a lost race, start again from a fresh read. change
// returning an error stops the loop with nothing written.
func update[T any](s *Store, kv *bucket, k string, change func(v *T, found bool) error) (T, error) {
	for range maxAttempts {
		ctx, cancel := s.ctx()
		v, rev, found, err := get[T](ctx, kv, k)
		if err == nil {
			if err = change(&v, found); err != nil {
				cancel()
				return v, err
			}
			err = put(ctx, kv, k, v, rev)
		}
		cancel()
		if err == nil {
			return v, nil
		}
		if !conflict(err) {
			var zero T
			return zero, err
		}
	}
	var zero T
	return zero, errContention
}

// scan calls fn with the value of every live key of b matching pattern
// (a key filter: * and > allowed), in no particular order.
//
// It walks the bucket's stream on its leader, one message per round trip
// ("next message on these subjects from sequence x"), rather than watching
// it: a watcher is a consumer JetStream may place on a replica that lags,
// and a store must read its own writes. A key rewritten during the walk is
// met again at the end of the stream; the last value read counts.
func scan(ctx context.Context, b *bucket, pattern string, fn func(value []byte) error) error {
	return scanKeys(ctx, b, pattern, func(_ string, v []byte) error { return fn(v) })
}

// roundTrip bounds each request of a long walk (a scan, the move of an
// earlier release's bucket), which ctx as a whole may allow minutes: a
// request whose answer is lost (its stream deleted meanwhile by another
// node, a leader changing) fails in seconds and is tried again, instead
// of waiting out the whole walk's time.
const roundTrip = 5 * time.Second

// msgFrom is the first message on subject from sequence number from on:
// one request of a walk, bounded by roundTrip.
func msgFrom(ctx context.Context, st js.Stream, from uint64, subject string) (*js.RawStreamMsg, error) {
	try, cancel := context.WithTimeout(ctx, roundTrip)
	defer cancel()
	return st.GetMsg(try, from, js.WithGetMsgSubject(subject))
}

// scanKeys is scan, with each value's key (as b names it).
func scanKeys(ctx context.Context, b *bucket, pattern string, fn func(k string, value []byte) error) error {
	latest := map[string][]byte{}
	for from := uint64(1); ; {
		m, err := msgFrom(ctx, b.stream, from, b.prefix+pattern)
		if errors.Is(err, js.ErrMsgNotFound) {
			break
		}
		if err != nil {
			return err
		}
		from = m.Sequence + 1
		switch m.Header.Get("KV-Operation") {
		case "DEL", "PURGE":
			delete(latest, m.Subject)
		default:
			latest[m.Subject] = m.Data
		}
	}
	for subj, v := range latest {
		if err := fn(strings.TrimPrefix(subj, b.prefix), v); err != nil {
			return err
		}
	}
	return nil
}
