package main

// The cluster run (-nodes N): N `bivouac serve --cluster` children on
// loopback, the players dialling them in turn, so a table of four has
// seats on three nodes and its host's node runs it. It measures a move's
// key to the mover's own screen for movers on the table's node and on
// another one, the fan-out to every seat, and, with -kills K, K kill -9s
// of a node: how long each of its tables takes to serve again elsewhere,
// and, at each of them where a player on a surviving node is to move,
// how long until the next move is accepted (stored in the table's log),
// that player kept at the table and pressing it. The killed node's
// players dial it again once it is back, with their keys, and sit down
// at their games, so every kill finds whole tables.

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
)

// clusterNodeProc is one node of the cluster run: its child process and
// what starts it again after a kill.
type clusterNodeProc struct {
	*loadChild
	id       string
	dir      string
	args     []string
	natsAddr string
}

// failoverResult is what the kills measured.
type failoverResult struct {
	kills    int
	perRoom  []time.Duration // kill → the room serving on another node
	perKill  []time.Duration // kill → the last of the node's rooms serving again
	expected int             // rooms the killed nodes held
	taken    int             // of which served again within the wait
	stopped  int             // rooms on surviving nodes that stopped (lease lost) after a kill
	// The next move: at each of the killed node's tables where a player on
	// a surviving node was to move, kill → the table's next accepted move
	// (stored in its log), that player kept at the table and pressing it.
	nextMove []time.Duration
	movers   int // such tables
	waiting  int // the killed node's tables waiting on a player of that node (not timed: a bot takes the seat after minutes)
	sentAway int // players on surviving nodes whose screen left the table
	notes    []string
}

