package plain

import (
	"strings"
	"sync"
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui"
)

// memRelations keeps lists in memory, as the server does a guest's.
type memRelations struct {
	mu    sync.Mutex
	lists map[string]*tui.PlayerLists
}

func (r *memRelations) Lists(p table.Player) (tui.PlayerLists, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.lists[p.ID]; l != nil {
		return *l, nil
	}
	return tui.PlayerLists{}, nil
}

func (r *memRelations) Set(p table.Player, which tui.RelationList, other tui.Person, on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lists == nil {
		r.lists = map[string]*tui.PlayerLists{}
	}
	l := r.lists[p.ID]
	if l == nil {
		l = &tui.PlayerLists{}
		r.lists[p.ID] = l
	}
	list := l.List(which)
	if on {
		*list = append(*list, other)
	} else {
		for i, q := range *list {
			if q.ID == other.ID {
				*list = append((*list)[:i], (*list)[i+1:]...)
				break
			}
		}
	}
	return nil
}

func (r *memRelations) has(id string, which tui.RelationList, other string) bool {
	l, _ := r.Lists(table.Player{ID: id})
	return l.Has(which, other)
}

type memReports struct {
	mu  sync.Mutex
	got []tui.Report
}

func (r *memReports) File(rep tui.Report) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, rep)
	return nil
}

func (r *memReports) all() []tui.Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tui.Report(nil), r.got...)
}

func peopleApp(t *testing.T) (*tui.App, *memRelations, *memReports) {
	a := testApp(t)
	rel, rep := &memRelations{}, &memReports{}
	a.Relations, a.Reports = rel, rep
	a.Room.Blocked = func(x, y string) bool { return rel.has(x, tui.BlockList, y) }
	return a, rel, rep
}

// TestPlainIgnoreBlockReportRemove: the plain-mode commands do what the
// picker does, by name.
func TestPlainIgnoreBlockReportRemove(t *testing.T) {
	a, rel, rep := peopleApp(t)
	alice := start(t, a, "fp-alice", "alice")
	alice.do("new coin 2", "Table")
	code := a.Hub.List()[0].Code
	bob := start(t, a, "fp-bob", "bob")
	from := len(alice.out.String())
	bob.do("join "+code, "bob")
	alice.wait(from, "bob")
	from = len(alice.out.String())
	bob.do("say hello all", "bob: hello all")
	alice.wait(from, "bob: hello all")

	alice.do("ignore nobody", "nobody called nobody sits at this table")
	alice.do("ignore BOB", "Ignored: bob.")
	alice.do("ignored", "Ignored: bob.")
	from = len(alice.out.String())
	bob.do("say second line", "bob: second line")
	bob.do("say third line", "bob: third line")
	alice.do("say marker", "alice: marker")
	if strings.Contains(alice.out.String()[from:], "second line") {
		t.Fatalf("plain mode printed the chat of an ignored player:\n%s", alice.out.String()[from:])
	}
	alice.do("unignore bob", "No longer ignored: bob.")
	alice.do("block bob", "Blocked: bob.")
	if !rel.has("fp-alice", tui.BlockList, "fp-bob") {
		t.Fatal("the block was not kept")
	}
	alice.do("blocked", "Blocked: bob.")
	alice.do("report bob", "report NAME REASON")
	alice.do("report bob sells gold", "has reached the admins")
	if r := rep.all(); len(r) != 1 || r[0].Reason != "sells gold" || r[0].About != "fp-bob" {
		t.Fatalf("reports: %+v", r)
	}
	from = len(bob.out.String())
	alice.do("remove bob", "cannot come back")
	bob.wait(from, `The host removed you`)
	alice.do("leave", "")
	alice.do("unblock bob", "No longer blocked: bob.")
	alice.do("blocked", "You block nobody.")
}
