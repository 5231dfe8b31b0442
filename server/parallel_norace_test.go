//go:build !race

package server

// parallelTests is how many of this package's parallel tests run at once
// without the race detector: enough that the seven cluster tests (16-30 s
// each, mostly waiting on elections and leases) start with the others.
const parallelTests = 16
