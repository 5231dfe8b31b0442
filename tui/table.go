package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/table"
	"github.com/bivouac-ssh/bivouac/tui/uikit"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// tablePage is the table this session sits at (or watches): its waiting
// room until the game starts, then the game's own screen.
type tablePage struct {
	room          table.RoomHandle
	upd           table.Update    // the newest from the room, without the chat of players this session ignores
	raw           table.Update    // the newest from the room as it came (the picker's players, a report's evidence)
	screen        uikit.Screen    // the game's screen, once it started
	can           uikit.Abilities // what the screen may do beyond the contract
	seatCur       int             // waiting room: the selected seat
	talkBack      int             // waiting room: table-talk lines scrolled back
	confirmGiveUp bool            // L was pressed at a running table: the next key answers
	rules         uikit.Rules     // the game's rules reference (nil: none), found once
	rulesLooked   bool
	w, h          int // the screen's area, as resize last gave it
}

// update takes the room's newest Update.
func (t *tablePage) update(m *root, u table.Update) tea.Cmd {
	t.raw = u
	m.app.LoadLists(m.sess.Player, &m.lists)
	muted := m.lists.MutedSeats(&u)
	u = WithoutMuted(u, muted)
	t.upd = u
	if u.Started && t.screen == nil {
		if g, ok := m.app.Games.Lookup(u.Game); ok && g.Screen != nil {
			t.screen = g.Screen(m.th)
			t.can = uikit.AbilitiesOf(t.screen)
			if t.can.Rules != nil {
				// The screen answers the rules from now on (gameRules): the
				// fresh screen the waiting room asked was a second 6 KB
				// screen for every seated player, all game long.
				t.rules = nil
			}
			if t.can.Alarmed != nil {
				t.can.Alarmed.UseAlarm(m.alarm)
			}
			if t.can.Direct != nil {
				t.can.Direct.SendActionsTo(m.act)
			}
			if t.can.Coached != nil && u.Practice {
				t.can.Coached.StartCoach()
			}
			m.sizeScreen()
		}
	}
	if t.can.Muting != nil {
		t.can.Muting.Mute(muted)
	}
	if t.screen != nil {
		// Through Update rather than SetUpdate: a screen with a countdown
		// starts its tick there (only while a timer runs).
		return t.screen.Update(uikit.UpdateMsg{Update: &t.upd})
	}
	return nil
}

func (t *tablePage) resize(w, h int) {
	t.w, t.h = w, h
	if t.screen != nil {
		t.screen.SetSize(w, h)
	}
}

// prelude is the game's pre-game choices, or nil.
func (t *tablePage) prelude(m *root) game.Prelude {
	if g, ok := m.app.Games.Lookup(t.upd.Game); ok {
		if p, ok := g.Game.(game.Prelude); ok {
			return p
		}
	}
	return nil
}

// nextPick is the choice after this seat's current one that nobody else
// holds, and after the last, back to the draw ("").
func (t *tablePage) nextPick(picks []game.Pick) string {
	mine, taken := "", map[string]bool{}
	for i, s := range t.upd.Seats {
		if game.Seat(i) == t.upd.Seat {
			mine = s.Pick
		} else {
			taken[s.Pick] = true
		}
	}
	start := 0
	for i, p := range picks {
		if p.ID == mine {
			start = i + 1
		}
	}
	for _, p := range picks[start:] {
		if !taken[p.ID] {
			return p.ID
		}
	}
	return ""
}

// pickLabel is what the session reads for a seat's pick.
func (t *tablePage) pickLabel(m *root, id string) string {
	if pre := t.prelude(m); pre != nil {
		for _, p := range pre.Picks() {
			if p.ID == id {
				return m.th.Msg(p.Label)
			}
		}
	}
	return id
}

func (t *tablePage) isHost(m *root) bool {
	return t.room.Summary().Host == m.sess.Player.ID
}

