package server

import (
	"bivouac/access"
)

// openAccess reads the operator's key files (admins, allowlist) and starts
// following their changes. Without an admins file it says at start how to
// name one.
func (s *Server) openAccess() error {
	cfg := s.cfg.Access
	if cfg.Log == nil {
		cfg.Log = s.log
	}
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
