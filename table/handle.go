package table

import (
	"context"

	"github.com/bivouac-ssh/bivouac/game"
)

// RoomHandle is what a session needs of a table: exactly the calls the
// screens make. *Room implements it for a table whose actor runs in this
// process; cluster/remote implements it for one whose actor runs on
// another node, so a session does not know where its table lives.
type RoomHandle interface {
	Code() string
	Summary() Summary
	Join(ctx context.Context, p Player, box *Mailbox, watch bool) (game.Seat, error)
	Leave(box *Mailbox) error
	Detach(box *Mailbox) error
	StepAway(box *Mailbox) error
	Act(box *Mailbox, seq int, a game.Action) error
	ActNow(ctx context.Context, box *Mailbox, seq int, a game.Action) error
	Say(box *Mailbox, text string) error
	Start(ctx context.Context, box *Mailbox) error
	SetBot(ctx context.Context, box *Mailbox, seat game.Seat, level string) error
	Pick(box *Mailbox, id string) error
	NameFirst(box *Mailbox, seat game.Seat) error
	Remove(ctx context.Context, box *Mailbox, seat game.Seat) error
}

var _ RoomHandle = (*Room)(nil)
