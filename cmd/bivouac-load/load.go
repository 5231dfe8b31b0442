package main

// Why this file is long: it is the harness's one procedure, in the order
// it runs (start a child, connect, measure idle, probe keys, seat tables,
// play, stop), each step next to the numbers it takes. The client,
// terminal, report and baseline live in their own files.

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	rpprof "runtime/pprof"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// bivouac-load is the load harness. It starts the real server (`bivouac
// serve` on 127.0.0.1:0 with a fresh data directory) as its child,
// connects N players over SSH with PTYs, drives them, measures, stops the
// child and prints the numbers; then does the same against the bare wish +
// Bubble Tea baseline (loadbase.go, this binary's own "baseline" command)
// and prints the ratios.

const loadUsage = `Usage: bivouac-load [flags]

Starts a Bivouac server (bivouac serve) and a bare wish+Bubble Tea baseline
on 127.0.0.1 as child processes, connects -sessions SSH players with PTYs to
each, seats Bivouac's players at -tables Grizzled tables, plays for -play,
and prints latencies, errors, memory and CPU, with ratios to the baseline.

`

type loadOpts struct {
	sessions int
	tables   int
	bots     int
	probes   int
	few      int // sessions typing in the few-typing probe
	parallel int
	seating  int // tables being seated at once
	play     time.Duration
	think    time.Duration
	idle     time.Duration
	limit    time.Duration
	baseline bool
	ondemand bool
	bivouac  string // the server binary under test
	tags     string // build tags for the server when the harness builds it
	self     string // this binary, which also serves the baseline
	pprof    string
	metrics  string // the Bivouac child's metrics listener (with budgets)
	budgets  string // the allocation budgets file to check (load_budget.go)
	budget   allocBudgets
	profiles string // where to save the children's heap and goroutine profiles
	cpuprof  string // the harness's own CPU profile
	keep     bool
	verbose  bool
	nodes    int           // > 1: a cluster of that many nodes instead of one server (load_cluster.go)
	kills    int           // with nodes: kill -9 a node this many times, one after another
	freeze   time.Duration // with kills: stop the node this long (SIGSTOP, SIGCONT) instead
	drains   int           // with nodes: drain a node and start it again this many times (load_drain.go)

	stdout, stderr io.Writer
}

