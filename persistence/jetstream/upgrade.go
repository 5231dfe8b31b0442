package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	js "github.com/nats-io/nats.go/jetstream"
)

// recordsSuffix names the shared bucket of records: "<name>-records".
const recordsSuffix = "records"

// RecordsBucket is the name of the bucket of a store named name
// ("bivouac": "bivouac-records") that holds every kind of record but the
// logs and the sightings, each kind under a key prefix of its own.
func RecordsBucket(name string) string { return name + "-" + recordsSuffix }

// kinds are the records the shared bucket holds: each kind's key prefix,
// and the bucket of its own ("<name>-<old>") it had before 29 Nov 2026. One replicated group for all of them, not ten: every
// group's leader heartbeats its followers every second, whether anything
// is written or not, which was most of an idle cluster's cost.
//
// A late kind kept its bucket a release longer (the node directory,
// server/node's until 29 Nov 2026, evening): that release's nodes already
// kept every other kind in the shared bucket, and marked the store alive
// under aliveKey there, every 3 s; this release marks it under
// aliveAtKey, so a fresh aliveKey is a node of that release still running.
var kinds = []struct {
	kind, old string
	late      bool
	of        func(*Store) **bucket
}{
	{"room", "rooms", false, func(s *Store) **bucket { return &s.rooms }},
	{"player", "players", false, func(s *Store) **bucket { return &s.players }},
	{"campaign", "campaigns", false, func(s *Store) **bucket { return &s.campaigns }},
	{"finished", "finished", false, func(s *Store) **bucket { return &s.finished }},
	{"review", "reviews", false, func(s *Store) **bucket { return &s.reviews }},
	{"alive", "alive", false, func(s *Store) **bucket { return &s.alive }},
	{"sanction", "sanctions", false, func(s *Store) **bucket { return &s.sanctions }},
	{"audit", "audit", false, func(s *Store) **bucket { return &s.audit }},
	{"report", "reports", false, func(s *Store) **bucket { return &s.reports }},
	{"access", "access", false, func(s *Store) **bucket { return &s.access }},
	{"node", "nodes", true, func(s *Store) **bucket { return &s.nodes }},
}

func kindsList() string {
	var names []string
	for _, k := range kinds {
		names = append(names, k.kind)
	}
	return strings.Join(names, ", ")
}

// upgrade moves the records of a store an earlier release made, one
// bucket a kind, into the shared bucket, then deletes the old buckets.
// Every node does it as it opens the store; it is safe to do twice, at
// once on several nodes, and after a node died halfway:
//   - a record is copied only where the shared bucket has none under its
//     key (a create): a copy made before is not made again, and a node
//     done earlier, which serves and writes already, never sees its
//     write replaced by a slower node's copy of the old value;
//   - an old bucket is deleted only once all of it was copied, so
//     whatever is left of the old layout is still whole, and is copied
//     (what is missing) and deleted at the next start.
//
// The release that merged the buckets must not run beside an earlier one:
// an earlier node's writes to a bucket deleted here would be lost. So the
// move waits until the old alive mark, which every earlier node renews
// every 3 s, is oldRunning old, and fails when ctx ends first: upgrade
// by stopping every node, then starting them on the new release
// (docs/OPERATING.md). A late kind's bucket, if there is one, waits for
// the same of the mark the release that kept it wrote (aliveKey in the
// shared bucket).
func upgrade(ctx context.Context, j js.JetStream, name string, s *Store) error {
	if err := earlierStopped(ctx, func(ctx context.Context) (time.Time, error) {
		return oldMark(ctx, j, name+"-alive")
	}, s.now); err != nil {
		return err
	}
	for _, k := range kinds {
		old := name + "-" + k.old
		if k.late {
			if err := lateStopped(ctx, j, old, s); err != nil {
				return err
			}
		}
		if err := Patiently(ctx, func(try context.Context) error {
			return moveBucket(ctx, try, j, old, *k.of(s))
		}); err != nil {
			return fmt.Errorf("bucket %s: %w", old, err)
		}
	}
	return nil
}

