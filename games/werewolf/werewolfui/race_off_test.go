//go:build !race

package werewolfui

const raceOn = false
