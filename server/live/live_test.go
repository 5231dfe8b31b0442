package live

import (
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver"
)

// The register lists sessions by name (case aside) then start, finds a
// player's sessions, and forgets each as its end comes.
func TestRegisterListsFindsAndForgets(t *testing.T) {
	var l Sessions
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	ada2 := &Session{Who: sshserver.Identity{ID: "SHA256:ada"}, Name: "ada", Since: t0.Add(time.Minute)}
	ada1 := &Session{Who: sshserver.Identity{ID: "SHA256:ada"}, Name: "Ada", Since: t0}
	bo := &Session{Who: sshserver.Identity{ID: "guest:bo", Guest: true}, Name: "bo", Since: t0}
	offBo := l.Add(bo)
	l.Add(ada2)
	offAda1 := l.Add(ada1)
	if got := l.List(nil); len(got) != 3 || got[0] != ada1 || got[1] != ada2 || got[2] != bo {
		t.Errorf("listed %v, want Ada, ada, bo", names(got))
	}
	if got := l.Of("SHA256:ada"); len(got) != 2 {
		t.Errorf("Ada's sessions: %v", names(got))
	}
	offAda1()
	offBo()
	if got := l.List(nil); len(got) != 1 || got[0] != ada2 {
		t.Errorf("after two ended: %v", names(got))
	}
	n := 0
	l.Each(func(*Session) { n++ })
	if n != 1 {
		t.Errorf("Each saw %d sessions, want 1", n)
	}
}

func names(ss []*Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

// A player who renames themselves is listed, and found, under the new
// name in all their sessions (issue 37 item 8: `admin who` kept the old).
func TestRenameIsWhatTheRegisterSays(t *testing.T) {
	var l Sessions
	a := &Session{Who: sshserver.Identity{ID: "SHA256:ann"}, Name: "ann"}
	b := &Session{Who: sshserver.Identity{ID: "SHA256:ann"}, Name: "ann", Since: time.Unix(1, 0)}
	c := &Session{Who: sshserver.Identity{ID: "SHA256:bo"}, Name: "bo"}
	for _, s := range []*Session{a, b, c} {
		l.Add(s)
	}
	l.Rename("SHA256:ann", "zed")
	got := l.List(nil)
	if len(got) != 3 || got[0] != c || got[1].DisplayName() != "zed" || got[2].DisplayName() != "zed" {
		t.Errorf("after ann became zed: %v", displayNames(got))
	}
	if c.DisplayName() != "bo" {
		t.Errorf("another player's name changed: %q", c.DisplayName())
	}
}

func displayNames(ss []*Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.DisplayName())
	}
	return out
}
