//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// loadChildAttr kills the server child if the harness dies.
func loadChildAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// loadRaiseFiles raises the soft open-files limit to the hard one and
// returns the new soft limit.
func loadRaiseFiles() (uint64, error) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0, err
	}
	if rl.Cur < rl.Max {
		rl.Cur = rl.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
			return 0, err
		}
	}
	return rl.Cur, nil
}

// procRSS is the resident set of a process in KiB (/proc/PID/status VmRSS).
func procRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// procThreads is the thread count of a process.
func procThreads(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat times; 100 on every
// Linux this runs on (reading it for real needs cgo's sysconf).
const clockTicks = 100

// procCPU is the user+system CPU time a process has used, in seconds.
func procCPU(pid int) float64 {
	user, sys := procCPUSplit(pid)
	return user + sys
}

// procCPUSplit is procCPU's user and system (kernel) parts.
func procCPUSplit(pid int) (user, sys float64) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(s[i+1:])
	// After ")": state is field 3 of stat, utime 14 and stime 15.
	if len(f) < 13 {
		return 0, 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return float64(ut) / clockTicks, float64(st) / clockTicks
}

// freezeChild stops process pid (SIGSTOP) for d, as a node paused or
// starved that long, then lets it go on (SIGCONT).
func freezeChild(pid int, d time.Duration) error {
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return err
	}
	time.Sleep(d)
	return syscall.Kill(pid, syscall.SIGCONT)
}