func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, loadUsage)
		fs.PrintDefaults()
	}
	var o loadOpts
	fs.IntVar(&o.sessions, "sessions", 2000, "concurrent SSH sessions (players) per server")
	fs.IntVar(&o.tables, "tables", 400, "Grizzled tables; sessions/tables humans sit at each (2 to 5 seats with -bots)")
	fs.IntVar(&o.bots, "bots", 0, "bot seats per table besides the humans (easy bots)")
	fs.IntVar(&o.probes, "probes", 5, "keypress probes per session (key → screen update)")
	fs.IntVar(&o.few, "few", 100, "sessions typing in the few-typing keypress probe, before the one where all type (0: none)")
	fs.IntVar(&o.parallel, "parallel", 32, "connections being set up at once")
	fs.IntVar(&o.seating, "seating", 16, "tables being seated at once (each has its players join one after another's prompt)")
	fs.DurationVar(&o.play, "play", 60*time.Second, "how long the tables play")
	fs.DurationVar(&o.think, "think", 2*time.Second, "mean pause between moves at a table")
	fs.DurationVar(&o.idle, "idle", 15*time.Second, "idle window for the CPU measurement")
	fs.DurationVar(&o.limit, "limit", 15*time.Minute, "hard time limit for the whole run")
	fs.BoolVar(&o.baseline, "baseline", true, "also measure the bare wish+Bubble Tea baseline")
	fs.BoolVar(&o.ondemand, "ondemand", false, "also measure the baseline drawn by an on-demand renderer instead of Bubble Tea's 60 FPS one")
	fs.StringVar(&o.bivouac, "bivouac", "", "the bivouac binary to measure (default: built from this module with go build)")
	fs.StringVar(&o.tags, "tags", "", "build tags for the server when the harness builds it (without -bivouac)")
	fs.StringVar(&o.pprof, "pprof", "", "serve the children's pprof on this 127.0.0.1 address (e.g. 127.0.0.1:6060)")
	fs.StringVar(&o.profiles, "profiles", "", "save each child's heap and goroutine profiles, taken while all sessions are idle, and its CPU profiles over the idle window and the play phase, its mutex and block profiles over the play phase, and its heap after play, in this directory (needs -pprof)")
	fs.StringVar(&o.cpuprof, "cpuprofile", "", "write the harness's own CPU profile (the clients' side of the run) to this file")
	fs.StringVar(&o.budgets, "budgets", "", "count the server's allocations per move, per frame and per idle session per minute, and fail the run if one is over its budget in this JSON file (e.g. cmd/bivouac-load/testdata/budgets.json)")
	fs.BoolVar(&o.keep, "keep", false, "keep the servers' data directories and logs")
	fs.BoolVar(&o.verbose, "v", false, "progress lines on stderr")
	fs.IntVar(&o.nodes, "nodes", 1, "run a cluster of this many nodes (bivouac serve --cluster) instead of one server, the players dialling them in turn; no baseline")
	fs.IntVar(&o.kills, "kills", 0, "with -nodes 3 or more: after playing, kill -9 a node this many times (each started again before the next) and time its tables' failover")
	fs.DurationVar(&o.freeze, "freeze", 0, "with -kills K: instead of kill -9, stop the node this long (SIGSTOP, then SIGCONT), K times, and count its tables taken over needlessly")
	fs.IntVar(&o.drains, "drains", 0, "with -nodes 3 or more: after playing, a rolling upgrade: drain a node (bivouac drain) and start it again, this many times one after another; checks that no move is lost and times each table's pause")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.stdout, o.stderr = stdout, stderr
	if fs.NArg() > 0 {
		return fmt.Errorf("load: unexpected arguments %q", fs.Args())
	}
	if err := o.check(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.limit)
	defer cancel()
	if o.cpuprof != "" {
		f, err := os.Create(o.cpuprof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := rpprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer rpprof.StopCPUProfile()
	}
	if n, err := loadRaiseFiles(); err != nil {
		o.logf("open files limit not raised: %v", err)
	} else if n < uint64(o.sessions)+256 {
		return fmt.Errorf("load: open files limit %d is too low for %d sessions: raise it (ulimit -Hn)", n, o.sessions)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	o.self = exe
	if o.bivouac == "" {
		dir, err := os.MkdirTemp("", "bivouac-load-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if o.bivouac, err = buildBivouac(ctx, dir, o.tags); err != nil {
			return err
		}
		o.logf("built %s", o.bivouac)
	}

	if o.nodes > 1 {
		return runClusterLoad(ctx, o)
	}
	if o.budgets != "" {
		if o.budget, err = readBudgets(o.budgets); err != nil {
			return err
		}
		if o.pprof == "" {
			if o.pprof, err = freeLoopback(); err != nil {
				return err
			}
		}
		if o.metrics, err = freeLoopback(); err != nil {
			return err
		}
	}
	start := time.Now()
	res := []*loadResult{}
	r, err := runLoadTarget(ctx, "bivouac", o)
	res = append(res, r)
	if err == nil && o.baseline {
		var b *loadResult
		b, err = runLoadTarget(ctx, "baseline", o)
		res = append(res, b)
	}
	if err == nil && o.ondemand {
		var b *loadResult
		b, err = runLoadTarget(ctx, "baseline-ondemand", o)
		res = append(res, b)
	}
	printLoadReport(stdout, o, res, time.Since(start))
	if err != nil {
		return err
	}
	if e := res[0].errorCount(); e > 0 {
		return fmt.Errorf("load: %d errors against bivouac", e)
	}
	if o.budgets != "" {
		if over := res[0].alloc.overBudget(o.budget); len(over) > 0 {
			return fmt.Errorf("load: over the budgets in %s: %s", o.budgets, strings.Join(over, "; "))
		}
	}
	return nil
}

func (o *loadOpts) check() error {
	switch {
	case o.sessions < 1 || o.sessions > 10000:
		return errors.New("load: -sessions must be 1..10000")
	case o.tables < 0 || o.tables > o.sessions:
		return errors.New("load: -tables must be 0..sessions")
	case o.pprof != "" && loopbackOnly(o.pprof) != nil:
		return loopbackOnly(o.pprof)
	case o.profiles != "" && o.pprof == "":
		return errors.New("load: -profiles needs -pprof")
	case o.budgets != "" && o.nodes > 1:
		return errors.New("load: -budgets is for one server, not -nodes")
	case o.limit <= 0 || o.limit > 2*time.Hour:
		return errors.New("load: -limit must be positive and at most 2h")
	case o.nodes < 1 || o.nodes > 9:
		return errors.New("load: -nodes must be 1..9")
	case o.kills < 0 || o.kills > 100 || o.kills > 0 && o.nodes < 3:
		return errors.New("load: -kills must be 0..100, and needs -nodes 3 or more (a cluster keeps its quorum)")
	case o.drains < 0 || o.drains > 100 || o.drains > 0 && o.nodes < 3:
		return errors.New("load: -drains must be 0..100, and needs -nodes 3 or more (a cluster keeps its quorum)")
	case o.parallel < 1:
		o.parallel = 1
	}
	if o.tables > 0 {
		if o.sessions%o.tables != 0 {
			return fmt.Errorf("load: %d sessions do not split evenly over %d tables", o.sessions, o.tables)
		}
		if seats := o.sessions/o.tables + o.bots; seats < 2 || seats > 5 {
			return fmt.Errorf("load: %d humans + %d bots = %d seats; The Grizzled seats 2 to 5", o.sessions/o.tables, o.bots, seats)
		}
		if o.bots < 0 || o.bots > 4 {
			return errors.New("load: -bots must be 0..4")
		}
	}
	return nil
}

func (o *loadOpts) logf(format string, args ...any) {
	if o.verbose {
		fmt.Fprintf(o.stderr, "%s load: %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
	}
}

// loadResult is what one server's run measured.
type loadResult struct {
	kind      string
	sessions  int
	connected int

	mu          sync.Mutex
	handshake   []time.Duration // TCP connect to authenticated
	firstScreen []time.Duration // authenticated to the first full screen
	key         []time.Duration // key → that session's screen shows the answer (no room involved), all typing
	keyFew      []time.Duration // the same with only o.few sessions typing
	connectWall time.Duration   // from the first dial to the last first screen
	moveKey     []time.Duration // a move's key → the mover's screen changes (through the room)
	moveKeyHome []time.Duration // the same, the mover on the node that runs the table
	moveKeyAway []time.Duration // the same, the mover on another node of a cluster
	moveTaken   []time.Duration // a move's key → the mover's screen shows it taken (not "Sent. Waiting for the table…")
	takenHome   []time.Duration // the same, the mover on the node that runs the table
	takenAway   []time.Duration // the same, the mover on another node of a cluster
	fanout      []time.Duration // a move's key → the last other seat's screen changes
	fanoutSeat  []time.Duration // a move's key → one other seat's screen changes
	errs        map[string]int

	tables, started, games, moves int

	alloc     allocResult // with -budgets
	allocRead bool

	rssBase, rssConnected, rssPlay int64 // KiB
	threads                        int
	idleCPU, playCPU               float64 // % of one core
	playSysCPU                     float64 // the kernel's part of playCPU (system calls: writes, fdatasync)
	harnessIdleCPU, harnessPlayCPU float64
	serverErrors                   int
	serverErrSample                []string
	playTime                       time.Duration
}

func (r *loadResult) add(dst *[]time.Duration, d time.Duration) {
	r.mu.Lock()
	*dst = append(*dst, d)
	r.mu.Unlock()
}

func (r *loadResult) fail(what string, err error) {
	k := what
	if err != nil {
		msg := err.Error()
		if len(msg) > 60 {
			msg = msg[:60]
		}
		k += ": " + msg
	}
	r.mu.Lock()
	if r.errs == nil {
		r.errs = map[string]int{}
	}
	r.errs[k]++
	r.mu.Unlock()
}

func (r *loadResult) errorCount() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, v := range r.errs {
		n += v
	}
	return n
}

// loadChild is a server the harness started.
type loadChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	addr  string
	log   string
	done  chan struct{}
	found chan string // where it listens, once it says
}

