package admin

// The admin commands about who may come in: invites (make, list, revoke),
// the keys invites admitted (list, take back), the allowlist and the
// admins (list, add, remove), and a player's history.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/access"
	"github.com/bivouac-ssh/bivouac/cluster/adminbus"
	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/moderation"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/server/joinline"
	"github.com/bivouac-ssh/bivouac/sshserver"
	"github.com/bivouac-ssh/bivouac/tui"
)

// timeFormat is how the console writes a moment: UTC, to the minute.
const timeFormat = "2006-01-02 15:04"

// invite makes an invite code for `[USES] [DURATION]` (either order, each
// at most once) and shows it to this admin only: the log keeps that an
// invite was made, by its tag, never its code.
func (a *adminSession) invite(args []string) error {
	uses, ttl := 1, access.DefaultTTL
	usesSet, ttlSet := false, false
	for _, w := range args {
		switch {
		case w != "" && strings.Trim(w, "0123456789") == "":
			if usesSet {
				return extraWord(w, game.M("moderation.admin.usage.invite"))
			}
			n, err := strconv.Atoi(w)
			if err != nil {
				n = access.MaxInviteUses + 1 // twenty digits: out of range, said as such
			}
			uses, usesSet = n, true
		case w != "" && (w[0] == '-' || w[0] == '+' || w[0] >= '0' && w[0] <= '9'):
			if ttlSet {
				return extraWord(w, game.M("moderation.admin.usage.invite"))
			}
			d, err := moderation.ParseDuration(w)
			var ge *game.Error
			if errors.As(err, &ge) && ge.Msg.Key == "moderation.duration.too_long" {
				d = access.MaxInviteTTL + time.Hour // past ten years: past an invite's limit too, said as such
			} else if err != nil {
				return err
			}
			ttl, ttlSet = d, true
		default:
			return usageOf("invite")
		}
	}
	if uses <= 0 {
		uses = -1 // typed: CreateInvite's 0 means "one", and 0 typed is a slip it refuses
	}
	code, err := a.c.Access.CreateInvite(a.by.ID, uses, ttl)
	if err != nil {
		return err
	}
	until := a.c.Mod.Now().Add(ttl).UTC().Format(moderation.UntilFormat)
	login := joinline.AsUser(a.c.JoinLine(), sshserver.InvitePrefix+access.FormatCode(code))
	a.c.Mod.Record(a.by, "invite", access.TagOf(code), access.TagOf(code), strconv.Itoa(uses))
	a.out(a.p.T("moderation.admin.invite", game.Count(uses), game.Text("Code", access.FormatCode(code)),
		game.Text("Until", until), game.Text("Command", login)))
	return nil
}

// invites lists the invites that may still admit keys, and those that
// would but for their maker no longer being an admin.
func (a *adminSession) invites() error {
	all, err := a.c.Access.Invites()
	if err != nil {
		return err
	}
	now := a.c.Mod.Now()
	var lines []string
	for _, inv := range all {
		if !inv.Live(now) {
			continue
		}
		by := game.Text("By", a.c.KeyName(inv.By))
		tag := game.Text("Tag", inv.ID)
		if !a.c.Mod.IsAdmin(inv.By) {
			lines = append(lines, "  "+a.p.T("moderation.console.invite_void", tag, by))
			continue
		}
		lines = append(lines, "  "+a.p.T("moderation.console.invite_line", tag, by,
			game.Text("Left", strconv.Itoa(inv.Uses-inv.Used)), game.Text("Uses", strconv.Itoa(inv.Uses)),
			game.Text("Until", inv.Expires.UTC().Format(moderation.UntilFormat))))
	}
	if len(lines) == 0 {
		a.out(a.p.T("moderation.console.invites_none"))
		return nil
	}
	a.out(append([]string{a.p.T("moderation.console.invites_title")}, lines...)...)
	return nil
}

