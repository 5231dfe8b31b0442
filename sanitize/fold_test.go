package sanitize

import "testing"

func TestFoldMakesLookAlikesEqual(t *testing.T) {
	same := [][]string{
		{"alice", "Alice", "ALICE", "Аlice", "аlісе", "A.lice", "a lice", "Álice", "alíce", "ａｌｉｃｅ"},
		{"Bob", "ВОВ", "B0b", "b-o-b"},
		{"Paweł", "Pawel", "PAWEŁ"},
		{"kate22", "Kate22", "kаte22"},
		{"Anna", "Аnnа"},
	}
	for _, group := range same {
		want := Fold(group[0])
		for _, n := range group[1:] {
			if got := Fold(n); got != want {
				t.Errorf("Fold(%q) = %q, Fold(%q) = %q: want them equal", n, got, group[0], want)
			}
		}
	}
	differ := [][2]string{{"alice", "alicia"}, {"Алиса", "alice"}, {"bob", "bobby"}, {"Ann", "Anne"}, {"Zoë", "Zoe2"}}
	for _, p := range differ {
		if Fold(p[0]) == Fold(p[1]) {
			t.Errorf("Fold(%q) == Fold(%q) = %q: they read differently", p[0], p[1], Fold(p[0]))
		}
	}
}
