package heapx_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bivouac-ssh/bivouac/heapx"
)

type elem struct {
	key, at int
}

func (e *elem) Before(o *elem) bool { return e.key < o.key }
func (e *elem) HeapIndex() *int     { return &e.at }

// check: the heap holds what was put in and not taken out, each with an
// index.
func check(t *testing.T, h *heapx.Heap[*elem], in []*elem) {
	t.Helper()
	if h.Len() != len(in) {
		t.Fatalf("len %d, want %d", h.Len(), len(in))
	}
	for _, e := range in {
		if !heapx.Has(e) {
			t.Fatalf("%+v is in the heap with index -1", e)
		}
	}
}

// A heap against a sorted slice: pushes, fixes of changed keys, removals
// from the middle and pops, in a random order; pops come out in order and
// indexes stay right.
func TestHeapAgainstASortedSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h heapx.Heap[*elem]
	var in []*elem
	for step := range 20000 {
		switch op := r.IntN(10); {
		case op < 4 || len(in) == 0:
			e := &elem{key: r.IntN(1000), at: -1}
			h.Push(e)
			in = append(in, e)
		case op < 6:
			e := in[r.IntN(len(in))]
			e.key = r.IntN(1000)
			h.Fix(e)
		case op < 8:
			i := r.IntN(len(in))
			e := in[i]
			h.Remove(e)
			in = slices.Delete(in, i, i+1)
			if heapx.Has(e) {
				t.Fatalf("step %d: a removed element keeps index %d", step, e.at)
			}
		default:
			least := slices.MinFunc(in, func(a, b *elem) int { return a.key - b.key })
			if h.Peek().key != least.key {
				t.Fatalf("step %d: peek %d, least %d", step, h.Peek().key, least.key)
			}
			e := h.Pop()
			if e.key != least.key || heapx.Has(e) {
				t.Fatalf("step %d: popped %+v, least %d", step, e, least.key)
			}
			in = slices.DeleteFunc(in, func(x *elem) bool { return x == e })
		}
		check(t, &h, in)
	}
	prev := -1
	for h.Len() > 0 {
		e := h.Pop()
		if e.key < prev {
			t.Fatalf("popped %d after %d", e.key, prev)
		}
		prev = e.key
	}
}

func TestHeapOfOne(t *testing.T) {
	var h heapx.Heap[*elem]
	e := &elem{key: 5, at: -1}
	h.Push(e)
	if e.at != 0 || h.Peek() != e {
		t.Fatalf("one pushed: index %d", e.at)
	}
	e.key = 1
	h.Fix(e)
	h.Remove(e)
	if h.Len() != 0 || e.at != -1 {
		t.Fatalf("after removing the only one: len %d, index %d", h.Len(), e.at)
	}
}

func BenchmarkPushPop(b *testing.B) {
	var h heapx.Heap[*elem]
	es := make([]*elem, 1024)
	for i := range es {
		es[i] = &elem{key: (i * 7919) % 1024, at: -1}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, e := range es {
			h.Push(e)
		}
		for h.Len() > 0 {
			h.Pop()
		}
	}
}
