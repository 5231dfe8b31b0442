package jetstream

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"bivouac/persistence"
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

	rooms, players, campaigns, finished, reviews, alive js.KeyValue

	tips tipCache
}

var _ persistence.Store = (*Store)(nil)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Open binds a store to nc's JetStream, creating the log stream and the
// buckets on first use. The caller keeps nc and closes it after Close.
func Open(nc *nats.Conn, opts Options) (*Store, error) {
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
	s := &Store{name: opts.Name, js: j, timeout: opts.Timeout, now: func() time.Time { return opts.Clock().UTC() }}
	ctx, cancel := context.WithTimeout(context.Background(), 4*opts.Timeout)
	defer cancel()
	s.logs, err = j.CreateOrUpdateStream(ctx, js.StreamConfig{
		Name:        opts.Name + "-logs",
		Description: "Bivouac: every room's action log, one subject per room",
		Subjects:    []string{opts.Name + ".log.>"},
		Storage:     js.FileStorage,
		Replicas:    opts.Replicas,
		DenyDelete:  true, // entries go only with their whole room (a purge)
	})
	if err != nil {
		return nil, fmt.Errorf("persistence/jetstream: log stream: %w", err)
	}
	for _, b := range []struct {
		kv   *js.KeyValue
		name string
		what string
	}{
		{&s.rooms, "rooms", "room directory: room ID → record"},
		{&s.players, "players", "profiles: fingerprint → profile"},
		{&s.campaigns, "campaigns", "campaign ID → campaign"},
		{&s.finished, "finished", "index: fingerprint.room ID → when the room finished"},
		{&s.reviews, "reviews", "room ID → the coach's review of a finished game"},
		{&s.alive, "alive", "the last moment the server was known to run"},
	} {
		if *b.kv, err = bucket(ctx, j, js.KeyValueConfig{
			Bucket: opts.Name + "-" + b.name, Description: "Bivouac " + b.what,
			Replicas: opts.Replicas, Storage: js.FileStorage, History: 1,
		}); err != nil {
			return nil, fmt.Errorf("persistence/jetstream: bucket %s: %w", b.name, err)
		}
	}
	return s, nil
}

// bucket opens a KV bucket, creating it if needed, with direct gets off:
// a direct get may be answered by a replica that has not applied the
// latest write yet, and a store must read its own writes.
func bucket(ctx context.Context, j js.JetStream, cfg js.KeyValueConfig) (js.KeyValue, error) {
	kv, err := j.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, js.ErrBucketNotFound) {
		kv, err = j.CreateKeyValue(ctx, cfg)
		if errors.Is(err, js.ErrBucketExists) { // another node made it first
			kv, err = j.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, err
	}
	st, err := j.Stream(ctx, "KV_"+cfg.Bucket)
	if err != nil {
		return nil, err
	}
	if sc := st.CachedInfo().Config; sc.AllowDirect {
		sc.AllowDirect = false
		if _, err := j.UpdateStream(ctx, sc); err != nil {
			return nil, err
		}
		return j.KeyValue(ctx, cfg.Bucket) // binds again, now without direct gets
	}
	return kv, nil
}

// Close forgets the store's caches. The connection stays the caller's.
func (s *Store) Close() error {
	s.tips.clear()
	return nil
}

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.timeout)
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
func get[T any](ctx context.Context, kv js.KeyValue, k string) (v T, rev uint64, found bool, err error) {
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

// put writes v over revision rev (0: the key must not exist).
func put[T any](ctx context.Context, kv js.KeyValue, k string, v T, rev uint64) error {
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

// update is a compare-and-set loop on one record: read it (zero value and
// found false if absent), let change modify it, write it over the
// revision read; on a lost race, start again from a fresh read. change
// returning an error stops the loop with nothing written.
func update[T any](s *Store, kv js.KeyValue, k string, change func(v *T, found bool) error) (T, error) {
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

// scan calls fn with every live entry of kv whose key matches pattern (a
// KV key filter, > and * allowed), in the stream's order.
func scan(ctx context.Context, kv js.KeyValue, pattern string, fn func(js.KeyValueEntry) error) error {
	w, err := kv.Watch(ctx, pattern, js.IgnoreDeletes())
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return ctx.Err()
			}
			if e == nil { // the initial values are all delivered
				return nil
			}
			if err := fn(e); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