func runClusterLoad(ctx context.Context, o loadOpts) error {
	start := time.Now()
	root, err := os.MkdirTemp("", "bivouac-load-cluster-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintf(o.stderr, "load: the nodes' data and logs kept in %s\n", root)
	} else {
		defer os.RemoveAll(root)
	}
	nodes, err := startClusterNodes(ctx, o, root)
	defer func() {
		for _, n := range nodes {
			if n != nil && n.loadChild != nil {
				n.stop()
			}
		}
	}()
	if err != nil {
		return err
	}
	var addrs []string
	for _, n := range nodes {
		addrs = append(addrs, n.addr)
		o.logf("node %s pid %d: ssh %s, nats %s", n.id, n.pid(), n.addr, n.natsAddr)
	}
	r := &loadResult{kind: "cluster", sessions: o.sessions}
	t0 := time.Now()
	clients := loadConnect(ctx, o, addrs, "bivouac", r)
	r.connectWall = time.Since(t0)
	defer func() {
		var wg sync.WaitGroup
		for _, c := range clients {
			if c != nil {
				wg.Go(c.Close)
			}
		}
		wg.Wait()
	}()
	o.logf("cluster: %d/%d connected", r.connected, o.sessions)
	r.rssConnected = clusterRSS(nodes)
	quiet := harnessGCOff()
	loadProbe(ctx, o, "bivouac", clients, r, &r.key)
	quiet()
	var tables []*loadTable
	if o.tables > 0 && ctx.Err() == nil {
		tables = loadSeat(ctx, o, clients, r)
		o.logf("cluster: %d tables seated, %d started", r.tables, r.started)
		if ctx.Err() == nil {
			cpu0, t0 := clusterCPU(nodes), time.Now()
			loadPlay(ctx, o, tables, r)
			r.playTime = time.Since(t0)
			r.playCPU = 100 * (clusterCPU(nodes) - cpu0) / r.playTime.Seconds()
			r.rssPlay = clusterRSS(nodes)
		}
	}
	var fo *failoverResult
	if o.kills > 0 && ctx.Err() == nil {
		fo = killNodes(ctx, o, nodes, tables)
		defer func() { // the players who came back after a kill
			for _, tb := range tables {
				for _, c := range tb.seats {
					if !slices.Contains(clients, c) {
						c.Close()
					}
				}
			}
		}()
	}
	var dr *drainResult
	if o.drains > 0 && ctx.Err() == nil {
		dr = drainNodes(ctx, o, nodes)
	}
	for _, n := range nodes {
		n.stop()
		e, sample := countServerErrors(n.log)
		r.serverErrors += e
		r.serverErrSample = append(r.serverErrSample, sample...)
	}
	printClusterReport(o.stdout, o, r, fo, time.Since(start))
	if dr != nil {
		printDrainReport(o.stdout, o, dr)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e := r.errorCount(); e > 0 {
		return fmt.Errorf("load: %d errors against the cluster", e)
	}
	if dr != nil && (dr.lost > 0 || dr.handed < dr.expected || dr.drains < o.drains) {
		return fmt.Errorf("load: the rolling upgrade lost %d moves and left %d of %d tables unserved", dr.lost, dr.expected-dr.handed, dr.expected)
	}
	return nil
}

// startClusterNodes starts o.nodes nodes: the first makes the cluster's
// NATS credentials, which the others get a copy of (as scripts/cluster-demo
// does); each says where it listens once the cluster's JetStream answers.
func startClusterNodes(ctx context.Context, o loadOpts, root string) ([]*clusterNodeProc, error) {
	routes, err := natsnode.FreeLoopbackAddrs(o.nodes)
	if err != nil {
		return nil, err
	}
	natsAddrs, err := natsnode.FreeLoopbackAddrs(o.nodes)
	if err != nil {
		return nil, err
	}
	nodes := make([]*clusterNodeProc, o.nodes)
	for i := range nodes {
		n := &clusterNodeProc{id: fmt.Sprintf("n%d", i+1), dir: filepath.Join(root, fmt.Sprintf("n%d", i+1)), natsAddr: natsAddrs[i]}
		if err := os.MkdirAll(n.dir, 0o700); err != nil {
			return nodes, err
		}
		n.args = append(serveArgs(o, n.dir), "--cluster", "load", "--node", n.id, "--peers", strings.Join(routes, ","),
			"--nats-addr", natsAddrs[i], "--cluster-addr", routes[i])
		nodes[i] = n
	}
	if nodes[0].loadChild, err = launchLoadChild(o.bivouac, nodes[0].args, nodes[0].dir); err != nil {
		return nodes, err
	}
	creds := filepath.Join(nodes[0].dir, natsnode.CredentialsFile)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if st, err := os.Stat(creds); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			return nodes, fmt.Errorf("load: node n1 made no NATS credentials (see %s)", nodes[0].log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, err := os.ReadFile(creds)
	if err != nil {
		return nodes, err
	}
	for _, n := range nodes[1:] {
		if err := os.WriteFile(filepath.Join(n.dir, natsnode.CredentialsFile), b, 0o600); err != nil {
			return nodes, err
		}
		if n.loadChild, err = launchLoadChild(o.bivouac, n.args, n.dir); err != nil {
			return nodes, err
		}
	}
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() { errs[i] = n.await(ctx, "node "+n.id) })
	}
	wg.Wait()
	return nodes, errors.Join(errs...)
}

func clusterRSS(nodes []*clusterNodeProc) int64 {
	var sum int64
	for _, n := range nodes {
		sum += procRSS(n.pid())
	}
	return sum
}

func clusterCPU(nodes []*clusterNodeProc) float64 {
	var sum float64
	for _, n := range nodes {
		sum += procCPU(n.pid())
	}
	return sum
}

// takenOverRe is a node's log line when it serves a room it took over.
var takenOverRe = regexp.MustCompile(`^time=(\S+) .*msg="room taken over" room=(\S+)`)