func (t *tablePage) hasBots(m *root) bool {
	g, ok := m.app.Games.Lookup(t.upd.Game)
	return ok && g.Bots != nil
}

// canGiveSeat: a seated player may hand the rest of a running game to a
// bot (the game has bots to give it to).
func (t *tablePage) canGiveSeat(m *root) bool {
	return t.screen != nil && t.upd.Seat >= 0 && t.upd.Started && !t.upd.Over && t.hasBots(m)
}

// canReview: a person who sat at a finished game whose game has a coach
// may open the coach's review of it.
func (t *tablePage) canReview(m *root) bool {
	return m.app.Reviews != nil && t.upd.Over && t.upd.Seat >= 0 && m.app.Games.Reviewer(t.upd.Game) != nil
}

// hints: a seat at a running game whose table gives hints (its title
// says so to everyone).
func (t *tablePage) hints() bool {
	return t.screen != nil && t.upd.Seat >= 0 && t.upd.Started && !t.upd.Over && t.upd.Hints
}

// key: the give-up confirmation and chat first, then the game screen (or
// the waiting room).
func (t *tablePage) key(m *root, k tea.KeyMsg) tea.Cmd {
	if t.confirmGiveUp {
		t.confirmGiveUp = false
		m.notice = ""
		if k.String() == "y" && t.canGiveSeat(m) {
			m.toLobby(true)
			m.notice = m.th.T("ui.table.bot_plays_seat")
		}
		return nil
	}
	switch {
	case key.Matches(k, m.keys.LeaveSeat) && t.canGiveSeat(m):
		t.confirmGiveUp = true
		m.notice = m.th.T("ui.table.give_seat_confirm")
		return nil
	case key.Matches(k, m.keys.Rules):
		m.rules = rulesFor(m, t)
		return nil
	case key.Matches(k, m.keys.People):
		openPeople(m, t, -1, false)
		return nil
	case key.Matches(k, m.keys.Friends) && !m.sess.Player.Guest && m.app.Friends != nil:
		openFriends(m, t)
		return nil
	case key.Matches(k, m.keys.Review) && t.canReview(m):
		return openReview(m, t.room.Code(), t)
	case key.Matches(k, m.keys.Hint) && t.hints():
		if t.can.Hinter != nil {
			m.hint.ask(m, t.upd.Seq)
			return t.can.Hinter.Hint()
		}
	case key.Matches(k, m.keys.Talk) && t.upd.Seat >= 0:
		hint := m.th.T("ui.chat.table")
		if t.can.ChatHinter != nil {
			hint = t.can.ChatHinter.ChatHint()
		}
		return m.askChat(hint)
	}
	if t.screen != nil {
		return t.screen.Update(k)
	}
	return t.waitingKey(m, k)
}

