package server

import (
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
)

// playerNames is the lobby's tui.Names: the name book, which keeps names
// apart, behind two checks of the server's. A muted player keeps their
// name (a name is read in every lobby list: "visit evil dot com" is a
// line said to all), and a new name is the one `admin who` lists.
type playerNames struct{ s *Server }

// Rename moves player id from old to name, unless they are muted or the
// name book refuses it.
func (n playerNames) Rename(id, old, name string) error {
	if sn, ok := n.s.mod.Muted(id); ok {
		if sn.Permanent() {
			return game.NewError("moderation.mute.no_rename_for_good")
		}
		return &game.Error{Msg: game.M("moderation.mute.no_rename",
			game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat)))}
	}
	if err := n.s.names.Rename(id, old, name); err != nil {
		return err
	}
	n.s.live.Rename(id, name)
	if ls := n.s.live.Of(id); len(ls) > 0 { // the admins' history keeps every name
		n.s.mod.Saw(moderation.Person{ID: id, Name: name, Addr: ls[0].Who.RemoteIP, Guest: ls[0].Who.Guest}, "")
	}
	return nil
}
