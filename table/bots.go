package table

// Bots: asking the seats' bots for moves and lines off the actor's
// goroutine, and taking their answers back on it.

import (
	"fmt"
	"runtime/debug"

	"github.com/bivouac-ssh/bivouac/game"
)

// askBots starts a bot turn for every waiting seat a bot plays. The bot
// thinks off the actor (a strong bot searches) and submits like a player.
func (r *Room) askBots() {
	if r.cfg.Bots == nil {
		return
	}
	for _, seat := range r.cfg.Game.Waiting(r.state) {
		if seat < 0 || int(seat) >= len(r.seats) {
			continue
		}
		s := r.seats[seat]
		level := s.rec.Bot
		if s.takeover || r.clockFor[seat] == r.seq+1 || r.corr.late[seat] {
			level = r.cfg.BotLevel
			if level == "" {
				level = r.cfg.Bots.Levels()[0]
			}
		}
		if level == "" || r.botAsked[seat] == r.seq+1 {
			continue
		}
		if s.takeover && !s.rec.Left && !r.otherHumanConnected(seat) && !r.byCorrespondence() {
			continue // nobody is watching: the table waits for its players (one who gave up the seat waits for nobody)
		}
		bot, err := r.cfg.Bots.New(level)
		if err != nil {
			r.log.Error("bot", "level", level, "err", err)
			continue
		}
		r.botAsked[seat] = r.seq + 1
		view, seq, legal := r.cfg.Game.View(r.state, seat), r.seq, r.cfg.Game.Legal(r.state, seat)
		seed := r.cfg.Seed ^ uint64(seq)<<8 ^ uint64(seat)
		go r.runBot(bot, seat, view, seq, legal, seed)
	}
}

func (r *Room) otherHumanConnected(seat game.Seat) bool {
	for _, m := range r.members {
		if m.seat >= 0 && m.seat != seat {
			return true
		}
	}
	return false
}

func (r *Room) runBot(bot game.Bot, seat game.Seat, view game.View, seq int, legal []game.Action, seed uint64) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("bot panic", "seat", seat, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	start := r.clock.Now() // the pause is for the players watching, so it counts the bot's thinking
	a, ok := bot.Act(view, seed)
	if !ok {
		if len(legal) == 0 {
			return
		}
		a = legal[0]
	}
	if t, ok := bot.(game.Talker); ok {
		if line, ok := t.Talk(view, seed); ok {
			r.retrySubmit(command{kind: cmdBotSay, seat: seat, seq: seq, line: line})
		}
	}
	if d := r.cfg.BotDelay - r.clock.Now().Sub(start); d > 0 {
		paced := make(chan struct{})
		t := r.clock.AfterFunc(d, func() { close(paced) })
		select {
		case <-paced:
		case <-r.done:
			t.Stop()
			return
		}
	}
	r.retrySubmit(command{kind: cmdBotAct, seat: seat, seq: seq, action: a})
}

// botSay passes a bot's line to the game's rules for bots' lines
// (game.BotChat), as a player's words go to Say.
func (r *Room) botSay(c command) {
	if !r.started || r.over || int(c.seat) >= len(r.seats) || c.seq != r.seq {
		return
	}
	if s := r.seats[c.seat]; s.rec.Bot == "" && !s.takeover && r.clockFor[c.seat] != c.seq+1 && !r.corr.late[c.seat] {
		return
	}
	said := c.line.String()
	if r.botSaid[c.seat] == said {
		return // a bot asked again after a refused move repeats itself: say it once
	}
	r.botSaid[c.seat] = said
	bc, ok := r.cfg.Game.(game.BotChat)
	if !ok {
		return
	}
	// A refusal means the phase moved on (no talking now): the line is
	// simply not said.
	a, events, err := bc.BotLine(r.state, c.seat, c.line)
	switch {
	case err != nil:
	case a != nil:
		_ = r.apply(c.seat, a) // a line that changes the game is a move
	default:
		if r.journal(EncodeBotLine(c.seat, c.line)) == nil {
			r.record(events)
			r.publish()
		}
	}
}

// botAct applies a bot's choice if the table is still where the bot saw it
// (otherwise the bot has already been asked again). A refused choice falls
// back to the first legal action, so a faulty bot can never stall a table.
func (r *Room) botAct(c command) {
	if !r.started || r.over || c.seq != r.seq || int(c.seat) >= len(r.seats) {
		return
	}
	s := r.seats[c.seat]
	by := byPlayer
	switch {
	case s.rec.Bot != "":
	case r.corr.late[c.seat]:
		by = byLate
	case s.takeover || r.clockFor[c.seat] == c.seq+1:
		by = byStandIn
	default:
		return // its player came back
	}
	defer r.endOverdue(false) // a timed step past its deadline may wait for this stand-in
	err := r.applyAs(c.seat, c.action, by)
	if err == nil || r.closed != Open {
		return
	}
	r.log.Warn("bot chose an illegal action", "seat", c.seat, "err", err)
	if legal := r.cfg.Game.Legal(r.state, c.seat); len(legal) > 0 {
		if err := r.applyAs(c.seat, legal[0], by); err != nil {
			r.log.Error("bot fallback refused", "seat", c.seat, "err", err)
		}
	}
}
