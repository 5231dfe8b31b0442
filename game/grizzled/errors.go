package grizzled

import (
	"errors"

	"bivouac/game"
)

// Errors returned by Apply. Each is a sentinel to test with errors.Is; the
// error actually returned usually wraps it with a message a player can read
// ("you may not withdraw: Hardheaded and you hold 2 cards").
var (
	ErrNotYourTurn      = game.ErrNotYourTurn // not this seat's move (or a spectator)
	ErrGameOver         = game.ErrGameOver    // the game has ended
	ErrBadAction        = game.ErrBadAction   // malformed action: unknown kind, threat or tile out of range
	ErrWrongPhase       = errors.New("that move is not possible now")
	ErrStale            = errors.New("the table has moved on since you chose that")
	ErrIntensityTooLow  = errors.New("the intensity is too low")
	ErrNoSuchCard       = errors.New("that card is not there")
	ErrForced           = errors.New("you must withdraw (Fearful)")
	ErrCharmUsed        = errors.New("your lucky charm is already used")
	ErrNoCharmTarget    = errors.New("that card does not show your lucky charm's threat")
	ErrNoSpeechToken    = errors.New("you have no speech token")
	ErrMute             = errors.New("you are Mute")
	ErrCannotWithdraw   = errors.New("you may not withdraw")
	ErrNotMatching      = errors.New("that card does not show the named threat")
	ErrNoSuchTile       = errors.New("you do not hold that tile")
	ErrNoSuchHardKnock  = errors.New("there is no such hard knock in play")
	ErrTooManyCards     = errors.New("too many cards for this benefit")
	ErrNoCharmRestore   = errors.New("your lucky charm cannot be turned back")
	ErrChatMuted        = errors.New("you are Mute and may not communicate")
	ErrChaplainSilent   = errors.New("the chaplain does not speak")
	ErrNotAPlayerAction = errors.New("only the table's timer submits this")
)

// ruleError is a sentinel with a message for the player.
type ruleError struct {
	err error
	msg string
}

func (e *ruleError) Error() string { return e.msg }
func (e *ruleError) Unwrap() error { return e.err }

func refuse(sentinel error, msg string) error { return &ruleError{err: sentinel, msg: msg} }
