package persistence

import (
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Profile is what Bivouac remembers of a keyed player. Guests have none.
type Profile struct {
	Fingerprint  string     `json:"fp"` // gossh.FingerprintSHA256 of the verified key
	Name         string     `json:"name"`
	FirstSeen    time.Time  `json:"first_seen"` // set when the profile is created
	LastSeen     time.Time  `json:"last_seen"`
	Stats        []StatLine `json:"stats,omitempty"`
	Veteran      bool       `json:"veteran,omitempty"` // The Grizzled: a campaign reached 30 trials
	VeteranSince time.Time  `json:"veteran_since,omitzero"`
	Campaigns    []string   `json:"campaigns,omitempty"` // IDs of campaigns the player is a member of
	Lang         string     `json:"lang,omitempty"`      // the language chosen in the lobby (i18n.Lang)
	Gender       string     `json:"gender,omitempty"`    // how the game addresses the player: f, m, n, or "" unset (game.Gender.Code)
	Relations               // friends, requests, the players this one ignores and blocks (relations.go)
	// Presence is who sees where the player is: "" their friends, "everyone",
	// or "nobody" (package presence).
	Presence string `json:"presence,omitempty"`
	// PlayedWith are the keyed players of this one's last finished games,
	// newest first, each once, at most MaxPlayedWith (CountIn).
	PlayedWith []PlayedWith `json:"played_with,omitempty"`
	// Notify is where the player is told of their moves while away
	// (package notify's Settings); its URL is a secret, never logged.
	Notify NotifySettings `json:"notify,omitzero"`
	// Notified is what was sent them, by table (notify.Mark): a restart
	// or another node does not send it again. At most MaxNotified.
	Notified map[string]NotifyMark `json:"notified,omitempty"`
}

// PlayedWith is a player met at a finished game: who, what they were
// called then, the game and when it finished.
type PlayedWith struct {
	ID   string    `json:"id"`
	Name string    `json:"name"`
	Game string    `json:"game"`
	When time.Time `json:"when"`
}

// MaxPlayedWith is how many players a profile remembers meeting.
const MaxPlayedWith = 30

// Met puts the players of a game finished at when at the front of p's
// PlayedWith (once each, the newest game's name and game kept), and drops
// the oldest past MaxPlayedWith.
func (p *Profile) Met(players []PlayedWith) {
	var fresh []PlayedWith
	for _, q := range players {
		if q.ID == p.Fingerprint || slices.ContainsFunc(fresh, func(f PlayedWith) bool { return f.ID == q.ID }) {
			continue
		}
		fresh = append(fresh, q)
	}
	for _, old := range p.PlayedWith {
		if !slices.ContainsFunc(fresh, func(f PlayedWith) bool { return f.ID == old.ID }) {
			fresh = append(fresh, old)
		}
	}
	p.PlayedWith = fresh[:min(len(fresh), MaxPlayedWith)]
}

// NotifySettings are a player's notification choices (notify.Settings).
type NotifySettings struct {
	URL       string `json:"url,omitempty"`
	Format    string `json:"format,omitempty"`
	QuietFrom int    `json:"quiet_from,omitempty"` // minutes after local midnight
	QuietTo   int    `json:"quiet_to,omitempty"`
	Zone      string `json:"zone,omitempty"` // IANA name; "": UTC
	// Desktop is the terminal's desktop notification: "" none, "9" (OSC 9)
	// or "777" (OSC 777).
	Desktop string `json:"desktop,omitempty"`
	// Lang is the language the webhook was set in (i18n.Lang): what its
	// messages are written in ("": the profile's, else English).
	Lang string `json:"lang,omitempty"`
}

// NotifyMark is what was sent a player about one table (notify.Mark).
type NotifyMark struct {
	At       time.Time `json:"at"`
	Decision int       `json:"decision,omitempty"`
	Reminded int       `json:"reminded,omitempty"`
}

// MaxNotified bounds Profile.Notified: past it the oldest marks go (a
// table's lasts days; a player's correspondence tables are bounded).
const MaxNotified = 64

// SetNotified keeps m for room, the oldest marks going past MaxNotified.
func (p *Profile) SetNotified(room string, m NotifyMark) {
	if p.Notified == nil {
		p.Notified = map[string]NotifyMark{}
	}
	p.Notified[room] = m
	for len(p.Notified) > MaxNotified {
		oldest := ""
		for r, x := range p.Notified {
			if oldest == "" || x.At.Before(p.Notified[oldest].At) {
				oldest = r
			}
		}
		delete(p.Notified, oldest)
	}
}

// StatLine counts games of one kind: game, variant and number of seats.
type StatLine struct {
	Game    string `json:"game"`
	Variant string `json:"variant,omitempty"`
	Players int    `json:"players"`
	Played  int    `json:"played"`
	Won     int    `json:"won"`
}

func (l *StatLine) add(won bool) {
	l.Played++
	if won {
		l.Won++
	}
}

// Stat returns the line for (game, variant, players), adding an empty one
// if there is none. The pointer is valid until the next Stat call.
func (p *Profile) Stat(game, variant string, players int) *StatLine {
	for i := range p.Stats {
		l := &p.Stats[i]
		if l.Game == game && l.Variant == variant && l.Players == players {
			return l
		}
	}
	p.Stats = append(p.Stats, StatLine{Game: game, Variant: variant, Players: players})
	return &p.Stats[len(p.Stats)-1]
}

// Player returns the profile of fingerprint fp, or ErrNotFound.
func (s *Bolt) Player(fp string) (Profile, error) {
	var p Profile
	err := s.view(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bktPlayers).Get([]byte(fp))
		if raw == nil {
			return fmt.Errorf("player %q: %w", fp, ErrNotFound)
		}
		var err error
		p, err = DecodeAt[Profile](bktPlayers, []byte(fp), raw)
		return err
	})
	return p, err
}

