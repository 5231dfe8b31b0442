package words

import (
	"encoding/json"
	"errors"
	"testing"
)

// A field that held English before it held messages (an old record's
// title) decodes as Raw; a message decodes as itself, arguments and all.
func TestMsgDecodesOldTextAndMessages(t *testing.T) {
	var old struct{ Title Msg }
	if err := json.Unmarshal([]byte(`{"Title":"Ada's table"}`), &old); err != nil {
		t.Fatal(err)
	}
	if want := Raw("Ada's table"); !old.Title.Equal(want) {
		t.Errorf("old title decoded as %v, want %v", old.Title, want)
	}
	if err := json.Unmarshal([]byte(`{"Title":""}`), &old); err != nil || !old.Title.IsZero() {
		t.Errorf("an empty old title decoded as %v, %v; want nothing said", old.Title, err)
	}
	m := M("table.title", Person("Host", "Ada", Feminine), Count(3), List("Names", Raw("a"), M("b", Term("T", "c"))))
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Msg
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Equal(m) {
		t.Errorf("%s came back as %v", b, back)
	}
	if back.Equal(M("table.title", Person("Host", "Ada", Masculine), Count(3), List("Names", Raw("a"), M("b", Term("T", "c"))))) {
		t.Error("messages naming a player with different genders are equal")
	}
}

// A refusal is its sentinel for errors.Is, and says its key in logs.
func TestRefuseWrapsItsSentinel(t *testing.T) {
	sentinel := NewError("game.err.over")
	err := Refuse(sentinel, M("grizzled.err.withdrawn", Num("N", 2)))
	if !errors.Is(err, sentinel) {
		t.Error("a refusal is not its sentinel")
	}
	if got, want := err.Error(), "grizzled.err.withdrawn(N=2)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestGenderCodes(t *testing.T) {
	for _, g := range []Gender{Feminine, Masculine, Neutral} {
		if back, ok := ParseGender(" " + g.Code() + " "); !ok || back != g {
			t.Errorf("%q read back as %v, %v", g.Code(), back, ok)
		}
	}
	if _, ok := ParseGender(""); ok {
		t.Error("an unset gender parsed as a choice")
	}
}