// killNodes kills -9 the cluster's nodes in turn, o.kills times. Before
// each kill it reads from the lease bucket which rooms the victim runs;
// after, it reads the survivors' logs for the moment each of those rooms
// serves again; then it starts the victim again and waits until every
// stream has caught up, so the next kill finds a whole cluster.
func killNodes(ctx context.Context, o loadOpts, nodes []*clusterNodeProc, tables []*loadTable) *failoverResult {
	fo := &failoverResult{}
	byCode := map[string]*loadTable{}
	for _, tb := range tables {
		byCode[tb.code] = tb
	}
	if o.freeze > 0 {
		return freezeNodes(ctx, o, nodes)
	}
	for k := range o.kills {
		if ctx.Err() != nil {
			break
		}
		victim := nodes[k%len(nodes)]
		witness := nodes[(k+1)%len(nodes)]
		rooms, err := roomsRunBy(ctx, witness, victim.id)
		if err != nil {
			fo.notes = append(fo.notes, fmt.Sprintf("kill %d: leases not read: %v", k+1, err))
			continue
		}
		offsets := map[*clusterNodeProc]int64{}
		for _, n := range nodes {
			if n != victim {
				offsets[n] = logSize(n.log)
			}
		}
		vi := k % len(nodes)
		movers := map[string]*loadTable{}
		for code := range rooms {
			if tb := byCode[code]; tb != nil {
				if survivorToMove(tb, vi) {
					movers[code] = tb
				} else if !loadGameOver.MatchString(tb.seats[0].Screen()) {
					fo.waiting++
				}
			}
		}
		moves, err := watchMoves(ctx, witness)
		if err != nil {
			fo.notes = append(fo.notes, fmt.Sprintf("kill %d: the log stream not watched: %v", k+1, err))
			movers = nil
		}
		_ = victim.cmd.Process.Kill()
		killed := time.Now()
		<-victim.done
		fo.kills++
		fo.expected += len(rooms)
		fo.movers += len(movers)
		nudging, stopNudging := context.WithCancel(ctx)
		var nudgers sync.WaitGroup
		for _, tb := range movers {
			nudgers.Go(func() { nudge(nudging, tb, vi) })
		}
		served := map[string]time.Time{}
		next := map[string]time.Time{}
		by := map[string]int{} // rooms taken over, by node
		for deadline := killed.Add(60 * time.Second); (len(served) < len(rooms) || len(next) < len(movers)) && time.Now().Before(deadline) && ctx.Err() == nil; {
			sleepCtx(ctx, 100*time.Millisecond)
			if moves != nil {
				moves.after(killed, movers, next)
			}
			for n, off := range offsets {
				before := len(served)
				takenOver(n.log, off, rooms, served)
				by[n.id] += len(served) - before
			}
		}
		stopNudging()
		nudgers.Wait()
		if moves != nil {
			moves.stop()
		}
		for n, off := range offsets {
			fo.stopped += countLines(n.log, off, `msg="room lease lost`)
		}
		for code, tb := range movers {
			if at, ok := next[code]; ok {
				fo.nextMove = append(fo.nextMove, max(0, at.Sub(killed)))
			}
			for _, c := range tb.seats {
				if c.node != vi && !c.Ended() && !strings.Contains(c.Screen(), "Mission") {
					fo.sentAway++
				}
			}
		}
		for code, tb := range movers {
			if _, ok := next[code]; ok {
				continue
			}
			for _, c := range tb.seats {
				if c.node != vi && !c.Ended() {
					o.logf("kill %d: table %s took no move; a survivor's screen ends %q", k+1, code, lastLines(c.Screen(), 4))
				}
			}
		}
		if len(next) < len(movers) {
			fo.notes = append(fo.notes, fmt.Sprintf("kill %d: %d of %d tables with a survivor to move took no move within 60 s", k+1, len(movers)-len(next), len(movers)))
		}
		var last time.Duration
		for _, at := range served {
			d := max(0, at.Sub(killed))
			fo.perRoom = append(fo.perRoom, d)
			last = max(last, d)
		}
		fo.taken += len(served)
		if len(served) == len(rooms) && len(rooms) > 0 {
			fo.perKill = append(fo.perKill, last)
		}
		var lastMove time.Duration
		for _, at := range next {
			lastMove = max(lastMove, at.Sub(killed))
		}
		o.logf("kill %d: %s ran %d rooms; %d serve again elsewhere %v, the last after %v; %d of %d with a survivor to move took a move, the last after %v",
			k+1, victim.id, len(rooms), len(served), by, last.Round(time.Millisecond), len(next), len(movers), lastMove.Round(time.Millisecond))
		if len(served) < len(rooms) {
			fo.notes = append(fo.notes, fmt.Sprintf("kill %d: %d of %d rooms did not serve again within 60 s", k+1, len(rooms)-len(served), len(rooms)))
		}
		if err := restartNode(ctx, o, victim); err != nil {
			fo.notes = append(fo.notes, fmt.Sprintf("kill %d: %s not back: %v", k+1, victim.id, err))
			break
		}
		if back, gone := comeBack(tables, vi, victim.addr); gone > 0 {
			fo.notes = append(fo.notes, fmt.Sprintf("kill %d: %d of the node's %d players did not sit down again on it", k+1, gone, back+gone))
		}
	}
	return fo
}

