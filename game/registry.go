package game

// Entry is a game as a server offers it: its rules and, when it has any,
// its bots.
type Entry struct {
	Game Game
	Bots Bots // nil: no bots for this game
}

// Registry is the games a server offers, in the order its lobby lists
// them. It is the one list the server, the screens and the replays look
// games up in.
type Registry []Entry

// Lookup finds the game with this ID.
func (r Registry) Lookup(id string) (Entry, bool) {
	for _, e := range r {
		if e.Game.ID() == id {
			return e, true
		}
	}
	return Entry{}, false
}
