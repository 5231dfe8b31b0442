package server

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/games/werewolf"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// plainPlayer drives a plain-mode session as a screen-reader user's
// script would: it types commands and reads the lines that come back,
// never a screen.
type plainPlayer struct {
	t *testing.T
	c *sshtest.Client
}

func dialPlain(t *testing.T, addr, user string, opts ...sshtest.Option) *plainPlayer {
	opts = append([]sshtest.Option{sshtest.WithUser(user), sshtest.WithPTY(80, 24), sshtest.WithCommand("plain")}, opts...)
	p := &plainPlayer{t: t, c: sshtest.Dial(t, addr, opts...)}
	p.c.Expect(t, `plain mode`, 5*time.Second)
	p.waitPrompt(0)
	return p
}

// lines is the session's output as lines: carriage returns and the
// spaces that cleared a prompt dropped.
func (p *plainPlayer) lines(from int) []string {
	tr := p.c.Transcript()
	var out []string
	for _, l := range strings.Split(string(tr[min(from, len(tr)):]), "\n") {
		if i := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); i >= 0 {
			l = l[i+1:]
		}
		out = append(out, strings.TrimRight(l, "\r "))
	}
	return out
}

// waitPrompt waits until the output after from ends a reply: a "> " at the
// start of a line.
func (p *plainPlayer) waitPrompt(from int) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		tr := p.c.Transcript()
		if from <= len(tr) && (bytes.Contains(tr[from:], []byte("\n> ")) || bytes.HasPrefix(tr[from:], []byte("> "))) {
			return
		}
		select {
		case <-p.c.Done():
			p.t.Fatalf("session ended:\n%s", p.c.Transcript())
		case <-time.After(10 * time.Millisecond):
		}
	}
	p.t.Fatalf("no prompt after %q:\n%s", p.c.Transcript()[from:], p.c.Transcript())
}

// do types one command and returns the lines of its answer (with any
// table news that arrived meanwhile).
func (p *plainPlayer) do(cmd string) []string {
	p.t.Helper()
	from := len(p.c.Transcript())
	p.c.Type(cmd + "\r")
	// The answer starts after the echoed command's line (news printed
	// meanwhile redraws the prompt and the half-typed line below it).
	echo := []byte(cmd + "\r\n")
	clocktest.CheckFor(p.t, 5*time.Second, 5*time.Millisecond, func() error {
		tr := p.c.Transcript()
		i := bytes.Index(tr[from:], echo)
		if i < 0 {
			return fmt.Errorf("%q was not echoed:\n%s", cmd, tr)
		}
		from += i + len(echo)
		return nil
	})
	p.waitPrompt(from)
	var out []string
	for _, l := range p.lines(from) {
		if l == ">" || strings.HasPrefix(l, "> ") {
			break
		}
		out = append(out, l)
	}
	return out
}

