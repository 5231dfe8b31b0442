package grizzbot

import (
	"context"
	"reflect"
	"testing"
)

// A calibration batch is the same whatever the number of workers, and
// keeps a chance for every mission's start and every decision of the
// person.
func TestCalibrateSameWhateverTheWorkers(t *testing.T) {
	c := CalibrationConfig{Pile: PileCampaign, Level: LevelEasy, Games: 4, Seed: 3, Budget: ReviewConfig{Samples: 8}}
	c.Workers = 1
	one, err := Calibrate(context.Background(), c, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	c.Workers = 2
	two, err := Calibrate(context.Background(), c, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Points, two.Points) || one.Wins != two.Wins {
		t.Fatal("the points depend on the number of workers")
	}
	starts := map[int]int{}
	for _, p := range one.Points {
		if p.Kind == PointStart {
			starts[p.Game]++
		}
		if p.Shown < 0 || p.Shown > 1 || p.Soldiers != 2+p.Game%4 || p.Easy != p.Soldiers-1 {
			t.Errorf("point %+v", p)
		}
	}
	if one.Games != 4 || len(starts) != 4 {
		t.Errorf("%d games, mission starts in %d", one.Games, len(starts))
	}
}