// restartNode starts victim again, with the arguments it had, and waits
// until it listens and has caught up: the next kill or drain must leave a
// majority.
func restartNode(ctx context.Context, o loadOpts, victim *clusterNodeProc) error {
	next, err := launchLoadChild(o.bivouac, victim.args, victim.dir)
	if err != nil {
		return err
	}
	victim.loadChild = next
	if err := next.await(ctx, "node "+victim.id); err != nil {
		return err
	}
	return caughtUp(ctx, victim, min(3, o.nodes)-1, 90*time.Second)
}

// natsConnect connects to a node's NATS as the nodes themselves do.
func natsConnect(n *clusterNodeProc) (*nats.Conn, error) {
	creds, err := natsnode.LoadCredentials(n.dir)
	if err != nil {
		return nil, err
	}
	return nats.Connect("nats://"+n.natsAddr, nats.UserInfo(creds.User, creds.Password), nats.Name("bivouac-load"))
}

// roomsRunBy lists, through witness, the unfinished rooms whose lease node
// holds (a finished game's room keeps its lease while players read the end
// screen, but nobody takes it over when its node dies).
func roomsRunBy(ctx context.Context, witness *clusterNodeProc, node string) (map[string]bool, error) {
	tables, err := tablesOf(ctx, witness, false)
	if err != nil {
		return nil, err
	}
	rooms := map[string]bool{}
	for code, st := range tables {
		if st.node == node {
			rooms[code] = true
		}
	}
	return rooms, nil
}

// caughtUp waits until n sees every stream caught up (natsnode.CaughtUp):
// the node just started again must catch up before the next kill leaves
// a majority.
func caughtUp(ctx context.Context, n *clusterNodeProc, followers int, within time.Duration) error {
	nc, err := natsConnect(n)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	return natsnode.CaughtUp(ctx, js, followers)
}

// countLines counts the lines of a log from offset that contain s.
func countLines(path string, offset int64, s string) int {
	n := 0
	scanLog(path, offset, func(line string) {
		if strings.Contains(line, s) {
			n++
		}
	})
	return n
}

func logSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// takenOver reads a node's log from offset and notes when each of rooms
// was taken over (the first time, in served).
func takenOver(path string, offset int64, rooms map[string]bool, served map[string]time.Time) {
	scanLog(path, offset, func(line string) {
		m := takenOverRe.FindStringSubmatch(line)
		if m == nil || !rooms[m[2]] {
			return
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			return
		}
		if _, ok := served[m[2]]; !ok {
			served[m[2]] = at
		}
	})
}