// uninvite is `uninvite TAG`: the invite's code admits nobody any more.
func (a *adminSession) uninvite(args []string) error {
	tag := strings.ToLower(sanitize.Line(args[0], 16))
	if err := a.c.Access.Revoke(tag); err != nil {
		return err
	}
	a.c.Mod.Record(a.by, "uninvite", tag, tag, "")
	a.out(a.p.T("moderation.console.uninvited", game.Text("Tag", tag)))
	return nil
}

// admitted lists the keys invites admitted: who they are, who invited
// them, with which invite, when.
func (a *adminSession) admitted() error {
	keys, err := a.c.Access.Admitted()
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		a.out(a.p.T("moderation.console.admitted_none"))
		return nil
	}
	lines := []string{a.p.T("moderation.console.admitted_title")}
	for _, k := range keys {
		name := a.c.displayName(k.Fingerprint)
		if name == k.Fingerprint {
			name = a.p.T("moderation.console.no_name")
		}
		lines = append(lines, "  "+a.p.T("moderation.console.admitted_line", game.Text("Name", name),
			game.Text("Key", k.Fingerprint), game.Text("By", a.c.KeyName(k.By)), game.Text("Tag", k.Invite),
			game.Text("When", k.At.UTC().Format(timeFormat))))
	}
	a.out(lines...)
	return nil
}

// unadmit is `unadmit NAME|KEY`: the key an invite admitted is forgotten;
// on a server with an allowlist its sessions end, on every node.
func (a *adminSession) unadmit(args []string) error {
	fp, who, err := a.keyOf("unadmit", args)
	if err != nil {
		return err
	}
	shown := game.Text("Key", a.c.keyShown(fp))
	err = a.c.Access.Forget(fp)
	if errors.Is(err, persistence.ErrNotFound) {
		return &game.Error{Msg: game.M("moderation.console.not_admitted", shown)}
	}
	if err != nil {
		return err
	}
	a.c.Mod.Record(a.by, "unadmit", fp, who, "")
	if !a.c.Access.Restricted() {
		a.out(a.p.T("moderation.console.unadmitted_open", shown))
		return nil
	}
	lines := []string{a.p.T("moderation.console.unadmitted", shown)}
	if n := a.endEverywhere(fp); n > 0 {
		lines = append(lines, a.p.T("moderation.console.ended", game.Count(n)))
	}
	a.out(lines...)
	return nil
}

// endEverywhere ends the sessions of a key no longer let in, on every
// node, and says how many.
func (a *adminSession) endEverywhere(fp string) int {
	n := 0
	for _, an := range a.c.askEveryNode(adminbus.Request{Op: adminbus.OpRevoke, Player: fp}, AskWithin) {
		n += an.Reply.Count
	}
	return n
}

// revokedHere ends this node's sessions of a key no longer let in, each
// told in its language; it says how many.
func (h *Here) revoke(fp string) int {
	sessions := h.Live.Of(fp)
	for _, ls := range sessions {
		ls.Send(tui.Control{End: game.M("access.revoked")})
	}
	return len(sessions)
}

// allowCmd is `allow`, `allow add KEY|NAME`, `allow remove KEY|NAME`.
func (a *adminSession) allowCmd(args []string) error { return a.listCmd(access.ListAllow, args) }

// adminsCmd is `admins`, `admins add KEY|NAME`, `admins remove KEY|NAME`.
func (a *adminSession) adminsCmd(args []string) error { return a.listCmd(access.ListAdmins, args) }

