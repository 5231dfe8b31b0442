package server

import (
	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sshserver"
)

// openAccess reads the operator's key files (admins, allowlist) and starts
// following their changes; invites live in the store. Without an admins
// file it says at start how to name one.
func (s *Server) openAccess() error {
	cfg := s.cfg.Access
	if cfg.Log == nil {
		cfg.Log = s.log
	}
	if cfg.Store == nil {
		cfg.Store, _ = s.store.(persistence.AccessStore)
	}
	cfg.NoGuests = cfg.NoGuests || !s.cfg.Guests
	p, err := access.New(cfg)
	if err != nil {
		return err
	}
	if !p.HasAdmins() {
		s.log.Info(access.NoAdminsHint)
	}
	p.Watch()
	s.access = p
	return nil
}

// Access is the server's record of who may come in and who is an admin.
func (s *Server) Access() *access.Policy { return s.access }

// ReloadAccess reads the operator's files again now (SIGHUP).
func (s *Server) ReloadAccess() { s.access.Reload() }

// accessGate is the Policy as the SSH server's Doorkeeper.
type accessGate struct{ p *access.Policy }

func (g accessGate) KeyEntry(fp, invite string) sshserver.KeyDecision {
	e := g.p.KeyEntry(fp, invite)
	return sshserver.KeyDecision{Refused: e.Refused, ByInvite: e.ByInvite, WrongCode: e.WrongCode}
}

func (g accessGate) Redeem(fp, invite string) error { return g.p.Redeem(fp, invite) }

func (g accessGate) GuestEntry(invite string) (game.Msg, bool) { return g.p.GuestEntry(invite) }