func (t *tablePage) waitingKey(m *root, k tea.KeyMsg) tea.Cmd {
	room, box := t.room, m.box
	switch {
	case key.Matches(k, m.keys.Lobby):
		m.toLobby(false)
	case key.Matches(k, m.keys.LeaveSeat):
		m.toLobby(true)
	case key.Matches(k, m.keys.Up):
		t.seatCur = max(0, t.seatCur-1)
	case key.Matches(k, m.keys.Down):
		t.seatCur = min(max(0, len(t.upd.Seats)-1), t.seatCur+1)
	case key.Matches(k, m.keys.Pick) && t.prelude(m) != nil && t.upd.Seat >= 0:
		next := t.nextPick(t.prelude(m).Picks())
		return m.roomCall(func(context.Context) error { return room.Pick(box, next) })
	case key.Matches(k, m.keys.First) && t.isHost(m) && t.prelude(m) != nil && t.prelude(m).NamesFirst() && t.seatCur < len(t.upd.Seats):
		seat := game.Seat(t.seatCur)
		if t.upd.Seats[t.seatCur].First {
			seat = game.NoSeat // again on the same seat: back to the draw
		}
		return m.roomCall(func(context.Context) error { return room.NameFirst(box, seat) })
	case key.Matches(k, m.keys.LogUp):
		t.talkBack += 3 // waitingView keeps it within the talk
	case key.Matches(k, m.keys.LogDown):
		t.talkBack = max(0, t.talkBack-3)
	case key.Matches(k, m.keys.Remove) && t.isHost(m):
		openPeople(m, t, t.seatCur, true)
	case key.Matches(k, m.keys.Start) && t.isHost(m):
		return m.roomCall(func(ctx context.Context) error { return room.Start(ctx, box) })
	case key.Matches(k, m.keys.Bot) && t.isHost(m) && t.seatCur < len(t.upd.Seats):
		g, _ := m.app.Games.Lookup(t.upd.Game)
		if g.Bots == nil {
			return nil
		}
		s := t.upd.Seats[t.seatCur]
		level := ""
		if s.Bot == "" {
			level = g.Bots.Levels()[0]
		} else { // cycle through the levels, then back to an open seat
			levels := g.Bots.Levels()
			for i, l := range levels {
				if l == s.Bot && i+1 < len(levels) {
					level = levels[i+1]
				}
			}
		}
		seat := game.Seat(t.seatCur)
		return m.roomCall(func(ctx context.Context) error { return room.SetBot(ctx, box, seat, level) })
	}
	return nil
}

var _ linedPage = (*tablePage)(nil)

func (t *tablePage) view(m *root) string { return strings.Join(t.frameLines(m), "\n") }

func (t *tablePage) frameLines(m *root) []string {
	if t.screen == nil {
		return strings.Split(t.waitingView(m), "\n")
	}
	// A notice (the coach's hint, a session-level problem: busy, closed)
	// goes under the table: laid over the table's last line it hid what
	// that line offered (the cards a charm could discard, the mission's
	// sizes). A screen that can, draws it; another draws itself shorter
	// for it.
	// A quiet screen shows no notice, save the question the player asked
	// for with L: unseen, it swallowed their next key; it reads the same
	// whatever their card.
	// The coach's hint says its move, the team's chances and the next best
	// move's in one sentence that runs past 80 columns (in Polish and
	// Russian even more): cut to one line it lost the next best's chances
	// and, in a lost game, why. It takes up to uikit.NoticeRows lines.
	var notice []string
	if m.notice != "" && (t.can.Quiet == nil || !t.can.Quiet.Quiet() || t.confirmGiveUp) && t.h > 1 {
		notice = uikit.NoticeLines(m.th, m.notice, m.width, uikit.NoticeRows(t.h))
	}
	drawsNotice := t.can.Noticed != nil
	if drawsNotice {
		t.can.Noticed.SetNotice(strings.Join(notice, "\n"))
	} else if len(notice) > 0 {
		t.screen.SetSize(t.w, t.h-len(notice))
		defer t.screen.SetSize(t.w, t.h)
	}
	var lines []string
	if t.can.Lined != nil {
		lines = t.can.Lined.Lines()
	} else {
		lines = strings.Split(t.screen.View(), "\n")
	}
	if len(notice) > 0 && !drawsNotice {
		h := t.h - len(notice)
		n := min(len(lines), h)
		lines = lines[:n:n] // the screen's own lines stay as it drew them
		for len(lines) < h {
			lines = append(lines, "")
		}
		lines = append(lines, notice...)
	}
	return lines
}

// bar builds the keys in a pooled buffer: a table's help bar is drawn on
// every frame, and its 17 bindings were a kilobyte and a half each time.
func (t *tablePage) bar(m *root) string {
	bp := helpKeys.Get().(*[]key.Binding)
	keys := t.help(m, (*bp)[:0])
	bar := m.shortHelp(keys)
	*bp = keys
	helpKeys.Put(bp)
	return bar
}

var helpKeys = sync.Pool{New: func() any { return new([]key.Binding) }}

