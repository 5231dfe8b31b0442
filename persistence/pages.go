package persistence

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	bolt "go.etcd.io/bbolt"
)

// restoreAdvice ends every ErrCorrupt that Open returns: what the operator
// does about a damaged file.
const restoreAdvice = "the file is left untouched: stop the server, move the damaged file aside and put in its place a backup made with `bivouac backup`"

// DamagedPage is the ErrCorrupt Open returns when a page of the file is not
// what the tree of pages says it is: which page, and what is wrong with it.
type DamagedPage struct {
	Page uint64
	Why  string
}

func (e *DamagedPage) Error() string {
	return fmt.Sprintf("%v: page %d is damaged: %s", ErrCorrupt, e.Page, e.Why)
}

// Is makes a DamagedPage an ErrCorrupt.
func (e *DamagedPage) Is(target error) bool { return target == ErrCorrupt }

func damaged(page uint64, why string, args ...any) error {
	return &DamagedPage{Page: page, Why: fmt.Sprintf(why, args...)}
}

// The layout of a bbolt page (go.etcd.io/bbolt/internal/common/page.go):
// a header of id (8 bytes), flags (2), count (2), overflow (4), then count
// elements of 16 bytes. A branch element is pos (4), key size (4), child
// page (8); a leaf element is flags (4), pos (4), key size (4), value size
// (4). pos counts from the element itself. A leaf element flagged as a
// bucket holds a bucket header, root page (8) and sequence (8), followed,
// when the root is 0, by the bucket's own page inline.
const (
	pageHeader    = 16
	pageElement   = 16
	bucketHeader  = 16
	branchFlag    = 0x01
	leafFlag      = 0x02
	bucketLeaf    = 0x01
	firstDataPage = 2 // pages 0 and 1 are the meta pages
)

// pageWalker checks every page reachable from a root: that each says it is
// the page its parent names, is a branch or a leaf, and that every element
// lies inside its page and names a page inside the file, once. It reads
// the file itself, so a damaged page is an error naming it, where bbolt
// would read out of its bounds and panic.
type pageWalker struct {
	file     io.ReaderAt
	pageSize uint64
	pages    uint64 // the file's high-water mark: pages in use are below it
	seen     map[uint64]bool
	free     [][]byte // page buffers not in use (buffer)
}

// checkPages walks the tree of pages from the root bucket's page root.
func checkPages(file io.ReaderAt, pageSize int, pages, root uint64) error {
	w := &pageWalker{file: file, pageSize: uint64(pageSize), pages: pages, seen: map[uint64]bool{}}
	if root < firstDataPage || root >= pages {
		return damaged(0, "the meta page names root page %d, outside the file's %d pages", root, pages)
	}
	return w.page(root)
}

// page reads page id and checks it. Only its first page is read whole;
// beyond it, only its table of entries and its buckets' headers, never its
// keys and values: a damaged overflow count costs no memory.
func (w *pageWalker) page(id uint64) error {
	w.seen[id] = true
	buf := w.buffer()
	defer func() { w.free = append(w.free, buf) }()
	base := id * w.pageSize
	if _, err := w.file.ReadAt(buf, int64(base)); err != nil {
		return damaged(id, "cannot be read (%v)", err)
	}
	if self := binary.LittleEndian.Uint64(buf[0:]); self != id {
		return damaged(id, "it says it is page %d", self)
	}
	overflow := uint64(binary.LittleEndian.Uint32(buf[12:]))
	if id+overflow >= w.pages {
		return damaged(id, "it runs on for %d pages, past the end of the file", overflow)
	}
	read := func(off, n uint64) ([]byte, error) {
		if off+n <= uint64(len(buf)) {
			return buf[off : off+n], nil
		}
		b := make([]byte, n)
		_, err := w.file.ReadAt(b, int64(base+off))
		return b, err
	}
	return w.node(id, (overflow+1)*w.pageSize, read, false)
}

// buffer is a page-sized buffer: the walk holds one per level of the tree,
// reused from page to page.
func (w *pageWalker) buffer() []byte {
	if n := len(w.free); n > 0 {
		b := w.free[n-1]
		w.free = w.free[:n-1]
		return b
	}
	return make([]byte, w.pageSize)
}

