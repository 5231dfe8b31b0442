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
	seen, _ := s.store.(persistence.Sightings) // both stores keep them
	s.mod = moderation.New(moderation.Options{Store: ms, Admins: s.access, Log: s.log,
		OnAction: s.metrics.Moderated, Sightings: seen, KnownSince: s.knownSince, Vouched: s.access.Vouched})
}

// knownSince is since when a key has had a profile: a key known before a
// ban is let in from the banned player's address (moderation.Refused).
func (s *Server) knownSince(id string) (time.Time, bool) {
	prof, err := s.store.Player(id)
	if err != nil || prof.FirstSeen.IsZero() {
		return time.Time{}, false
	}
	return prof.FirstSeen, true
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
// with what is left of the ban (sshserver.Deps.Admit): a ban of their
// identity or their address, or one that holds their address for guests
// and keys new since (then they read that too). A session let in is
// noted for the admins (its address and key). While the node drains,
// every session is sent to another node (drain.go).
func (s *Server) admit(sess ssh.Session, id sshserver.Identity) (sshserver.Refusal, string) {
	if say := s.drainRefusal(sess); say != "" {
		return sshserver.RefusedDraining, say // this node is stopping: any other has every table
	}
	sn, ok := s.mod.Refused(visitor(id))
	if !ok {
		s.mod.Saw(moderation.Person{ID: id.ID, Addr: id.RemoteIP, Guest: id.Guest}, sshserver.AuthorizedKey(sess))
		return "", ""
	}
	return sshserver.RefusedBan, s.printer(sess).Msg(moderation.ExplainTo(sn, visitor(id), s.mod.Now()))
}

func visitor(id sshserver.Identity) moderation.Visitor {
	return moderation.Visitor{ID: id.ID, Guest: id.Guest, Addr: id.RemoteIP}
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

// register puts a player's session in the node's register until ctx ends
// (the session listens on the player bus already: Server.hereOnBus),
// notes the name its player goes by for the admins (admit noted the
// address and key), and ends it at once if a ban came meanwhile.
func (s *Server) register(ctx context.Context, id sshserver.Identity, p table.Player, ls *live.Session) {
	ls.Who, ls.Name, ls.Since = id, p.Name, time.Now()
	context.AfterFunc(ctx, s.live.Add(ls))
	s.mod.Saw(moderation.Person{ID: id.ID, Name: p.Name, Addr: id.RemoteIP, Guest: id.Guest}, "")
	if sn, ok := s.mod.Refused(visitor(id)); ok {
		ls.Send(tui.Control{End: moderation.ExplainTo(sn, visitor(id), s.mod.Now()), GiveUpSeat: true})
	}
}

// bannedPlayer reports whether a seated player is banned now
// (table.RoomConfig.Banned): their seat is given up as they leave it.
func (s *Server) bannedPlayer(identity string) bool {
	_, ok := s.mod.Banned(identity)
	return ok && !s.mod.IsAdmin(identity)
}
