package uikit

import (
	"slices"
	"testing"
)

// A slot holds the newest key that maps to it; a screen's Part keeps what
// it drew last after its slot went to another key.
func TestSharedLinesSlotsAndParts(t *testing.T) {
	c := NewSharedLines(3) // 4 slots: keys 1 and 5 share one
	var p Part
	a := c.put(&p, 1, []string{"a", "b"})
	if got, ok := c.get(nil, 1); !ok || !slices.Equal(got, a) {
		t.Fatalf("Get(1) = %q, %v", got, ok)
	}
	if len(a) != cap(a) {
		t.Errorf("lines handed out with room to append into: len %d cap %d", len(a), cap(a))
	}
	c.put(nil, 5, []string{"other table"})
	if _, ok := c.get(nil, 1); ok {
		t.Fatal("key 1 still in its slot after key 5 took it")
	}
	if got, ok := c.get(&p, 1); !ok || !slices.Equal(got, a) {
		t.Fatalf("the part lost what it drew: %q, %v", got, ok)
	}
	if _, ok := c.get(&p, 2); ok {
		t.Fatal("a part answered for a key it never held")
	}
}

// Keys differ whenever an input, its place or the theme does.
func TestKeyCoversItsInputs(t *testing.T) {
	th, other := New(nil), New(nil)
	base := func(th *Theme) Key { k := NewKey(th, "part", 80); return k }
	sum := func(f func(k *Key)) uint64 { k := base(th); f(&k); return k.Sum() }
	seen := map[uint64]string{}
	for name, f := range map[string]func(k *Key){
		"ab,c":    func(k *Key) { k.Str("ab").Str("c") },
		"a,bc":    func(k *Key) { k.Str("a").Str("bc") },
		"1,2":     func(k *Key) { k.Int(1).Int(2) },
		"2,1":     func(k *Key) { k.Int(2).Int(1) },
		"true":    func(k *Key) { k.Bool(true) },
		"false":   func(k *Key) { k.Bool(false) },
		"nothing": func(k *Key) {},
	} {
		s := sum(f)
		if prev, dup := seen[s]; dup {
			t.Errorf("%s and %s hash alike", name, prev)
		}
		seen[s] = name
	}
	k1, k2 := base(th), base(other)
	if k1.Sum() == k2.Sum() {
		t.Error("two themes share keys")
	}
	k3 := NewKey(th, "part", 81)
	if k1.Sum() == k3.Sum() {
		t.Error("two widths share keys")
	}
}