var listenRe = regexp.MustCompile(`listening on (\S+)`)

func startLoadChild(ctx context.Context, o loadOpts, kind, dir string) (*loadChild, error) {
	// The real server, as an operator runs it, with the caps raised: all
	// the players come from one address.
	bin, args := o.bivouac, serveArgs(o, dir)
	if kind != "bivouac" {
		bin = o.self
		args = []string{"baseline", "-kind", kind, "-addr", "127.0.0.1:0", "-data", dir, "-limit", o.limit.String()}
	}
	if o.pprof != "" {
		args = append(args, "--pprof", o.pprof)
	}
	c, err := launchLoadChild(bin, args, dir)
	if err != nil {
		return nil, err
	}
	if err := c.await(ctx, kind); err != nil {
		return nil, err
	}
	return c, nil
}

// serveArgs runs `bivouac serve` on loopback with data in dir and the caps
// raised: all the players come from a few addresses, o.parallel of them
// logging in at once.
func serveArgs(o loadOpts, dir string) []string {
	caps := fmt.Sprint(o.sessions + 64)
	startups := fmt.Sprint(o.parallel + 64)
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data", dir,
		"--max-sessions", caps, "--max-per-ip", caps, "--typing-per-ip", "-1", "--new-keys-per-ip", "-1", "--tables-per-ip", "-1",
		"--max-startups", startups + ":30:" + startups, "--max-startups-per-ip", startups}
	if o.metrics != "" {
		args = append(args, "--metrics-addr", o.metrics)
	}
	return args
}

// launchLoadChild starts bin with args, its log in dir/server.log; await
// waits until it says where it listens.
func launchLoadChild(bin string, args []string, dir string) (*loadChild, error) {
	logPath := dir + "/server.log"
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env = os.Environ()
	// BIVOUAC_CHILD_GOGC sets GOGC for the servers under test (Bivouac and
	// the baseline alike) but not the harness, whose own collections add
	// to every measured tail (docs/PERFORMANCE.md).
	if g := os.Getenv("BIVOUAC_CHILD_GOGC"); g != "" {
		cmd.Env = append(cmd.Env, "GOGC="+g)
	}
	cmd.Stderr = logf
	cmd.SysProcAttr = loadChildAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &loadChild{cmd: cmd, stdin: stdin, log: logPath, done: make(chan struct{}), found: make(chan string, 1)}
	go func() {
		// An exit status says nothing the harness uses: a server that
		// failed says why in its log, which the run reads and names.
		_ = cmd.Wait()
		close(c.done)
	}()
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listenRe.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case c.found <- m[1]:
				default:
				}
			}
		}
	}()
	return c, nil
}

// await waits until the child says where it listens (a cluster's node
// only once the others' JetStream answers).
func (c *loadChild) await(ctx context.Context, kind string) error {
	select {
	case c.addr = <-c.found:
	case <-c.done:
		return fmt.Errorf("load: the %s server exited at start (see %s)", kind, c.log)
	case <-time.After(60 * time.Second):
		c.stop()
		return fmt.Errorf("load: the %s server did not say where it listens", kind)
	case <-ctx.Done():
		c.stop()
		return ctx.Err()
	}
	if err := loopbackOnly(c.addr); err != nil {
		c.stop()
		return err
	}
	return nil
}

