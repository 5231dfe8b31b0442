package sshserver

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/codes"
)

// Guest reclaim codes.
//
// A code is a secret: whoever holds it gets the guest's seat and hand. It
// is shown to its owner alone and never stored, logged or shown to anyone
// else; the guest's player ID is a hash of it (GuestID), so nothing public
// or persisted leads back to the code.
//
// Written "g-XXXX-XXXX-XXXX" (any case, dashes optional after "g-"): the
// prefix keeps an ordinary user name such as "kate22" from ever being taken
// for a code, and 12 characters of codes.Alphabet (about 59 bits) make
// guessing hopeless at the rate Guesses allows.
const (
	GuestPrefix  = "g-"
	GuestCodeLen = 12
)

// NewGuestCode returns a fresh reclaim code in canonical form (12
// characters, no prefix, no dashes).
func NewGuestCode() string { return codes.New(GuestCodeLen) }

// ParseGuestCode reports whether a user name is a reclaim code and returns
// it in canonical form.
func ParseGuestCode(user string) (string, bool) {
	if len(user) < len(GuestPrefix) || !strings.EqualFold(user[:len(GuestPrefix)], GuestPrefix) {
		return "", false
	}
	code := codes.Normalize(user[len(GuestPrefix):])
	return code, codes.Valid(code, GuestCodeLen)
}

// LooksLikeGuestCode reports whether a user name may hold a reclaim code,
// right or wrong, whatever surrounds it: one that ParseGuestCode takes;
// "g" and any separators (anything but a letter or a digit: "-", "=", ":",
// "/", an em dash, a space…), at the start or after one character or a
// separator ("xg-", "user g-", "code:g-"), then 8 to 16 letters and digits
// mixing both ("g_vyv7f8vacax0", "gg-vyv7-f8va-cax0"); three groups of
// four letters and digits mixing both, between separators, anywhere
// ("vyv7-f8va-cax0", "(vyv7-f8va-cax0!", "vyv7-f8va-cax0@host"); or 11 to
// 13 letters and digits mixing both, as the whole name or one word of it,
// with a digit before the last letter ("vyv7f8vacax0", "user
// vyv7f8vacax0"). Such a name is never shown or logged: it is a reclaim
// that failed, not a display name. Ordinary names ("kate22",
// "john_smith_1985", "Meg Richardson 1985") do not look like codes.
// Server.HoldsCode also catches a code the server knows hidden in any
// other way.
func LooksLikeGuestCode(user string) bool {
	if _, ok := ParseGuestCode(user); ok {
		return true
	}
	u := strings.ToLower(strings.TrimSpace(user))
	if strings.HasPrefix(u, InvitePrefix) {
		return false // an invite's code (ParseInviteCode), not a reclaim
	}
	if len(u) >= 2 && u[0] == 'g' && isCodeSeparator(u[1]) {
		sh := codeShape(u[2:])
		if sh.clean && sh.n >= 8 {
			return true
		}
	}
	if sh := codeShape(u); sh.clean && sh.mixed && sh.n >= 11 && sh.n <= 13 &&
		(slices.Equal(sh.groups, []int{4, 4, 4}) || sh.digitFirst) {
		return true
	}
	return hiddenCode(alnumRuns(u))
}

// alnumRuns are the runs of letters and digits of s (lower case), in order.
func alnumRuns(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isAlnum(r) })
}

func isAlnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// hiddenCode looks for a code's shape among the words of a user name
// (see LooksLikeGuestCode).
func hiddenCode(ws []string) bool {
	for i, w := range ws {
		// "g" alone, or one character and "g" ("gg", "xg") as the first
		// word, then 8 to 16 letters and digits mixing both.
		if w == "g" || i == 0 && len(w) == 2 && w[1] == 'g' {
			rest := ""
			for _, next := range ws[i+1:] {
				if len(rest) >= 8 {
					break
				}
				rest += next
			}
			if len(rest) >= 8 && len(rest) <= 16 && codeShape(rest).mixed {
				return true
			}
		}
		// Three words of four mixing letters and digits.
		if i+2 < len(ws) && len(w) == 4 && len(ws[i+1]) == 4 && len(ws[i+2]) == 4 && codeShape(w+ws[i+1]+ws[i+2]).mixed {
			return true
		}
		// One word of 11 to 13, a digit before its last letter.
		if sh := codeShape(w); sh.mixed && sh.digitFirst && sh.n >= 11 && sh.n <= 13 {
			return true
		}
	}
	return false
}

