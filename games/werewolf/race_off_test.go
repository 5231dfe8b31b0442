//go:build !race

package werewolf

const raceEnabled = false
