package access

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Key is one public key of a key file.
type Key struct {
	// Fingerprint is gossh.FingerprintSHA256 of the key ("SHA256:…"), the
	// form sshserver.Identity.ID takes for a key holder.
	Fingerprint string
	Type        string // "ssh-ed25519", "ssh-rsa"…
	Comment     string // what follows the key on its line, sanitized by the reader
	Line        int    // its line in the file, from 1
}

// LineError is a line of a key file that holds no key.
type LineError struct {
	Line int
	Err  error
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Limits of a key file: an operator's list of friends is a few kilobytes;
// a file bigger than maxKeyFile is read up to that size (the rest ignored,
// and said so), so a mistaken path such as a log file cannot fill memory.
const (
	maxKeyFile = 4 << 20
	maxKeyLine = 64 << 10 // an RSA 16384 key is under 3 KB
)

// ParseKeys reads keys in OpenSSH authorized_keys form: one key a line,
// options before it allowed (and ignored), blank lines and lines starting
// with # skipped. Lines that hold no key are returned as errors with their
// numbers; the keys of every other line are returned in file order, each
// fingerprint once.
func ParseKeys(r io.Reader) ([]Key, []LineError) {
	var keys []Key
	var bad []LineError
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxKeyLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		pk, comment, _, rest, err := gossh.ParseAuthorizedKey(line)
		if err == nil && len(bytes.TrimSpace(rest)) > 0 {
			err = fmt.Errorf("one key a line")
		}
		if err != nil {
			bad = append(bad, LineError{Line: n, Err: err})
			continue
		}
		fp := gossh.FingerprintSHA256(pk)
		if seen[fp] {
			continue
		}
		seen[fp] = true
		keys = append(keys, Key{Fingerprint: fp, Type: pk.Type(), Comment: cleanComment(comment), Line: n})
	}
	if err := sc.Err(); err != nil {
		bad = append(bad, LineError{Line: n + 1, Err: err})
	}
	return keys, bad
}

// cleanComment keeps a key's comment printable: it names the key in logs
// and in the admins' list.
func cleanComment(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	if len(s) > 80 {
		s = s[:80]
	}
	return strings.ToValidUTF8(s, "")
}

// KeyFile is a key file kept in memory and read again when it changes
// (Check) or when asked (Load). While a new version cannot be read at all
// the last one read stays in force: a file being rewritten, or removed by
// mistake, does not lock everyone out or let everyone in.
type KeyFile struct {
	path string
	what string // "admins", "allow": names the file in the log
	log  *slog.Logger

	mu    sync.RWMutex
	keys  []Key
	byFP  map[string]Key
	stamp fileStamp
	fresh bool // read since readSince last asked
}

// fileStamp tells whether a file changed since it was read.
type fileStamp struct {
	mod  time.Time
	size int64
}

func stampOf(fi os.FileInfo) fileStamp { return fileStamp{mod: fi.ModTime(), size: fi.Size()} }

// OpenKeyFile reads a key file for the first time. A file that cannot be
// read is an error (the operator named it: a typo must not go unnoticed);
// bad lines are logged with their numbers and the rest used.
func OpenKeyFile(path, what string, log *slog.Logger) (*KeyFile, error) {
	f := &KeyFile{path: path, what: what, log: log, byFP: map[string]Key{}}
	if err := f.Load(); err != nil {
		return nil, err
	}
	return f, nil
}

// Path is the file's path as given.
func (f *KeyFile) Path() string { return f.path }

// Load reads the file now, whether or not it changed. On error the keys
// read before stay in force.
func (f *KeyFile) Load() error {
	fh, err := os.Open(f.path)
	if err != nil {
		return fmt.Errorf("%s file: %w", f.what, err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return fmt.Errorf("%s file: %w", f.what, err)
	}
	keys, bad := ParseKeys(io.LimitReader(fh, maxKeyFile))
	for _, b := range bad {
		f.log.Warn("key file: a line holds no public key; the other lines are used",
			"file", f.what, "path", f.path, "line", b.Line, "err", b.Err)
	}
	if fi.Size() > maxKeyFile {
		f.log.Warn("key file too long: only its beginning is read", "file", f.what, "path", f.path, "max_bytes", maxKeyFile)
	}
	byFP := make(map[string]Key, len(keys))
	for _, k := range keys {
		byFP[k.Fingerprint] = k
	}
	f.mu.Lock()
	f.keys, f.byFP, f.stamp, f.fresh = keys, byFP, stampOf(fi), true
	f.mu.Unlock()
	f.log.Info("key file read", "file", f.what, "path", f.path, "keys", len(keys), "bad_lines", len(bad))
	return nil
}

// Check reads the file again if its modification time or size changed
// since the last read, and reports whether it did.
func (f *KeyFile) Check() bool {
	fi, err := os.Stat(f.path)
	if err != nil {
		f.mu.RLock()
		known := !f.stamp.mod.IsZero()
		f.mu.RUnlock()
		if known {
			f.log.Warn("key file cannot be read: its last version stays in force", "file", f.what, "path", f.path, "err", err)
			f.mu.Lock()
			f.stamp = fileStamp{} // say it once, and read it when it is back
			f.mu.Unlock()
		}
		return false
	}
	f.mu.RLock()
	same := f.stamp == stampOf(fi)
	f.mu.RUnlock()
	if same {
		return false
	}
	if err := f.Load(); err != nil {
		f.log.Warn("key file cannot be read: its last version stays in force", "file", f.what, "path", f.path, "err", err)
		return false
	}
	return true
}

// readSince reports whether the file was read since the last call.
func (f *KeyFile) readSince() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	fresh := f.fresh
	f.fresh = false
	return fresh
}

// Has reports whether the key of fingerprint fp is in the file.
func (f *KeyFile) Has(fp string) bool {
	if f == nil {
		return false
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	_, ok := f.byFP[fp]
	return ok
}

// Keys is the file's keys in file order (a copy).
func (f *KeyFile) Keys() []Key {
	if f == nil {
		return nil
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	return append([]Key(nil), f.keys...)
}
