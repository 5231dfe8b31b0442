package i18n

import "strings"

// Address is how a player asked the game to address them, for the
// languages whose sentences agree with the person they name (pl, ru).
// Unset until the player says: sentences then use wording that needs no
// gender.
type Address string

const (
	AddressUnset     Address = ""
	AddressFeminine  Address = "f"
	AddressMasculine Address = "m"
	AddressNeutral   Address = "n"
)

// ParseAddress reads a stored or typed choice: f, m or n, or the English
// word (feminine, masculine, neutral). Anything else is not a choice.
func ParseAddress(s string) (Address, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "f", "feminine":
		return AddressFeminine, true
	case "m", "masculine":
		return AddressMasculine, true
	case "n", "neutral":
		return AddressNeutral, true
	}
	return AddressUnset, false
}

// Next is the choice after a, for a key that cycles them: unset goes to
// feminine, and neutral back to feminine (once said, a choice is changed,
// never taken back to unset).
func (a Address) Next() Address {
	switch a {
	case AddressFeminine:
		return AddressMasculine
	case AddressMasculine:
		return AddressNeutral
	}
	return AddressFeminine
}

// Key is the catalog key naming a (ui.address.f, …, ui.address.unset).
func (a Address) Key() string {
	if a == AddressUnset {
		return "ui.address.unset"
	}
	return "ui.address." + string(a)
}
