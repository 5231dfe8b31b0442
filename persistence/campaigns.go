package persistence

import (
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Campaign is a group playing The Grizzled's campaign together. The rule
// arithmetic (trials after a mission, when a group becomes veteran) lives
// in games/grizzled; the store only keeps the numbers it is given.
type Campaign struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Players int               `json:"players,omitempty"` // seats at its tables (2–5)
	Members []string          `json:"members"`           // fingerprints
	Trials  int               `json:"trials"`            // trials to deal in the next mission
	Wins    int               `json:"wins"`
	Losses  int               `json:"losses"`
	Veteran bool              `json:"veteran,omitempty"`
	Created time.Time         `json:"created"`
	History []CampaignMission `json:"history,omitempty"` // oldest first
	// Table is how its members last chose to play its missions (nil: never
	// chosen, the server's defaults); see campaign_table.go.
	Table *CampaignTable `json:"table,omitempty"`
}

// CampaignMission is one game played in a campaign.
type CampaignMission struct {
	When    time.Time `json:"when"`
	Players []string  `json:"players"` // fingerprints of the keyed players at the table
	Won     bool      `json:"won"`
	Trials  int       `json:"trials"` // the campaign's trials after this mission
	RoomID  string    `json:"room"`   // the finished room: its log replays the mission
}

// CreateCampaign stores a new campaign and lists it in every member's
// profile (creating profiles as needed), in one transaction. An empty ID
// gets a random one; a taken ID is ErrExists. Created is stamped.
func (s *Bolt) CreateCampaign(c Campaign) (Campaign, error) {
	if err := c.Prepare(s.now()); err != nil {
		return Campaign{}, err
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bktCampaigns).Get([]byte(c.ID)) != nil {
			return fmt.Errorf("campaign %q: %w", c.ID, ErrExists)
		}
		return s.putCampaign(tx, nil, &c)
	})
	if err != nil {
		return Campaign{}, err
	}
	return c, nil
}

// Campaign returns one campaign, or ErrNotFound.
func (s *Bolt) Campaign(id string) (Campaign, error) {
	var c Campaign
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		c, err = getCampaign(tx, id)
		return err
	})
	return c, err
}

// Campaigns returns the campaigns fp is a member of, in the order joined.
func (s *Bolt) Campaigns(fp string) ([]Campaign, error) {
	var out []Campaign
	err := s.view(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bktPlayers).Get([]byte(fp))
		if raw == nil {
			return nil
		}
		p, err := DecodeAt[Profile](bktPlayers, []byte(fp), raw)
		if err != nil {
			return err
		}
		for _, id := range p.Campaigns {
			c, err := getCampaign(tx, id)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// UpdateCampaign reads a campaign, lets fn change it and stores it, in one
// transaction; members added or removed by fn are listed in or dropped
// from their profiles in the same transaction. fn cannot change the ID.
// If fn returns an error nothing is stored.
func (s *Bolt) UpdateCampaign(id string, fn func(*Campaign) error) (Campaign, error) {
	var c Campaign
	err := s.db.Update(func(tx *bolt.Tx) error {
		old, err := getCampaign(tx, id)
		if err != nil {
			return err
		}
		c = old
		c.Members = slices.Clone(old.Members)
		c.History = slices.Clone(old.History)
		if err := fn(&c); err != nil {
			return err
		}
		c.ID = id
		return s.putCampaign(tx, &old, &c)
	})
	if err != nil {
		return Campaign{}, err
	}
	return c, nil
}

// RecordCampaignResult records one finished mission in one transaction: the
// campaign's trials become next, its win or loss is counted, the mission is
// appended to its history and, when veteran is true, the campaign and the
// profiles of exactly the given players are marked veteran (VeteranSince
// keeps the first date). from is the trials the mission was dealt with: a
// result for a mission the campaign has moved past (it is no longer at
// from, or is already veteran) is ErrStale and changes nothing. next and
// veteran come from the rules
// (grizzled.CampaignNext). A second result for the same roomID is ErrExists,
// so a retried call never counts a mission twice.
func (s *Bolt) RecordCampaignResult(id, roomID string, from int, players []string, won bool, next int, veteran bool) (Campaign, error) {
	if err := CheckResultArgs(roomID, players); err != nil {
		return Campaign{}, err
	}
	var c Campaign
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		if c, err = getCampaign(tx, id); err != nil {
			return err
		}
		now := s.now()
		if err := c.Record(roomID, from, players, won, next, veteran, now); err != nil {
			return err
		}
		if veteran {
			for _, fp := range players {
				_, err := s.updatePlayer(tx, fp, func(p *Profile) error {
					p.MarkVeteran(now)
					return nil
				})
				if err != nil {
					return err
				}
			}
		}
		return putJSON(tx.Bucket(bktCampaigns), c.ID, c)
	})
	if err != nil {
		return Campaign{}, err
	}
	return c, nil
}

func getCampaign(tx *bolt.Tx, id string) (Campaign, error) {
	raw := tx.Bucket(bktCampaigns).Get([]byte(id))
	if raw == nil {
		return Campaign{}, fmt.Errorf("campaign %q: %w", id, ErrNotFound)
	}
	return DecodeAt[Campaign](bktCampaigns, []byte(id), raw)
}

// putCampaign stores c and brings members' profiles in line with the
// change from old (nil for a new campaign).
func (s *Bolt) putCampaign(tx *bolt.Tx, old, c *Campaign) error {
	if err := c.CheckMembers(); err != nil {
		return err
	}
	var before []string
	if old != nil {
		before = old.Members
	}
	joined, left := MembersChanged(before, c.Members)
	for _, fp := range joined {
		if _, err := s.updatePlayer(tx, fp, func(p *Profile) error { p.JoinCampaign(c.ID); return nil }); err != nil {
			return err
		}
	}
	for _, fp := range left {
		if _, err := s.updatePlayer(tx, fp, func(p *Profile) error { p.LeaveCampaign(c.ID); return nil }); err != nil {
			return err
		}
	}
	return putJSON(tx.Bucket(bktCampaigns), c.ID, *c)
}
