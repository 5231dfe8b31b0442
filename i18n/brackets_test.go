package i18n_test

import (
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
)

// A bot's name carries its mark in brackets ("Hugo (бот)"), so a message
// that puts a player's name in brackets nests them: "Провидица (Hugo
// (бот))" (issue 30). No message of any language, given a bot's name
// for every argument that names a player, brackets brackets.
func TestABotsNameIsNeverBracketedAgain(t *testing.T) {
	bot := "Hugo" + game.BotMark
	for _, l := range i18n.Langs {
		p := i18n.For(l)
		msgs := i18n.Messages(p)
		keys := make([]string, 0, len(msgs))
		for k := range msgs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			var args []game.Arg
			for _, a := range i18n.Args(p, k) {
				switch {
				case a == "Count":
					args = append(args, game.Count(2))
				case playerArgs[a]:
					args = append(args, game.Text(a, bot))
				default:
					args = append(args, game.Text(a, "x"))
				}
			}
			if s := p.T(k, args...); nestedBrackets(s) {
				t.Errorf("%s %s: %q", l, k, s)
			}
		}
	}
}

// playerArgs are the arguments that name a player (or players).
var playerArgs = map[string]bool{"Player": true, "Target": true, "A": true, "B": true, "Victim": true, "Whom": true,
	"Players": true, "Reporter": true, "Subject": true, "Other": true, "Others": true, "Names": true}

// nestedBrackets: s opens a bracket inside another.
func nestedBrackets(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			if depth++; depth > 1 {
				return true
			}
		case ')':
			depth = max(depth-1, 0)
		}
	}
	return false
}