// stop ends the child: SIGTERM (it shuts down cleanly), SIGKILL after 10 s.
func (c *loadChild) stop() {
	c.stdin.Close()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

func (c *loadChild) pid() int { return c.cmd.Process.Pid }

// runLoadTarget measures one server.
func runLoadTarget(ctx context.Context, kind string, o loadOpts) (*loadResult, error) {
	r := &loadResult{kind: kind, sessions: o.sessions}
	dir, err := os.MkdirTemp("", "bivouac-load-"+kind+"-")
	if err != nil {
		return r, err
	}
	if o.keep {
		fmt.Fprintf(o.stderr, "load: %s data and log kept in %s\n", kind, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	child, err := startLoadChild(ctx, o, kind, dir)
	if err != nil {
		return r, err
	}
	defer child.stop()
	o.logf("%s server pid %d on %s", kind, child.pid(), child.addr)
	sleepCtx(ctx, time.Second)
	r.rssBase = procRSS(child.pid())

	t0 := time.Now()
	clients := loadConnect(ctx, o, []string{child.addr}, kind, r)
	r.connectWall = time.Since(t0)
	defer func() {
		var wg sync.WaitGroup
		for _, c := range clients {
			if c != nil {
				wg.Add(1)
				go func() { defer wg.Done(); c.Close() }()
			}
		}
		wg.Wait()
	}()
	o.logf("%s: %d/%d connected", kind, r.connected, o.sessions)
	if ctx.Err() != nil {
		return r, ctx.Err()
	}

	// Idle: everyone connected, nobody typing.
	sleepCtx(ctx, 3*time.Second)
	runtimeGC := procRSS(child.pid())
	r.rssConnected = runtimeGC
	r.threads = procThreads(child.pid())
	var idleProfile chan error
	if o.profiles != "" { // where the idle CPU goes, over the same window
		idleProfile = make(chan error, 1)
		go func() {
			idleProfile <- fetchProfile(ctx, o.pprof, fmt.Sprintf("/debug/pprof/profile?seconds=%d", int(o.idle.Seconds())),
				filepath.Join(o.profiles, kind+"-idle-cpu.pb.gz"))
		}()
	}
	var counts *counter
	var idle0 serverCounts
	if o.budgets != "" && kind == "bivouac" {
		counts = &counter{pprof: o.pprof, metrics: o.metrics, logf: o.logf}
		if err := counts.calibrate(ctx); err != nil {
			return r, fmt.Errorf("load: reading the server's allocations: %w", err)
		}
		idle0 = readStart(ctx, counts, r)
	}
	r.idleCPU, r.harnessIdleCPU = measureCPU(ctx, child.pid(), o.idle)
	if counts != nil {
		w := counts.window(idle0, readEnd(ctx, counts, r))
		r.alloc.idle = per(w, float64(r.connected)*o.idle.Minutes())
	}
	if idleProfile != nil {
		if err := <-idleProfile; err != nil {
			o.logf("%s: idle CPU profile not saved: %v", kind, err)
		}
	}
	o.logf("%s: idle CPU %.1f%% (harness %.1f%%), RSS %d KiB", kind, r.idleCPU, r.harnessIdleCPU, r.rssConnected)
	if o.profiles != "" {
		if err := saveProfiles(ctx, o.pprof, o.profiles, kind); err != nil {
			o.logf("%s: profiles not saved: %v", kind, err)
		}
	}

	quiet := harnessGCOff()
	var probe0 serverCounts
	if counts != nil {
		probe0 = readStart(ctx, counts, r)
	}
	loadProbe(ctx, o, kind, fewClients(clients, o.few), r, &r.keyFew)
	loadProbe(ctx, o, kind, clients, r, &r.key)
	if counts != nil {
		w := counts.window(probe0, readEnd(ctx, counts, r))
		r.alloc.frame, r.alloc.frames = per(w, float64(w.frames)), w.frames
	}
	quiet()
	o.logf("%s: %d key samples (%d with few typing)", kind, len(r.key), len(r.keyFew))

	if kind == "bivouac" && o.tables > 0 && ctx.Err() == nil {
		tables := loadSeat(ctx, o, clients, r)
		o.logf("%s: %d tables seated, %d started", kind, r.tables, r.started)
		if ctx.Err() == nil {
			if o.profiles != "" {
				// The heap as play starts: the base for what play allocates.
				// After a collection: a heap profile is as of the last one,
				// which without it may predate the seating, whose lobby and
				// form screens then looked like play's.
				if err := fetchProfile(ctx, o.pprof, "/debug/pprof/heap?gc=1", filepath.Join(o.profiles, kind+"-seated-heap.pb.gz")); err != nil {
					o.logf("%s: heap profile before play not saved: %v", kind, err)
				}
			}
			var playProfile chan error
			if o.profiles != "" { // where a move's CPU goes, and who waits on whom, over the whole play phase
				playProfile = make(chan error, 3)
				for _, p := range []struct{ path, file string }{
					{"/debug/pprof/profile", "-play-cpu.pb.gz"},
					{"/debug/pprof/mutex", "-play-mutex.pb.gz"},
					{"/debug/pprof/block", "-play-block.pb.gz"},
				} {
					go func() {
						playProfile <- fetchProfile(ctx, o.pprof, fmt.Sprintf("%s?seconds=%d", p.path, int(o.play.Seconds())),
							filepath.Join(o.profiles, kind+p.file))
					}()
				}
			}
			quietPlay := harnessGCOff() // as for the probes: only the server's collector is measured
			gcs := harnessGCs()
			var play0 serverCounts
			if counts != nil {
				play0 = readStart(ctx, counts, r)
			}
			cpu0, self0, t0 := procCPU(child.pid()), selfCPU(), time.Now()
			_, sys0 := procCPUSplit(child.pid())
			loadPlay(ctx, o, tables, r)
			el := time.Since(t0)
			if counts != nil {
				w := counts.window(play0, readEnd(ctx, counts, r))
				r.alloc.move, r.alloc.moves = per(w, float64(w.moves)), w.moves
			}
			o.logf("%s: the harness collected %d times while playing", kind, harnessGCs()-gcs)
			quietPlay()
			if playProfile != nil {
				for range cap(playProfile) {
					if err := <-playProfile; err != nil {
						o.logf("%s: a play profile not saved: %v", kind, err)
					}
				}
			}
			r.playTime = el
			r.playCPU = 100 * (procCPU(child.pid()) - cpu0) / el.Seconds()
			_, sys1 := procCPUSplit(child.pid())
			r.playSysCPU = 100 * (sys1 - sys0) / el.Seconds()
			r.harnessPlayCPU = 100 * (selfCPU() - self0) / el.Seconds()
			r.rssPlay = procRSS(child.pid())
			if o.profiles != "" { // what the tables left in memory
				if err := fetchProfile(ctx, o.pprof, "/debug/pprof/heap?gc=1", filepath.Join(o.profiles, kind+"-play-heap.pb.gz")); err != nil {
					o.logf("%s: heap profile after play not saved: %v", kind, err)
				}
			}
		}
	}
	// Still connected at the end?
	for _, c := range clients {
		if c != nil {
			c.mu.Lock()
			ended := c.ended
			c.mu.Unlock()
			if ended {
				r.fail("session ended early", nil)
			}
		}
	}
	child.stop()
	r.serverErrors, r.serverErrSample = countServerErrors(child.log)
	return r, ctx.Err()
}

// saveProfiles fetches a child's heap profile (after a collection) and its
// goroutine profile from its pprof server into dir, named by kind.
func saveProfiles(ctx context.Context, addr, dir, kind string) error {
	for _, p := range []struct{ path, file string }{
		{"/debug/pprof/heap?gc=1", kind + "-heap.pb.gz"},
		{"/debug/pprof/goroutine", kind + "-goroutine.pb.gz"},
		{"/debug/pprof/goroutine?debug=1", kind + "-goroutine.txt"},
		{"/debug/pprof/heap?debug=1", kind + "-heap.txt"}, // ends with the runtime's MemStats (stacks, heap goal)
	} {
		if err := fetchProfile(ctx, addr, p.path, filepath.Join(dir, p.file)); err != nil {
			return err
		}
	}
	return nil
}

// fetchProfile saves what a child's pprof server answers at path to file.
func fetchProfile(ctx context.Context, addr, path, file string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+addr+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", path, resp.Status)
	}
	return os.WriteFile(file, b, 0o644)
}

// harnessGCOff keeps the harness's own garbage collector out of the
// keypress and move numbers: it collects now, then not again (short of a
// memory limit 1 GiB above what it holds) until the returned func is
// called. The harness's 2,000 clients make a heap whose collection takes
// ~100 ms of mark, and a collection landing in the few seconds of probing
// delayed whichever answers it met, for Bivouac and the baseline alike; at
// 10,000 clients the heap is 1.2 GB and play allocates ~50 MB in 30 s. The
// servers' collectors are untouched: they are part of what is measured.
func harnessGCOff() (restore func()) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := debug.SetMemoryLimit(int64(ms.Sys) + 1<<30)
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// harnessGCs is how many collections the harness has run (harnessGCOff's
// memory limit can still force one).
func harnessGCs() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// measureCPU is the server's and the harness's CPU over d, in % of a core.
func measureCPU(ctx context.Context, pid int, d time.Duration) (server, harness float64) {
	c0, s0, t0 := procCPU(pid), selfCPU(), time.Now()
	sleepCtx(ctx, d)
	el := time.Since(t0).Seconds()
	return 100 * (procCPU(pid) - c0) / el, 100 * (selfCPU() - s0) / el
}

func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// loadConnect dials every player, o.parallel at a time, and waits for each
// first screen. Player i dials addrs[i % len(addrs)] (a cluster's nodes in
// turn).
func loadConnect(ctx context.Context, o loadOpts, addrs []string, kind string, r *loadResult) []*loadClient {
	clients := make([]*loadClient, o.sessions)
	firstText := "Bivouac"
	if strings.HasPrefix(kind, "baseline") {
		firstText = baselineCount(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range o.parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				node := i % len(addrs)
				c, hs, err := loadDial(addrs[node], loadSource(i), fmt.Sprintf("p%04d", i), 20*time.Second, 80, 24)
				if err != nil {
					r.fail("connect", err)
					continue
				}
				r.add(&r.handshake, hs)
				c.node = node
				t0 := time.Now()
				if at, _, err := c.WaitText(firstText, 20*time.Second); err != nil {
					r.fail("first screen", err)
					c.Close()
					continue
				} else {
					r.add(&r.firstScreen, max(0, at.Sub(t0)))
				}
				clients[i] = c
			}
		}()
	}
	for i := range o.sessions {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	for _, c := range clients {
		if c != nil {
			r.connected++
		}
	}
	return clients
}

// loadProbe has every session press a key that only redraws its own
// screen, o.probes times with random pauses, all sessions at once.
// Bivouac: "?" opens the help and "?" closes it again. Baseline: "+"
// increments the counter.
func loadProbe(ctx context.Context, o loadOpts, kind string, clients []*loadClient, r *loadResult, dst *[]time.Duration) {
	if o.probes <= 0 {
		return
	}
	const helpMark = "Press any key to close this help"
	var wg sync.WaitGroup
	for _, c := range clients {
		if c == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sleepCtx(ctx, time.Duration(rand.Int64N(int64(2*time.Second))))
			for i := range o.probes {
				if ctx.Err() != nil {
					return
				}
				var ok func(string) bool
				var k string
				switch {
				case strings.HasPrefix(kind, "baseline"):
					want := baselineCount(i + 1)
					k, ok = "+", func(s string) bool { return strings.Contains(s, want) }
				case i%2 == 0:
					k, ok = "?", func(s string) bool { return strings.Contains(s, helpMark) }
				default:
					k, ok = "?", func(s string) bool { return !strings.Contains(s, helpMark) }
				}
				t0 := time.Now()
				if err := c.Type(k); err != nil {
					r.fail("probe key", err)
					return
				}
				at, _, err := c.WaitScreen(ok, 10*time.Second)
				if err != nil {
					r.fail("probe answer", err)
					return
				}
				r.add(dst, max(0, at.Sub(t0)))
				sleepCtx(ctx, 200*time.Millisecond+time.Duration(rand.Int64N(int64(400*time.Millisecond))))
			}
			if !strings.HasPrefix(kind, "baseline") && o.probes%2 == 1 {
				// Leave the help closed for what comes next.
				_ = c.Type("?")
				_, _, _ = c.WaitScreen(func(s string) bool { return !strings.Contains(s, helpMark) }, 10*time.Second)
			}
		}()
	}
	wg.Wait()
}

// fewClients is n of the clients spread evenly over them (none for n <= 0).
func fewClients(clients []*loadClient, n int) []*loadClient {
	if n <= 0 {
		return nil
	}
	if n >= len(clients) {
		return clients
	}
	out := make([]*loadClient, 0, n)
	for i := range n {
		out = append(out, clients[i*len(clients)/n])
	}
	return out
}

// loadTable is one table the harness plays: its seats' clients, host first.
type loadTable struct {
	code  string
	seats []*loadClient
}

var tableCodeRe = regexp.MustCompile(`Table ([A-Z0-9]{4})`)

// loadSeat creates the tables from the hosts' lobbies (form: players, bot
// seats), has the other players join by code, and starts the games.
func loadSeat(ctx context.Context, o loadOpts, clients []*loadClient, r *loadResult) []*loadTable {
	k := o.sessions / o.tables
	seats := k + o.bots
	var tables []*loadTable
	var mu sync.Mutex
	sem := make(chan struct{}, max(1, o.seating))
	var wg sync.WaitGroup
	for t := range o.tables {
		group := clients[t*k : (t+1)*k]
		if slicesContainsNil(group) {
			r.fail("table not seated: a player is not connected", nil)
			continue
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			tb, err := seatTable(group, seats, o.bots)
			if err != nil {
				o.logf("seating: %v", err)
				r.fail("seating", err)
				return
			}
			mu.Lock()
			tables = append(tables, tb)
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.tables = len(tables)
	// Start them all at about the same time.
	var started []*loadTable
	for _, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := tb.seats[0].Type("s"); err != nil {
				r.fail("start", err)
				return
			}
			for _, c := range tb.seats {
				if _, _, err := c.WaitText("Mission", 20*time.Second); err != nil {
					r.fail("game start", err)
					return
				}
			}
			mu.Lock()
			started = append(started, tb)
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.started = len(started)
	return started
}

func slicesContainsNil(cs []*loadClient) bool {
	for _, c := range cs {
		if c == nil {
			return true
		}
	}
	return false
}

func seatTable(group []*loadClient, seats, bots int) (*loadTable, error) {
	const wait = 20 * time.Second
	host := group[0]
	if err := host.Type("n"); err != nil {
		return nil, err
	}
	if _, _, err := host.WaitText("New table", wait); err != nil {
		return nil, fmt.Errorf("form: %w", err)
	}
	if err := formSet(host, "Players", fmt.Sprint(seats)); err != nil {
		return nil, err
	}
	if bots > 0 { // the bot level's default is easy
		if err := formSet(host, "Bot seats now", fmt.Sprint(bots)); err != nil {
			return nil, err
		}
	}
	if err := host.Type("\r"); err != nil {
		return nil, err
	}
	_, screen, err := host.WaitScreen(tableCodeRe.MatchString, wait)
	if err != nil {
		return nil, fmt.Errorf("create: %w", err)
	}
	code := tableCodeRe.FindStringSubmatch(screen)[1]
	errs := make(chan error, len(group))
	for _, c := range group[1:] {
		go func() {
			if err := c.Type("c"); err != nil {
				errs <- err
				return
			}
			if _, _, err := c.WaitText("table code", wait); err != nil {
				errs <- fmt.Errorf("code prompt: %w", err)
				return
			}
			if err := c.Type(code); err != nil {
				errs <- err
				return
			}
			if err := c.Type("\r"); err != nil {
				errs <- err
				return
			}
			if _, scr, err := c.WaitText("(you)", wait); err != nil {
				errs <- fmt.Errorf("join: %w\n%s", err, scr)
				return
			}
			errs <- nil
		}()
	}
	var first error
	for range group[1:] {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	here := func(s string) bool { return strings.Count(s, "● here") >= len(group) }
	if _, _, err := host.WaitScreen(here, wait); err != nil {
		return nil, fmt.Errorf("waiting for everyone: %w", err)
	}
	return &loadTable{code: code, seats: group}, nil
}

// formSet moves the new-table form's focus (▸) to the field labelled
// label, then changes its value until it starts with value. It reads the
// screen rather than counting keys, so fields may come in any order.
func formSet(c *loadClient, label, value string) error {
	const wait = 10 * time.Second
	focused := func(s string) string {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "▸ ") {
				return line
			}
		}
		return ""
	}
	for range 2 * 12 {
		scr := c.Screen()
		line := focused(scr)
		if !strings.HasPrefix(strings.TrimPrefix(line, "▸ "), label) {
			if err := step(c, "j", wait); err != nil {
				return fmt.Errorf("form field %s: %w", label, err)
			}
			continue
		}
		if _, v, ok := strings.Cut(line, "◂ "); ok && strings.HasPrefix(v, value+" ") {
			return nil
		}
		if err := step(c, "l", wait); err != nil {
			return fmt.Errorf("form value %s: %w", label, err)
		}
	}
	return fmt.Errorf("form: could not set %s to %s:\n%s", label, value, c.Screen())
}

// step presses a key and waits for the screen to change.
func step(c *loadClient, key string, wait time.Duration) error {
	v := c.Version()
	if err := c.Type(key); err != nil {
		return err
	}
	_, err := c.WaitChange(v, wait)
	return err
}

// loadHelpBar is the last non-empty line of a screen: the live keys.
func loadHelpBar(screen string) string {
	s := strings.TrimRight(screen, "\n ")
	for { // from the bottom, without splitting every screen of every table
		i := strings.LastIndexByte(s, '\n')
		if line := s[i+1:]; strings.TrimSpace(line) != "" {
			return line
		}
		if i < 0 {
			return ""
		}
		s = s[:i]
	}
}

// loadMove is the key a cautious player presses given the help bar: answer
// what the game asks, else play the selected card, else withdraw.
func loadMove(bar string) string {
	for _, km := range []struct{ help, key string }{
		{"enter deal", "\r"},
		{"x pass", "x"},
		{"n decline", "n"},
		{"n take nothing", "n"},
		{"enter choose", "\r"},
		{"enter place", "\r"},
		{"p play", "p"},
		{"w withdraw", "w"},
		{"enter ", "\r"},
	} {
		if strings.Contains(bar, km.help) {
			return km.key
		}
	}
	return ""
}

var loadGameOver = regexp.MustCompile(`Game over`)

// loadPlay plays every table until o.play is up: one move at a time per
// table, timing how long the move takes to reach each seat's screen.
func loadPlay(ctx context.Context, o loadOpts, tables []*loadTable, r *loadResult) {
	ctx, cancel := context.WithTimeout(ctx, o.play)
	defer cancel()
	var wg sync.WaitGroup
	for _, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			playTable(ctx, o, tb, r)
		}()
	}
	wg.Wait()
}

