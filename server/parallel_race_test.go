//go:build race

package server

// parallelTests is how many of this package's parallel tests run at once
// under the race detector (CI's mode), where each needs several times
// the CPU.
const parallelTests = 8
