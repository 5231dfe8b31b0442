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
	{"report", "reports"}, {"access", "access"}, {"node", "nodes"},
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
	// Those releases marked the store alive under "last".
	before["alive.last"] = before["alive.at"]
	delete(before, "alive.at")

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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	must(s.PutNode(ctx, "n1", "ssh -p 2222 n1.example.org"))
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
	nodes     []string
}

func readAll(t *testing.T, s *jetstream.Store) everything {
	t.Helper()
	e := everything{contents: storetest.Read(t, s)}
	var errs [9]error
	e.sanctions, errs[0] = s.Sanctions()
	e.audit, errs[1] = s.Audit(0)
	e.reports, errs[2] = s.Reports()
	e.invites, errs[3] = s.Invites()
	e.admitted, errs[4] = s.AdmittedKeys()
	e.lists, errs[5] = s.KeyListEntries()
	e.sighting, errs[6] = s.Sighting("SHA256:troll")
	e.alive, errs[7] = s.LastAlive()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e.nodes, errs[8] = s.Nodes(ctx)
	if err := errors.Join(errs[:]...); err != nil {
		t.Fatal(err)
	}
	if len(e.sanctions) != 1 || len(e.audit) != 1 || len(e.reports) != 1 || len(e.invites) != 1 ||
		len(e.admitted) != 1 || len(e.lists) != 1 || len(e.sighting.Names) != 1 || e.alive.IsZero() || len(e.nodes) != 1 ||
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

// The release before this one kept every record in the shared bucket but
// the node directory, which had a bucket of its own ("<name>-nodes"), and
// marked the store alive under "last". A cluster of it opened by this
// one keeps every node's line and every other record, and the room
// leases' bucket (cluster/lease) as it was: from two nodes at once, after
// a node killed halfway through the move (one line copied, with a newer
// write since that the move must not undo), and once more when done.
func TestUpgradeMovesTheNodeDirectory(t *testing.T) {
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c, 0)
	opts := jetstream.Options{Name: "nd"}
	s := open(t, nc, opts)
	fillAll(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.DeleteNode(ctx, "n1"); err != nil { // fillAll's: this layout keeps lines elsewhere
		t.Fatal(err)
	}
	j, _ := js.New(nc)
	records, err := j.KeyValue(ctx, jetstream.RecordsBucket("nd"))
	if err != nil {
		t.Fatal(err)
	}
	stopped := binary.BigEndian.AppendUint64(nil, uint64(time.Now().Add(-time.Minute).UnixNano()))
	if _, err := records.Put(ctx, "alive.last", stopped); err != nil {
		t.Fatal(err)
	}
	if err := records.Purge(ctx, "alive.at"); err != nil {
		t.Fatal(err)
	}
	before := rawRecords(t, nc, "nd")
	lines := map[string]string{"n1": "ssh -p 2222 n1.example.org", "n2": "ssh -p 2223 n2.example.org", "n3": "ssh n3.example.org"}
	old, err := j.CreateKeyValue(ctx, js.KeyValueConfig{Bucket: "nd-nodes", History: 1})
	if err != nil {
		t.Fatal(err)
	}
	for n, line := range lines {
		if _, err := old.PutString(ctx, n, line); err != nil {
			t.Fatal(err)
		}
	}
	leases, err := j.CreateKeyValue(ctx, js.KeyValueConfig{Bucket: "nd-leases", History: 1})
	if err != nil {
		t.Fatal(err)
	}
	leaseRev, err := leases.PutString(ctx, "K7QX", `{"node":"n2","term":7}`)
	if err != nil {
		t.Fatal(err)
	}
	// Halfway: n1 copied, then rewritten by a node done with the move.
	if _, err := records.PutString(ctx, "node.n1", "ssh -p 2224 n1.example.org"); err != nil {
		t.Fatal(err)
	}
	lines["n1"] = "ssh -p 2224 n1.example.org"
	s.Close()

	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { open(t, connect(t, c, i), opts) })
	}
	wg.Wait()
	s = open(t, connect(t, c, 1), opts)

	after := rawRecords(t, nc, "nd")
	for n, line := range lines {
		if got := string(after["node."+n]); got != line {
			t.Errorf("node %s's line after the move: %q; want %q", n, got, line)
		}
		if got, err := s.Node(ctx, n); err != nil || got != line {
			t.Errorf("Node(%s) = %q, %v; want %q", n, got, err, line)
		}
		delete(after, "node."+n)
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("the other records changed in the move:\nbefore %q\nafter  %q", slicesOfKeys(before), slicesOfKeys(after))
	}
	if got, err := s.Nodes(ctx); err != nil || !reflect.DeepEqual(got, []string{"n1", "n2", "n3"}) {
		t.Errorf("Nodes after the move: %q, %v", got, err)
	}
	if _, err := j.KeyValue(ctx, "nd-nodes"); !errors.Is(err, js.ErrBucketNotFound) {
		t.Errorf("bucket nd-nodes after the move: %v; want it gone", err)
	}
	if e, err := leases.Get(ctx, "K7QX"); err != nil || e.Revision() != leaseRev || string(e.Value()) != `{"node":"n2","term":7}` {
		t.Errorf("the lease after the move: %v; want revision %d kept", err, leaseRev)
	}
	if at, err := s.LastAlive(); err != nil || at.UnixNano() != int64(binary.BigEndian.Uint64(stopped)) {
		t.Errorf("LastAlive after the move: %v, %v; want the earlier release's mark", at, err)
	}
	// This release's marks are newer, and LastAlive reads them.
	now := time.Now().Truncate(time.Millisecond)
	if err := s.MarkAlive(now); err != nil {
		t.Fatal(err)
	}
	if at, err := s.LastAlive(); err != nil || !at.Equal(now) {
		t.Errorf("LastAlive after a mark: %v, %v; want %v", at, err, now)
	}
	if err := s.DeleteNode(ctx, "n3"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Node(ctx, "n3"); !errors.Is(err, persistence.ErrNotFound) {
		t.Errorf("Node(n3) after DeleteNode: %v; want ErrNotFound", err)
	}
}

