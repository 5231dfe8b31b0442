package sanitize

import "testing"

func TestFoldMakesLookAlikesEqual(t *testing.T) {
	same := [][]string{
		{"alice", "Alice", "ALICE", "Аlice", "аlісе", "A.lice", "a lice", "Álice", "alíce", "ａｌｉｃｅ"},
		{"Bob", "ВОВ", "B0b", "b-o-b"},
		{"Paweł", "Pawel", "PAWEŁ"},
		{"kate22", "Kate22", "kаte22"},
		{"Anna", "Аnnа"},
		// Issue 36: accepted beside alice and the bot Bruno.
		{"alice", "ɑlice", "Ꭺlice", "ᴀlice", "alicᥱ", "ＡＬＩＣＥ", "𝖆𝖑𝖎𝖈𝖊"},
		{"Bruno", "Brunօ", "Вrunо", "BRUN0"},
		{"admin", "аdmin", "ADMlN", "ɑdmin"},
		{"Emma", "Ernrna"},
	}
	for _, group := range same {
		want := Fold(group[0])
		for _, n := range group[1:] {
			if got := Fold(n); got != want {
				t.Errorf("Fold(%q) = %q, Fold(%q) = %q: want them equal", n, got, group[0], want)
			}
		}
	}
	differ := [][2]string{{"alice", "alicia"}, {"Алиса", "alice"}, {"bob", "bobby"}, {"Ann", "Anne"}, {"Zoë", "Zoe2"},
		{"Маша", "Саша"}, {"Ёж", "Уж"}, {"Łukasz", "Lukasza"}}
	for _, p := range differ {
		if Fold(p[0]) == Fold(p[1]) {
			t.Errorf("Fold(%q) == Fold(%q) = %q: they read differently", p[0], p[1], Fold(p[0]))
		}
	}
}

func TestConfusablesTableIsSortedAndCurrent(t *testing.T) {
	if ConfusablesVersion < "16" {
		t.Errorf("confusables data of Unicode %s: regenerate it (go generate ./sanitize)", ConfusablesVersion)
	}
	if len(confusableFrom) != len(confusableTo) || len(confusableFrom) < 6000 {
		t.Fatalf("%d characters, %d prototypes", len(confusableFrom), len(confusableTo))
	}
	for i := 1; i < len(confusableFrom); i++ {
		if confusableFrom[i-1] >= confusableFrom[i] {
			t.Fatalf("not sorted at %d: %U then %U", i, confusableFrom[i-1], confusableFrom[i])
		}
	}
	if p, ok := prototype('ɑ'); !ok || p != "a" {
		t.Errorf("prototype(ɑ) = %q, %v", p, ok)
	}
}

// A fold is a name's canonical form: folding it again changes nothing, so
// a name stored folded and one folded at login compare alike.
func FuzzFoldIsIdempotent(f *testing.F) {
	for _, s := range []string{"alice", "Ꭺlice", "Notice from admins", "Бруно", "ｗ", "ǅ", "Ernrna"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Fold(s)
		if twice := Fold(once); twice != once {
			t.Fatalf("Fold(%q) = %q, folded again %q", s, once, twice)
		}
	})
}
