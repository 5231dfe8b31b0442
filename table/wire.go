package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bivouac-ssh/bivouac/game"
)

// wireUpdate is an Update as bytes: JSON, the view in its game's own
// encoding (its outer View shadows Update's).
type wireUpdate struct {
	Update
	View json.RawMessage `json:"view,omitempty"`
}

// EncodeUpdate writes u for a session on another node; vc is the game's
// view codec. A closed room's Update has no view.
func EncodeUpdate(vc game.ViewCodec, u Update) ([]byte, error) {
	w := wireUpdate{Update: u}
	if u.View != nil {
		v, err := vc.EncodeView(u.View)
		if err != nil {
			return nil, err
		}
		w.View = v
	}
	return json.Marshal(w)
}

// DecodeUpdate reads what EncodeUpdate wrote.
func DecodeUpdate(vc game.ViewCodec, b []byte) (Update, error) {
	var w wireUpdate
	if err := json.Unmarshal(b, &w); err != nil {
		return Update{}, fmt.Errorf("table: decoding an update: %w", err)
	}
	u := w.Update
	if len(w.View) > 0 && !bytes.Equal(w.View, []byte("null")) {
		v, err := vc.DecodeView(w.View)
		if err != nil {
			return Update{}, err
		}
		u.View = v
	}
	return u, nil
}

// errorsByKey are the table's and the games' shared refusals, so a refusal that crossed the
// network is the same value errors.Is compares with.
var errorsByKey = func() map[string]error {
	m := map[string]error{}
	for _, err := range []error{ErrBusy, ErrClosed, ErrStale, ErrNotSeated, ErrFull, ErrNotHost, ErrStarted, ErrNotStarted, ErrNotAllowed, ErrCannotJoin,
		game.ErrNotYourTurn, game.ErrGameOver, game.ErrBadAction} {
		var e *game.Error
		errors.As(err, &e)
		m[e.Msg.Key] = err
	}
	return m
}()

// WireError is a refusal as it travels: the message a player reads.
type WireError struct {
	Msg game.Msg `json:"msg"`
	Is  string   `json:"is,omitempty"` // the key of the shared sentinel it details, if any
}

// ToWire turns err into what travels (nil: nil).
func ToWire(err error) *WireError {
	if err == nil {
		return nil
	}
	w := &WireError{Msg: noticeOf(err)}
	for key, sentinel := range errorsByKey {
		if errors.Is(err, sentinel) {
			w.Is = key
		}
	}
	return w
}

// FromWire turns a refusal that travelled back into an error: the table's
// own sentinel when it is one (errors.Is works as it does locally), else a
// game.Error with the same words.
func FromWire(w *WireError) error {
	if w == nil {
		return nil
	}
	sentinel := errorsByKey[w.Is]
	if sentinel != nil && w.Is == w.Msg.Key && len(w.Msg.Args) == 0 {
		return sentinel
	}
	return &game.Error{Msg: w.Msg, Err: sentinel}
}
