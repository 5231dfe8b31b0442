package records

import (
	"errors"

	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/table"
)

// SetName keeps the name a keyed player chose.
func (r *Records) SetName(id, name string) error {
	_, err := r.store.UpdatePlayer(id, func(pr *persistence.Profile) error {
		pr.Name = name
		stampNew(pr)
		return nil
	})
	return err
}

// Keep stores p's profile, under the name p sits as, if none is stored.
func (r *Records) Keep(pl table.Player) {
	_ = r.keep(pl)
}

// keep stores a profile for keyed player p if it has none yet: the
// first thing a key does that is worth keeping (a seat, a setting, a
// campaign). Until then nothing of it is stored. A profile the store made
// without a name (joining a campaign adds it to the member's) gets p's.
func (r *Records) keep(p table.Player) error {
	if p.Guest {
		return nil
	}
	prof, err := r.store.Player(p.ID)
	if err == nil && prof.Name != "" || err != nil && !errors.Is(err, persistence.ErrNotFound) {
		return err
	}
	_, err = r.store.Seen(p.ID, p.Name)
	return err
}

// stampNew marks a profile being made now as seen now (UpdatePlayer stamps
// only FirstSeen), so the name it holds counts as recently used.
func stampNew(pr *persistence.Profile) {
	if pr.LastSeen.IsZero() {
		pr.LastSeen = pr.FirstSeen
	}
}
