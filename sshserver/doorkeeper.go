package sshserver

import (
	"errors"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
	"github.com/bivouac-ssh/bivouac/words"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Doorkeeper decides who may come in, at authentication (Deps.Doorkeeper): an
// allowlist, invites, guests turned away. Its methods are called on the
// connection's handshake goroutine and may read a store.
type Doorkeeper interface {
	// KeyEntry is asked when a client offers a key (fp, its fingerprint),
	// before the client proved it holds it, so it must change nothing.
	// invite is the code of an InvitePrefix user name, "" for any other.
	KeyEntry(fp, invite string) KeyDecision
	// Redeem is called once the client proved it holds a key KeyEntry let
	// in ByInvite: it spends a use of the invite on that key. An error
	// refuses the key.
	Redeem(fp, invite string) error
	// GuestEntry is asked for a client without a key: why it is refused
	// (zero: guests are welcome), and whether its invite code was a
	// wrong guess.
	GuestEntry(invite string) (refused words.Msg, wrongCode bool)
}

// KeyDecision is a Doorkeeper's decision on an offered key.
type KeyDecision struct {
	Refused   words.Msg // zero: come in
	ByInvite  bool      // come in by the invite: Redeem once the key is proven
	WrongCode bool      // the invite code is no live invite's: a guess
}

// ParseInviteCode reports whether a user name names an invite
// (`ssh invite-CODE@host`: InvitePrefix), and its code in canonical form
// (codes.Normalize; its validity is the Doorkeeper's business). Such a
// name is a secret (SecretUser).
func ParseInviteCode(user string) (string, bool) {
	user = strings.TrimSpace(user)
	if len(user) < len(InvitePrefix) || !strings.EqualFold(user[:len(InvitePrefix)], InvitePrefix) {
		return "", false
	}
	return codes.Normalize(user[len(InvitePrefix):]), true
}

// Connection values of the doorkeeper, written during authentication.
type (
	keyRefusalKey  struct{} // words.Msg: why the last key offered was refused
	doorRefusalKey struct{} // words.Msg: authentication accepted only to say why the client is refused
	wrongCodeKey   struct{} // wrongGuess: this connection's wrong invite code, counted once
	blockedKey     struct{} // bool: this connection waited out its address's guesses once
)

type wrongGuess struct {
	code    string
	refused words.Msg
}

var msgTooManyGuesses = words.M("ssh.door.too_many_guesses")

// publicKey is the PublicKeyHandler with a Doorkeeper: the key is recorded as
// offered (see acceptAnyKey) if the doorkeeper lets it in, and refused otherwise
// so that the client offers its next key. The last refusal is kept for
// keyboardLogin to tell.
func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	fp := gossh.FingerprintSHA256(key)
	code, invite := ParseInviteCode(ctx.User())
	if invite {
		if m, blocked := s.guessBlocked(ctx, code); blocked {
			// The code is not looked at again; a key let in on its own
			// (an admin's, a listed one) still comes in.
			if e := s.deps.Doorkeeper.KeyEntry(fp, ""); !e.Refused.IsZero() {
				ctx.SetValue(keyRefusalKey{}, m)
				return false
			}
			return acceptAnyKey(ctx, key)
		}
	}
	e := s.deps.Doorkeeper.KeyEntry(fp, code)
	if e.WrongCode {
		s.wrongCode(ctx, code, e.Refused)
	}
	if !e.Refused.IsZero() {
		ctx.SetValue(keyRefusalKey{}, e.Refused)
		return false
	}
	if e.ByInvite {
		setExt(ctx.Permissions(), extRedeem, code)
	}
	return acceptAnyKey(ctx, key)
}

// extRedeem marks an offered key that comes in by an invite: its code, to
// redeem once the key is proven (verifiedKey).
const extRedeem = "bivouac-redeem"

// redeem spends the invite an offered key came in by, now that the client
// proved it holds the key; false refuses the key.
func (s *Server) redeem(ctx ssh.Context, fp string, perms *gossh.Permissions) bool {
	code := perms.Extensions[extRedeem]
	if code == "" || s.deps.Doorkeeper == nil {
		return true
	}
	if err := s.deps.Doorkeeper.Redeem(fp, code); err != nil {
		s.log.Info("invite refused", "remote", ctx.RemoteAddr().String(), "key", fp, "err", err)
		ctx.SetValue(keyRefusalKey{}, words.M("ssh.door.invite_spent"))
		return false
	}
	return true
}

