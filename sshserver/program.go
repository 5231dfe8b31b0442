package sshserver

import (
	"context"
	"errors"
	"sync/atomic"

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
		claim := &winchClaim{ch: winch}
		p := s.deps.Programs(context.WithValue(ctx, winchKey{}, claim), sess)
		if p == nil {
			s.noProgramFor.Store(sess, true)
			next(sess)
			return
		}
		if !claim.claimed.Load() { // else the program's builder delivers the sizes
			go forwardSizes(ctx, cancel, p, winch)
		}
		if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
			s.log.Warn("program ended with an error", "session", shortID(sess), "err", err)
		}
		p.Kill() // restores the terminal if the program did not get to
		next(sess)
	}
}

// forwardSizes sends the session's window sizes to p until the session's
// channel or ctx ends, then quits p.
func forwardSizes(ctx context.Context, cancel context.CancelFunc, p *tea.Program, winch <-chan ssh.Window) {
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
}

// winchClaim offers a session's window sizes to the builder of its
// program (ClaimWindowChanges).
type winchClaim struct {
	ch      <-chan ssh.Window
	claimed atomic.Bool
}

type winchKey struct{}

// ClaimWindowChanges hands the session's window sizes to the caller of
// Deps.Programs, with the context Programs was given: the first is the
// PTY's, and the channel closes when the session's channel does. The
// caller then sends each size to the program (tea.WindowSizeMsg) and ends
// the program when the channel closes, and the session spares the
// goroutine that would do it (ten thousand of them at ten thousand
// players). ok is false for any other context, or once claimed.
func ClaimWindowChanges(ctx context.Context) (sizes <-chan ssh.Window, ok bool) {
	c, _ := ctx.Value(winchKey{}).(*winchClaim)
	if c == nil || c.ch == nil || !c.claimed.CompareAndSwap(false, true) {
		return nil, false
	}
	return c.ch, true
}