// inlineBucket is a read function over a bucket's page kept inside a value.
func inlineBucket(b []byte) func(off, n uint64) ([]byte, error) {
	return func(off, n uint64) ([]byte, error) { return b[off : off+n], nil }
}

// node checks the branch or leaf of size bytes that read reads, part of
// page id (inline: the page of a small bucket kept inside a value of page
// id).
func (w *pageWalker) node(id, size uint64, read func(off, n uint64) ([]byte, error), inline bool) error {
	if size < pageHeader {
		return damaged(id, "an inline bucket of %d bytes is too short", size)
	}
	head, err := read(0, pageHeader)
	if err != nil {
		return damaged(id, "cannot be read (%v)", err)
	}
	flags := binary.LittleEndian.Uint16(head[8:])
	count := uint64(binary.LittleEndian.Uint16(head[10:]))
	if pageHeader+count*pageElement > size {
		return damaged(id, "its %d entries do not fit in it", count)
	}
	table, err := read(pageHeader, count*pageElement)
	if err != nil {
		return damaged(id, "cannot be read (%v)", err)
	}
	switch {
	case flags == branchFlag && !inline:
		return w.branch(id, size, table, count)
	case flags == leafFlag:
		return w.leaf(id, size, table, count, read)
	}
	return damaged(id, "it is neither a branch nor a leaf of the tree (type %#x)", flags)
}

// branch checks a branch page's keys and walks to its children.
func (w *pageWalker) branch(id, size uint64, table []byte, count uint64) error {
	if count == 0 {
		return damaged(id, "a branch without entries")
	}
	for i := range count {
		e := table[i*pageElement:]
		pos, ksize := uint64(binary.LittleEndian.Uint32(e[0:])), uint64(binary.LittleEndian.Uint32(e[4:]))
		if pageHeader+i*pageElement+pos+ksize > size {
			return damaged(id, "entry %d runs past the end of the page", i)
		}
		if err := w.child(id, i, binary.LittleEndian.Uint64(e[8:])); err != nil {
			return err
		}
	}
	return nil
}

// leaf checks a leaf's keys and values, and walks into the buckets it holds.
func (w *pageWalker) leaf(id, size uint64, table []byte, count uint64, read func(off, n uint64) ([]byte, error)) error {
	for i := range count {
		e := table[i*pageElement:]
		flags := binary.LittleEndian.Uint32(e[0:])
		pos := uint64(binary.LittleEndian.Uint32(e[4:]))
		ksize := uint64(binary.LittleEndian.Uint32(e[8:]))
		vsize := uint64(binary.LittleEndian.Uint32(e[12:]))
		end := pageHeader + i*pageElement + pos + ksize + vsize
		if end > size {
			return damaged(id, "entry %d runs past the end of the page", i)
		}
		if flags&bucketLeaf == 0 {
			continue
		}
		if vsize < bucketHeader || vsize > w.pageSize {
			return damaged(id, "entry %d is a bucket of %d bytes", i, vsize)
		}
		value, err := read(end-vsize, vsize)
		if err != nil {
			return damaged(id, "cannot be read (%v)", err)
		}
		if root := binary.LittleEndian.Uint64(value); root != 0 {
			err = w.child(id, i, root)
		} else {
			err = w.node(id, vsize-bucketHeader, inlineBucket(value[bucketHeader:]), true)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// child checks that entry i of page parent names a page in the file not
// seen yet, and walks it.
func (w *pageWalker) child(parent, i, id uint64) error {
	switch {
	case id < firstDataPage || id >= w.pages:
		return damaged(parent, "entry %d names page %d, outside the file's %d pages", i, id, w.pages)
	case w.seen[id]:
		return damaged(parent, "entry %d names page %d, which another entry names too", i, id)
	}
	return w.page(id)
}

// checkFilePages runs checkPages over the file at path, as tx (a read
// transaction on it) sees it.
func checkFilePages(path string, tx *bolt.Tx) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	pageSize := tx.DB().Info().PageSize
	return checkPages(f, pageSize, uint64(tx.Size())/uint64(pageSize), uint64(tx.Cursor().Bucket().Root()))
}
