package server

import "strings"

// terminalVerbs are the commands a session with a terminal opens the TUI
// for (`ssh -t host join CODE`), each with the number of words that follow
// it. Any other command line runs as it would without a terminal
// (command), where an unknown one is an error: `ssh -t host frobnicate`
// is told so rather than left in the lobby. A command the TUI learns to
// open goes here ("plain" is sshserver's own: WantsPlain).
var terminalVerbs = map[string]int{
	"join":    1,
	"replay":  1,
	"review":  1,
	"profile": 0,
	"learn":   0,
}

// lineVerbs are the words command answers without a terminal; with
// terminalVerbs they are what the log may show of a command line (every
// other word is a tag: sshserver.Deps.Verb).
var lineVerbs = []string{"rooms", "tables", "ls", "help", "join", "learn", "profile", "replay", "review", "admin"}

// opensTUI reports whether a terminal session's command line is one the
// TUI opens (sshserver.Deps.Opens).
func opensTUI(args []string) bool {
	n, ok := terminalVerbs[strings.ToLower(args[0])]
	return ok && len(args) == 1+n
}

// isVerb reports whether word (lower case) is one of the server's commands.
func isVerb(word string) bool {
	_, ok := terminalVerbs[word]
	for _, v := range lineVerbs {
		ok = ok || v == word
	}
	return ok
}
