package jetstream

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// Player returns the profile of fingerprint fp, or ErrNotFound.
func (s *Store) Player(fp string) (persistence.Profile, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	return one[persistence.Profile](ctx, s.players, "fingerprint", fp)
}

// UpdatePlayer reads the profile of fp (a new one, FirstSeen stamped, if
// there is none), lets fn change it and stores it if nobody else changed
// the profile meanwhile; else it reads again and reruns fn.
func (s *Store) UpdatePlayer(fp string, fn func(*persistence.Profile) error) (persistence.Profile, error) {
	if err := persistence.CheckKey("fingerprint", fp); err != nil {
		return persistence.Profile{}, err
	}
	return update(s, s.players, key(fp), func(p *persistence.Profile, found bool) error {
		if !found {
			*p = persistence.Profile{Fingerprint: fp, FirstSeen: s.now()}
		}
		if err := fn(p); err != nil {
			return err
		}
		p.Fingerprint = fp
		return nil
	})
}

// Seen records a login (see persistence.Bolt.Seen).
func (s *Store) Seen(fp, name string) (persistence.Profile, error) {
	return s.UpdatePlayer(fp, func(p *persistence.Profile) error {
		p.LastSeen = s.now()
		if p.Name == "" {
			p.Name = name
		}
		return nil
	})
}

// Left records the end of a player's session (see persistence.Bolt.Left).
func (s *Store) Left(fp string) error {
	if err := persistence.CheckKey("fingerprint", fp); err != nil {
		return err
	}
	_, err := update(s, s.players, key(fp), func(p *persistence.Profile, found bool) error {
		if !found {
			return persistence.ErrNotFound
		}
		p.LastSeen = s.now()
		return nil
	})
	return err
}

// EachPlayer calls fn with every profile in fingerprint order and stops at
// fn's first error. It reads them all first.
func (s *Store) EachPlayer(fn func(persistence.Profile) error) error {
	ctx, cancel := s.scanCtx()
	var all []persistence.Profile
	err := scan(ctx, s.players, ">", func(v []byte) error {
		p, err := persistence.Decode[persistence.Profile](v)
		all = append(all, p)
		return err
	})
	cancel()
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b persistence.Profile) int { return strings.Compare(a.Fingerprint, b.Fingerprint) })
	for _, p := range all {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// CreateCampaign stores a new campaign (ErrExists if the ID is taken),
// then lists it in each member's profile.
func (s *Store) CreateCampaign(c persistence.Campaign) (persistence.Campaign, error) {
	if err := c.Prepare(s.now()); err != nil {
		return persistence.Campaign{}, err
	}
	ctx, cancel := s.ctx()
	err := put(ctx, s.campaigns, key(c.ID), c, 0)
	cancel()
	if conflict(err) {
		return persistence.Campaign{}, fmt.Errorf("campaign %q: %w", c.ID, persistence.ErrExists)
	}
	if err != nil {
		return persistence.Campaign{}, err
	}
	return c, s.syncMembers(c.ID, nil, c.Members)
}

// syncMembers lists campaign id in the profiles of those who joined and
// drops it from those who left.
func (s *Store) syncMembers(id string, before, after []string) error {
	joined, left := persistence.MembersChanged(before, after)
	for _, fp := range joined {
		if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.JoinCampaign(id); return nil }); err != nil {
			return err
		}
	}
	for _, fp := range left {
		if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.LeaveCampaign(id); return nil }); err != nil {
			return err
		}
	}
	return nil
}

// Campaign returns one campaign, or ErrNotFound.
func (s *Store) Campaign(id string) (persistence.Campaign, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	return one[persistence.Campaign](ctx, s.campaigns, "campaign id", id)
}

// Campaigns returns the campaigns fp is a member of, in the order joined.
func (s *Store) Campaigns(fp string) ([]persistence.Campaign, error) {
	p, err := s.Player(fp)
	if err != nil {
		if errors.Is(err, persistence.ErrNotFound) {
			return nil, nil
		}
		return nil, err
	}
	var out []persistence.Campaign
	for _, id := range p.Campaigns {
		c, err := s.Campaign(id)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// UpdateCampaign changes a campaign with compare-and-set (fn may run
// again after a lost race), then brings members' profiles in line.
func (s *Store) UpdateCampaign(id string, fn func(*persistence.Campaign) error) (persistence.Campaign, error) {
	if err := persistence.CheckKey("campaign id", id); err != nil {
		return persistence.Campaign{}, err
	}
	var before []string
	c, err := update(s, s.campaigns, key(id), func(c *persistence.Campaign, found bool) error {
		if !found {
			return fmt.Errorf("campaign %q: %w", id, persistence.ErrNotFound)
		}
		before = slices.Clone(c.Members)
		if err := fn(c); err != nil {
			return err
		}
		c.ID = id
		return c.CheckMembers()
	})
	if err != nil {
		return persistence.Campaign{}, err
	}
	return c, s.syncMembers(id, before, c.Members)
}

// RecordCampaignResult records one finished mission (see
// persistence.Bolt.RecordCampaignResult) with compare-and-set on the
// campaign, then marks the players veteran if it made them so.
func (s *Store) RecordCampaignResult(id, roomID string, from int, players []string, won bool, next int, veteran bool) (persistence.Campaign, error) {
	if err := persistence.CheckResultArgs(roomID, players); err != nil {
		return persistence.Campaign{}, err
	}
	if err := persistence.CheckKey("campaign id", id); err != nil {
		return persistence.Campaign{}, err
	}
	now := s.now()
	c, err := update(s, s.campaigns, key(id), func(c *persistence.Campaign, found bool) error {
		if !found {
			return fmt.Errorf("campaign %q: %w", id, persistence.ErrNotFound)
		}
		return c.Record(roomID, from, players, won, next, veteran, now)
	})
	if err != nil || !veteran {
		return c, err
	}
	for _, fp := range players {
		if _, err := s.UpdatePlayer(fp, func(p *persistence.Profile) error { p.MarkVeteran(now); return nil }); err != nil {
			return c, err
		}
	}
	return c, nil
}

// The alive mark's keys (kind "alive"): aliveAtKey is this release's;
// aliveKey the releases' before 29 Nov 2026 (evening), which every node
// of theirs renewed every 3 s: upgrade.go tells from it whether one runs.
const (
	aliveKey   = "last"
	aliveAtKey = "at"
)

// MarkAlive records t as the last moment the server was known to run.
func (s *Store) MarkAlive(t time.Time) error {
	ctx, cancel := s.ctx()
	defer cancel()
	_, err := s.alive.Put(ctx, aliveAtKey, binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())))
	return err
}

// LastAlive is the last MarkAlive time (an earlier release's included),
// or the zero time if none.
func (s *Store) LastAlive() (time.Time, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	at, err := s.mark(ctx, aliveAtKey)
	if err != nil {
		return time.Time{}, err
	}
	before, err := s.mark(ctx, aliveKey)
	if err != nil {
		return time.Time{}, err
	}
	if before.After(at) {
		return before, nil
	}
	return at, nil
}

// mark is the alive mark under key k (zero: none).
func (s *Store) mark(ctx context.Context, k string) (time.Time, error) {
	e, err := s.alive.Get(ctx, k)
	if errors.Is(err, js.ErrKeyNotFound) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return decodeAlive(e.Value())
}

func decodeAlive(v []byte) (time.Time, error) {
	if len(v) != 8 {
		return time.Time{}, fmt.Errorf("%w: alive mark of %d bytes", persistence.ErrCorrupt, len(v))
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v))), nil
}