// InvitePrefix starts the user name of a newcomer invited with a code.
const InvitePrefix = "invite-"

// SecretUser says what a user name that may hold a secret is, for the log
// ("(guest code)", "(invite)"), or "" for an ordinary name. Such a name is
// never a display name and never written out.
func SecretUser(user string) string {
	u := strings.TrimSpace(user)
	switch {
	case len(u) >= len(InvitePrefix) && strings.EqualFold(u[:len(InvitePrefix)], InvitePrefix):
		return "(invite)"
	case LooksLikeGuestCode(u):
		return "(guest code)"
	}
	return ""
}

func isCodeSeparator(c byte) bool { return c == '-' || c == '_' || c == '.' || c == ' ' }

// shape is a user name measured as a code (codeShape).
type shape struct {
	n          int   // letters and digits
	groups     []int // their runs between separators
	digitFirst bool  // a digit comes before the last letter
	mixed      bool  // letters and digits both
	clean      bool  // nothing but letters, digits and separators
}

// codeShape measures s (lower case) as a code.
func codeShape(s string) shape {
	var sh shape
	letters, digits, run := 0, 0, 0
	for i := range len(s) {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			letters++
			sh.digitFirst = sh.digitFirst || digits > 0
		case c >= '0' && c <= '9':
			digits++
		case isCodeSeparator(c):
			if run > 0 {
				sh.groups = append(sh.groups, run)
			}
			run = 0
			continue
		default:
			return shape{}
		}
		run++
	}
	if run > 0 {
		sh.groups = append(sh.groups, run)
	}
	sh.n, sh.mixed, sh.clean = letters+digits, letters > 0 && digits > 0, true
	return sh
}

// HoldsCode reports whether user holds, among its letters and digits
// read in order, the 12 characters of a reclaim code the server knows (one
// this process handed out, or a seated guest's: Deps.KnownGuest),
// whatever surrounds them: "gg-CODE", "CODE@localhost", "user CODE",
// "xCODEy". Such a name is a secret like any code-shaped one
// (LooksLikeGuestCode). Only the first maxCodeScan letters and digits are
// read.
func (s *Server) HoldsCode(user string) bool {
	var b [maxCodeScan]byte
	n := 0
	for _, r := range user {
		if n == len(b) {
			break
		}
		switch {
		case r >= 'a' && r <= 'z':
			b[n], n = byte(r-'a'+'A'), n+1
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b[n], n = byte(r), n+1
		}
	}
	now := time.Now()
	for i := 0; i+GuestCodeLen <= n; i++ {
		w := string(b[i : i+GuestCodeLen])
		if !codes.Valid(w, GuestCodeLen) {
			continue
		}
		id := GuestID(w)
		if s.issued.has(id, now) || s.deps.KnownGuest != nil && s.deps.KnownGuest(id) {
			return true
		}
	}
	return false
}

// maxCodeScan bounds what HoldsCode reads of a user name.
const maxCodeScan = 128

// secretUser is SecretUser, or "(guest code)" for a name that holds a code
// the server knows (HoldsCode).
func (s *Server) secretUser(user string) string {
	if label := SecretUser(user); label != "" {
		return label
	}
	if s.HoldsCode(user) {
		return "(guest code)"
	}
	return ""
}

// FormatGuestCode is the code as its owner types it: "g-7kqm-x4tr-9pzc".
func FormatGuestCode(code string) string {
	c := strings.ToLower(code)
	if len(c) != GuestCodeLen {
		return GuestPrefix + c
	}
	return GuestPrefix + c[0:4] + "-" + c[4:8] + "-" + c[8:12]
}

// GuestIDPrefix starts every guest's ID (GuestID).
const GuestIDPrefix = "guest:"

// GuestReclaimable is how long after a guest's last login their code
// still brings them back (while this process runs; a guest seated at a
// table can always come back to it).
const GuestReclaimable = 7 * 24 * time.Hour

