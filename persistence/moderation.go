package persistence

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Moderation is what the moderation package keeps: sanctions in force, the
// audit log of every moderation action, and players' reports. Bolt and the
// JetStream store implement it; storetest checks both alike.
type Moderation interface {
	// PutSanction stores s, replacing the sanction of the same kind on the
	// same subject.
	PutSanction(s Sanction) error
	// DeleteSanction removes the sanction of kind on subject and returns
	// it, or ErrNotFound.
	DeleteSanction(kind, subject string) (Sanction, error)
	// Sanctions returns every stored sanction, expired ones too (the caller
	// knows the time), ordered by kind then subject.
	Sanctions() ([]Sanction, error)

	// AppendAudit keeps one moderation action; the store gives it its ID.
	AppendAudit(e AuditEntry) (AuditEntry, error)
	// Audit returns the last limit actions (all of them if limit <= 0),
	// oldest first.
	Audit(limit int) ([]AuditEntry, error)

	// FileReport keeps a player's report; the store gives it its ID.
	FileReport(r Report) (Report, error)
	// Reports returns every report, oldest first.
	Reports() ([]Report, error)
	// ResolveReport marks the report id handled by res: ErrNotFound for
	// no such report, ErrExists if it was resolved already (the first
	// resolution stands).
	ResolveReport(id string, res Resolution) (Report, error)
	// RepeatReport counts one more report, at at, into the open report id
	// (the same player reported at the same table again): ErrNotFound,
	// or ErrExists once it is resolved.
	RepeatReport(id string, at time.Time) (Report, error)
	// ForgetReports deletes the reports resolved before before, and
	// returns how many.
	ForgetReports(before time.Time) (int, error)
}

// Sanction kinds.
const (
	SanctionBan  = "ban"
	SanctionMute = "mute"
)

// Sanction is a ban or a mute in force until Until (zero: for good).
type Sanction struct {
	Kind    string `json:"kind"`    // SanctionBan or SanctionMute
	Subject string `json:"subject"` // the player's identity: a key fingerprint or a guest ID
	Name    string `json:"name"`    // their display name when sanctioned
	// Addr is the address a ban holds besides the identity, as a prefix
	// ("203.0.113.7/32", "2001:db8:1:2::/64"; older records: one
	// address), until AddrUntil (zero: as long as the ban). A player's
	// ban holds it for guests and keys first seen after At; an address
	// ban (Subject AddressSubject + Addr) for everyone but admins.
	Addr      string    `json:"addr,omitempty"`
	AddrUntil time.Time `json:"addr_until,omitzero"`
	Reason    string    `json:"reason,omitempty"`
	By        string    `json:"by"`      // the admin's fingerprint
	ByName    string    `json:"by_name"` // and name
	At        time.Time `json:"at"`
	Until     time.Time `json:"until,omitzero"`
}

// AddressSubject begins the subject of an address ban: the ban of an
// address or a range of them, whoever comes from it.
const AddressSubject = "address:"

// Key is where the sanction is stored: one per kind and subject.
func (s Sanction) Key() string { return SanctionKey(s.Kind, s.Subject) }

// SanctionKey is the key of the sanction of kind on subject.
func SanctionKey(kind, subject string) string { return kind + "/" + subject }

// Permanent reports whether the sanction has no end.
func (s Sanction) Permanent() bool { return s.Until.IsZero() }

// InForceAt reports whether the sanction holds at t.
func (s Sanction) InForceAt(t time.Time) bool { return s.Permanent() || t.Before(s.Until) }

func (s Sanction) check() error {
	if s.Kind != SanctionBan && s.Kind != SanctionMute {
		return fmt.Errorf("%w: sanction kind %q", ErrInvalid, s.Kind)
	}
	return CheckKey("sanction subject", s.Subject)
}

