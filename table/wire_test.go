package table

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/bivouac-ssh/bivouac/game"
)

// A refusal that crossed the network is the error it was: the table's
// sentinels come back as themselves, and a game's detailed refusal keeps
// its words and the sentinel it details.
func TestRefusalsTravel(t *testing.T) {
	detailed := game.Refuse(game.ErrNotYourTurn, game.M("grizzled.err.wait", game.Text("Player", "Ana")))
	for _, err := range []error{ErrBusy, ErrNotHost, ErrClosed, game.ErrBadAction, detailed, errors.New("disk on fire")} {
		b, jerr := json.Marshal(ToWire(err))
		if jerr != nil {
			t.Fatal(jerr)
		}
		var w WireError
		if jerr := json.Unmarshal(b, &w); jerr != nil {
			t.Fatal(jerr)
		}
		back := FromWire(&w)
		if noticeOf(back).String() != noticeOf(err).String() {
			t.Errorf("%v came back saying %v", err, noticeOf(back))
		}
		for _, sentinel := range []error{ErrBusy, ErrNotHost, ErrClosed, game.ErrBadAction, game.ErrNotYourTurn} {
			if errors.Is(err, sentinel) != errors.Is(back, sentinel) {
				t.Errorf("%v: errors.Is(…, %v) changed on the way", err, sentinel)
			}
		}
	}
	if FromWire(ToWire(nil)) != nil {
		t.Error("no error came back as one")
	}
}