// sentWaiting is what a mover's screen says between a move's key and the
// table's answer (i18n ui.sent_waiting).
const sentWaiting = "Sent. Waiting for the table"

func pick[T any](first bool, a, b T) T {
	if first {
		return a
	}
	return b
}

func playTable(ctx context.Context, o loadOpts, tb *loadTable, r *loadResult) {
	const wait = 10 * time.Second
	// Spread the tables' first moves over one think time.
	sleepCtx(ctx, time.Duration(rand.Int64N(int64(o.think)+1)))
	stuckSince := time.Now()
	for ctx.Err() == nil {
		mover, key := -1, ""
		over := false
		for i, c := range tb.seats {
			s := c.Screen()
			if loadGameOver.MatchString(s) {
				over = true
				break
			}
			if k := loadMove(loadHelpBar(s)); k != "" {
				mover, key = i, k
				break
			}
		}
		if over {
			r.mu.Lock()
			r.games++
			r.mu.Unlock()
			return
		}
		if mover < 0 {
			// Nobody may move yet (a bot is thinking, or a screen is behind).
			if time.Since(stuckSince) > 30*time.Second {
				r.fail("table stuck: no seat offered a move for 30 s", nil)
				return
			}
			vers := tb.seats[0].Version()
			_, _ = tb.seats[0].WaitChange(vers, 500*time.Millisecond)
			continue
		}
		stuckSince = time.Now()
		vers := make([]uint64, len(tb.seats))
		for i, c := range tb.seats {
			vers[i] = c.Version()
		}
		t0 := time.Now()
		if err := tb.seats[mover].Type(key); err != nil {
			r.fail("move key", err)
			return
		}
		var last time.Duration
		complete := true
		for i, c := range tb.seats {
			at, err := c.WaitChange(vers[i], wait)
			if err != nil {
				if i == mover {
					r.fail("move: no screen update for the mover", err)
				} else {
					r.fail("fan-out: a seat's screen did not change", err)
				}
				complete = false
				continue
			}
			d := max(0, at.Sub(t0))
			if i == mover {
				home := c.node == tb.seats[0].node // the host's node runs the table
				r.add(&r.moveKey, d)
				r.add(pick(home, &r.moveKeyHome, &r.moveKeyAway), d)
				// The screen may first say the move was sent; then it shows it taken.
				if at, _, err := c.WaitScreen(func(s string) bool { return !strings.Contains(s, sentWaiting) }, wait); err == nil {
					taken := max(0, at.Sub(t0))
					r.add(&r.moveTaken, taken)
					r.add(pick(home, &r.takenHome, &r.takenAway), taken)
				}
				continue
			}
			r.add(&r.fanoutSeat, d)
			last = max(last, d)
		}
		if complete && len(tb.seats) > 1 {
			r.add(&r.fanout, last)
		}
		r.mu.Lock()
		r.moves++
		r.mu.Unlock()
		// Let the rest of this move's redraws land before reading screens.
		sleepCtx(ctx, time.Duration(float64(o.think)*(0.5+rand.Float64())))
	}
}