// AuditEntry is one moderation action: who did what to whom, why, when.
type AuditEntry struct {
	ID          string    `json:"id"`
	At          time.Time `json:"at"`
	By          string    `json:"by"`
	ByName      string    `json:"by_name"`
	Action      string    `json:"action"` // ban, unban, mute, unmute, kick, close, say, invite
	Subject     string    `json:"subject,omitempty"`
	SubjectName string    `json:"subject_name,omitempty"` // a name, or a table's code
	Reason      string    `json:"reason,omitempty"`       // or the text said
	Until       time.Time `json:"until,omitzero"`
	Addr        string    `json:"addr,omitempty"`      // the address a ban holds too
	AddrUntil   time.Time `json:"addr_until,omitzero"` // and until when
}

// Report is a player's complaint about another, for the admins' queue.
type Report struct {
	ID           string    `json:"id"`
	At           time.Time `json:"at"`
	Reporter     string    `json:"reporter"`
	ReporterName string    `json:"reporter_name"`
	Subject      string    `json:"subject"`
	SubjectName  string    `json:"subject_name"`
	Table        string    `json:"table,omitempty"` // the table's code
	Reason       string    `json:"reason"`
	Evidence     []string  `json:"evidence,omitempty"` // the last chat lines
	// Count is how many reports this one stands for (the same player at
	// the same table reported again while it was open; 0 is one), the
	// last of them at LastAt.
	Count  int       `json:"count,omitempty"`
	LastAt time.Time `json:"last_at,omitzero"`
	// Resolved is set once an admin has handled the report.
	Resolved *Resolution `json:"resolved,omitempty"`
}

// Times is how many reports r stands for.
func (r Report) Times() int { return max(r.Count, 1) }

// Repeated is r with one more report at at.
func (r Report) Repeated(at time.Time) Report {
	r.Count = r.Times() + 1
	r.LastAt = at
	return r
}

// Resolution is how an admin closed a report: who, when, with what note.
type Resolution struct {
	By     string    `json:"by"`
	ByName string    `json:"by_name"`
	At     time.Time `json:"at"`
	Note   string    `json:"note,omitempty"`
}

// NewRecordID is an audit entry's or report's ID: its time, so that IDs
// sort as the records were made, then this process's count of IDs (two
// records of the same moment keep their order), then a random tail, so
// that two nodes writing at the same moment do not collide.
func NewRecordID(at time.Time) string {
	var tail [3]byte
	_, _ = rand.Read(tail[:])
	return fmt.Sprintf("%s-%012d-%s", at.UTC().Format("20060102T150405.000000000"), recordIDs.Add(1), hex.EncodeToString(tail[:]))
}

var recordIDs atomic.Uint64

// The moderation buckets are made on first write, not by a schema
// migration: they only add to a file, and a build that does not know them
// reads the rest as before.
var (
	bktSanctions = []byte("sanctions")
	bktAudit     = []byte("audit")
	bktReports   = []byte("reports")
)

// PutSanction stores s over any sanction of the same kind on its subject.
func (s *Bolt) PutSanction(sn Sanction) error {
	if err := sn.check(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bktSanctions)
		if err != nil {
			return err
		}
		return putJSON(b, sn.Key(), sn)
	})
}

// DeleteSanction removes a sanction and returns it, or ErrNotFound.
func (s *Bolt) DeleteSanction(kind, subject string) (Sanction, error) {
	var out Sanction
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bktSanctions)
		k := []byte(SanctionKey(kind, subject))
		var raw []byte
		if b != nil {
			raw = b.Get(k)
		}
		if raw == nil {
			return fmt.Errorf("%w: %s of %s", ErrNotFound, kind, subject)
		}
		var err error
		if out, err = DecodeAt[Sanction](bktSanctions, k, raw); err != nil {
			return err
		}
		return b.Delete(k)
	})
	return out, err
}

// Sanctions returns every stored sanction, by kind then subject.
func (s *Bolt) Sanctions() ([]Sanction, error) {
	return all[Sanction](s, bktSanctions, 0)
}