// UpdatePlayer reads the profile of fp (a new one, FirstSeen stamped, if
// there is none), lets fn change it and stores the result, all in one
// transaction. If fn returns an error nothing is stored. fn runs once,
// inside the transaction: keep it short and free of I/O. It cannot change
// the fingerprint.
func (s *Bolt) UpdatePlayer(fp string, fn func(*Profile) error) (Profile, error) {
	var p Profile
	err := s.db.Update(func(tx *bolt.Tx) error {
		var err error
		p, err = s.updatePlayer(tx, fp, fn)
		return err
	})
	if err != nil {
		return Profile{}, err
	}
	return p, nil
}

func (s *Bolt) updatePlayer(tx *bolt.Tx, fp string, fn func(*Profile) error) (Profile, error) {
	if err := CheckKey("fingerprint", fp); err != nil {
		return Profile{}, err
	}
	players := tx.Bucket(bktPlayers)
	p := Profile{Fingerprint: fp, FirstSeen: s.now()}
	if raw := players.Get([]byte(fp)); raw != nil {
		var err error
		if p, err = DecodeAt[Profile](bktPlayers, []byte(fp), raw); err != nil {
			return Profile{}, err
		}
	}
	if err := fn(&p); err != nil {
		return Profile{}, err
	}
	p.Fingerprint = fp
	return p, putJSON(players, fp, p)
}

// Seen records a login: LastSeen becomes now and, for a new profile or
// one without a name, Name becomes name (the SSH user name by default).
// It returns the profile, whose Name is what the lobby shows.
func (s *Bolt) Seen(fp, name string) (Profile, error) {
	return s.UpdatePlayer(fp, func(p *Profile) error {
		p.LastSeen = s.now()
		if p.Name == "" {
			p.Name = name
		}
		return nil
	})
}

// Left records the end of a player's session: LastSeen becomes now, so
// a friend who logs in later reads the day they were last there. Only a
// stored profile is stamped: ErrNotFound for none (a key that only
// looked around leaves nothing behind).
func (s *Bolt) Left(fp string) error {
	if err := CheckKey("fingerprint", fp); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bktPlayers).Get([]byte(fp)) == nil {
			return ErrNotFound
		}
		_, err := s.updatePlayer(tx, fp, func(p *Profile) error {
			p.LastSeen = s.now()
			return nil
		})
		return err
	})
}

// EachPlayer calls fn with every stored profile (in fingerprint order) and
// stops at fn's first error, which it returns. It reads one snapshot.
func (s *Bolt) EachPlayer(fn func(Profile) error) error {
	return s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bktPlayers).ForEach(func(k, raw []byte) error {
			p, err := DecodeAt[Profile](bktPlayers, k, raw)
			if err != nil {
				return err
			}
			return fn(p)
		})
	})
}