// playToTheEnd plays the player's Grizzled game in plain mode until it is
// over: it waits for the game to ask something, lists the moves and makes
// the first. It returns the number of moves made.
func (p *plainPlayer) playToTheEnd() int {
	t := p.t
	played, seen := 0, 0
	deadline := time.Now().Add(3 * time.Minute)
	for !gameOverRe.MatchString(p.text()) {
		if time.Now().After(deadline) {
			t.Fatalf("no end after %d moves:\n%s", played, p.text())
		}
		// others' turns: the news arrives by itself, and the game says
		// when it asks something of the player
		if !p.asked(&seen) {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		cmd, answer, moves := p.move()
		if cmd == "" {
			continue
		}
		if strings.Contains(answer, "is not one of your moves") || strings.Contains(answer, "Unknown command") {
			t.Fatalf("%s from %q: %s", cmd, moves, answer)
		}
		played++
	}
	return played
}

// move lists the player's moves and makes the one pickMove picks; cmd is
// "" when there was none to make.
func (p *plainPlayer) move() (cmd, answer string, moves []string) {
	moves = p.do("moves")
	if cmd = pickMove(moves); cmd != "" {
		answer = strings.Join(p.do(cmd), "\n")
	}
	return cmd, answer, moves
}

// asked reports whether the game has asked the player something since
// the *seen asks counted so far, and counts it.
func (p *plainPlayer) asked(seen *int) bool {
	n := strings.Count(p.text(), "(moves lists what you may do)")
	if n == *seen {
		return false
	}
	*seen = n
	return true
}

// answer answers the form's question and checks the next one is next.
func (p *plainPlayer) answer(answer, next string) {
	p.t.Helper()
	if got := strings.Join(p.do(answer), "\n"); !strings.Contains(got, next) {
		p.t.Fatalf("after %q the form says %q, not %q", answer, got, next)
	}
}

func (p *plainPlayer) text() string { return strings.Join(p.lines(0), "\n") }

// moveRe is a line of the moves list: "3. play: T15 Snow+Whistle (play 3)".
var moveRe = regexp.MustCompile(`^(\d+)\. .*\(([a-z0-9 ]+)\)$`)

// pickMove chooses from the moves list as a cautious player: the lowest
// intensity, a card, a pass on speeches, a tile, a withdrawal, the first
// hard knock Merry Christmas or support may discard; at Werewolves a vote,
// done, keep, ready. Anything else waits (for the turn clock's bot).
func pickMove(lines []string) string {
	var cmds []string
	for _, l := range lines {
		if m := moveRe.FindStringSubmatch(l); m != nil {
			cmds = append(cmds, m[2])
		}
	}
	for _, prefix := range []string{"deal ", "play ", "pass", "tile ", "withdraw", "decline", "vote ", "done", "keep", "ready", "discard "} {
		for _, c := range cmds {
			if strings.HasPrefix(c, prefix) {
				return c
			}
		}
	}
	return ""
}

// expectRaw waits for pattern in c's raw output. Without a PTY the output
// has no carriage returns, and the emulated screen's wrapping could split a
// phrase, so tests of sessions without a terminal read the bytes.
func expectRaw(t *testing.T, c *sshtest.Client, pattern string, timeout time.Duration) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	var m []string
	clocktest.CheckFor(t, timeout, 5*time.Millisecond, func() error {
		tr := c.Transcript()
		if m = re.FindStringSubmatch(string(tr)); m == nil {
			return fmt.Errorf("no output matching %s:\n%s", pattern, tr)
		}
		return nil
	})
	return m
}

// noEscapes fails if plain output ever held an escape sequence.
func noEscapes(t *testing.T, p *plainPlayer) {
	t.Helper()
	if i := bytes.IndexByte(p.c.Transcript(), 0x1b); i >= 0 {
		tr := p.c.Transcript()
		t.Fatalf("an escape byte at %d of the plain transcript: %q", i, tr[max(0, i-80):min(len(tr), i+40)])
	}
}

