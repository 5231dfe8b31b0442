//go:build !race

package grizzbot

const raceEnabled = false
