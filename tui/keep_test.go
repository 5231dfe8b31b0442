package tui

import (
	"slices"
	"sync"
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
)

// keptProfiles records whom Keep was asked to store.
type keptProfiles struct {
	memProfiles
	mu   sync.Mutex
	kept []string
}

func (p *keptProfiles) Keep(pl table.Player) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kept = append(p.kept, pl.ID+"="+pl.Name)
}

func (p *keptProfiles) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.kept)
}

// A key's profile is worth storing once it takes a seat: watching a
// table, like looking at the lobby, keeps nothing.
func TestTakingASeatKeepsTheProfileWatchingDoesNot(t *testing.T) {
	a := testApp(t)
	profs := &keptProfiles{memProfiles: memProfiles{}}
	a.Profiles = profs
	alice := newSession(t, a, "fp-alice", "alice")
	if got := profs.got(); len(got) != 0 {
		t.Fatalf("kept %v before anyone sat", got)
	}
	alice.keys("n", "enter")
	code := codeRe.FindStringSubmatch(alice.pump(`Table [A-Z0-9]{4}`))[1]
	if got := profs.got(); !slices.Equal(got, []string{"fp-alice=alice"}) {
		t.Fatalf("after alice sat: kept %v", got)
	}
	bob := newSession(t, a, "fp-bob", "bob")
	bob.send(joinMsg{code: code, watch: true})
	bob.pump(`Table ` + code)
	if got := profs.got(); len(got) != 1 {
		t.Fatalf("a watcher was kept: %v", got)
	}
}
