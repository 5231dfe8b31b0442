package node

import (
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
)

// A drained node's player hears where each of their tables went (issue
// 41: a player with two tables heard only of the last, at the wrong
// node); a table not handed over is not named.
func TestDrainedWordsNameEveryTable(t *testing.T) {
	t.Parallel()
	handed := map[string]Handover{
		"AAAA": {Room: "AAAA", Node: "n2", Join: "ssh -p 2202 host"},
		"BBBB": {Room: "BBBB", Node: "n3", Join: "ssh -p 2203 host"},
		"CCCC": {Room: "CCCC"}, // no node took it in time
	}
	en := i18n.For(i18n.English)
	for _, c := range []struct {
		rooms      []string
		key        string
		has, hasnt []string
	}{
		{nil, "ssh.drain.other_node", []string{"ssh -p 2201 host"}, nil},
		{[]string{"CCCC"}, "ssh.drain.other_node", []string{"ssh -p 2201 host"}, []string{"CCCC"}},
		{[]string{"AAAA", "CCCC"}, "ssh.drain.table", []string{"AAAA", "ssh -p 2202 host"}, []string{"CCCC", "2201"}},
		{[]string{"AAAA", "BBBB"}, "ssh.drain.tables", []string{"AAAA (connect with ssh -p 2202 host)", "BBBB (connect with ssh -p 2203 host)"}, []string{"2201"}},
	} {
		m := drainedWords(c.rooms, handed, "ssh -p 2201 host")
		if m.Key != c.key {
			t.Errorf("%v: %s, want %s", c.rooms, m.Key, c.key)
		}
		said := en.Msg(m)
		for _, s := range c.has {
			if !strings.Contains(said, s) {
				t.Errorf("%v: %q does not say %q", c.rooms, said, s)
			}
		}
		for _, s := range c.hasnt {
			if strings.Contains(said, s) {
				t.Errorf("%v: %q says %q", c.rooms, said, s)
			}
		}
	}
}
