// Package heapx is a min-heap whose elements know where they are in it,
// so one can be moved or taken out from the middle in O(log n): the
// indexed container/heap every timer queue writes again (the notify
// outbox's messages by when they fall due, the name book's offline names
// by when their hold ends), written once.
//
// An element is a pointer whose type says how two compare (Before) and
// where it keeps its index (HeapIndex): -1 while it is not in a heap. The
// zero Heap is empty and ready.
package heapx

// Elem is what a Heap holds: a pointer type ordered by Before, keeping its
// place in the heap at *HeapIndex() (-1 when in none; set it so before the
// first Push).
type Elem[T any] interface {
	Before(other T) bool
	HeapIndex() *int
}

// Heap is a min-heap of T: Peek is the element before every other.
type Heap[T Elem[T]] struct {
	s []T
}

// Len is how many elements the heap holds.
func (h *Heap[T]) Len() int { return len(h.s) }

// Peek is the first element; the heap must not be empty.
func (h *Heap[T]) Peek() T { return h.s[0] }

// Has reports whether x is in a heap (its index is not -1).
func Has[T Elem[T]](x T) bool { return *x.HeapIndex() >= 0 }

// Push adds x.
func (h *Heap[T]) Push(x T) {
	*x.HeapIndex() = len(h.s)
	h.s = append(h.s, x)
	h.up(len(h.s) - 1)
}

// Pop takes the first element out and returns it.
func (h *Heap[T]) Pop() T {
	return h.remove(0)
}

// Remove takes x out of the heap; x must be in it.
func (h *Heap[T]) Remove(x T) {
	h.remove(*x.HeapIndex())
}

// Fix puts x back in order after its key changed; x must be in the heap.
func (h *Heap[T]) Fix(x T) {
	i := *x.HeapIndex()
	if !h.down(i) {
		h.up(i)
	}
}

func (h *Heap[T]) remove(i int) T {
	n := len(h.s) - 1
	x := h.s[i]
	if i != n {
		h.swap(i, n)
	}
	var zero T
	h.s[n] = zero // let the collector have it
	h.s = h.s[:n]
	if i != n && !h.down(i) {
		h.up(i)
	}
	*x.HeapIndex() = -1
	return x
}

func (h *Heap[T]) swap(i, j int) {
	h.s[i], h.s[j] = h.s[j], h.s[i]
	*h.s[i].HeapIndex(), *h.s[j].HeapIndex() = i, j
}

func (h *Heap[T]) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h.s[j].Before(h.s[i]) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

// down sinks element i and reports whether it moved.
func (h *Heap[T]) down(i0 int) bool {
	i, n := i0, len(h.s)
	for {
		j := 2*i + 1
		if j >= n {
			break
		}
		if r := j + 1; r < n && h.s[r].Before(h.s[j]) {
			j = r
		}
		if !h.s[j].Before(h.s[i]) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}
