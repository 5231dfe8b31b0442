//go:build !race

package wolfbot

const raceEnabled = false
