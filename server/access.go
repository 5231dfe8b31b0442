package server

import (
	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/live"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/tui"
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
	cfg.Shared = s.cluster != nil // a change from the console goes to the store every node reads
	cfg.OnChange = s.accessChanged
	p, err := access.New(cfg)
	if err != nil {
		return err
	}
	if !p.HasAdmins() {
		s.log.Info(access.NoAdminsHint)
		s.notes = append(s.notes, game.M("op.note.no_admins"))
	}
	p.Watch()
	s.access = p
	return nil
}

// accessChanged ends what a change of the lists shuts out: the consoles
// of keys that are no longer admins', and, on a server with an
// allowlist, the sessions of keys it no longer lets in (each told in its
// language; their seats wait for them as after a lost connection).
func (s *Server) accessChanged(list string) {
	if s.access == nil || s.mod == nil || s.console == nil {
		return // the server is being made: nobody is in yet
	}
	if list == access.ListAdmins {
		if n := s.console.CloseRevoked(); n > 0 {
			s.log.Info("admin consoles closed: their keys are no longer admins'", "n", n)
		}
	}
	if !s.access.Restricted() {
		return
	}
	out := s.live.List(func(ls *live.Session) bool { return !ls.Who.Guest && !s.access.Admits(ls.Who.ID) })
	for _, ls := range out {
		ls.Send(tui.Control{End: game.M("access.revoked")})
	}
	if len(out) > 0 {
		s.log.Info("sessions ended: their keys are no longer let in", "n", len(out), "list", list)
	}
}

// Access is the server's record of who may come in and who is an admin.
func (s *Server) Access() *access.Policy { return s.access }

// ReloadAccess reads the operator's files again now (SIGHUP).
func (s *Server) ReloadAccess() { s.access.Reload() }

// accessGate is the Policy as the SSH server's Doorkeeper; redemptions
// go into the moderation log.
type accessGate struct {
	p *access.Policy
	s *Server
}

func (g accessGate) KeyEntry(fp, invite string) sshserver.KeyDecision {
	e := g.p.KeyEntry(fp, invite)
	return sshserver.KeyDecision{Refused: e.Refused, ByInvite: e.ByInvite, WrongCode: e.WrongCode}
}

// Redeem admits a newcomer's key by an invite, and keeps that in the
// moderation log: the key, the invite's tag, and who made it.
func (g accessGate) Redeem(fp, invite string) error {
	if err := g.p.Redeem(fp, invite); err != nil {
		return err
	}
	tag, by := access.TagOf(invite), ""
	if k, err := g.p.AdmittedKey(fp); err == nil {
		by = g.s.console.KeyName(k.By)
	}
	g.s.mod.Record(moderation.Person{ID: fp, Name: fp}, "redeem", tag, tag, by)
	return nil
}

func (g accessGate) GuestEntry(invite string) (game.Msg, bool) { return g.p.GuestEntry(invite) }
