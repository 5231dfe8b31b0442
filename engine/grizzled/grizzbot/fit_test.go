package grizzbot

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"bivouac/engine"
	g "bivouac/engine/grizzled"
)

// TestFitValue fits valueWeights: FIT=20000 go test -run FitValue -v prints them.
func TestFitValue(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FIT"))
	if n == 0 {
		t.Skip()
	}
	var X [][numFeatures]float64
	var Y []float64
	for i := range n {
		humans := []int{2, 3, 4, 4, 4, 5}[i%6]
		s := newGame(t, humans, g.Standard, uint64(9000000+i))
		bots := make([]engine.Bot, s.Seats())
		var snaps [][numFeatures]float64
		e := NewEasy()
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
			s.Step(seat, a.(g.Action))
		}
		_ = bots
		won, _ := s.Over()
		y := 0.0
		if won {
			y = 1
		}
		for _, f := range snaps {
			X = append(X, f)
			Y = append(Y, y)
		}
	}
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
