package grizzbot

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestCalibrationFit fits the calibration's coefficients (calibrationFit)
// to the chances a calibration run kept:
//
//	bivouac sim --calibrate --games 300 --seed 101 --points fit.jsonl
//	CALFIT=fit.jsonl go test ./game/grizzled/grizzbot -run CalibrationFit -v
//
// prints them to paste into calibration.go. The table in docs/COACH.md
// is then measured on other seeds than the fit's.
func TestCalibrationFit(t *testing.T) {
	paths := strings.Fields(os.Getenv("CALFIT"))
	if len(paths) == 0 {
		t.Skip("CALFIT names files of calibration points")
	}
	var X [][numCalFeatures]float64
	var Y []float64
	var groups []string
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var p struct {
				Pile, Level string
				CalibrationPoint
			}
			if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			X = append(X, calFeatures(p.Raw, p.Soldiers, p.Easy, p.Left, p.Morale, p.Trials))
			Y = append(Y, b2f(p.Won))
			groups = append(groups, p.Pile+"/"+p.Level)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	w := fitLogistic(X, Y, 1e-2)
	fmt.Printf("var calibrationFit = [numCalFeatures]float64{")
	for j := range w {
		fmt.Printf("%.4f, ", w[j])
	}
	fmt.Println("}")
	// In-sample deciles by group: a first look, not the published table.
	type cell struct{ n, pred, obs float64 }
	byGroup := map[string]*[10]cell{}
	for r := range X {
		p := logistic(w[:], X[r][:])
		if byGroup[groups[r]] == nil {
			byGroup[groups[r]] = &[10]cell{}
		}
		c := &byGroup[groups[r]][min(int(p*10), 9)]
		c.n++
		c.pred += p
		c.obs += Y[r]
	}
	for gname, cells := range byGroup {
		line := gname + ":"
		for _, c := range cells {
			if c.n >= 100 {
				line += fmt.Sprintf(" %.0f/%.0f", 100*c.pred/c.n, 100*c.obs/c.n)
			} else {
				line += " -"
			}
		}
		t.Log(line)
	}
}

func logistic(w, x []float64) float64 {
	z := 0.0
	for j := range w {
		z += w[j] * x[j]
	}
	return 1 / (1 + math.Exp(-z))
}

// fitLogistic is a ridge-regularised logistic regression by IRLS.
func fitLogistic(X [][numCalFeatures]float64, Y []float64, ridge float64) [numCalFeatures]float64 {
	const k = numCalFeatures
	var w [k]float64
	for range 30 {
		var H [k][k]float64
		var gr [k]float64
		for r := range X {
			p := logistic(w[:], X[r][:])
			for j := range k {
				gr[j] += (Y[r] - p) * X[r][j]
				for l := range k {
					H[j][l] += p * (1 - p) * X[r][j] * X[r][l]
				}
			}
		}
		for j := range k {
			H[j][j] += ridge
			gr[j] -= ridge * w[j]
		}
		d := solveN(H, gr)
		for j := range k {
			w[j] += d[j]
		}
	}
	return w
}

// solveN solves A x = b by Gaussian elimination with partial pivoting.
func solveN(A [numCalFeatures][numCalFeatures]float64, b [numCalFeatures]float64) [numCalFeatures]float64 {
	n := numCalFeatures
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
			for l := c; l < n; l++ {
				A[r][l] -= f * A[c][l]
			}
			b[r] -= f * b[c]
		}
	}
	var x [numCalFeatures]float64
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for l := r + 1; l < n; l++ {
			s -= A[r][l] * x[l]
		}
		x[r] = s / A[r][r]
	}
	return x
}