// lateStopped waits, if the late kind's bucket old is still there, until
// the nodes of the release that kept it stopped (earlierStopped, on the
// mark they wrote in the shared bucket).
func lateStopped(ctx context.Context, j js.JetStream, old string, s *Store) error {
	var there bool
	if err := Patiently(ctx, func(try context.Context) error {
		_, err := j.Stream(try, "KV_"+old)
		there = err == nil
		if errors.Is(err, js.ErrStreamNotFound) {
			err = nil
		}
		return err
	}); err != nil || !there {
		return err
	}
	return earlierStopped(ctx, func(ctx context.Context) (time.Time, error) {
		return s.mark(ctx, aliveKey)
	}, s.now)
}

// oldRunning is how old the alive mark of an earlier release's bucket
// must be for its nodes to be taken as stopped: they renewed it every 3 s.
const oldRunning = 15 * time.Second

// ErrEarlierRunning: nodes of an earlier release, which kept a bucket a
// kind of record, still run in the cluster.
var ErrEarlierRunning = errors.New("nodes of an earlier release still run (they marked the store alive within 15 s): stop every node of the cluster, then start them on this release")

// earlierStopped waits, until ctx ends, for the alive mark an earlier
// release writes (read by mark: zero if there is none) to be oldRunning
// old.
func earlierStopped(ctx context.Context, mark func(context.Context) (time.Time, error), now func() time.Time) error {
	for {
		try, cancel := context.WithTimeout(ctx, 3*time.Second)
		at, err := mark(try)
		cancel()
		if err == nil && now().Sub(at) >= oldRunning {
			return nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = ErrEarlierRunning
			}
			return err
		case <-time.After(time.Second):
		}
	}
}

// oldMark is the alive mark in the bucket alive (zero: none).
func oldMark(ctx context.Context, j js.JetStream, alive string) (time.Time, error) {
	kv, err := j.KeyValue(ctx, alive)
	if errors.Is(err, js.ErrBucketNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	e, err := kv.Get(ctx, aliveKey)
	if errors.Is(err, js.ErrKeyNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return decodeAlive(e.Value())
}

// moveBucket copies every live key of the bucket old into to, then
// deletes old; nothing if old is gone already. try bounds the look for
// old, ctx the copy (as many round trips as records, each bounded to
// roundTrip: when two nodes move it at once, the one that loses the race
// finds old deleted under its walk and must notice in seconds) and the
// delete after it, bounded to roundTrip too: try, a few seconds, may be
// over by then, and a delete refused for it had the whole move tried
// again, as long again, for as long as ctx lasts.
func moveBucket(ctx, try context.Context, j js.JetStream, old string, to *bucket) error {
	st, err := j.Stream(try, "KV_"+old)
	if errors.Is(err, js.ErrStreamNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	from := kvStream{stream: st}.bucketNamed(old)
	copyCtx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	err = scanKeys(copyCtx, from, ">", func(k string, v []byte) error {
		try, cancel := context.WithTimeout(copyCtx, roundTrip)
		defer cancel()
		_, err := to.Create(try, k, v)
		if errors.Is(err, js.ErrKeyExists) {
			return nil // copied before, or written since by a node done already
		}
		return err
	})
	if err != nil {
		return err
	}
	del, cancelDel := context.WithTimeout(ctx, roundTrip)
	defer cancelDel()
	if err := j.DeleteKeyValue(del, old); err != nil && !errors.Is(err, js.ErrBucketNotFound) && !errors.Is(err, js.ErrStreamNotFound) {
		return err
	}
	return nil
}

// bucketNamed is the whole of a bucket known only by its stream (a scan's
// source, with no KV handle).
func (k kvStream) bucketNamed(name string) *bucket {
	return &bucket{kvStream: k, prefix: "$KV." + name + "."}
}
