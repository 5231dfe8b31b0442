package moderation

import (
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// MaxDuration is the longest sanction given a duration (ten years); longer
// is what "no duration" (for good) is for.
const MaxDuration = 3650 * 24 * time.Hour

// ErrDuration: a duration that is not a whole number of minutes (m), hours
// (h), days (d) or weeks (w), or is zero or above MaxDuration.
var ErrDuration = words.NewError("moderation.err.duration")

// ParseDuration reads a duration as players write it: "30m", "2h", "7d",
// "2w". Case and surrounding spaces do not matter.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) < 2 {
		return 0, ErrDuration
	}
	unit, ok := units[s[len(s)-1]]
	if !ok {
		return 0, ErrDuration
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n <= 0 || n > int(MaxDuration/unit) {
		return 0, ErrDuration
	}
	return time.Duration(n) * unit, nil
}

// LooksLikeDuration reports whether a word is meant as a duration (a
// number and a letter), even a bad one: `ban Bob 7x` is a bad duration,
// not a reason beginning "7x".
func LooksLikeDuration(s string) bool {
	if len(s) < 2 || s[0] < '0' || s[0] > '9' {
		return false
	}
	_, err := strconv.Atoi(s[:len(s)-1])
	return err == nil
}

var units = map[byte]time.Duration{
	'm': time.Minute,
	'h': time.Hour,
	'd': 24 * time.Hour,
	'w': 7 * 24 * time.Hour,
}

// LeftArg says how long remains, as the argument Left, in the largest
// unit that fits ("3 days", "2 hours", "45 minutes"): minutes rounded up,
// so a minute left is never "0", and from 60 of them hours, from 24 of
// those days, each to the nearest (a ban of 2 h read a second later is
// still "2 hours"; the message gives the exact end too).
func LeftArg(d time.Duration) words.Arg {
	const day = 24 * time.Hour
	minutes := max(1, ceil(d, time.Minute))
	if minutes < 60 {
		return words.Sub("Left", words.M("moderation.left.minutes", words.Count(minutes)))
	}
	hours := nearest(d, time.Hour)
	if hours < 24 {
		return words.Sub("Left", words.M("moderation.left.hours", words.Count(hours)))
	}
	return words.Sub("Left", words.M("moderation.left.days", words.Count(nearest(d, day))))
}

func nearest(d, unit time.Duration) int { return int((d + unit/2) / unit) }

func ceil(d, unit time.Duration) int { return int((d + unit - 1) / unit) }
