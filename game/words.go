package game

import "github.com/bivouac-ssh/bivouac/words"

// The rules say what happened in catalog messages (package words): the
// names below are words' own, given here so that a game speaks through its
// contract alone. They are aliases, the same types and functions, so a
// game.Msg is a words.Msg wherever it goes.

type (
	Msg     = words.Msg
	Arg     = words.Arg
	ArgKind = words.ArgKind
	Gender  = words.Gender
	Error   = words.Error
)

const (
	ArgNum  = words.ArgNum
	ArgText = words.ArgText
	ArgTerm = words.ArgTerm
	ArgMsg  = words.ArgMsg
	ArgList = words.ArgList

	GenderUnset = words.GenderUnset
	Feminine    = words.Feminine
	Masculine   = words.Masculine
	Neutral     = words.Neutral

	BotMark = words.BotMark
	RawKey  = words.RawKey
)

// M is a message with arguments (words.M).
func M(key string, args ...Arg) Msg { return words.M(key, args...) }

// Num is a number argument (words.Num).
func Num(name string, n int) Arg { return words.Num(name, n) }

// Count is the number that chooses the plural form (words.Count).
func Count(n int) Arg { return words.Count(n) }

// Text is an argument shown as it is (words.Text).
func Text(name, s string) Arg { return words.Text(name, s) }

// Person is a player's name with how they asked to be addressed (words.Person).
func Person(name, s string, g Gender) Arg { return words.Person(name, s, g) }

// Term is an argument rendered from the catalog (words.Term).
func Term(name, key string) Arg { return words.Term(name, key) }

// Sub is a nested message argument (words.Sub).
func Sub(name string, m Msg) Arg { return words.Sub(name, m) }

// List is a list of messages joined as the viewer's language joins lists (words.List).
func List(name string, ms ...Msg) Arg { return words.List(name, ms...) }

// Joined is a list joined by sep whatever the language (words.Joined).
func Joined(name, sep string, ms ...Msg) Arg { return words.Joined(name, sep, ms...) }

// ParseGender reads a stored or typed gender choice (words.ParseGender).
func ParseGender(s string) (Gender, bool) { return words.ParseGender(s) }

// NewError is a sentinel error with a catalog key (words.NewError).
func NewError(key string) *Error { return words.NewError(key) }

// Refuse is sentinel detailed by m (words.Refuse).
func Refuse(sentinel error, m Msg) error { return words.Refuse(sentinel, m) }

// Raw is a message that shows s as it is (words.Raw).
func Raw(s string) Msg { return words.Raw(s) }