func printClusterReport(w io.Writer, o loadOpts, r *loadResult, fo *failoverResult, took time.Duration) {
	fmt.Fprintf(w, "bivouac-load: a cluster of %d nodes, %d sessions (dialling the nodes in turn), %d tables (%d humans + %d bots), play %v, think %v; took %v\n",
		o.nodes, o.sessions, o.tables, o.sessions/max(1, o.tables), o.bots, o.play, o.think, took.Round(time.Second))
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(w, "machine: load average at the end %s\n", strings.Join(strings.Fields(string(la))[:3], " "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tvalue\ttarget\tmet")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	row := func(name, v, target, met string) { fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, v, target, met) }
	pp := func(d []time.Duration) string {
		if len(d) == 0 {
			return "-"
		}
		return fmt.Sprintf("%s / %s (%d)", ms(pct(d, 0.5)), ms(pct(d, 0.99)), len(d))
	}
	errs := r.errorCount()
	row("sessions connected", fmt.Sprintf("%d/%d", r.connected, r.sessions), "", "")
	row("errors seen by players", fmt.Sprint(errs), "0", yes(errs == 0))
	row("error lines in the nodes' logs", fmt.Sprint(r.serverErrors), "", "")
	row("connect wall time", ms(r.connectWall), "", "")
	row("keypress → own screen, no room (help), p50 / p99 (n)", pp(r.key), "", "")
	if o.tables > 0 {
		row("tables seated / started", fmt.Sprintf("%d / %d", r.tables, r.started), fmt.Sprint(o.tables), yes(r.started == o.tables))
		row("move → mover's screen, mover on the table's node, p50 / p99 (n)", pp(r.moveKeyHome), "", "")
		row("move → mover's screen, mover on another node, p50 / p99 (n)", pp(r.moveKeyAway), "", "")
		if len(r.moveKeyHome) > 0 && len(r.moveKeyAway) > 0 {
			a, h := pct(r.moveKeyAway, 0.99), pct(r.moveKeyHome, 0.99)
			row("  p99 another node / the table's node", fmt.Sprintf("%.2f×", float64(a)/float64(h)), "≤ 2×", yes(a <= 2*h))
		}
		row("move → mover's screen shows it taken, on the table's node", pp(r.takenHome), "", "")
		row("move → mover's screen shows it taken, on another node", pp(r.takenAway), "", "")
		if len(r.takenHome) > 0 && len(r.takenAway) > 0 {
			a, h := pct(r.takenAway, 0.99), pct(r.takenHome, 0.99)
			row("  p99 another node / the table's node", fmt.Sprintf("%.2f×", float64(a)/float64(h)), "≤ 2×", yes(a <= 2*h))
		}
		row("move → every other seat (fan-out), p50 / p99 (n)", pp(r.fanout), "p99 ≤ 50 ms", metIf(len(r.fanout) > 0, yes(pct(r.fanout, 0.99) <= 50*time.Millisecond)))
		mps := 0.0
		if r.playTime > 0 {
			mps = float64(r.moves) / r.playTime.Seconds()
		}
		row("moves (per second), games finished", fmt.Sprintf("%d (%.0f/s), %d", r.moves, mps, r.games), "", "")
		row("the nodes' CPU while playing (sum)", fmt.Sprintf("%.1f%% of a core", r.playCPU), "", "")
		row("the nodes' RSS connected / after playing (sum)", fmt.Sprintf("%d / %d MiB", r.rssConnected>>10, r.rssPlay>>10), "", "")
	}
	if fo != nil && o.freeze > 0 {
		row(fmt.Sprintf("a node stopped for %v (SIGSTOP), times", o.freeze), fmt.Sprint(fo.kills), fmt.Sprint(o.kills), yes(fo.kills == o.kills))
		row("  its rooms then, and taken over by another node", fmt.Sprintf("%d, %d", fo.expected, fo.taken), "", "")
		row("  rooms stopped (lease lost), every node", fmt.Sprint(fo.stopped), "", "")
	}
	if fo != nil && o.freeze == 0 {
		row("kill -9 of a node, kills", fmt.Sprint(fo.kills), fmt.Sprint(o.kills), yes(fo.kills == o.kills))
		row("  its rooms serving again elsewhere", fmt.Sprintf("%d of %d", fo.taken, fo.expected), "all", yes(fo.taken == fo.expected))
		row("  the survivors' rooms stopped meanwhile", fmt.Sprint(fo.stopped), "0", yes(fo.stopped == 0))
		if len(fo.perRoom) > 0 {
			row("  kill → a room serving again, p50 / p99 / worst", fmt.Sprintf("%s / %s / %s", ms(pct(fo.perRoom, 0.5)), ms(pct(fo.perRoom, 0.99)), ms(pct(fo.perRoom, 1))), "≤ 10 s", yes(pct(fo.perRoom, 1) <= 10*time.Second))
		}
		if len(fo.nextMove) > 0 {
			p50, worst := pct(fo.nextMove, 0.5), pct(fo.nextMove, 1)
			row("  kill → the next accepted move, a survivor to move, p50 / worst (n)", fmt.Sprintf("%s / %s (%d of %d)", ms(p50), ms(worst), len(fo.nextMove), fo.movers),
				"≤ 3 s / ≤ 5 s", yes(p50 <= 3*time.Second && worst <= 5*time.Second && len(fo.nextMove) == fo.movers))
			row("  survivors' screens that left the table", fmt.Sprint(fo.sentAway), "0", yes(fo.sentAway == 0))
			row("  tables waiting on the killed node's player (not timed)", fmt.Sprint(fo.waiting), "", "")
		}
		if len(fo.perKill) > 0 {
			var sum time.Duration
			for _, d := range fo.perKill {
				sum += d
			}
			row("  kill → all its rooms serving again, mean / worst", fmt.Sprintf("%s / %s", ms(sum/time.Duration(len(fo.perKill))), ms(pct(fo.perKill, 1))), "", "")
		}
	}
	tw.Flush()
	if fo != nil && len(fo.notes) > 0 {
		fmt.Fprintf(w, "\nkills:\n  %s\n", strings.Join(fo.notes, "\n  "))
	}
	r.printErrors(w, "the nodes'")
}

// survivorToMove reports whether a seat of tb still connected, on a node
// other than the victim's, is offered a move now (its help bar). A seat
// whose node an earlier kill took is gone: the harness does not dial
// again.
func survivorToMove(tb *loadTable, victim int) bool {
	for _, c := range tb.seats {
		if c.node != victim && !c.Ended() && loadMove(loadHelpBar(c.Screen())) != "" {
			return true
		}
	}
	return false
}

// nudge plays tb's next move through its seats on surviving nodes, as a
// player kept at the table does after its node is lost: whoever is
// offered a move presses it, again every moment while the table answers
// "busy" (between owners), until ctx ends.
func nudge(ctx context.Context, tb *loadTable, victim int) {
	for ctx.Err() == nil {
		for _, c := range tb.seats {
			s := c.Screen()
			if c.node == victim || c.Ended() || strings.Contains(s, sentWaiting) {
				continue
			}
			if k := loadMove(loadHelpBar(s)); k != "" {
				v := c.Version()
				if c.Type(k) != nil {
					continue
				}
				_, _ = c.WaitChange(v, time.Second)
				break
			}
		}
		sleepCtx(ctx, 100*time.Millisecond)
	}
}

// moveWatch hears every entry stored in the rooms' logs from when it
// starts: JetStream's own time for each, so a delivery held up by an
// election still says when the entry was accepted.
type moveWatch struct {
	mu   sync.Mutex
	at   map[string][]time.Time // room → when its entries were stored
	stop func()
}

// watchMoves starts a moveWatch through witness, from the log stream's
// next sequence (an ordered consumer made again after its node dies
// goes on from there, missing nothing).
func watchMoves(ctx context.Context, witness *clusterNodeProc) (*moveWatch, error) {
	nc, err := natsConnect(witness)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	ask, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := js.Stream(ask, logStream)
	if err != nil {
		nc.Close()
		return nil, err
	}
	info, err := st.Info(ask)
	if err != nil {
		nc.Close()
		return nil, err
	}
	cons, err := st.OrderedConsumer(ask, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: info.State.LastSeq + 1})
	if err != nil {
		nc.Close()
		return nil, err
	}
	w := &moveWatch{at: map[string][]time.Time{}}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		md, err := m.Metadata()
		if err != nil {
			return
		}
		k := m.Subject()[strings.LastIndexByte(m.Subject(), '.')+1:]
		room, err := base64.RawURLEncoding.DecodeString(k)
		if err != nil {
			return
		}
		w.mu.Lock()
		w.at[string(room)] = append(w.at[string(room)], md.Timestamp)
		w.mu.Unlock()
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	w.stop = func() { cc.Stop(); nc.Close() }
	return w, nil
}

// logStream is the rooms' log stream of a node's store (bivouac-load
// opens it under its default name, as the nodes do).
const logStream = "bivouac-logs"

// after notes in next, for each of rooms not there yet, when its first
// entry after t was stored.
func (w *moveWatch) after(t time.Time, rooms map[string]*loadTable, next map[string]time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for code := range rooms {
		if _, ok := next[code]; ok {
			continue
		}
		for _, at := range w.at[code] {
			if at.After(t) {
				next[code] = at
				break
			}
		}
	}
}

// lastLines is the last n non-empty lines of a screen, for a note.
func lastLines(screen string, n int) string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimRight(l, " "))
		}
	}
	return strings.Join(out[max(0, len(out)-n):], " | ")
}

