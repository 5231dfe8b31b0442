package vterm

import "github.com/charmbracelet/x/ansi"

func ansiWidth(r rune) int { return ansi.StringWidth(string(r)) }