func (t *tablePage) keys(m *root) [][]key.Binding {
	var groups [][]key.Binding
	if t.screen != nil {
		groups = append(groups, t.screen.Keys().FullHelp()...)
	}
	return append(groups, t.global(m, nil))
}

// global appends the session's keys at a table, beside the screen's own.
func (t *tablePage) global(m *root, keys []key.Binding) []key.Binding {
	k := m.keys
	talk := k.Talk
	talk.SetEnabled(t.upd.Seat >= 0)
	if t.screen == nil { // waiting room
		host := t.isHost(m)
		start, bot := k.Start, k.Bot
		start.SetEnabled(host)
		bot.SetEnabled(host && t.hasBots(m))
		pick, first := k.Pick, k.First
		pre := t.prelude(m)
		pick.SetEnabled(pre != nil && t.upd.Seat >= 0)
		first.SetEnabled(host && pre != nil && pre.NamesFirst())
		remove := k.Remove
		remove.SetEnabled(host)
		lobby, leave := k.Lobby, k.LeaveSeat
		if t.upd.Seat < 0 { // a watcher has no seat to keep or to give up
			lobby.SetHelp("Q", m.th.T("ui.watcher.key_lobby"))
			leave.SetEnabled(false)
		}
		friends := k.Friends
		friends.SetEnabled(!m.sess.Player.Guest && m.app.Friends != nil)
		friends.SetHelp("F", m.th.T("ui.friends.key.invite_short"))
		// What a player here needs most first, up to ? (which shows
		// them all): at 80 columns the bar ends at ? for a host choosing
		// a soldier in every language (TestWaitingRoomHelpBarsFit). The
		// host's view names s, b and f in its words.
		return append(keys, start, pick, talk, friends, k.Help, lobby, k.Up, bot, first, k.Rules, leave, k.LogUp, k.People, remove)
	}
	giveUp := k.LeaveSeat
	giveUp.SetHelp("L", m.th.T("ui.key.bot_takes_seat"))
	giveUp.SetEnabled(t.canGiveSeat(m))
	review, hint := k.Review, k.Hint
	review.SetEnabled(t.canReview(m))
	hint.SetEnabled(t.hints())
	friends := k.Friends
	friends.SetEnabled(!m.sess.Player.Guest && m.app.Friends != nil)
	return append(keys, hint, review, talk, giveUp, k.Help, k.Rules, k.People, friends)
}

// help appends the help bar's keys: the screen's, then the session's.
func (t *tablePage) help(m *root, keys []key.Binding) []key.Binding {
	if t.screen != nil {
		keys = uikit.AppendShortHelp(keys, t.screen.Keys())
	}
	return t.global(m, keys)
}

