package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// printLoadReport prints one row per measure: Bivouac, the baseline, their
// ratio, and the target where the issue sets one.
func printLoadReport(w io.Writer, o loadOpts, res []*loadResult, took time.Duration) {
	var biv, base, ond *loadResult
	for _, r := range res {
		if r == nil {
			continue
		}
		switch r.kind {
		case "bivouac":
			biv = r
		case "baseline":
			base = r
		case "baseline-ondemand":
			ond = r
		}
	}
	if biv == nil {
		return
	}
	if base == nil {
		base = &loadResult{kind: "baseline"}
	}
	fmt.Fprintf(w, "bivouac-load: %d sessions, %d tables (%d humans + %d bots), play %v, think %v; took %v\n",
		o.sessions, o.tables, o.sessions/max(1, o.tables), o.bots, o.play, o.think, took.Round(time.Second))
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(w, "machine: %d CPUs, load average at the end %s\n", runtime.NumCPU(), strings.Join(strings.Fields(string(la))[:3], " "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tbivouac\tbaseline\tratio\ttarget\tmet")
	row := func(name, a, b, ratio, target, met string) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", name, a, b, ratio, target, met)
	}
	ms := func(d time.Duration) string {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	ratio := func(a, b float64) string {
		if b <= 0 || a < 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f×", a/b)
	}
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	durRow := func(name string, a, b []time.Duration, q float64, target string, ok func(a, b time.Duration) bool) {
		pa, pb := pct(a, q), pct(b, q)
		bs, rs := "-", "-"
		if len(b) > 0 {
			bs, rs = ms(pb), ratio(float64(pa), float64(pb))
		}
		met := ""
		if ok != nil && len(a) > 0 {
			met = yes(ok(pa, pb))
		}
		row(fmt.Sprintf("%s p%d", name, int(q*100)), ms(pa), bs, rs, target, met)
	}
	errsA, errsB := biv.errorCount(), base.errorCount()
	row("sessions connected", fmt.Sprintf("%d/%d", biv.connected, biv.sessions),
		fmt.Sprintf("%d/%d", base.connected, base.sessions), "", fmt.Sprintf("%d", o.sessions), yes(biv.connected == o.sessions))
	row("errors seen by players", fmt.Sprint(errsA), fmt.Sprint(errsB), "", "0", yes(errsA == 0))
	row("error lines in server log", fmt.Sprint(biv.serverErrors), fmt.Sprint(base.serverErrors), "", "", "")
	durRow("handshake", biv.handshake, base.handshake, 0.5, "", nil)
	durRow("handshake", biv.handshake, base.handshake, 0.99, "", nil)
	durRow("login → first screen", biv.firstScreen, base.firstScreen, 0.5, "", nil)
	durRow("login → first screen", biv.firstScreen, base.firstScreen, 0.99, "", nil)
	row("connect wall time (all sessions)", ms(biv.connectWall), ms(base.connectWall),
		ratio(float64(biv.connectWall), float64(base.connectWall)), "≤ 1.2× baseline", metIf(base.connectWall > 0, yes(biv.connectWall <= base.connectWall*6/5)))
	if o.few > 0 {
		durRow(fmt.Sprintf("keypress → screen update, %d typing,", min(o.few, o.sessions)), biv.keyFew, base.keyFew, 0.5, "", nil)
		durRow(fmt.Sprintf("keypress → screen update, %d typing,", min(o.few, o.sessions)), biv.keyFew, base.keyFew, 0.99, "≤ baseline",
			func(a, b time.Duration) bool { return len(base.keyFew) > 0 && a <= b })
	}
	durRow("keypress → screen update, all typing,", biv.key, base.key, 0.5, "", nil)
	durRow("keypress → screen update, all typing,", biv.key, base.key, 0.99, "≤ baseline",
		func(a, b time.Duration) bool { return len(base.key) > 0 && a <= b })
	if o.tables > 0 {
		durRow("move → mover's screen", biv.moveKey, nil, 0.5, "", nil)
		durRow("move → mover's screen", biv.moveKey, nil, 0.99, "", nil)
		durRow("move → mover's screen shows it taken", biv.moveTaken, nil, 0.5, "", nil)
		durRow("move → mover's screen shows it taken", biv.moveTaken, nil, 0.99, "", nil)
		durRow("move → one other seat", biv.fanoutSeat, nil, 0.5, "", nil)
		durRow("move → every other seat (fan-out)", biv.fanout, nil, 0.5, "", nil)
		durRow("move → every other seat (fan-out)", biv.fanout, nil, 0.99, "≤ 50 ms",
			func(a, _ time.Duration) bool { return a <= 50*time.Millisecond })
	}
	perA, perB := perSession(biv), perSession(base)
	row("server RSS before / connected", fmt.Sprintf("%d / %d MiB", biv.rssBase>>10, biv.rssConnected>>10),
		fmt.Sprintf("%d / %d MiB", base.rssBase>>10, base.rssConnected>>10), "", "", "")
	memMet := ""
	if perB > 0 {
		memMet = yes(perA <= 1.2*perB)
	}
	row("server RSS per session", fmt.Sprintf("%.0f KiB", perA), fmt.Sprintf("%.0f KiB", perB), ratio(perA, perB), "≤ 1.2× baseline", memMet)
	row("server threads (connected)", fmt.Sprint(biv.threads), fmt.Sprint(base.threads), "", "", "")
	row("server CPU, all idle", fmt.Sprintf("%.1f%% of a core", biv.idleCPU), fmt.Sprintf("%.1f%% of a core", base.idleCPU),
		ratio(biv.idleCPU, base.idleCPU), "< 5% of a core", yes(biv.idleCPU < 5))
	row("harness CPU, all idle", fmt.Sprintf("%.1f%%", biv.harnessIdleCPU), fmt.Sprintf("%.1f%%", base.harnessIdleCPU), "", "", "")
	if o.tables > 0 {
		row("tables seated / started", fmt.Sprintf("%d / %d", biv.tables, biv.started), "", "", fmt.Sprint(o.tables), yes(biv.started == o.tables))
		mps := 0.0
		if biv.playTime > 0 {
			mps = float64(biv.moves) / biv.playTime.Seconds()
		}
		row("moves (per second), games finished", fmt.Sprintf("%d (%.0f/s), %d", biv.moves, mps, biv.games), "", "", "", "")
		row("server CPU while playing", fmt.Sprintf("%.1f%% of a core", biv.playCPU), "", "", "", "")
		if biv.moves > 0 { // CPU-seconds over the phase / moves: what one move costs the server, all seats drawn
			row("server CPU per move", fmt.Sprintf("%.2f ms", 10*biv.playCPU*biv.playTime.Seconds()/float64(biv.moves)), "", "", "", "")
			// The kernel's part (the SSH writes, the store's fdatasync) moves with the disk and
			// the machine's other work; the user part is the server's own code.
			row("  of it user / kernel", fmt.Sprintf("%.2f / %.2f ms", 10*(biv.playCPU-biv.playSysCPU)*biv.playTime.Seconds()/float64(biv.moves),
				10*biv.playSysCPU*biv.playTime.Seconds()/float64(biv.moves)), "", "", "", "")
		}
		row("harness CPU while playing", fmt.Sprintf("%.1f%%", biv.harnessPlayCPU), "", "", "", "")
		row("server RSS after playing", fmt.Sprintf("%d MiB", biv.rssPlay>>10), "", "", "", "")
	}
	if o.budgets != "" && biv.allocRead {
		b := o.budget
		allocRow := func(name string, got, max allocCount) {
			target, met := "", ""
			if max.Allocs > 0 || max.Bytes > 0 {
				target = fmt.Sprintf("≤ %.0f, %.0f B", max.Allocs, max.Bytes)
				met = yes((max.Allocs <= 0 || got.Allocs <= max.Allocs) && (max.Bytes <= 0 || got.Bytes <= max.Bytes))
			}
			row(name, fmt.Sprintf("%.0f, %.0f B", got.Allocs, got.Bytes), "", "", target, met)
		}
		allocRow("server allocations per idle session-minute", biv.alloc.idle, b.IdleSessionMinute)
		allocRow(fmt.Sprintf("server allocations per frame (%d keys' frames)", biv.alloc.frames), biv.alloc.frame, b.Frame)
		if o.tables > 0 {
			allocRow(fmt.Sprintf("server allocations per move (%d moves)", biv.alloc.moves), biv.alloc.move, b.Move)
		}
	}
	tw.Flush()
	if ond != nil && ond.connected > 0 {
		fmt.Fprintf(w, "\nThe same baseline drawn by an on-demand renderer (loadbase_frames.go) instead of Bubble Tea's 60 FPS ticker:\n\n")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "measure\tbaseline (ticker)\tbaseline (on demand)\tratio")
		for _, q := range []float64{0.5, 0.99} {
			fmt.Fprintf(tw, "keypress → screen update p%d\t%s\t%s\t%s\n", int(q*100), ms(pct(base.key, q)), ms(pct(ond.key, q)),
				ratio(float64(pct(ond.key, q)), float64(pct(base.key, q))))
		}
		fmt.Fprintf(tw, "server RSS per session\t%.0f KiB\t%.0f KiB\t%s\n", perB, perSession(ond), ratio(perSession(ond), perB))
		fmt.Fprintf(tw, "server CPU, all idle\t%.1f%% of a core\t%.1f%% of a core\t%s\n", base.idleCPU, ond.idleCPU, ratio(ond.idleCPU, base.idleCPU))
		fmt.Fprintf(tw, "errors\t%d\t%d\t\n", base.errorCount(), ond.errorCount())
		tw.Flush()
	}
	for _, r := range []*loadResult{biv, base, ond} {
		if r != nil {
			r.printErrors(w, r.kind+" server")
		}
	}
}

// printErrors lists what went wrong for the players, by kind, and the
// first error lines of the server's log (who: whose log).
func (r *loadResult) printErrors(w io.Writer, who string) {
	if len(r.errs) > 0 {
		fmt.Fprintf(w, "\n%s errors:\n", r.kind)
		keys := make([]string, 0, len(r.errs))
		for k := range r.errs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "  %6d  %s\n", r.errs[k], k)
		}
	}
	if len(r.serverErrSample) > 0 {
		fmt.Fprintf(w, "\n%s log errors (first %d of %d):\n  %s\n", who, len(r.serverErrSample), r.serverErrors,
			strings.Join(r.serverErrSample, "\n  "))
	}
}

// perSession is the server's RSS growth per connected session, in KiB.
func perSession(r *loadResult) float64 {
	if r.connected == 0 || r.rssConnected == 0 {
		return 0
	}
	return float64(r.rssConnected-r.rssBase) / float64(r.connected)
}

// metIf is met when the comparison could be made, else empty.
func metIf(ok bool, met string) string {
	if !ok {
		return ""
	}
	return met
}
