package main

// -drains D: a rolling upgrade of the cluster, D times a node drained
// (`bivouac drain`) and started again, one after another. Each drain's own
// report says how long each table stood between its close on the drained
// node and its serving on another; the harness checks, through another
// node, that each of those tables runs elsewhere with every move its log
// held before the drain.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/cluster/lease"
	"github.com/bivouac-ssh/bivouac/persistence"
	bivouacjs "github.com/bivouac-ssh/bivouac/persistence/jetstream"
)

// drainResult is what the drains measured.
type drainResult struct {
	drains   int
	perRoom  []time.Duration // a table's close on the drained node → serving on another
	perDrain []time.Duration // `bivouac drain` started → the node's process gone
	expected int             // unfinished tables the drained nodes ran
	handed   int             // of which another node ran after the drain
	lost     int             // moves a table's log held before its drain and not after
	told     int             // sessions sent to another node
	notes    []string
}

var (
	handedRe = regexp.MustCompile(`^Table (\S+): now on node (\S+) \(.*\), after (\d+) ms$`)
	toldRe   = regexp.MustCompile(`(\d+) sessions? sent to another node`)
)

// drainNodes drains the cluster's nodes in turn, o.drains times, each
// started again (the upgrade) and caught up before the next.
func drainNodes(ctx context.Context, o loadOpts, nodes []*clusterNodeProc) *drainResult {
	dr := &drainResult{}
	for k := range o.drains {
		if ctx.Err() != nil {
			break
		}
		victim, witness := nodes[k%len(nodes)], nodes[(k+1)%len(nodes)]
		before, err := tablesOf(ctx, witness, true)
		if err != nil {
			dr.notes = append(dr.notes, fmt.Sprintf("drain %d: tables not read: %v", k+1, err))
			continue
		}
		mine := map[string]tableState{}
		for code, st := range before {
			if st.node == victim.id {
				mine[code] = st
			}
		}
		began := time.Now()
		out, err := exec.CommandContext(ctx, o.bivouac, "drain", "--lang", "en", "--data", victim.dir).CombinedOutput()
		if err != nil {
			dr.notes = append(dr.notes, fmt.Sprintf("drain %d of %s: %v: %s", k+1, victim.id, err, strings.TrimSpace(string(out))))
			break
		}
		select {
		case <-victim.done:
		case <-time.After(30 * time.Second):
			dr.notes = append(dr.notes, fmt.Sprintf("drain %d: %s still runs 30 s after its drain", k+1, victim.id))
			victim.stop()
		}
		dr.perDrain = append(dr.perDrain, time.Since(began))
		dr.drains++
		dr.expected += len(mine)
		dr.readDrain(string(out))
		dr.check(ctx, k, witness, victim.id, mine)
		o.logf("drain %d: %s handed %d tables over in %v", k+1, victim.id, len(mine), time.Since(began).Round(time.Millisecond))
		if err := restartNode(ctx, o, victim); err != nil {
			dr.notes = append(dr.notes, fmt.Sprintf("drain %d: %s not back: %v", k+1, victim.id, err))
			break
		}
	}
	return dr
}

// readDrain takes each table's pause and the sessions told from the
// output of `bivouac drain`.
func (dr *drainResult) readDrain(out string) {
	for line := range strings.SplitSeq(out, "\n") {
		if m := handedRe.FindStringSubmatch(line); m != nil {
			if ms, err := strconv.Atoi(m[3]); err == nil {
				dr.perRoom = append(dr.perRoom, time.Duration(ms)*time.Millisecond)
			}
		}
		if m := toldRe.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			dr.told += n
		}
	}
}