// waitingView is the table before the game starts: who sits where, the
// code to share, and (for the host) how to start.
func (t *tablePage) waitingView(m *root) string {
	th, u := m.th, t.upd
	var b strings.Builder
	sum := t.room.Summary()
	title := u.Title
	if title.IsZero() {
		title = sum.Title
	}
	b.WriteString(th.Title.Render(th.T("ui.table.title", game.Text("Code", u.Room))) + th.Muted.Render(" · "+uikit.Clean(th.Msg(title))) + "\n")
	b.WriteString(m.rule() + "\n")
	hint := "ssh -p 2222 host"
	if m.app.JoinHint != "" {
		hint = m.app.JoinHint
	}
	b.WriteString(th.T("ui.table.friends_join") + "  " + th.Accent.Render(strings.Replace(hint, "ssh ", "ssh -t ", 1)+" join "+u.Room) + "\n")
	if sum.Private {
		b.WriteString(th.Muted.Render(th.T("ui.table.private")) + "\n")
	} else {
		b.WriteString(th.Muted.Render(th.T("ui.table.or_lobby")) + "\n")
	}
	if sum.Pace.Correspondence { // who sits down here agrees to days, not an evening
		b.WriteString(th.Header.Render(th.T("form.pace")) + "  " + paceName(th, sum.Options) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(th.Header.Render(th.T("ui.table.seats")) + "\n")
	for i, s := range u.Seats {
		mark := "  "
		if i == t.seatCur {
			mark = "▸ "
		}
		var who string
		switch {
		case s.Bot != "":
			who = th.Muted.Render(th.Name(s.Name) + " · " + th.T("bot.level."+s.Bot))
		case s.Name == "":
			who = th.Muted.Render(th.T("ui.table.open_seat"))
		default:
			who = th.Text(s.Name)
			if b := badgeMark(s.Badge); b != "" {
				who += " " + th.Good.Render(b)
			}
			if game.Seat(i) == u.Seat {
				who = th.Accent.Render(who + " " + th.T("ui.tag.you"))
			}
			if s.Connected {
				who += th.Good.Render("  ● " + th.T("ui.table.here"))
			} else {
				who += th.Muted.Render("  ○ " + th.T("ui.table.away"))
			}
		}
		if s.Pick != "" {
			who += th.Muted.Render(" · " + t.pickLabel(m, s.Pick))
		}
		if s.First {
			who += th.Accent.Render(" · " + th.T("ui.table.begins"))
		}
		b.WriteString(fmt.Sprintf("%s%d. %s\n", mark, i+1, who))
	}
	b.WriteString("\n")
	switch {
	case u.Seat < 0:
		b.WriteString(th.Muted.Render(th.T("ui.table.watching")) + "\n")
	case t.isHost(m):
		b.WriteString(th.Strong.Render(th.T("ui.table.you_host")) + " " + th.T("ui.table.press_start") + "\n")
		if t.hasBots(m) {
			b.WriteString(th.Muted.Render(th.T("ui.table.bot_key")) + "\n")
		}
		if pre := t.prelude(m); pre != nil && pre.NamesFirst() {
			b.WriteString(th.Muted.Render(th.T("ui.table.first_key")) + "\n")
		}
	case t.prelude(m) != nil:
		b.WriteString(th.Muted.Render(th.T("ui.table.wait_pick")) + "\n")
	default:
		b.WriteString(th.Muted.Render(th.T("ui.table.wait_host")) + "\n")
	}
	if t.gameRules(m) != nil {
		b.WriteString(th.Muted.Render(th.T("ui.table.rules_hint")) + "\n")
	}
	if m.notice != "" || !u.Notice.IsZero() {
		n := m.notice
		if n == "" {
			n = th.Msg(u.Notice)
		}
		b.WriteString(m.noticeBlock(n) + "\n")
	}
	var lines []string // long lines wrap: nobody's words are cut off
	for i := range u.Log {
		e := u.Log[i]
		text, style := uikit.Clean(th.Event(e)), th.Muted
		if e.Kind == game.Chat {
			style = th.Chat
			if int(e.From) >= 0 && int(e.From) < len(u.Seats) {
				text = th.Name(u.Seats[e.From].Name) + ": " + text
			}
		}
		for _, l := range uikit.Wrap(text, m.width-2) {
			lines = append(lines, style.Render(l))
		}
	}
	head := th.T("ui.table.talk")
	used := lipgloss.Height(b.String()) + 2
	room := max(1, m.height-1-used)
	t.talkBack = min(t.talkBack, max(0, len(lines)-room))
	if t.talkBack > 0 {
		head += th.Muted.Render(" · " + th.T("ui.lines_back", game.Count(t.talkBack)))
	}
	b.WriteString("\n" + th.Header.Render(head) + "\n")
	end := len(lines) - t.talkBack
	b.WriteString(strings.Join(lines[max(0, end-room):end], "\n"))
	return b.String()
}

// paceName is a correspondence table's pace as the new-table form names
// it, or in one word where the game times its own steps (the Werewolves'
// phases).
func paceName(th *uikit.Theme, o table.Options) string {
	if c, ok := uikit.ClockOf(o.TurnClock, o.Pace); ok {
		return th.T(c.Name)
	}
	return th.T("ui.lobby.correspondence")
}
