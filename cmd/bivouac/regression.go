//go:build budgetregression

package main

import "time"

// A deliberate regression, compiled only with -tags budgetregression: the
// server allocates 32 KiB every 5 ms whatever its players do, as a leak of
// garbage on a hot path would. bivouac-load's TestBudgetsCatchARegression
// builds the server so and checks that the allocation budgets fail it.

var regressionSink []byte

func init() {
	go func() {
		for {
			regressionSink = make([]byte, 32<<10)
			time.Sleep(5 * time.Millisecond)
		}
	}()
}
