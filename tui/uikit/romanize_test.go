package uikit

import "testing"

// Cyrillic is romanised by BGN/PCGN (simplified), German letters by their
// German replacements; nothing else changes (issue 30 item 9).
func TestRomanize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Святослав Ярополкович", "Svyatoslav Yaropolkovich"},
		{"Жанна Щукина, Юрий Хрущёв", "Zhanna Shchukina, Yuriy Khrushchyov"},
		{"Царь Чайковский и Шишкин", "Tsar Chaykovskiy i Shishkin"},
		{"Евгений Достоевский", "Yevgeniy Dostoyevskiy"},
		{"Объявление, Эдуард, Ёлка", "Obyavleniye, Eduard, Yolka"},
		{"ЩИ и БОРЩ", "SHCHI i BORSHCH"},
		{"Ярослав-Святославови", "Yaroslav-Svyatoslavovi"},
		{"Grzegorz Brzęczyszczykiewicz, Łucja", "Grzegorz Brzęczyszczykiewicz, Łucja"},
		{"Jürgen Müßig, Ärger", "Juergen Muessig, Aerger"},
		{"╭─ Ann ▶ 3", "╭─ Ann ▶ 3"},
	} {
		if got := Romanize(tc.in); got != tc.want {
			t.Errorf("Romanize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// With the per-cell swap after it: Polish letters keep their base letter.
	if got := ToASCII(Romanize("Małgorzata Żółkiewska, Святослав")); got != "Malgorzata Zolkiewska, Svyatoslav" {
		t.Errorf("Polish and Russian in ASCII: %q", got)
	}
}

// An ASCII theme romanises what it renders before it is laid out; an
// ordinary theme leaves the words alone.
func TestThemeRomanisesInASCIIMode(t *testing.T) {
	th := New(nil)
	if got := th.Text("Святослав"); got != "Святослав" {
		t.Errorf("an ordinary theme changed a name: %q", got)
	}
	th.SetASCII(true)
	if got := th.Name("Святослав Ярополкович"); got != "Svyatoslav Yaropolkovich" {
		t.Errorf("an ASCII theme's name: %q", got)
	}
}
