package server

import (
	"context"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/live"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"

	"github.com/charmbracelet/ssh"
)

// openModeration makes the node's moderation on its store, with the
// access policy's admins; Watch ends the sessions here of a player banned
// on another node (started by watchModeration).
func (s *Server) openModeration() {
	ms, _ := s.store.(persistence.Moderation) // both stores are
	if s.cfg.moderationStore != nil {
		ms = s.cfg.moderationStore(ms)
	}
	s.mod = moderation.New(moderation.Options{Store: ms, Admins: s.access, Log: s.log,
		OnAction: s.metrics.Moderated})
}

// watchModeration follows bans made on other nodes until ctx ends.
func (s *Server) watchModeration(ctx context.Context) {
	s.beating.Add(1)
	go func() {
		defer s.beating.Done()
		s.mod.Watch(ctx, func(sn moderation.Sanction) { s.here.EnforceBan(sn) })
	}()
}

// Moderation is the node's moderation: sanctions, audit log, reports.
func (s *Server) Moderation() *moderation.Service { return s.mod }

// admit refuses a banned player at the door, in the session's language,
// with what is left of the ban (sshserver.Deps.Admit). A guest's ban
// holds its address too: a new guest from there is the same person. While
// the node drains, every session is sent to another node (drain.go).
func (s *Server) admit(sess ssh.Session, id sshserver.Identity) (sshserver.Refusal, string) {
	if say := s.drainRefusal(sess); say != "" {
		return sshserver.RefusedDraining, say // this node is stopping: any other has every table
	}
	sn, ok := s.mod.Banned(id.ID, guestAddr(id))
	if !ok || s.mod.IsAdmin(id.ID) {
		return "", ""
	}
	return sshserver.RefusedBan, s.printer(sess).Msg(moderation.Explain(sn, s.mod.Now()))
}

func guestAddr(id sshserver.Identity) string {
	if id.Guest {
		return id.RemoteIP
	}
	return ""
}

// mayChat refuses a muted player's lines at every table (table.RoomConfig.MayChat).
func (s *Server) mayChat(identity string) error {
	if sn, ok := s.mod.Muted(identity); ok {
		return moderation.MutedError(sn, s.mod.Now())
	}
	return nil
}

// drainRefusal is why a session is refused while the node drains, in its
// language ("" when it is not draining).
func (s *Server) drainRefusal(sess ssh.Session) string {
	if s.drainingTo == nil {
		return ""
	}
	join := s.drainingTo()
	if join == "" {
		return ""
	}
	return s.printer(sess).T("ssh.drain.other_node", game.Text("Join", join))
}

// register puts a player's session in the node's register until ctx ends,
// and ends it at once if its player was banned meanwhile.
func (s *Server) register(ctx context.Context, id sshserver.Identity, p table.Player, ls *live.Session) {
	ls.Who, ls.Name, ls.Since = id, p.Name, time.Now()
	context.AfterFunc(ctx, s.live.Add(ls))
	s.hereOnBus(ctx, id.ID)
	if sn, ok := s.mod.Banned(id.ID, guestAddr(id)); ok && !s.mod.IsAdmin(id.ID) {
		ls.Send(tui.Control{End: moderation.Explain(sn, s.mod.Now()), GiveUpSeat: true})
	}
}

// bannedPlayer reports whether a seated player is banned now
// (table.RoomConfig.Banned): their seat is given up as they leave it.
func (s *Server) bannedPlayer(identity string) bool {
	_, ok := s.mod.Banned(identity, "")
	return ok && !s.mod.IsAdmin(identity)
}
