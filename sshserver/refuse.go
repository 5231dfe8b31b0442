package sshserver

import "github.com/charmbracelet/ssh"

// Refuse tells the player msg (already in their language) and ends the
// session with status 1, as the front door's own refusals do.
func Refuse(s ssh.Session, msg string) { refuse(s, msg) }