// AppendAudit keeps one moderation action, stamped with an ID.
func (s *Bolt) AppendAudit(e AuditEntry) (AuditEntry, error) {
	if e.At.IsZero() {
		e.At = s.now()
	}
	e.ID = NewRecordID(e.At)
	return e, s.add(bktAudit, e.ID, e)
}

// Audit returns the last limit actions, oldest first.
func (s *Bolt) Audit(limit int) ([]AuditEntry, error) {
	return all[AuditEntry](s, bktAudit, limit)
}

// FileReport keeps a report, stamped with an ID.
func (s *Bolt) FileReport(r Report) (Report, error) {
	if err := CheckKey("reporter", r.Reporter); err != nil {
		return r, err
	}
	if err := CheckKey("reported player", r.Subject); err != nil {
		return r, err
	}
	if r.At.IsZero() {
		r.At = s.now()
	}
	r.ID = NewRecordID(r.At)
	return r, s.add(bktReports, r.ID, r)
}

// Reports returns every report, oldest first.
func (s *Bolt) Reports() ([]Report, error) {
	return all[Report](s, bktReports, 0)
}

// RepeatReport counts one more report into an open one.
func (s *Bolt) RepeatReport(id string, at time.Time) (Report, error) {
	return s.changeReport(id, func(r Report) Report { return r.Repeated(at) })
}

// ResolveReport marks a report handled, once.
func (s *Bolt) ResolveReport(id string, res Resolution) (Report, error) {
	return s.changeReport(id, func(r Report) Report {
		r.Resolved = &res
		return r
	})
}

// ForgetReports deletes the reports resolved before before.
func (s *Bolt) ForgetReports(before time.Time) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bktReports)
		if b == nil {
			return nil
		}
		var gone [][]byte
		err := b.ForEach(func(k, v []byte) error {
			r, err := DecodeAt[Report](bktReports, k, v)
			if err != nil {
				return err
			}
			if r.Resolved != nil && r.Resolved.At.Before(before) {
				gone = append(gone, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range gone {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		n = len(gone)
		return nil
	})
	return n, err
}

// changeReport applies change to the open report id.
func (s *Bolt) changeReport(id string, change func(Report) Report) (Report, error) {
	var out Report
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bktReports)
		var raw []byte
		if b != nil {
			raw = b.Get([]byte(id))
		}
		if raw == nil {
			return fmt.Errorf("%w: report %s", ErrNotFound, id)
		}
		var err error
		if out, err = DecodeAt[Report](bktReports, []byte(id), raw); err != nil {
			return err
		}
		if out.Resolved != nil {
			return fmt.Errorf("%w: report %s is resolved", ErrExists, id)
		}
		out = change(out)
		return putJSON(b, id, out)
	})
	return out, err
}

// add stores v under a new key of bucket name.
func (s *Bolt) add(name []byte, key string, v any) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(name)
		if err != nil {
			return err
		}
		if b.Get([]byte(key)) != nil {
			return fmt.Errorf("%w: %s %s", ErrExists, name, key)
		}
		return putJSON(b, key, v)
	})
}

// all decodes the values of bucket name in key order: the last limit of
// them (every one if limit <= 0). A bucket not made yet is empty.
func all[T any](s *Bolt, name []byte, limit int) ([]T, error) {
	var out []T
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(name)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			rec, err := DecodeAt[T](name, k, v)
			if err != nil {
				return err
			}
			out = append(out, rec)
		}
		return nil
	})
	slices.Reverse(out)
	return out, err
}

// SortSanctions orders sanctions by kind, then subject: the order every
// store returns them in.
func SortSanctions(ss []Sanction) {
	slices.SortFunc(ss, func(a, b Sanction) int { return strings.Compare(a.Key(), b.Key()) })
}

var _ Moderation = (*Bolt)(nil)
