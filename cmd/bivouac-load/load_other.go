//go:build !linux

package main

import (
	"errors"
	"syscall"
	"time"
)

// The load harness reads /proc for memory and CPU: elsewhere those numbers
// are zero and only latencies and errors are measured.

func loadChildAttr() *syscall.SysProcAttr { return nil }

func loadRaiseFiles() (uint64, error) { return 0, errors.New("not raised on this system") }

func procRSS(int) int64 { return 0 }

func procThreads(int) int { return 0 }

func procCPU(int) float64 { return 0 }

func procCPUSplit(int) (user, sys float64) { return 0, 0 }

func freezeChild(int, time.Duration) error { return errors.New("not on this system") }