// The node directory's bucket is moved only once the nodes of the
// release before have stopped (their alive mark, renewed every 3 s, 15 s
// old): one still running would lose its line, and its drains their
// peers. Without that bucket, its mark holds nothing up.
func TestUpgradeWaitsForTheReleaseBeforeToStop(t *testing.T) {
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c, 0)
	s := open(t, nc, jetstream.Options{Name: "rb"})
	s.Close()
	j, _ := js.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	records, err := j.KeyValue(ctx, jetstream.RecordsBucket("rb"))
	if err != nil {
		t.Fatal(err)
	}
	mark := func(at time.Time) {
		t.Helper()
		if _, err := records.Put(ctx, "alive.last", binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))); err != nil {
			t.Fatal(err)
		}
	}
	mark(time.Now())
	s = open(t, nc, jetstream.Options{Name: "rb"}) // no node bucket: nothing to wait for
	s.Close()
	old, err := j.CreateKeyValue(ctx, js.KeyValueConfig{Bucket: "rb-nodes", History: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.PutString(ctx, "n1", "ssh n1.example.org"); err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer cancelShort()
	if _, err := jetstream.Open(short, nc, jetstream.Options{Name: "rb"}); !errors.Is(err, jetstream.ErrEarlierRunning) {
		t.Fatalf("Open beside a running node of the release before: %v; want ErrEarlierRunning", err)
	}
	if e, err := old.Get(ctx, "n1"); err != nil || string(e.Value()) != "ssh n1.example.org" {
		t.Fatalf("the node bucket after the refusal: %v; want it kept", err)
	}
	mark(time.Now().Add(-time.Minute))
	s = open(t, nc, jetstream.Options{Name: "rb"})
	if got, err := s.Node(ctx, "n1"); err != nil || got != "ssh n1.example.org" {
		t.Fatalf("Node(n1) after the move: %q, %v", got, err)
	}
}
