package moderation

import (
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// UntilFormat is how a sanction's end is written: in UTC, which every
// player can convert, to the minute.
const UntilFormat = "2006-01-02 15:04 UTC"

// Explain is what the sanctioned player reads at now: what it is, how long
// it still lasts, and why.
func Explain(sn Sanction, now time.Time) words.Msg {
	var args []words.Arg
	if !sn.Permanent() {
		args = append(args, LeftArg(sn.Until.Sub(now)), words.Text("Until", sn.Until.UTC().Format(UntilFormat)))
	}
	if sn.Reason != "" {
		args = append(args, words.Text("Reason", sn.Reason))
	}
	k := explainKeys[explainKey{sn.Kind == Mute, sn.Permanent(), sn.Reason != ""}]
	return words.M(k, args...)
}

type explainKey struct{ mute, forGood, reason bool }

var explainKeys = map[explainKey]string{
	{false, false, false}: "moderation.ban.for",
	{false, false, true}:  "moderation.ban.for_reason",
	{false, true, false}:  "moderation.ban.for_good",
	{false, true, true}:   "moderation.ban.for_good_reason",
	{true, false, false}:  "moderation.mute.for",
	{true, false, true}:   "moderation.mute.for_reason",
	{true, true, false}:   "moderation.mute.for_good",
	{true, true, true}:    "moderation.mute.for_good_reason",
}

// MutedError is Explain as the error a muted player's chat is refused with.
func MutedError(sn Sanction, now time.Time) error { return &words.Error{Msg: Explain(sn, now)} }

// ExplainTo is why a ban keeps v out, or ends v's session, at now: the
// ban's message, and when v is kept out by the address part of another
// player's ban, that the ban holds the address for newcomers.
func ExplainTo(sn Sanction, v Visitor, now time.Time) words.Msg {
	m := Explain(sn, now)
	if sn.Subject != v.ID && !IsAddressBan(sn) {
		m = words.M("moderation.bans.held_address", words.Sub("Ban", m))
	}
	return m
}