// listCmd shows a key list, or changes it: a key is a pasted public key
// (an authorized_keys line, several words) or a player's name or ID.
func (a *adminSession) listCmd(list string, args []string) error {
	if len(args) == 0 {
		return a.showList(list)
	}
	op := strings.ToLower(args[0])
	if (op != "add" && op != "remove") || len(args) < 2 {
		return usageOf(list)
	}
	var ch access.Change
	var err error
	what := "moderation.console.changed." + list + "_" + op
	if op == "add" {
		line := strings.Join(args[1:], " ")
		if _, _, perr := access.ParseKey(line); perr != nil {
			if len(args) > 2 {
				return extraWord(args[2], game.M("moderation.admin.usage."+list))
			}
			if line, err = a.publicKeyOf(args[1]); err != nil {
				return err
			}
		}
		ch, err = a.c.Access.AddKey(list, line, a.by.ID, a.by.Name)
	} else {
		fp, _, kerr := a.keyOf(list, args[1:])
		if kerr != nil {
			return kerr
		}
		if list == access.ListAdmins && fp == a.by.ID {
			return moderation.ErrSelf
		}
		ch, err = a.c.Access.RemoveKey(list, fp, a.by.ID, a.by.Name)
	}
	if err != nil {
		return err
	}
	a.c.Mod.Record(a.by, list+"_"+op, ch.Fingerprint, a.c.KeyName(ch.Fingerprint), "")
	shown := game.Text("Key", a.c.keyShown(ch.Fingerprint))
	where := a.p.T("moderation.console.where.file", game.Text("Path", ch.Path))
	switch {
	case ch.Where == access.InStore && ch.ReadOnly:
		f, _ := a.c.Access.ListFile(list)
		where = a.p.T("moderation.console.where.read_only", game.Text("Path", f))
	case ch.Where == access.InStore:
		where = a.p.T("moderation.console.where.cluster")
	}
	a.out(a.p.T(what, shown), where)
	return nil
}

// showList is a key list: its file's keys, then those the store adds, and
// what the store takes off.
func (a *adminSession) showList(list string) error {
	path, ok := a.c.Access.ListFile(list)
	if !ok {
		return game.Refuse(access.ErrNoList, game.M("access.list.no_list", game.Text("List", list)))
	}
	lines := []string{a.p.T("moderation.console.list_title."+list, game.Text("Path", path))}
	for _, k := range a.c.Access.ListKeys(list) {
		name := a.c.KeyName(k.Fingerprint)
		if name == k.Fingerprint {
			name = "" // a key nobody played with yet: its fingerprint once
		}
		line := "  " + strings.Join(slices.DeleteFunc([]string{k.Fingerprint, name, k.Comment}, func(s string) bool { return s == "" }), "  ")
		if e, ok := a.c.Access.StoreEntry(list, k.Fingerprint); ok && !e.Removed {
			line += "  " + a.p.T("moderation.console.list_added", game.Text("By", e.ByName), game.Text("When", e.At.UTC().Format(timeFormat)))
		}
		lines = append(lines, line)
	}
	for _, e := range a.c.Access.StoreEntries(list) {
		if e.Removed {
			lines = append(lines, "  "+e.Fingerprint+"  "+a.p.T("moderation.console.list_removed",
				game.Text("By", e.ByName), game.Text("When", e.At.UTC().Format(timeFormat))))
		}
	}
	if len(lines) == 1 {
		lines = append(lines, "  "+a.p.T("moderation.console.list_empty"))
	}
	a.out(lines...)
	return nil
}

// keyOf is the key fingerprint args name for cmd: a fingerprint, a pasted
// public key, or a player's name or ID; and a name for the log.
func (a *adminSession) keyOf(cmd string, args []string) (string, string, error) {
	if k, _, err := access.ParseKey(strings.Join(args, " ")); err == nil {
		return k.Fingerprint, a.c.KeyName(k.Fingerprint), nil
	}
	if len(args) > 1 {
		return "", "", extraWord(args[1], game.M("moderation.admin.usage."+cmd))
	}
	if strings.HasPrefix(args[0], "SHA256:") {
		fp := sanitize.Line(args[0], 128)
		return fp, a.c.KeyName(fp), nil
	}
	who, err := a.player(cmd, args[0])
	if err != nil {
		return "", "", err
	}
	if who.Guest {
		return "", "", &game.Error{Msg: game.M("moderation.console.no_key", game.Text("Name", who.Name))}
	}
	return who.ID, who.Name, nil
}

// publicKeyOf is the public key of the player an admin names: the one the
// server saw them log in with.
func (a *adminSession) publicKeyOf(word string) (string, error) {
	who, err := a.player("allow", word)
	if err != nil {
		return "", err
	}
	sg, _ := a.c.Mod.Sighting(who.ID)
	if who.Guest || sg.Key == "" {
		return "", &game.Error{Msg: game.M("moderation.console.no_key", game.Text("Name", who.Name))}
	}
	return sg.Key + " " + who.Name, nil
}