func TestAPlainModePlayerPlaysAWholeGrizzledGame(t *testing.T) {
	t.Parallel()
	_, addr := startGameServer(t, "a whole game over SSH")
	ann := dialPlain(t, addr, "ann")

	if got := strings.Join(ann.do("tables"), "\n"); !strings.Contains(got, "No open tables") {
		t.Fatalf("tables: %q", got)
	}
	if got := strings.Join(ann.do("fly away"), "\n"); !strings.Contains(got, "Unknown command fly") {
		t.Fatalf("an unknown command: %q", got)
	}
	if got := strings.Join(ann.do("rules grizzled selfish"), "\n"); !strings.Contains(got, "H15 Selfish") {
		t.Fatalf("rules from the lobby: %q", got)
	}
	if got := strings.Join(ann.do("new grizzled 3 2"), "\n"); !regexp.MustCompile(`Table [A-Z0-9]{4}: The Grizzled`).MatchString(got) {
		t.Fatalf("new: %q", got)
	}
	ann.do("say hello from plain mode")
	ann.c.Expect(t, `ann: hello from plain mode`, 5*time.Second)
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 5*time.Second)

	if got := strings.Join(ann.do("rules selfish"), "\n"); !strings.Contains(got, "Selfish") {
		t.Errorf("rules selfish: %q", got)
	}
	played := ann.playToTheEnd()
	text := ann.text()
	t.Logf("%d moves in plain mode; %d lines read", played, strings.Count(text, "\n"))
	for _, want := range []string{"Your turn", "Your hand", "Mission 1 begins", "You are dealt"} {
		if !strings.Contains(text+strings.Join(ann.do("look"), "\n"), want) && want != "Your hand" {
			t.Errorf("the transcript never says %q", want)
		}
	}
	if hand := strings.Join(ann.do("hand"), "\n"); !strings.Contains(hand, "Your hand") {
		t.Errorf("hand: %q", hand)
	}
	noEscapes(t, ann)
	ann.do("leave")
	ann.c.Type("quit\r")
	if code := ann.c.Wait(t, 5*time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	noEscapes(t, ann)
}

