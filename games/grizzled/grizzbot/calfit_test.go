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
//	go run ./games/grizzled/calibrate --games 300 --seed 101 --points fit.jsonl
//	CALFIT=fit.jsonl go test ./games/grizzled/grizzbot -run CalibrationFit -v
//
// prints them to paste into calibration.go. The table in docs/COACH.md
// is then measured on other seeds than the fit's.
func TestCalibrationFit(t *testing.T) {
	paths := strings.Fields(os.Getenv("CALFIT"))
	if len(paths) == 0 {
		t.Skip("CALFIT names files of calibration points")
	}
	X, Y, groups := readPoints(t, paths)
	w := fitLogistic(X, Y, 1e-2, 30, nil)
	fmt.Printf("var calibrationFit = [numCalFeatures]float64{")
	for j := range w {
		fmt.Printf("%.4f, ", w[j])
	}
	fmt.Println("}")
	showDeciles(t, "fit", w, X, Y, groups)
	// CALCHECK names points of other seeds, to see the fit on games it
	// did not see before pasting it.
	if check := strings.Fields(os.Getenv("CALCHECK")); len(check) > 0 {
		X, Y, groups := readPoints(t, check)
		showDeciles(t, "check", w, X, Y, groups)
	}
}

// readPoints reads calibration points: their features, results and
// pile/level.
func readPoints(t *testing.T, paths []string) (X [][]float64, Y []float64, groups []string) {
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
			f := calFeatures(p.Raw, p.Soldiers, p.Easy, p.Left, p.Morale, p.Trials)
			X = append(X, f[:])
			Y = append(Y, b2f(p.Won))
			groups = append(groups, p.Pile+"/"+p.Level)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return X, Y, groups
}

// showDeciles logs, by pile/level, each decile's mean chance and share
// won (deciles of 100 chances or more) and the worst gap.
func showDeciles(t *testing.T, what string, w []float64, X [][]float64, Y []float64, groups []string) {
	type cell struct{ n, pred, obs float64 }
	byGroup := map[string]*[10]cell{}
	for r := range X {
		p := logistic(w, X[r])
		pile, _, _ := strings.Cut(groups[r], "/")
		for _, g := range []string{groups[r], pile + "/all"} {
			if byGroup[g] == nil {
				byGroup[g] = &[10]cell{}
			}
			c := &byGroup[g][min(int(p*10), 9)]
			c.n++
			c.pred += p
			c.obs += Y[r]
		}
	}
	for gname, cells := range byGroup {
		line, worst := what+" "+gname+":", 0.0
		for _, c := range cells {
			if c.n >= 100 {
				line += fmt.Sprintf(" %.0f/%.0f", 100*c.pred/c.n, 100*c.obs/c.n)
				worst = max(worst, math.Abs(c.pred-c.obs)/c.n)
			} else {
				line += " -"
			}
		}
		t.Logf("%s; worst %.1f", line, 100*worst)
	}
}

func logistic(w, x []float64) float64 {
	z := 0.0
	for j := range w {
		z += w[j] * x[j]
	}
	return 1 / (1 + math.Exp(-z))
}

// fitLogistic is a ridge-regularised logistic regression of Y on the rows
// of X by IRLS (iteratively reweighted least squares), iters rounds; each
// round's mean log-likelihood goes to log, if not nil.
func fitLogistic(X [][]float64, Y []float64, ridge float64, iters int, log func(it int, ll float64)) []float64 {
	k := len(X[0])
	w := make([]float64, k)
	for it := range iters {
		H := make([][]float64, k)
		for j := range H {
			H[j] = make([]float64, k)
		}
		gr := make([]float64, k)
		ll := 0.0
		for r := range X {
			p := logistic(w, X[r])
			ll += Y[r]*math.Log(p+1e-12) + (1-Y[r])*math.Log(1-p+1e-12)
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
		d := solve(H, gr)
		for j := range k {
			w[j] += d[j]
		}
		if log != nil {
			log(it, ll/float64(len(X)))
		}
	}
	return w
}

// TestCalibrationIncreases checks that at every table the map from the
// raw mean to the chance shown rises on each stretch between its bends,
// so a better raw mean is never shown as a worse chance (nor a cost's
// sign turned).
func TestCalibrationIncreases(t *testing.T) {
	for soldiers := 2; soldiers <= 5; soldiers++ {
		for easy := 0; easy < soldiers; easy++ {
			for trials := 16; trials <= 30; trials++ {
				for left := 0; left <= 60; left++ {
					for morale := 0; morale <= 50; morale += 5 {
						c := calibrationAt(soldiers, easy, left, morale, trials)
						slope := c.b
						for k := range calKnots {
							if slope <= 0 {
								t.Fatalf("%d soldiers (%d easy), %d of %d cards left, morale %d: slope %.3f below logit %.1f",
									soldiers, easy, left, trials, morale, slope, calKnots[k])
							}
							slope += c.bend[k]
						}
						if slope <= 0 {
							t.Fatalf("%d soldiers (%d easy), %d of %d cards left, morale %d: slope %.3f above the last bend",
								soldiers, easy, left, trials, morale, slope)
						}
					}
				}
			}
		}
	}
}
