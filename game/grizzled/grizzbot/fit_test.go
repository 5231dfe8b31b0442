package grizzbot

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"bivouac/game"
	g "bivouac/game/grizzled"
)

// TestFitValue fits valueWeights: FIT=20000 go test -run FitValue -v prints them.
func TestFitValue(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FIT"))
	if n == 0 {
		t.Skip()
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
				x, y := fitGame(t, i)
				mu.Lock()
				X = append(X, x...)
				Y = append(Y, y...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// IRLS with a little ridge.
	var w [numFeatures]float64
	for it := 0; it < 25; it++ {
		var H [numFeatures][numFeatures]float64
		var gr [numFeatures]float64
		ll := 0.0
		for r := range X {
			z := 0.0
			for j := range w {
				z += w[j] * X[r][j]
			}
			p := 1 / (1 + math.Exp(-z))
			ll += Y[r]*math.Log(p+1e-12) + (1-Y[r])*math.Log(1-p+1e-12)
			for j := range w {
				gr[j] += (Y[r] - p) * X[r][j]
				for k := range w {
					H[j][k] += p * (1 - p) * X[r][j] * X[r][k]
				}
			}
		}
		for j := range w {
			H[j][j] += 1e-3
			gr[j] -= 1e-3 * w[j]
		}
		d := solve(H, gr)
		for j := range w {
			w[j] += d[j]
		}
		t.Logf("it %d ll %.4f", it, ll/float64(len(X)))
	}
	fmt.Printf("samples %d\nvar valueWeights = [numFeatures]float64{", len(X))
	for j := range w {
		fmt.Printf("%.4f, ", w[j])
	}
	fmt.Println("}")
}

func solve(A [numFeatures][numFeatures]float64, b [numFeatures]float64) [numFeatures]float64 {
	n := numFeatures
	for c := 0; c < n; c++ {
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
	var x [numFeatures]float64
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
			features(s, &f)
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
