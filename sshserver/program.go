package sshserver

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
)

// program runs a PTY session's Bubble Tea program (Deps.Programs) for as
// long as the session's channel lives: window sizes go to the program, and
// when the channel ends the context the program was built with ends too,
// which stops the program and everything that waits on that context, even
// though the connection may live on (OpenSSH's ControlMaster keeps it open
// across sessions).
//
// It replaces wish's bubbletea middleware, which tied the program to the
// connection's context and, once the session's window-change channel was
// closed, spun on it sending empty sizes until the connection ended.
//
// Sessions without a PTY, and PTY sessions Programs has no program for,
// go on down the chain (noProgram says so to the latter).
func (s *Server) program(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		_, winch, hasPty := sess.Pty()
		if !hasPty || s.deps.Programs == nil {
			if hasPty {
				s.noProgramFor.Store(sess, true)
			}
			next(sess)
			return
		}
		ctx, cancel := context.WithCancel(sess.Context())
		defer cancel()
		p := s.deps.Programs(ctx, sess)
		if p == nil {
			s.noProgramFor.Store(sess, true)
			next(sess)
			return
		}
		go func() {
			for {
				select {
				case <-ctx.Done():
					p.Quit()
					return
				case w, open := <-winch:
					if !open { // the session's channel is gone
						cancel()
						p.Quit()
						return
					}
					p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				}
			}
		}()
		if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
			s.log.Warn("program ended with an error", "session", shortID(sess), "err", err)
		}
		p.Kill() // restores the terminal if the program did not get to
		next(sess)
	}
}
