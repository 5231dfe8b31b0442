package jetstream_test

import (
	"context"
	"encoding/binary"
	"errors"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/persistence/jetstream"
	"github.com/bivouac-ssh/bivouac/persistence/storetest"
)

// oldBuckets is the layout of the releases before the records were
// merged: a bucket "<name>-<old>" a kind, keyed as the records bucket's
// keys "<kind>.<key>" are after the prefix. Spelled out here, not taken
// from the package: it is what those releases left on disk.
var oldBuckets = []struct{ kind, old string }{
	{"room", "rooms"}, {"player", "players"}, {"campaign", "campaigns"}, {"finished", "finished"},
	{"review", "reviews"}, {"alive", "alive"}, {"sanction", "sanctions"}, {"audit", "audit"},
	{"report", "reports"}, {"access", "access"},
}

// A cluster an earlier release made, a bucket a kind of record, opened by
// this one keeps everything: tables and their hands and chat (the logs),
// profiles with friends and notification settings, campaigns, reviews,
// bans, audit, reports, invites, key lists and the alive mark. The move
// is tried here as a node killed halfway through it leaves it (the first
// kinds moved and their buckets gone, one kind half copied), by two nodes
// at once, and once more after it is done.
func TestUpgradeFromABucketPerKind(t *testing.T) {
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c, 0)
	opts := jetstream.Options{Name: "up"}
	s := open(t, nc, opts)
	fillAll(t, s)
	before, beforeAPI := rawRecords(t, nc, "up"), readAll(t, s)
	s.Close()

	j, _ := js.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The old layout: every record in its kind's bucket, no records bucket.
	byKind := map[string]map[string][]byte{}
	for k, v := range before {
		kind, rest, _ := strings.Cut(k, ".")
		if byKind[kind] == nil {
			byKind[kind] = map[string][]byte{}
		}
		byKind[kind][rest] = v
	}
	if err := j.DeleteKeyValue(ctx, jetstream.RecordsBucket("up")); err != nil {
		t.Fatal(err)
	}
	for _, b := range oldBuckets {
		kv, err := j.CreateKeyValue(ctx, js.KeyValueConfig{Bucket: "up-" + b.old, History: 1, Storage: js.FileStorage})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range byKind[b.kind] {
			if _, err := kv.Put(ctx, k, v); err != nil {
				t.Fatal(err)
			}
		}
		delete(byKind, b.kind)
	}
	if len(byKind) != 0 {
		t.Fatalf("records of kinds the old layout had no bucket for: %v", slicesOfKeys(byKind))
	}
	// Halfway: the first three kinds moved (their buckets deleted), the
	// fourth copied in part.
	records, err := j.CreateKeyValue(ctx, js.KeyValueConfig{Bucket: jetstream.RecordsBucket("up"), History: 1, Storage: js.FileStorage})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range oldBuckets[:4] {
		n := 0
		for k, v := range before {
			if strings.HasPrefix(k, b.kind+".") && (i < 3 || n%2 == 0) {
				if _, err := records.Create(ctx, k, v); err != nil {
					t.Fatal(err)
				}
			}
			n++
		}
		if i < 3 {
			if err := j.DeleteKeyValue(ctx, "up-"+b.old); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Two nodes open it at once, then one again.
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { open(t, connect(t, c, i), opts) })
	}
	wg.Wait()
	s = open(t, connect(t, c, 0), opts)

	if after := rawRecords(t, nc, "up"); !reflect.DeepEqual(after, before) {
		t.Errorf("the records moved are not the records kept:\nbefore %q\nafter  %q", slicesOfKeys(before), slicesOfKeys(after))
	}
	if after := readAll(t, s); !reflect.DeepEqual(after, beforeAPI) {
		t.Errorf("read after the move:\n%+v\nbefore:\n%+v", after, beforeAPI)
	}
	beforeAPI.contents.Check(t, s)
	for _, b := range oldBuckets {
		if _, err := j.KeyValue(ctx, "up-"+b.old); !errors.Is(err, js.ErrBucketNotFound) {
			t.Errorf("bucket up-%s after the move: %v; want it gone", b.old, err)
		}
	}
}

