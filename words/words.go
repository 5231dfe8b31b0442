// Package words holds what crosses package lines instead of sentences: a
// Msg is a catalog key and typed arguments, not yet written in any
// language, and an Error is an error a player reads, its words a Msg.
// Rules, the SSH front door, access and moderation all say things this
// way; package i18n writes a Msg in the reader's language.
//
// It imports only the standard library, so any package may use it; the
// game contract (package game) names these types for the rules.
package words

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Msg is a sentence not yet written: a catalog key and typed arguments.
// Rules produce Msgs and never words; each screen renders them in its
// viewer's language (package i18n), so at one table the same event reads
// in Polish to one seat and in German to the next.
type Msg struct {
	Key  string `json:"key"`
	Args []Arg  `json:"args,omitempty"`
}

// ArgKind says how an argument is rendered.
type ArgKind uint8

const (
	ArgNum  ArgKind = iota // a number; the one named "Count" also picks the plural form
	ArgText                // verbatim, never translated: a player's name
	ArgTerm                // another catalog key: a card, threat or role name
	ArgMsg                 // a nested message (a phrase with a plural of its own)
	ArgList                // nested messages joined as a list, in the viewer's language
)

// Arg is one named argument of a Msg; templates refer to it as {{.Name}}.
type Arg struct {
	Name string  `json:"name"`
	Kind ArgKind `json:"kind"`
	Num  int     `json:"num,omitempty"`
	Str  string  `json:"str,omitempty"`
	Msgs []Msg   `json:"msgs,omitempty"`
	// Gender is how the player an ArgText names asked to be addressed: a
	// sentence naming them as Player agrees with it.
	Gender Gender `json:"gender,omitempty"`
}

// Gender is how a player asked the game to address them, for languages
// whose sentences agree with the person they name (Polish and Russian
// past tenses and adjectives, pronouns in all three). Until a player
// says (GenderUnset) sentences use wording that needs no gender, as they
// do for Neutral.
type Gender uint8

const (
	GenderUnset Gender = iota
	Feminine
	Masculine
	Neutral
)

// genderCodes are the genders as stored and typed (Gender.Code).
var genderCodes = [...]string{"", "f", "m", "n"}

// Code is g as a profile stores it: "f", "m", "n", or "" unset.
func (g Gender) Code() string {
	if int(g) < len(genderCodes) {
		return genderCodes[g]
	}
	return ""
}

// ParseGender reads a stored or typed choice: f, m or n. Anything else
// (unset included) is not one.
func ParseGender(s string) (Gender, bool) {
	for i, c := range genderCodes {
		if c != "" && c == strings.ToLower(strings.TrimSpace(s)) {
			return Gender(i), true
		}
	}
	return GenderUnset, false
}

// M is a message with arguments.
func M(key string, args ...Arg) Msg { return Msg{Key: key, Args: args} }

// Num is a number argument.
func Num(name string, n int) Arg { return Arg{Name: name, Kind: ArgNum, Num: n} }

// Count is the number that chooses the plural form ("1 karta / 2 karty / 5 kart").
func Count(n int) Arg { return Num("Count", n) }

// Text is an argument shown as it is: a player's name.
func Text(name, s string) Arg { return Arg{Name: name, Kind: ArgText, Str: s} }

// Person is a player's name as an argument, with how they asked to be
// addressed (Gender).
func Person(name, s string, g Gender) Arg {
	return Arg{Name: name, Kind: ArgText, Str: s, Gender: g}
}

// Term is an argument rendered from the catalog: a card, threat or role.
func Term(name, key string) Arg { return Arg{Name: name, Kind: ArgTerm, Str: key} }

// Sub is a nested message argument.
func Sub(name string, m Msg) Arg { return Arg{Name: name, Kind: ArgMsg, Msgs: []Msg{m}} }

// List is a list of messages, joined the way the viewer's language joins lists.
func List(name string, ms ...Msg) Arg { return Arg{Name: name, Kind: ArgList, Msgs: ms} }

// Joined is a list joined by sep whatever the language ("Night+Shell").
func Joined(name, sep string, ms ...Msg) Arg {
	return Arg{Name: name, Kind: ArgList, Str: sep, Msgs: ms}
}

// BotMark ends the name of a seat a bot plays ("Ada (bot)"). A name a
// player chooses cannot hold it (names have no brackets), and screens
// write it in the viewer's language (i18n's Printer.Name): it is a mark,
// never shown as it is.
const BotMark = " (bot)"

// IsZero reports whether m says nothing.
func (m Msg) IsZero() bool { return m.Key == "" }

// String is the key and arguments, for logs and test failures: never what
// a player reads (that is i18n's rendering).
func (m Msg) String() string {
	if len(m.Args) == 0 {
		return m.Key
	}
	var b strings.Builder
	b.WriteString(m.Key)
	b.WriteByte('(')
	for i, a := range m.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.Name)
		b.WriteByte('=')
		switch a.Kind {
		case ArgNum:
			b.WriteString(strconv.Itoa(a.Num))
		case ArgText, ArgTerm:
			b.WriteString(a.Str)
		default:
			for j, s := range a.Msgs {
				if j > 0 {
					b.WriteByte('|')
				}
				b.WriteString(s.String())
			}
		}
	}
	b.WriteByte(')')
	return b.String()
}

// Error is an error a player reads: its words are a Msg rendered in the
// viewer's language. Sentinels made with NewError are compared with
// errors.Is; Refuse wraps one with the particulars of a refused move.
type Error struct {
	Msg Msg
	Err error // the sentinel this one details, if any
}

// NewError is a sentinel error with a catalog key.
func NewError(key string) *Error { return &Error{Msg: M(key)} }

// Refuse is sentinel (nil: none) detailed by m ("you may not withdraw: Hardheaded and
// you hold 2 cards").
func Refuse(sentinel error, m Msg) error { return &Error{Msg: m, Err: sentinel} }

// Error is the message's key and arguments (for logs; see Msg.String).
func (e *Error) Error() string { return e.Msg.String() }

func (e *Error) Unwrap() error { return e.Err }

// Raw is a message that shows s as it is: words stored before messages
// had keys (an old record's title), or text from outside the catalog.
func Raw(s string) Msg { return M(RawKey, Text("Text", s)) }

// RawKey is the catalog key of Raw messages; it renders its Text as is.
const RawKey = "raw"

// UnmarshalJSON reads a message, or a plain string as Raw: fields that held
// words before they held messages (a stored game's summary or title) keep
// decoding.
func (m *Msg) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*m = Msg{}
		if s != "" {
			*m = Raw(s)
		}
		return nil
	}
	type plain Msg // without this method
	return json.Unmarshal(b, (*plain)(m))
}

// Equal reports whether two messages say the same thing.
func (m Msg) Equal(o Msg) bool {
	if m.Key != o.Key || len(m.Args) != len(o.Args) {
		return false
	}
	for i, a := range m.Args {
		b := o.Args[i]
		if a.Name != b.Name || a.Kind != b.Kind || a.Num != b.Num || a.Str != b.Str || a.Gender != b.Gender || len(a.Msgs) != len(b.Msgs) {
			return false
		}
		for j := range a.Msgs {
			if !a.Msgs[j].Equal(b.Msgs[j]) {
				return false
			}
		}
	}
	return true
}