// countServerErrors counts error lines in a child's log, keeping a few.
// The "app exit with error ... context canceled" wish's bubbletea
// middleware writes at each disconnect of the baseline (on stderr, through
// charmbracelet/log's default logger) is an ordinary end of session, not
// counted.
func countServerErrors(path string) (int, []string) {
	n := 0
	var sample []string
	scanLog(path, 0, func(line string) {
		if !strings.Contains(line, "level=ERROR") && !strings.Contains(line, "ERRO") && !strings.Contains(line, "panic") {
			return
		}
		if strings.Contains(line, "app exit with error") && strings.Contains(line, "context canceled") {
			return
		}
		n++
		if len(sample) < 5 {
			if len(line) > 200 {
				line = line[:200]
			}
			sample = append(sample, line)
		}
	})
	return n, sample
}

// scanLog hands each line of a child's log from offset on to line (none
// if the log cannot be read).
func scanLog(path string, offset int64, line func(string)) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line(sc.Text())
	}
}

// runBaselineChild is `bivouac-load baseline`: the bare wish + Bubble Tea
// app the harness measures Bivouac against. It ends on SIGTERM, when its
// stdin closes (the harness is gone) or after -limit.
func runBaselineChild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", "baseline", "baseline (Bubble Tea's renderer) or baseline-ondemand")
	addr := fs.String("addr", "127.0.0.1:0", "listen address, loopback only")
	data := fs.String("data", "", "data directory (its host key)")
	limit := fs.Duration("limit", 15*time.Minute, "hard time limit")
	pprofAddr := fs.String("pprof", "", "serve pprof on this 127.0.0.1 address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := loopbackOnly(*addr); err != nil {
		return err
	}
	if *data == "" {
		return errors.New("baseline: needs -data")
	}
	if *kind != "baseline" && *kind != "baseline-ondemand" {
		return fmt.Errorf("baseline: unknown -kind %q", *kind)
	}
	ctx, cancel := context.WithTimeout(ctx, *limit+time.Minute)
	defer cancel()
	go func() { // the harness holds our stdin open while it lives
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	if *pprofAddr != "" {
		if err := loopbackOnly(*pprofAddr); err != nil {
			return err
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		ps := &http.Server{Addr: *pprofAddr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = ps.ListenAndServe() }()
		defer ps.Close()
	}
	return runBaselineServer(ctx, *addr, *data, *kind == "baseline-ondemand", stdout, stderr)
}

// buildBivouac builds the server from this module into dir.
func buildBivouac(ctx context.Context, dir, tags string) (string, error) {
	bin := filepath.Join(dir, "bivouac")
	cmd := exec.CommandContext(ctx, "go", "build", "-tags", tags, "-o", bin, "github.com/bivouac-ssh/bivouac/cmd/bivouac")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building bivouac (run from the module, or give -bivouac): %v\n%s", err, out)
	}
	return bin, nil
}

// pct is the q-quantile of ds (nearest rank); 0 for none.
func pct(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(q*float64(len(s)) + 0.5)
	i = min(max(i-1, 0), len(s)-1)
	return s[i]
}
