package persistence

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"time"
)

// The record rules every store applies the same way: what a replaced room
// keeps, who a finished game counts for, how a campaign takes a result.
// Bolt applies them inside one transaction; a store without multi-record
// transactions applies them with compare-and-set on each record.

// Stamp prepares rec to replace old (nil when the room is new) at time
// now: Created is kept (or set), Updated is now, Finished is set when the
// room becomes finished and kept after. A finished room cannot become
// anything else (ErrInvalid). finishing reports that this write is the one
// that finishes the room: its players' stats count it now (CountIn).
func (r *RoomRecord) Stamp(old *RoomRecord, now time.Time) (finishing bool, err error) {
	if old != nil {
		if old.Status == StatusFinished && r.Status != StatusFinished {
			return false, fmt.Errorf("%w: room %s is finished; it cannot become %s", ErrInvalid, r.ID, r.Status)
		}
		if r.Created.IsZero() {
			r.Created = old.Created
		}
	}
	if r.Created.IsZero() {
		r.Created = now
	}
	r.Updated = now
	wasFinished := old != nil && old.Status == StatusFinished
	switch {
	case r.Status != StatusFinished:
		r.Finished = time.Time{}
	case wasFinished:
		r.Finished = old.Finished
	default:
		r.Finished = now
	}
	return r.Status == StatusFinished && !wasFinished, nil
}

// KeyedPlayers are the identities with a profile at this table (not bots,
// not guests), each once, in seat order.
func (r *RoomRecord) KeyedPlayers() []string {
	var out []string
	for _, seat := range r.Seats {
		if seat.keyed() && !slices.Contains(out, seat.Identity) {
			out = append(out, seat.Identity)
		}
	}
	return out
}

// CountIn adds the finished game to p's stats under (Setup.Game, Variant,
// number of seats), as a win if p's seat is among the winners, and the
// other keyed players at it to the players p met (Profile.Met). p must be
// one of KeyedPlayers.
func (r *RoomRecord) CountIn(p *Profile) {
	won := false
	if i := slices.IndexFunc(r.Seats, func(s SeatRecord) bool { return s.keyed() && s.Identity == p.Fingerprint }); i >= 0 && r.Result != nil {
		won = slices.Contains(r.Result.Winners, r.Seats[i].Seat)
	}
	p.Stat(r.Setup.Game, r.Variant, len(r.Seats)).add(won)
	var met []PlayedWith
	for _, s := range r.Seats {
		if s.keyed() && s.Identity != p.Fingerprint {
			met = append(met, PlayedWith{ID: s.Identity, Name: s.Name, Game: r.Setup.Game, When: r.Finished})
		}
	}
	p.Met(met)
}

// Prepare readies a new campaign: an empty ID gets a random one, Created
// is now; a bad ID or member list is ErrInvalid.
func (c *Campaign) Prepare(now time.Time) error {
	if c.ID == "" {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		c.ID = hex.EncodeToString(b[:])
	}
	if err := CheckKey("campaign id", c.ID); err != nil {
		return err
	}
	c.Created = now
	return c.CheckMembers()
}

// CheckMembers refuses a member list with a bad or repeated fingerprint.
func (c *Campaign) CheckMembers() error {
	for i, fp := range c.Members {
		if err := CheckKey("fingerprint", fp); err != nil {
			return err
		}
		if slices.Contains(c.Members[:i], fp) {
			return fmt.Errorf("%w: campaign %s lists %s twice", ErrInvalid, c.ID, fp)
		}
	}
	return nil
}

// MembersChanged lists who joined and who left between two member lists.
func MembersChanged(before, after []string) (joined, left []string) {
	for _, fp := range after {
		if !slices.Contains(before, fp) {
			joined = append(joined, fp)
		}
	}
	for _, fp := range before {
		if !slices.Contains(after, fp) {
			left = append(left, fp)
		}
	}
	return joined, left
}

// JoinCampaign lists campaign id in p, once.
func (p *Profile) JoinCampaign(id string) {
	if !slices.Contains(p.Campaigns, id) {
		p.Campaigns = append(p.Campaigns, id)
	}
}

// LeaveCampaign drops campaign id from p.
func (p *Profile) LeaveCampaign(id string) {
	p.Campaigns = slices.DeleteFunc(p.Campaigns, func(c string) bool { return c == id })
}

// MarkVeteran makes p a veteran as of now, keeping the first date.
func (p *Profile) MarkVeteran(now time.Time) {
	if !p.Veteran {
		p.Veteran, p.VeteranSince = true, now
	}
}

// CheckResultArgs refuses a campaign result with a bad room ID or player
// fingerprint (ErrInvalid), before any store reads the campaign.
func CheckResultArgs(roomID string, players []string) error {
	if err := CheckKey("room id", roomID); err != nil {
		return err
	}
	for _, fp := range players {
		if err := CheckKey("fingerprint", fp); err != nil {
			return err
		}
	}
	return nil
}

// Record counts one finished mission at time now (see
// Store.RecordCampaignResult): ErrExists if roomID was counted already,
// ErrStale if the campaign moved past from or is veteran. On success the
// caller marks players veteran when veteran is true.
func (c *Campaign) Record(roomID string, from int, players []string, won bool, next int, veteran bool, now time.Time) error {
	if slices.ContainsFunc(c.History, func(m CampaignMission) bool { return m.RoomID == roomID }) {
		return fmt.Errorf("campaign %s mission in room %s: %w", c.ID, roomID, ErrExists)
	}
	if c.Trials != from || c.Veteran {
		return fmt.Errorf("campaign %s: room %s played the mission at %d trials, the campaign is at %d: %w", c.ID, roomID, from, c.Trials, ErrStale)
	}
	c.Trials = next
	if won {
		c.Wins++
	} else {
		c.Losses++
	}
	c.History = append(c.History, CampaignMission{
		When: now, Players: slices.Clone(players), Won: won, Trials: next, RoomID: roomID,
	})
	c.Veteran = c.Veteran || veteran
	return nil
}