// fillAll stores one of every kind of record.
func fillAll(t *testing.T, s *jetstream.Store) {
	t.Helper()
	storetest.Fill(t, s)
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC) // long enough ago for the move (see the next test)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.UpdatePlayer("SHA256:ann", func(p *persistence.Profile) error {
		p.Friends = []persistence.Relation{{ID: "SHA256:bob", Name: "bob", Since: at}}
		p.Lang = "pl"
		p.Notify = persistence.NotifySettings{URL: "https://example.org/hook", Zone: "Europe/Warsaw"}
		return nil
	})
	must(err)
	must(s.PutSanction(persistence.Sanction{Kind: persistence.SanctionBan, Subject: "SHA256:troll", Name: "troll", At: at}))
	_, err = s.AppendAudit(persistence.AuditEntry{At: at, Action: "ban", Subject: "SHA256:troll"})
	must(err)
	_, err = s.FileReport(persistence.Report{Reporter: "SHA256:ann", Subject: "SHA256:troll", At: at})
	must(err)
	must(s.CreateInvite(persistence.Invite{ID: "inv1", Hash: "h", By: "SHA256:admin", Uses: 2, Created: at}))
	must(s.AdmitKey(persistence.AdmittedKey{Fingerprint: "SHA256:carl", Invite: "inv1", At: at}))
	must(s.PutKeyListEntry(persistence.KeyListEntry{List: persistence.ListAllow, Fingerprint: "SHA256:dora", By: "SHA256:admin", At: at}))
	must(s.NoteSightings([]persistence.Sighting{{ID: "SHA256:troll", First: at, Last: at,
		Names: []persistence.SeenName{{Name: "troll", Fold: "troll", First: at, Last: at}}}}))
	must(s.MarkAlive(at))
}

// everything is what fillAll stored, read through the store.
type everything struct {
	contents  storetest.Contents
	sanctions []persistence.Sanction
	audit     []persistence.AuditEntry
	reports   []persistence.Report
	invites   []persistence.Invite
	admitted  []persistence.AdmittedKey
	lists     []persistence.KeyListEntry
	sighting  persistence.Sighting
	alive     time.Time
}

func readAll(t *testing.T, s *jetstream.Store) everything {
	t.Helper()
	e := everything{contents: storetest.Read(t, s)}
	var errs [8]error
	e.sanctions, errs[0] = s.Sanctions()
	e.audit, errs[1] = s.Audit(0)
	e.reports, errs[2] = s.Reports()
	e.invites, errs[3] = s.Invites()
	e.admitted, errs[4] = s.AdmittedKeys()
	e.lists, errs[5] = s.KeyListEntries()
	e.sighting, errs[6] = s.Sighting("SHA256:troll")
	e.alive, errs[7] = s.LastAlive()
	if err := errors.Join(errs[:]...); err != nil {
		t.Fatal(err)
	}
	if len(e.sanctions) != 1 || len(e.audit) != 1 || len(e.reports) != 1 || len(e.invites) != 1 ||
		len(e.admitted) != 1 || len(e.lists) != 1 || len(e.sighting.Names) != 1 || e.alive.IsZero() ||
		len(e.contents.Ann.Friends) != 1 || e.contents.Ann.Notify.URL == "" {
		t.Fatalf("records missing: %+v", e)
	}
	return e
}

// rawRecords is every live key of the store's records bucket and its value.
func rawRecords(t *testing.T, nc *nats.Conn, name string) map[string][]byte {
	t.Helper()
	j, _ := js.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv, err := j.KeyValue(ctx, jetstream.RecordsBucket(name))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kv.Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, k := range keys {
		e, err := kv.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = e.Value()
	}
	return out
}

func slicesOfKeys[V any](m map[string]V) []string {
	var out []string
	for k := range maps.Keys(m) {
		out = append(out, k)
	}
	return out
}

// The move waits for the nodes of the earlier release to stop (their
// alive mark, renewed every 3 s, 15 s old), and fails, saying so, when
// they go on: a bucket moved and deleted under a running earlier node
// would lose its writes.
func TestUpgradeWaitsForTheEarlierReleaseToStop(t *testing.T) {
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c, 0)
	j, _ := js.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	alive, err := j.CreateKeyValue(ctx, js.KeyValueConfig{Bucket: "run-alive", History: 1, Storage: js.FileStorage})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alive.Put(ctx, "last", binary.BigEndian.AppendUint64(nil, uint64(time.Now().UnixNano()))); err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer cancelShort()
	if _, err := jetstream.Open(short, nc, jetstream.Options{Name: "run"}); !errors.Is(err, jetstream.ErrEarlierRunning) {
		t.Fatalf("Open beside a running earlier release: %v; want ErrEarlierRunning", err)
	}
	if _, err := j.KeyValue(ctx, "run-alive"); err != nil {
		t.Fatalf("the earlier release's bucket after the refusal: %v; want it kept", err)
	}
	if _, err := alive.Put(ctx, "last", binary.BigEndian.AppendUint64(nil, uint64(time.Now().Add(-time.Minute).UnixNano()))); err != nil {
		t.Fatal(err)
	}
	s := open(t, nc, jetstream.Options{Name: "run"})
	if at, err := s.LastAlive(); err != nil || time.Since(at) < time.Minute {
		t.Fatalf("the alive mark moved: %v, %v", at, err)
	}
}