// GuestID is the player ID of the guest holding code: "guest:" and a hash
// of the code. It may be stored, shown in logs and compared; it does not
// give the code back.
func GuestID(code string) string {
	sum := sha256.Sum256([]byte("bivouac guest\x00" + code))
	return GuestIDPrefix + hex.EncodeToString(sum[:10])
}

// LogTag is how a log line names a player: the ID as it is (a key's
// fingerprint or a guest's hashed ID), never a reclaim code.
func (id Identity) LogTag() string { return id.ID }

// Guesses slows down whoever keeps trying codes that do not exist: guest
// reclaim codes at login and table or campaign codes in the lobby. Each
// wrong guess from an address doubles the time that address must wait
// before its next guess (from GuessBase up to GuessMax); an address that
// has made no wrong guess for GuessForget starts afresh. Addresses are
// grouped like the connection caps (an IPv4 address, an IPv6 /64), and the
// record survives reconnecting. Memory is bounded: at most guessEntries
// addresses are remembered, the longest-quiet forgotten first.
type Guesses struct {
	mu  sync.Mutex
	now func() time.Time
	by  map[string]*guessRecord
}

type guessRecord struct {
	wrong int       // wrong guesses in a row
	until time.Time // no guess before this
	last  time.Time // the last wrong guess
}

const (
	GuessBase   = time.Second
	GuessMax    = 5 * time.Minute
	GuessForget = time.Hour

	guessEntries = 10000
)

// NewGuesses returns an empty record; now is the clock (nil: time.Now).
func NewGuesses(now func() time.Time) *Guesses {
	if now == nil {
		now = time.Now
	}
	return &Guesses{now: now, by: map[string]*guessRecord{}}
}

// Wait is how long the address must wait before its next guess (0: go on).
func (g *Guesses) Wait(addr string) time.Duration {
	key := hostKey(addr)
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.by[key]
	if r == nil {
		return 0
	}
	now := g.now()
	if now.Sub(r.last) > GuessForget {
		delete(g.by, key)
		return 0
	}
	return max(0, r.until.Sub(now))
}

// Wrong records a wrong guess from the address and returns how long it must
// now wait.
func (g *Guesses) Wrong(addr string) time.Duration {
	key := hostKey(addr)
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	r := g.by[key]
	if r == nil || now.Sub(r.last) > GuessForget {
		if len(g.by) >= guessEntries {
			g.forgetOldest(now)
		}
		r = &guessRecord{}
		g.by[key] = r
	}
	r.wrong++
	wait := GuessBase << min(r.wrong-1, 20)
	wait = min(wait, GuessMax)
	r.last, r.until = now, now.Add(wait)
	return wait
}

// forgetOldest drops every forgotten record, or else the quietest one.
func (g *Guesses) forgetOldest(now time.Time) {
	var oldest string
	for k, r := range g.by {
		if now.Sub(r.last) > GuessForget {
			delete(g.by, k)
			continue
		}
		if oldest == "" || r.last.Before(g.by[oldest].last) {
			oldest = k
		}
	}
	if len(g.by) >= guessEntries && oldest != "" {
		delete(g.by, oldest)
	}
}

// issued remembers the reclaim codes this process handed out (as GuestIDs),
// so that a guess can be told from a returning guest. Bounded like Guesses.
type issued struct {
	mu sync.Mutex
	by map[string]time.Time // GuestID → last login
}

const (
	issuedEntries = 100000
	issuedForget  = GuestReclaimable
)

func (is *issued) add(id string, now time.Time) {
	is.mu.Lock()
	defer is.mu.Unlock()
	if is.by == nil {
		is.by = map[string]time.Time{}
	}
	if _, ok := is.by[id]; !ok && len(is.by) >= issuedEntries {
		for k, t := range is.by {
			if now.Sub(t) > issuedForget || len(is.by) >= issuedEntries {
				delete(is.by, k)
			}
			if len(is.by) < issuedEntries {
				break
			}
		}
	}
	is.by[id] = now
}

func (is *issued) has(id string, now time.Time) bool {
	is.mu.Lock()
	defer is.mu.Unlock()
	t, ok := is.by[id]
	return ok && now.Sub(t) <= issuedForget
}
