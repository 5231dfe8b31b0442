package moderation

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/words"
)

// MaxDuration is the longest sanction given a duration (ten years); longer
// is what "forever" is for.
const MaxDuration = 3650 * 24 * time.Hour

// ErrDuration is every duration refused: errors.Is finds it under the
// message that says what was wrong with the word.
var ErrDuration = words.NewError("moderation.duration.not")

// Forever is how long a sanction written "forever" (or "permanent") lasts:
// no end. A sanction lasts for good only when the admin writes so.
const Forever time.Duration = 0

// ParseTerm reads how long a ban or mute lasts, as an admin writes it: a
// duration (ParseDuration), or "forever" or "permanent" for no end
// (Forever). Anything else is an error saying what was wrong.
func ParseTerm(word string) (time.Duration, error) {
	switch strings.ToLower(strings.TrimSpace(word)) {
	case "forever", "permanent":
		return Forever, nil
	}
	d, err := ParseDuration(word)
	var ge *words.Error
	if errors.As(err, &ge) && ge.Msg.Key == "moderation.duration.not" {
		return 0, durationError("moderation.duration.not_term", word)
	}
	return d, err
}

// ParseDuration reads a duration as admins write it: a whole number and
// one unit, m (minutes), h (hours), d (days) or w (weeks), such as "30m",
// "2h", "7d", "2w"; case and surrounding spaces do not matter. It is at
// least a minute and at most MaxDuration. A word that fails is an error
// (wrapping ErrDuration) that says what is wrong with it: no unit, an
// unknown unit, a sign, a fraction, zero, too long, or not a duration.
func ParseDuration(word string) (time.Duration, error) {
	s := strings.ToLower(strings.TrimSpace(word))
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	number, rest := s[:digits], s[digits:]
	switch {
	case s == "":
		return 0, durationError("moderation.duration.missing", word)
	case strings.HasPrefix(s, "-") && digits == 0 && len(s) > 1 && isDigit(s[1]):
		return 0, durationError("moderation.duration.negative", word)
	case digits == 0:
		return 0, durationError("moderation.duration.not", word)
	case rest == "":
		return 0, durationError("moderation.duration.no_unit", word)
	case rest[0] == '.' || rest[0] == ',':
		return 0, durationError("moderation.duration.fraction", word)
	}
	unit, ok := units[rest]
	if !ok {
		if strings.ContainsFunc(rest, isNotLetter) { // "2h30m", "7 d", "12:00"
			return 0, durationError("moderation.duration.not", word)
		}
		return 0, &words.Error{Err: ErrDuration, Msg: words.M("moderation.duration.unit",
			words.Text("Word", shown(word)), words.Text("Unit", shown(rest)))}
	}
	n, err := strconv.ParseUint(number, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange), err == nil && n > uint64(MaxDuration/unit):
		return 0, durationError("moderation.duration.too_long", word)
	case err != nil:
		return 0, durationError("moderation.duration.not", word)
	case n == 0:
		return 0, durationError("moderation.duration.no_time", word)
	}
	return time.Duration(n) * unit, nil
}

// units are the duration units, by the letter that follows the number.
var units = map[string]time.Duration{
	"m": time.Minute,
	"h": time.Hour,
	"d": 24 * time.Hour,
	"w": 7 * 24 * time.Hour,
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isNotLetter(r rune) bool { return !(r >= 'a' && r <= 'z') }

func durationError(key, word string) error {
	return &words.Error{Err: ErrDuration, Msg: words.M(key, words.Text("Word", shown(word)))}
}

// shown is a word as an error quotes it: one short line.
func shown(word string) string { return sanitize.Cut(word, 24) }

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