// comeBack dials again, with the same keys, the players of tables whose
// sessions the kill of node vi ended, through that node (started again):
// a player with a game in progress sits down at it on login. The next
// kill finds them at their tables, on a surviving node or the victim.
// It returns how many sat down again and how many did not.
func comeBack(tables []*loadTable, vi int, addr string) (back, gone int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, tb := range tables {
		if slices.ContainsFunc(tb.seats, func(c *loadClient) bool { return loadGameOver.MatchString(c.Screen()) }) {
			continue // nobody sits down at a finished game
		}
		for i, c := range tb.seats {
			if c.node != vi || !c.Ended() {
				continue
			}
			wg.Go(func() {
				n, _, err := loadDialAs(addr, nil, c.name, c.key, 20*time.Second, c.w, c.h)
				if err == nil {
					if _, _, err = n.WaitText("Mission", 20*time.Second); err != nil {
						n.Close()
					}
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					gone++
					return
				}
				n.node = vi
				tb.seats[i] = n
				back++
			})
		}
	}
	wg.Wait()
	return back, gone
}

// freezeNodes stops each node in turn for o.freeze (SIGSTOP), lets it go
// on, and counts, over the next 10 s, the rooms it ran that another node
// took over and the rooms any node stopped: what a pause that long costs
// (a node that merely paused loses nothing it should keep).
func freezeNodes(ctx context.Context, o loadOpts, nodes []*clusterNodeProc) *failoverResult {
	fo := &failoverResult{}
	for k := range o.kills {
		if ctx.Err() != nil {
			break
		}
		victim := nodes[k%len(nodes)]
		rooms, err := roomsRunBy(ctx, nodes[(k+1)%len(nodes)], victim.id)
		if err != nil {
			fo.notes = append(fo.notes, fmt.Sprintf("freeze %d: leases not read: %v", k+1, err))
			continue
		}
		offsets := map[*clusterNodeProc]int64{}
		for _, n := range nodes {
			offsets[n] = logSize(n.log)
		}
		if err := freezeChild(victim.pid(), o.freeze); err != nil {
			fo.notes = append(fo.notes, fmt.Sprintf("freeze %d: %v", k+1, err))
			break
		}
		fo.kills++
		fo.expected += len(rooms)
		sleepCtx(ctx, 10*time.Second)
		taken := map[string]time.Time{}
		for n, off := range offsets {
			if n != victim {
				takenOver(n.log, off, rooms, taken)
			}
			fo.stopped += countLines(n.log, off, `msg="room lease lost`)
		}
		fo.taken += len(taken)
		o.logf("freeze %d: %s stopped %v with %d rooms; %d taken over", k+1, victim.id, o.freeze, len(rooms), len(taken))
	}
	return fo
}
