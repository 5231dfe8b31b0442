package notify

import (
	"errors"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // quiet hours in a player's zone on a machine without a zone database
)

// Settings are one player's notification choices, kept in their profile.
type Settings struct {
	// URL is the webhook (a secret: stored, shown masked, never logged);
	// "" is notifications off.
	URL    string `json:"url,omitempty"`
	Format Format `json:"format,omitempty"`
	// Quiet are the hours nothing is sent, in Zone; what falls due then
	// waits for their end.
	Quiet Quiet `json:"quiet,omitzero"`
	// Zone is the player's time zone (an IANA name: Europe/Warsaw); ""
	// is UTC.
	Zone string `json:"zone,omitempty"`
	// Desktop is not the webhook's but the terminal's: a desktop
	// notification while connected, "" none, "9" (OSC 9) or "777" (OSC
	// 777). Kept with the rest.
	Desktop string `json:"desktop,omitempty"`
	// Lang is the language the webhook was set in: its messages are
	// written in it ("": the player's saved choice, else English). A
	// language taken from the terminal is stored nowhere else.
	Lang string `json:"lang,omitempty"`
}

// On reports whether the player has a webhook set.
func (s Settings) On() bool { return s.URL != "" }

// Location is the player's zone (UTC when unset or unknown).
func (s Settings) Location() *time.Location {
	if loc, err := LoadZone(s.Zone); err == nil {
		return loc
	}
	return time.UTC
}

// Quiet are daily quiet hours: from From to To, in minutes after local
// midnight, across midnight when To comes first. Equal bounds: none.
type Quiet struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// IsZero reports no quiet hours.
func (q Quiet) IsZero() bool { return q.From == q.To }

// String is "22:00-07:00", or "" for none.
func (q Quiet) String() string {
	if q.IsZero() {
		return ""
	}
	return fmt.Sprintf("%02d:%02d-%02d:%02d", q.From/60, q.From%60, q.To/60, q.To%60)
}

// ErrQuiet: quiet hours not written as HH:MM-HH:MM.
var ErrQuiet = errors.New("notify: quiet hours are HH:MM-HH:MM")

// ParseQuiet reads "22:00-07:00" (or "22-7"); "off" or "" is none.
func ParseQuiet(s string) (Quiet, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "off") {
		return Quiet{}, nil
	}
	from, to, ok := strings.Cut(s, "-")
	if !ok {
		return Quiet{}, ErrQuiet
	}
	f, err1 := clockMinutes(from)
	t, err2 := clockMinutes(to)
	if err1 != nil || err2 != nil || f == t {
		return Quiet{}, ErrQuiet
	}
	return Quiet{From: f, To: t}, nil
}

func clockMinutes(s string) (int, error) {
	s = strings.TrimSpace(s)
	h, m, _ := strings.Cut(s, ":")
	var hh, mm int
	if _, err := fmt.Sscanf(h, "%d", &hh); err != nil || len(h) > 2 {
		return 0, ErrQuiet
	}
	if m != "" {
		if _, err := fmt.Sscanf(m, "%d", &mm); err != nil || len(m) != 2 {
			return 0, ErrQuiet
		}
	}
	if hh < 0 || hh > 24 || mm < 0 || mm > 59 || hh == 24 && mm != 0 {
		return 0, ErrQuiet
	}
	return (hh*60 + mm) % (24 * 60), nil
}

// Until is when the quiet hours that hold at t end (t itself when they
// do not hold), reading t in loc.
func (q Quiet) Until(t time.Time, loc *time.Location) time.Time {
	if q.IsZero() {
		return t
	}
	lt := t.In(loc)
	mins := lt.Hour()*60 + lt.Minute()
	in := q.From < q.To && mins >= q.From && mins < q.To ||
		q.From > q.To && (mins >= q.From || mins < q.To)
	if !in {
		return t
	}
	end := time.Date(lt.Year(), lt.Month(), lt.Day(), q.To/60, q.To%60, 0, 0, loc)
	if !end.After(lt) {
		end = time.Date(lt.Year(), lt.Month(), lt.Day()+1, q.To/60, q.To%60, 0, 0, loc)
	}
	return end
}

// ErrZone: not a time zone this server knows.
var ErrZone = errors.New("notify: unknown time zone")

// LoadZone reads a time zone as a client's TZ gives it: an IANA name
// ("Europe/Warsaw", ":Europe/Warsaw"), or UTC. POSIX rule strings
// ("CET-1CEST,M3.5.0…") are not taken.
func LoadZone(name string) (*time.Location, error) {
	name = strings.TrimPrefix(strings.TrimSpace(name), ":")
	if name == "" || strings.EqualFold(name, "UTC") {
		return time.UTC, nil
	}
	if len(name) > 64 || strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, ErrZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, ErrZone
	}
	return loc, nil
}
