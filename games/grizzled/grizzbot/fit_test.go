package grizzbot

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// TestValueModelFitsFreshGames checks the strong bot's value model against
// games it was not fitted on: the committed valueWeights must predict wins
// clearly better than the base rate does, and about as well as weights
// fitted on these very games (else the model is stale: refit it).
//
// It is also the tool that fits them: FIT=20000 go test -run
// ValueModelFits -v prints new weights to paste into strong.go.
func TestValueModelFitsFreshGames(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FIT"))
	printWeights := n > 0
	offset := 0 // the games the weights are fitted on
	if !printWeights {
		n, offset = 300, 1_000_000 // games the fit never saw
	}
	var (
		X  [][numFeatures]float64
		Y  []float64
		mu sync.Mutex
		wg sync.WaitGroup
	)
	next := int64(-1)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(atomic.AddInt64(&next, 1))
				if i >= n {
					return
				}
				x, y := fitGame(t, offset+i)
				mu.Lock()
				X = append(X, x...)
				Y = append(Y, y...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	rows := make([][]float64, len(X))
	for r := range X {
		rows[r] = X[r][:]
	}
	var log func(int, float64)
	if printWeights {
		log = func(it int, ll float64) { t.Logf("it %d ll %.4f", it, ll) }
	}
	var w [numFeatures]float64
	copy(w[:], fitLogistic(rows, Y, 1e-3, 25, log))
	if printWeights {
		fmt.Printf("samples %d\nvar valueWeights = [numFeatures]float64{", len(X))
		for j := range w {
			fmt.Printf("%.4f, ", w[j])
		}
		fmt.Println("}")
	}
	base := 0.0
	for _, y := range Y {
		base += y
	}
	base /= float64(len(Y))
	loss := func(predict func(x [numFeatures]float64) float64) float64 {
		l := 0.0
		for r := range X {
			p := min(max(predict(X[r]), 1e-6), 1-1e-6)
			l -= Y[r]*math.Log(p) + (1-Y[r])*math.Log(1-p)
		}
		return l / float64(len(X))
	}
	logistic := func(w [numFeatures]float64) func(x [numFeatures]float64) float64 {
		return func(x [numFeatures]float64) float64 {
			z := 0.0
			for j := range w {
				z += w[j] * x[j]
			}
			return 1 / (1 + math.Exp(-z))
		}
	}
	constant, committed, fitted := loss(func([numFeatures]float64) float64 { return base }), loss(logistic(valueWeights)), loss(logistic(w))
	t.Logf("%d positions of %d games: log-loss base rate %.3f, committed model %.3f, refitted %.3f", len(X), n, constant, committed, fitted)
	if committed > 0.8*constant {
		t.Errorf("the value model predicts little better than the base rate: %.3f against %.3f", committed, constant)
	}
	if committed > fitted+0.05 {
		t.Errorf("the value model is stale: %.3f against %.3f refitted on fresh games (FIT=20000 refits it)", committed, fitted)
	}
}

// solve solves A x = b by Gaussian elimination with partial pivoting
// (A and b are overwritten).
func solve(A [][]float64, b []float64) []float64 {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		A[c], A[p] = A[p], A[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := A[r][c] / A[c][c]
			for k := c; k < n; k++ {
				A[r][k] -= f * A[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= A[r][k] * x[k]
		}
		x[r] = s / A[r][r]
	}
	return x
}

// fitGame plays game i and returns the features of every state between
// missions with the game's result.
func fitGame(t *testing.T, i int) ([][numFeatures]float64, []float64) {
	humans := []int{2, 3, 4, 4, 4, 5}[i%6]
	s := newGame(t, humans, g.Standard, uint64(9000000+i))
	var snaps [][numFeatures]float64
	var e game.Bot = NewEasy()
	if os.Getenv("FITPOLICY") == "strong" {
		e = NewStrong(DefaultStrong)
	}
	for k := 0; ; k++ {
		if _, over := s.Over(); over {
			break
		}
		if s.Phase() == g.PhaseIntensity {
			var f [numFeatures]float64
			features(s, new(g.SeatView), &f)
			snaps = append(snaps, f)
		}
		seat := firstWaiting(s)
		a, _ := e.Act(s.View(seat), uint64(k)^uint64(i)<<20)
		if err := s.Step(seat, a.(g.Action)); err != nil {
			t.Error(err)
			break
		}
	}
	won, _ := s.Over()
	ys := make([]float64, len(snaps))
	if won {
		for j := range ys {
			ys[j] = 1
		}
	}
	return snaps, ys
}
