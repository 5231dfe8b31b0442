package server

import (
	"strings"
	"sync"

	"github.com/bivouac-ssh/bivouac/codes"
)

// guestNames gives keyless players without a usable user name a display
// name of their own, "guest-" and four random characters, drawn
// independently of their reclaim code (which is a secret); a guest who
// comes back with the code keeps the name while the server runs.
type guestNames struct {
	mu sync.Mutex
	by map[string]string // guest ID → name
}

// guestNamesKept bounds the memory: past it the oldest names are simply
// forgotten (a returning guest then gets a new one).
const guestNamesKept = 50000

func (g *guestNames) nameFor(id string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if n, ok := g.by[id]; ok {
		return n
	}
	if g.by == nil || len(g.by) >= guestNamesKept {
		g.by = map[string]string{}
	}
	n := "guest-" + strings.ToLower(codes.New(4))
	g.by[id] = n
	return n
}