func TestAPlainModeVillagerSurvivesANightAndVotes(t *testing.T) {
	t.Parallel()
	srv, addr := startGameServer(t, "a night over SSH")
	srv.app.NewSeed = func() uint64 { return 1 } // seat 1 is a simple villager
	vic := dialPlain(t, addr, "vic")

	// The form, one question at a time: players 8, cards as by default,
	// quick timers with fast nights, bots as by default, 7 bot seats now.
	form := vic.answer
	form("new werewolf", "Players")
	form("", "Cards")
	form("", "Timers")
	form("3", "Bots")
	form("", "Bot seats")
	form("8", "Private")
	form("", "Stand-ins")
	vic.do("")
	vic.c.Expect(t, `1\. vic \(you\)`, 5*time.Second)
	vic.do("start")
	vic.c.Expect(t, `Night 1|night falls|Night falls`, 5*time.Second)

	card := strings.Join(vic.do("hand"), "\n")
	if !strings.Contains(strings.ToLower(card), "villager") {
		t.Fatalf("the seed no longer deals vic a villager: %q", card)
	}
	// vic waits for the game to ask something ("moves lists what you
	// may do"), answers it, and stops once a ballot of theirs is in the
	// table's durable log. A vote the day refused (its step ended between
	// the list and the move) is not a ballot: vic plays on.
	code := srv.app.Hub.List()[0].Code
	seen, votedFor := 0, -1
	deadline := time.Now().Add(2 * time.Minute)
	for votedFor < 0 {
		text := vic.text()
		if strings.Contains(text, "GAME OVER") || strings.Contains(text, "devoured by the werewolves. Card: Villager.") && strings.Contains(text, "vic was devoured") {
			t.Fatalf("vic did not live to vote:\n%s", text)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no vote:\n%s", text)
		}
		if !vic.asked(&seen) {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		cmd, answer, moves := vic.move()
		if strings.Contains(answer, "Unknown command") {
			t.Fatalf("%s from %q: %s", cmd, moves, answer)
		}
		target, isVote := strings.CutPrefix(cmd, "vote ")
		if !isVote {
			continue
		}
		// A move is durable once its answer is out (plain mode waits for
		// the outcome), so the log shows the ballot now or never.
		seat, _ := strconv.Atoi(target)
		if ballotCast(replayState(t, srv, code, werewolf.Game{}).(*werewolf.State), 0, seat-1) {
			votedFor = seat
		} else if !strings.Contains(answer, "look again") && !strings.Contains(answer, "is not one of your moves") {
			t.Logf("vote %d was answered %q and is not in the log", seat, answer)
		}
	}
	noEscapes(t, vic)
}

// ballotCast reports whether voter's ballot for target is in st: still
// open, or in the record of a vote it closed (only the living have open
// ballots; the verdict may since have lynched the voter).
func ballotCast(st *werewolf.State, voter, target int) bool {
	if st.Players[voter].Alive && st.Players[voter].Ballot == target {
		return true
	}
	for _, v := range st.Votes {
		for _, b := range v.Ballots {
			if int(b.Voter) == voter && int(b.Target) == target {
				return true
			}
		}
	}
	return false
}

// Without a terminal plain mode is lines in and lines out: no prompt, no
// echo. A 200 kB paste is dropped with a word (the typing budget), and the
// session goes on; an overlong line is cut short in its answer.
func TestPlainModeWithoutATerminal(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithUser("sam"), sshtest.WithoutPTY(), sshtest.WithCommand("plain"))
	expectRaw(t, c, `plain mode`, 5*time.Second)
	c.Type(strings.Repeat("x", 200<<10))
	expectRaw(t, c, `Keys came faster than anyone types`, 5*time.Second)
	time.Sleep(100 * time.Millisecond) // what a person would wait before typing again
	c.Type("\n" + strings.Repeat("y", 1500) + "\n")
	expectRaw(t, c, `Unknown command y+`, 5*time.Second) // the screen wraps it; the transcript is checked below
	time.Sleep(time.Second)                              // the budget refills
	c.Type("help\nrules grizzled trap\nquit\n")
	expectRaw(t, c, `Commands in the lobby`, 5*time.Second)
	if code := c.Wait(t, 10*time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	out := string(c.Transcript())
	if strings.Contains(out, "> ") || strings.Contains(out, "\r") || strings.ContainsRune(out, 0x1b) {
		t.Fatalf("a prompt, a carriage return or an escape without a terminal:\n%q", out)
	}
	if !strings.Contains(out, "Unknown command "+strings.Repeat("y", 40)+". Type help.") || strings.Count(out, "Keys came faster") > 1 ||
		len(out) > 4000 || !strings.Contains(out, "\nTraps.\nA threat card marked as a trap") {
		t.Fatalf("%d bytes of output:\n%.2000s", len(out), out)
	}
}

// BIVOUAC_UI=plain (ssh -o SetEnv) asks for plain mode without a command.
func TestPlainModeByEnvironment(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	c := sshtest.Dial(t, addr, sshtest.WithUser("eve"), sshtest.WithEnv("BIVOUAC_UI", "plain"))
	c.Expect(t, `plain mode`, 5*time.Second)
	c.Type("quit\r")
	if code := c.Wait(t, 5*time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if tr := c.Transcript(); bytes.IndexByte(tr, 0x1b) >= 0 {
		t.Fatalf("escape sequences in plain mode: %q", tr)
	}
}

// Campaigns in plain mode: one player starts one, a friend joins it by its
// code, and the next mission's table opens; a wrong code counts against
// the address as on the full screen.
func TestPlainModeCampaign(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, t.TempDir())
	ann := dialPlain(t, addr, "ann")
	created := strings.Join(ann.do("campaign new 2 Verdun"), "\n")
	m := regexp.MustCompile(`code ([A-Z0-9-]+)`).FindStringSubmatch(created)
	if m == nil {
		t.Fatalf("campaign new: %q", created)
	}
	bob := dialPlain(t, addr, "bob")
	if got := strings.Join(bob.do("campaign join "+m[1]), "\n"); !strings.Contains(got, "Verdun") {
		t.Fatalf("campaign join: %q", got)
	}
	if got := strings.Join(bob.do("campaigns"), "\n"); !strings.Contains(got, "Verdun") {
		t.Fatalf("campaigns: %q", got)
	}
	// The next missions' options (issue 30 item 3): a level the server
	// does not offer is refused, the strong bot and hints are kept.
	if got := strings.Join(ann.do("campaign set "+m[1]+" bot godlike"), "\n"); !strings.Contains(got, "campaign set CODE bot easy|strong") {
		t.Fatalf("campaign set with an unknown level: %q", got)
	}
	ann.do("campaign set " + m[1] + " bot strong")
	if got := strings.Join(ann.do("campaign set "+m[1]+" hints on"), "\n"); !strings.Contains(got, "Kept for this campaign's next missions") ||
		!strings.Contains(got, "played by a bot (strong); hints: yes") {
		t.Fatalf("campaign set: %q", got)
	}
	if got := strings.Join(ann.do("campaign play "+m[1]), "\n"); !regexp.MustCompile(`Table [A-Z0-9]{4,}: The Grizzled · campaign Verdun .* hints on`).MatchString(got) ||
		!strings.Contains(got, "bot (strong)") {
		t.Fatalf("campaign play: %q", got)
	}
	for range 10 {
		bob.do("join ZZZZ")
	}
	if got := strings.Join(bob.do("join ZZZZ"), "\n"); !strings.Contains(got, "Too many wrong codes") {
		t.Fatalf("ten wrong codes and no wait: %q", got)
	}
}

// A keyless guest in plain mode is told its reclaim code, as the lobby
// tells it, and the code gets the guest back to its seat.
func TestPlainModeGuestGetsItsCode(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, t.TempDir())
	srv.app.Room.BotDelay = 0
	g := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser("gil"), sshtest.WithoutPTY(), sshtest.WithCommand("plain"))
	code := expectRaw(t, g, `Your guest code is (g-[a-z0-9-]+)`, 5*time.Second)[1]
	g.Type("new grizzled 3 2\nstart\n")
	expectRaw(t, g, `Mission 1 begins`, 5*time.Second)
	g.Close()
	again := sshtest.Dial(t, addr, sshtest.AsGuest(), sshtest.WithUser(code), sshtest.WithoutPTY(), sshtest.WithCommand("plain"))
	expectRaw(t, again, `plain mode`, 5*time.Second)
	again.Type("join " + srv.app.Hub.List()[0].Code + "\nhand\n")
	expectRaw(t, again, `Your hand: \d+ cards?\.`, 5*time.Second)
}

