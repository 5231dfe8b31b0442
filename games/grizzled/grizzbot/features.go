package grizzbot

import (
	"github.com/bivouac-ssh/bivouac/game"
	g "github.com/bivouac-ssh/bivouac/games/grizzled"
)

// numFeatures is the length of the feature vector of a state between
// missions (see features).
const numFeatures = 16

// features describes a game between two missions (or at any point, less
// precisely) for the value estimate: what is left to clear, the morale
// left, hard-knock weights, charms, speech tokens, and the table. The
// public view it reads is built in *v (scratch space, see playUntil).
func features(s *g.State, v *g.SeatView, f *[numFeatures]float64) {
	*f = [numFeatures]float64{}
	left, hands, maxW, sumW, heavy, charms := s.TrialsLeft(), 0, 0, 0, 0, 0
	humans := s.Humans()
	s.ViewInto(game.Spectator, v)
	tokens := v.SpeechSupply
	bad := 0
	for i := range v.Players {
		p := &v.Players[i]
		if p.Chaplain {
			continue
		}
		left += p.HandSize
		hands += p.HandSize
		maxW = max(maxW, p.Weight)
		sumW += p.Weight
		if p.Weight >= 3 {
			heavy++
		}
		if p.CharmAvailable {
			charms++
		}
		tokens += p.SpeechTokens
		for _, c := range p.HardKnocks {
			if c == g.Demoralized || c == g.Frenzied {
				bad++
			}
		}
	}
	m := float64(s.MoraleLeft())
	r := float64(left)
	f[0] = 1
	f[1] = r / 10
	f[2] = m / 10
	f[3] = float64(hands) / 10
	f[4] = float64(maxW)
	f[5] = float64(sumW) / 4
	f[6] = float64(heavy)
	f[7] = float64(charms) / float64(humans)
	f[8] = float64(tokens) / 4
	f[9] = float64(bad)
	f[10] = r * r / 100
	f[11] = m * m / 100
	f[12] = r * m / 100
	switch humans {
	case 2:
		f[13] = 1
	case 3:
		f[14] = 1
	case 5:
		f[15] = 1
	}
}