// keyboardLogin is the keyboard-interactive handler with a Doorkeeper. A
// client turned away (its keys refused, no key while guests are not
// welcome, a wrong invite code) is let through authentication only to be
// told why in its own language (doorRefusal); it gets no identity. Welcome
// guests go on to guestLogin.
func (s *Server) keyboardLogin(ctx ssh.Context, ch gossh.KeyboardInteractiveChallenge) bool {
	if m, ok := ctx.Value(keyRefusalKey{}).(words.Msg); ok && !m.IsZero() {
		return s.toldAtTheDoor(ctx, m)
	}
	code, invite := ParseInviteCode(ctx.User())
	if invite {
		if m, blocked := s.guessBlocked(ctx, code); blocked {
			return s.toldAtTheDoor(ctx, m)
		}
	}
	refused, wrong := s.deps.Doorkeeper.GuestEntry(code)
	if wrong {
		s.wrongCode(ctx, code, refused)
	}
	if !refused.IsZero() {
		return s.toldAtTheDoor(ctx, refused)
	}
	if !s.cfg.AllowGuests {
		return false
	}
	return s.guestLogin(ctx, ch)
}

// toldAtTheDoor authenticates a refused client only so that doorRefusal
// can tell it m. It passes through authenticated like any login: the caps
// hold for it too.
func (s *Server) toldAtTheDoor(ctx ssh.Context, m words.Msg) bool {
	ctx.SetValue(doorRefusalKey{}, m)
	return s.authenticated(ctx)
}

// guessBlocked reports whether the invite code may not be looked at now,
// and what to say instead. The code this connection already guessed wrong
// gets the same answer again without counting twice (a client offering
// three keys made one guess). Any other code is a new guess, refused
// while the address must wait (Guesses): the attempt is held for that
// wait first (at most maxAuthDelay, once per connection), as a wrong
// reclaim code is. A client cannot try codes faster by changing its user
// name between attempts on one connection.
func (s *Server) guessBlocked(ctx ssh.Context, code string) (words.Msg, bool) {
	if g, ok := ctx.Value(wrongCodeKey{}).(wrongGuess); ok && g.code == code {
		return g.refused, true
	}
	if waited, _ := ctx.Value(blockedKey{}).(bool); waited {
		return msgTooManyGuesses, true
	}
	addr := ctx.RemoteAddr().String()
	wait := s.guesses.Wait(addr)
	if wait <= 0 {
		return words.Msg{}, false
	}
	ctx.SetValue(blockedKey{}, true)
	s.log.Info("invite code refused: too many wrong codes", "remote", addr, "wait", wait.Round(time.Second))
	sleepAtMost(ctx, wait)
	return msgTooManyGuesses, true
}

// wrongCode counts a wrong invite code against the address and holds the
// attempt for the delay it earned.
func (s *Server) wrongCode(ctx ssh.Context, code string, refused words.Msg) {
	ctx.SetValue(wrongCodeKey{}, wrongGuess{code: code, refused: refused})
	addr := ctx.RemoteAddr().String()
	wait := s.guesses.Wrong(addr)
	s.log.Info("unknown invite code", "remote", addr, "next_guess_in", wait)
	sleepAtMost(ctx, wait)
}

// doorRefusal tells a client the Doorkeeper turned away why, in its language,
// and ends its connection shortly after: it was authenticated only for
// that.
func (s *Server) doorRefusal(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		m, _ := sess.Context().Value(doorRefusalKey{}).(words.Msg)
		if m.IsZero() {
			next(sess)
			return
		}
		s.markRefused(sess, doorRefusal(m))
		refuse(sess, Printer(sess).Msg(m))
		if c, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
			time.AfterFunc(messageTimeout, func() { c.Close() })
		}
	}
}

// doorRefusal is the Refusal of a Doorkeeper's message (or of the door's
// own about wrong codes).
func doorRefusal(m words.Msg) Refusal {
	switch m.Key {
	case msgTooManyGuesses.Key:
		return RefusedGuesses
	case "ssh.door.invite_spent", "access.invite_bad", "access.invite_needs_key":
		return RefusedInvite
	case "access.unavailable":
		return RefusedUnavailable
	}
	return RefusedAllowlist // access.not_allowed, access.no_guests
}

// offeredKey is the PublicKeyHandler: acceptAnyKey, or the Doorkeeper's say.
func (s *Server) offeredKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if s.deps.Doorkeeper == nil {
		return acceptAnyKey(ctx, key)
	}
	return s.publicKey(ctx, key)
}

var errNotAdmitted = errors.New("sshserver: the invite could not be redeemed")