// A plain-mode player who loses the connection, or whose server restarts,
// sits straight back down at the game in progress, as on the full screen;
// a restart is said before the connection closes (issue 42 item 4).
func TestPlainModeSitsYouBackDownAfterADropAndARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv, addr := startServer(t, dir)
	srv.app.Room.BotDelay = time.Hour // the bots wait: the game stays in progress
	key := sshtest.NewKey(t)
	ann := dialPlain(t, addr, "ann", sshtest.WithKey(key))
	code := regexp.MustCompile(`Table ([A-Z0-9]{4}): The Grizzled`).FindStringSubmatch(strings.Join(ann.do("new grizzled 3 2"), "\n"))
	if code == nil {
		t.Fatalf("new:\n%s", ann.text())
	}
	ann.do("start")
	ann.c.Expect(t, `Mission 1 begins`, 5*time.Second)
	hand := strings.Join(ann.do("hand"), "\n")
	ann.c.Close()

	back := func(addr, when string) *plainPlayer {
		t.Helper()
		p := dialPlain(t, addr, "ann", sshtest.WithKey(key))
		p.c.Expect(t, `Table `+code[1]+`: The Grizzled`, 5*time.Second)
		// The restarted server's bots do not wait: the hand may have moved on.
		if got := strings.Join(p.do("hand"), "\n"); !strings.HasPrefix(got, "Your hand") || (when == "after a dropped connection" && got != hand) {
			t.Fatalf("%s: hand %q, want the hand before %q", when, got, hand)
		}
		if strings.Contains(p.text(), "Tables:") {
			t.Fatalf("%s: the lobby was read out first:\n%s", when, p.text())
		}
		return p
	}
	again := back(addr, "after a dropped connection")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	again.c.Expect(t, `The server is restarting: your seat is saved`, 5*time.Second)
	again.c.Wait(t, 5*time.Second)
	_, addr2 := startServer(t, dir)
	back(addr2, "after a restart")
}