// keyShown is a key in an answer: "name (SHA256:…)" when a player has
// gone by a name with it, else its fingerprint.
func (c *Console) keyShown(fp string) string {
	if name := c.KeyName(fp); name != "" && name != fp {
		return name + " (" + fp + ")"
	}
	return fp
}

// KeyName is how a key goes, for the log and the listings: the name its
// player goes by, else the key itself.
func (c *Console) KeyName(fp string) string {
	if fp == "" {
		return ""
	}
	return c.displayName(fp)
}

// history is `history NAME|KEY`: what the server saw of a player (names,
// addresses, key, when), the moderation about them, the reports about
// them, the invite that let them in, and others seen under their name.
func (a *adminSession) history(args []string) error {
	who, err := a.player("history", args[0])
	if err != nil {
		return err
	}
	lines := []string{a.p.T("moderation.console.history_title", game.Text("Name", who.Name))}
	if who.Guest {
		lines = append(lines, "  "+a.p.T("moderation.console.history_guest", game.Text("ID", who.ID)))
	} else {
		lines = append(lines, "  "+a.p.T("moderation.console.history_key", game.Text("Key", who.ID)))
	}
	sg, seen := a.c.Mod.Sighting(who.ID)
	if seen {
		lines = append(lines, "  "+a.p.T("moderation.console.history_seen", game.Text("First", sg.First.UTC().Format(timeFormat)),
			game.Text("Last", sg.Last.UTC().Format(timeFormat))))
		var names []game.Msg
		for _, n := range slices.Backward(sg.Names) {
			names = append(names, game.Raw(n.Name))
		}
		lines = append(lines, "  "+a.p.T("moderation.console.history_names", game.List("Names", names...)),
			"  "+a.p.T("moderation.console.history_addrs"))
		for _, ad := range slices.Backward(sg.Addrs) {
			lines = append(lines, fmt.Sprintf("    %s  %s – %s", ad.Addr, ad.First.UTC().Format(timeFormat), ad.Last.UTC().Format(timeFormat)))
		}
	} else {
		lines = append(lines, "  "+a.p.T("moderation.console.history_unseen"))
	}
	if k, err := a.c.Access.AdmittedKey(who.ID); err == nil {
		lines = append(lines, "  "+a.p.T("moderation.console.history_invited", game.Text("Tag", k.Invite),
			game.Text("By", a.c.KeyName(k.By)), game.Text("When", k.At.UTC().Format(timeFormat))))
	}
	entries, err := a.c.Mod.Log(0)
	if err != nil {
		return err
	}
	var acts []string
	for _, e := range entries {
		if e.Subject == who.ID {
			acts = append(acts, "    "+a.logLine(e))
		}
	}
	if len(acts) == 0 {
		lines = append(lines, "  "+a.p.T("moderation.console.history_no_actions"))
	} else {
		lines = append(append(lines, "  "+a.p.T("moderation.console.history_actions")), acts...)
	}
	reports, err := a.c.Mod.Reports()
	if err != nil {
		return err
	}
	var about []string
	for i, r := range reports {
		if r.Subject == who.ID {
			for _, l := range a.report(i+1, r) {
				about = append(about, "  "+l)
			}
		}
	}
	if len(about) == 0 {
		lines = append(lines, "  "+a.p.T("moderation.console.history_no_reports"))
	} else {
		lines = append(append(lines, "  "+a.p.T("moderation.console.history_reports")), about...)
	}
	var others []game.Msg
	for _, n := range sg.Names {
		for _, id := range a.c.Mod.SeenAs(n.Name) {
			if id != who.ID && !slices.ContainsFunc(others, func(m game.Msg) bool { return strings.Contains(m.Args[0].Str, id) }) {
				others = append(others, game.Raw(a.c.displayName(id)+" ("+id+")"))
			}
		}
	}
	if len(others) > 0 {
		lines = append(lines, "  "+a.p.T("moderation.console.history_others", game.List("Names", others...)))
	}
	a.out(lines...)
	return nil
}
