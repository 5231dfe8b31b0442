package admin

// The admin commands that sanction: kick, mute and unmute, ban and unban,
// of a player or (ban, unban) of an address or a range.

import (
	"errors"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
)

// keyOnlyFlag is the word that keeps a ban off the player's address.
const keyOnlyFlag = "--key-only"

// kickCmd is `kick NAME [REASON]`.
func (a *adminSession) kickCmd(args []string) error {
	who, err := a.player("kick", args[0])
	if err != nil {
		return err
	}
	return a.kick(who, args[1:])
}

// muteCmd is `mute NAME DURATION|forever [REASON]`.
func (a *adminSession) muteCmd(args []string) error {
	d, err := moderation.ParseTerm(args[1])
	if err != nil {
		return a.termError("mute", args[0], err)
	}
	who, err := a.player("mute", args[0])
	if err != nil {
		return err
	}
	sn, err := a.c.Mod.Mute(a.by, who, d, strings.Join(args[2:], " "))
	if err != nil {
		return err
	}
	if sn.Permanent() {
		a.out(a.p.T("moderation.admin.muted_for_good", game.Text("Name", who.Name)))
	} else {
		a.out(a.p.T("moderation.admin.muted_for", game.Text("Name", who.Name), moderation.LeftArg(d),
			game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat))))
	}
	return nil
}

// banCmd is `ban NAME DURATION|forever [--key-only] [REASON]`, or
// `ban ADDRESS|RANGE DURATION|forever [REASON]`. The duration is read
// before anyone is looked up: a bad one bans nobody.
func (a *adminSession) banCmd(args []string) error {
	target, rest := args[0], args[1:]
	keyOnly := false
	if i := indexFold(rest, keyOnlyFlag); i >= 0 {
		keyOnly, rest = true, append(rest[:i:i], rest[i+1:]...)
	}
	if len(rest) == 0 {
		return usageOf("ban")
	}
	d, err := moderation.ParseTerm(rest[0])
	if err != nil {
		if moderation.LooksLikeAddress(target) {
			return err
		}
		return a.termError("ban", target, err)
	}
	reason := strings.Join(rest[1:], " ")
	if prefix, err := moderation.ParseAddress(target); err == nil {
		if keyOnly {
			return extraWord(keyOnlyFlag, game.M("moderation.admin.usage.ban"))
		}
		return a.banAddress(prefix.String(), d, reason)
	}
	who, err := a.player("ban", target)
	if err != nil {
		return err
	}
	sn, err := a.c.Mod.Ban(a.by, who, d, reason, moderation.BanOptions{KeyOnly: keyOnly})
	if err != nil {
		return err
	}
	a.c.Here.EnforceBan(sn)
	said := a.p.T("moderation.admin.banned_for_good", game.Text("Name", who.Name))
	if !sn.Permanent() {
		said = a.p.T("moderation.admin.banned_for", game.Text("Name", who.Name), moderation.LeftArg(d),
			game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat)))
	}
	a.out(said, a.p.T(coverage(sn, who, keyOnly), game.Text("Addr", moderation.ShowAddr(sn.Addr)),
		game.Text("Until", sn.AddrUntil.UTC().Format(moderation.UntilFormat))))
	return nil
}

// termError is why a ban or mute with a bad duration does nothing: that
// nobody goes by the name, if nobody does (`ban jean luc 30m`, the quotes
// of "jean luc" lost in the admin's shell, reads "luc" as the duration),
// else what is wrong with the duration.
func (a *adminSession) termError(cmd, target string, err error) error {
	if _, nameErr := a.player(cmd, target); errors.Is(nameErr, errNoSuchPlayer) {
		return nameErr
	}
	return err
}

// coverage is the key of what a player's ban holds, as the admin is told.
func coverage(sn moderation.Sanction, who moderation.Person, keyOnly bool) string {
	guest := strings.HasPrefix(who.ID, "guest:")
	switch {
	case sn.Addr != "" && guest:
		return "moderation.console.covers.guest_addr"
	case sn.Addr != "":
		return "moderation.console.covers.key_addr"
	case keyOnly:
		return "moderation.console.covers.key_only"
	case guest:
		return "moderation.console.covers.guest_no_addr"
	}
	return "moderation.console.covers.no_addr"
}

// banAddress bans an address or a range (in ParseAddress's form).
func (a *adminSession) banAddress(addr string, d time.Duration, reason string) error {
	prefix, err := moderation.ParseAddress(addr)
	if err != nil {
		return err
	}
	sn, err := a.c.Mod.BanAddress(a.by, prefix, d, reason)
	if err != nil {
		return err
	}
	a.c.Here.EnforceBan(sn)
	shown := game.Text("Addr", moderation.ShowPrefix(prefix))
	if sn.Permanent() {
		a.out(a.p.T("moderation.console.address_banned_for_good", shown))
	} else {
		a.out(a.p.T("moderation.console.address_banned_for", shown, moderation.LeftArg(d),
			game.Text("Until", sn.Until.UTC().Format(moderation.UntilFormat))))
	}
	return nil
}

// unbanCmd is `unban NAME|ADDRESS`.
func (a *adminSession) unbanCmd(args []string) error {
	if prefix, err := moderation.ParseAddress(args[0]); err == nil {
		shown := game.Text("Addr", moderation.ShowPrefix(prefix))
		_, err := a.c.Mod.Unban(a.by, persistence.AddressSubject+prefix.String())
		if errors.Is(err, moderation.ErrNotBanned) {
			return &game.Error{Msg: game.M("moderation.console.address_not_banned", shown)}
		}
		if err != nil {
			return err
		}
		a.out(a.p.T("moderation.console.address_unbanned", shown))
		return nil
	}
	who, err := a.player("unban", args[0])
	if err != nil {
		return err
	}
	if _, err := a.c.Mod.Unban(a.by, who.ID); err != nil {
		return err
	}
	a.out(a.p.T("moderation.admin.unbanned", game.Text("Name", who.Name)))
	return nil
}

// unmuteCmd is `unmute NAME`.
func (a *adminSession) unmuteCmd(args []string) error {
	who, err := a.player("unmute", args[0])
	if err != nil {
		return err
	}
	if _, err := a.c.Mod.Unmute(a.by, who.ID); err != nil {
		return err
	}
	a.out(a.p.T("moderation.admin.unmuted", game.Text("Name", who.Name)))
	return nil
}

// indexFold is the index of the first of words equal to w, case aside; -1 if none.
func indexFold(words []string, w string) int {
	for i, x := range words {
		if strings.EqualFold(x, w) {
			return i
		}
	}
	return -1
}
