//go:build race

package grizzbot

const raceEnabled = true
