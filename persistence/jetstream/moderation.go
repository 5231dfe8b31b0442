package jetstream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// PutSanction stores a ban or mute over any of the same kind on its
// subject. Every node reads the bucket (moderation refreshes its view of
// it every few seconds), so a ban made on one node holds on all.
func (s *Store) PutSanction(sn persistence.Sanction) error {
	if sn.Kind != persistence.SanctionBan && sn.Kind != persistence.SanctionMute {
		return fmt.Errorf("%w: sanction kind %q", persistence.ErrInvalid, sn.Kind)
	}
	if err := persistence.CheckKey("sanction subject", sn.Subject); err != nil {
		return err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	return overwrite(ctx, s.sanctions, key(sn.Key()), sn)
}

// DeleteSanction removes a sanction and returns it, or ErrNotFound.
func (s *Store) DeleteSanction(kind, subject string) (persistence.Sanction, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	k := key(persistence.SanctionKey(kind, subject))
	sn, rev, found, err := get[persistence.Sanction](ctx, s.sanctions, k)
	if err != nil {
		return sn, err
	}
	if !found {
		return sn, fmt.Errorf("%w: %s of %s", persistence.ErrNotFound, kind, subject)
	}
	err = s.sanctions.Delete(ctx, k, js.LastRevision(rev))
	if conflict(err) { // changed meanwhile (a new ban): it is still gone now
		err = s.sanctions.Delete(ctx, k)
	}
	if errors.Is(err, js.ErrKeyNotFound) {
		err = nil
	}
	return sn, err
}

// Sanctions returns every stored sanction, by kind then subject.
func (s *Store) Sanctions() ([]persistence.Sanction, error) {
	return s.SanctionsContext(context.Background())
}

// SanctionsContext is Sanctions given up when ctx ends: a node shutting
// down does not wait out the scan's timeout (moderation.ContextReader).
func (s *Store) SanctionsContext(ctx context.Context) ([]persistence.Sanction, error) {
	out, err := scanAllContext[persistence.Sanction](ctx, s, s.sanctions)
	persistence.SortSanctions(out)
	return out, err
}

// AppendAudit keeps one moderation action, stamped with an ID.
func (s *Store) AppendAudit(e persistence.AuditEntry) (persistence.AuditEntry, error) {
	if e.At.IsZero() {
		e.At = s.now()
	}
	e.ID = persistence.NewRecordID(e.At)
	return e, s.create(s.audit, e.ID, e)
}

// Audit returns the last limit actions, oldest first. It reads the whole
// bucket: the log of a server's moderation is short.
func (s *Store) Audit(limit int) ([]persistence.AuditEntry, error) {
	out, err := scanAll[persistence.AuditEntry](s, s.audit)
	slices.SortFunc(out, func(a, b persistence.AuditEntry) int { return strings.Compare(a.ID, b.ID) })
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, err
}

// FileReport keeps a report, stamped with an ID.
func (s *Store) FileReport(r persistence.Report) (persistence.Report, error) {
	if err := persistence.CheckKey("reporter", r.Reporter); err != nil {
		return r, err
	}
	if err := persistence.CheckKey("reported player", r.Subject); err != nil {
		return r, err
	}
	if r.At.IsZero() {
		r.At = s.now()
	}
	r.ID = persistence.NewRecordID(r.At)
	return r, s.create(s.reports, r.ID, r)
}

// Reports returns every report, oldest first.
func (s *Store) Reports() ([]persistence.Report, error) {
	out, err := scanAll[persistence.Report](s, s.reports)
	slices.SortFunc(out, func(a, b persistence.Report) int { return strings.Compare(a.ID, b.ID) })
	return out, err
}

// ResolveReport marks a report handled, once: two admins resolving it on
// two nodes at once, the first write stands and the other is told.
func (s *Store) ResolveReport(id string, res persistence.Resolution) (persistence.Report, error) {
	return s.changeReport(id, func(r persistence.Report) persistence.Report {
		r.Resolved = &res
		return r
	})
}

// RepeatReport counts one more report into an open one; two nodes at
// once both count (compare-and-set, tried again).
func (s *Store) RepeatReport(id string, at time.Time) (persistence.Report, error) {
	return s.changeReport(id, func(r persistence.Report) persistence.Report { return r.Repeated(at) })
}

// ForgetReports deletes the reports resolved before before.
func (s *Store) ForgetReports(before time.Time) (int, error) {
	all, err := s.Reports()
	if err != nil {
		return 0, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	n := 0
	for _, r := range all {
		if r.Resolved == nil || !r.Resolved.At.Before(before) {
			continue
		}
		if err := s.reports.Delete(ctx, key(r.ID)); err != nil && !errors.Is(err, js.ErrKeyNotFound) {
			return n, err
		}
		n++
	}
	return n, nil
}

// changeReport applies change to the open report id, compare-and-set.
func (s *Store) changeReport(id string, change func(persistence.Report) persistence.Report) (persistence.Report, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	k := key(id)
	for range maxAttempts {
		r, rev, found, err := get[persistence.Report](ctx, s.reports, k)
		if err != nil {
			return r, err
		}
		if !found {
			return r, fmt.Errorf("%w: report %s", persistence.ErrNotFound, id)
		}
		if r.Resolved != nil {
			return r, fmt.Errorf("%w: report %s is resolved", persistence.ErrExists, id)
		}
		r = change(r)
		if err := put(ctx, s.reports, k, r, rev); !conflict(err) {
			return r, err
		}
	}
	return persistence.Report{}, errContention
}

// create stores v under a new key of b.
func (s *Store) create(b *bucket, id string, v any) error {
	ctx, cancel := s.ctx()
	defer cancel()
	err := put(ctx, b, key(id), v, 0)
	if errors.Is(err, js.ErrKeyExists) {
		err = fmt.Errorf("%w: %s", persistence.ErrExists, id)
	}
	return err
}

// scanAll decodes every live value of b.
func scanAll[T any](s *Store, b *bucket) ([]T, error) {
	return scanAllContext[T](context.Background(), s, b)
}

// scanAllContext is scanAll ended early by ctx.
func scanAllContext[T any](ctx context.Context, s *Store, b *bucket) ([]T, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*s.timeout) // as scanCtx
	defer cancel()
	var out []T
	err := scan(ctx, b, ">", func(v []byte) error {
		rec, err := persistence.Decode[T](v)
		if err != nil {
			return err
		}
		out = append(out, rec)
		return nil
	})
	return out, err
}

var _ persistence.Moderation = (*Store)(nil)
