package server

import (
	"strings"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sshserver"

	"github.com/charmbracelet/ssh"
)

// command answers `ssh host CMD` without a PTY: `admin …` is the admin
// console's (package admin), every other command the players'
// (package commands).
func (s *Server) command(sess ssh.Session, args []string) int {
	p := s.printer(sess)
	if strings.EqualFold(args[0], "admin") {
		return s.console.Run(sess, p, args[1:])
	}
	if strings.EqualFold(args[0], "notify") {
		return s.notifyCommand(sess, p, args[1:])
	}
	return s.commands.Run(sess, p, args)
}

// printer is the language a command answers in: the session's
// environment's, else the player's saved choice, else English.
func (s *Server) printer(sess ssh.Session) *i18n.Printer {
	if l, ok := i18n.FromEnv(sess.Environ()); ok {
		return i18n.For(l)
	}
	if id, ok := sshserver.IdentityOf(sess); ok && !id.Guest {
		if prof, err := s.store.Player(id.ID); err == nil {
			if l, ok := i18n.Parse(prof.Lang); ok {
				return i18n.For(l)
			}
		}
	}
	return i18n.For(i18n.English)
}

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
	"play":    1,
}

// lineVerbs are the words command answers without a terminal; with
// terminalVerbs they are what the log may show of a command line (every
// other word is a tag: sshserver.Deps.Verb).
var lineVerbs = []string{"rooms", "tables", "ls", "help", "join", "learn", "profile", "replay", "review", "admin", "notify", "games", "play", "friends", "friend", "unfriend"}

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
