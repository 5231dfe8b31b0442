package sshserver

import "github.com/charmbracelet/ssh"

// Refuse tells the player msg (already in their language) and ends the
// session with status 1, as the front door's own refusals do. The porch,
// before the server exists, refuses so; the server's own refusals go
// through RefuseFor, which counts them.
func Refuse(s ssh.Session, msg string) { refuse(s, msg) }

// RefuseFor is Refuse counting why for the operator (Deps.Refused) and
// writing it in the session's disconnect line.
func (s *Server) RefuseFor(sess ssh.Session, why Refusal, msg string) {
	s.markRefused(sess, why)
	refuse(sess, msg)
}
