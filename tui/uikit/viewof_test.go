package uikit

import (
	"testing"

	"github.com/bivouac-ssh/bivouac/table"
)

type someView struct{ N int }

// A view comes as a value or, from another node, as a pointer; a nil
// pointer, none or another game's is no view.
func TestViewOfUnwraps(t *testing.T) {
	for _, tc := range []struct {
		view any
		n    int
		ok   bool
	}{
		{someView{3}, 3, true},
		{&someView{4}, 4, true},
		{(*someView)(nil), 0, false},
		{nil, 0, false},
		{"another game's", 0, false},
	} {
		v, ok := ViewOf[someView](&table.Update{View: tc.view})
		if ok != tc.ok || v.N != tc.n {
			t.Errorf("%#v: %+v, %v", tc.view, v, ok)
		}
	}
}