// check reads, through witness, who runs each of the drained node's
// tables now and how many moves its log holds; once another node runs
// them all, or after 30 s, it counts them and the moves lost.
func (dr *drainResult) check(ctx context.Context, k int, witness *clusterNodeProc, drained string, mine map[string]tableState) {
	var after map[string]tableState
	for deadline := time.Now().Add(30 * time.Second); ; {
		var err error
		after, err = tablesOf(ctx, witness, true)
		if err == nil && runElsewhere(mine, after, drained) == len(mine) || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		sleepCtx(ctx, 200*time.Millisecond)
	}
	dr.handed += runElsewhere(mine, after, drained)
	for code, st := range mine {
		now, ok := after[code]
		switch {
		case !ok:
			dr.notes = append(dr.notes, fmt.Sprintf("drain %d: table %s is gone", k+1, code))
		case now.moves < st.moves:
			dr.lost += st.moves - now.moves
		case now.node == drained || now.node == "":
			dr.notes = append(dr.notes, fmt.Sprintf("drain %d: no other node runs table %s after 30 s", k+1, code))
		}
	}
}

// runElsewhere counts the tables of mine another node than drained holds.
func runElsewhere(mine, after map[string]tableState, drained string) int {
	n := 0
	for code := range mine {
		if st, ok := after[code]; ok && st.node != "" && st.node != drained {
			n++
		}
	}
	return n
}

// tableState is an unfinished table's lease holder and its log's length.
type tableState struct {
	node  string
	moves int
}

// tablesOf reads, through witness, every unfinished table with a lease:
// who holds it and, with countMoves, how many actions its log holds.
func tablesOf(ctx context.Context, witness *clusterNodeProc, countMoves bool) (map[string]tableState, error) {
	nc, err := natsConnect(witness)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	kv, err := js.KeyValue(ctx, lease.Bucket)
	if err != nil {
		return nil, err
	}
	m, err := lease.NewManager(kv, "bivouac-load", lease.Options{TTL: time.Minute}) // reads only
	if err != nil {
		return nil, err
	}
	store, err := bivouacjs.Open(ctx, nc, bivouacjs.Options{Replicas: 3})
	if err != nil {
		return nil, err
	}
	keys, err := kv.Keys(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, err
	}
	out := map[string]tableState{}
	for _, k := range keys {
		rec, err := store.Room(k)
		if err != nil || rec.Status != persistence.StatusWaiting && rec.Status != persistence.StatusPlaying {
			continue
		}
		var st tableState
		if countMoves {
			log, err := store.Log(k)
			if err != nil {
				return nil, err
			}
			st.moves = len(log)
		}
		if o, err := m.Owner(ctx, k); err == nil {
			st.node = o.Node
		}
		out[k] = st
	}
	return out, nil
}

func printDrainReport(w io.Writer, o loadOpts, dr *drainResult) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rolling upgrade (-drains)\tvalue\ttarget\tmet")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	row := func(name, v, target, met string) { fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, v, target, met) }
	row("drains (each node drained, then started again)", fmt.Sprint(dr.drains), fmt.Sprint(o.drains), yes(dr.drains == o.drains))
	row("  its tables run on another node after", fmt.Sprintf("%d of %d", dr.handed, dr.expected), "all", yes(dr.handed == dr.expected))
	row("  moves lost", fmt.Sprint(dr.lost), "0", yes(dr.lost == 0))
	row("  sessions sent to another node", fmt.Sprint(dr.told), "", "")
	if len(dr.perRoom) > 0 {
		worst := pct(dr.perRoom, 1)
		row("  a table's pause (close → serving elsewhere), p50 / p99 / worst (n)",
			fmt.Sprintf("%s / %s / %s (%d)", ms(pct(dr.perRoom, 0.5)), ms(pct(dr.perRoom, 0.99)), ms(worst), len(dr.perRoom)), "≤ 5 s", yes(worst <= 5*time.Second))
	}
	if len(dr.perDrain) > 0 {
		var sum time.Duration
		for _, d := range dr.perDrain {
			sum += d
		}
		row("  bivouac drain → the node stopped, mean / worst", fmt.Sprintf("%s / %s", ms(sum/time.Duration(len(dr.perDrain))), ms(pct(dr.perDrain, 1))), "", "")
	}
	tw.Flush()
	if len(dr.notes) > 0 {
		fmt.Fprintf(w, "\ndrains:\n  %s\n", strings.Join(dr.notes, "\n  "))
	}
}
