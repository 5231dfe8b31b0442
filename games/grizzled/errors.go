package grizzled

import "github.com/bivouac-ssh/bivouac/game"

// Errors returned by Apply. Each is a sentinel to test with errors.Is; the
// error actually returned usually details it (game.Refuse) with a message
// a player reads ("you may not withdraw: Hardheaded and you hold 2 cards").
var (
	ErrNotYourTurn      = game.ErrNotYourTurn // not this seat's move (or a spectator)
	ErrGameOver         = game.ErrGameOver    // the game has ended
	ErrBadAction        = game.ErrBadAction   // malformed action: unknown kind, threat or tile out of range
	ErrWrongPhase       = game.NewError("grizzled.err.wrong_phase_s")
	ErrStale            = game.NewError("grizzled.err.stale_s")
	ErrIntensityTooLow  = game.NewError("grizzled.err.intensity_low")
	ErrNoSuchCard       = game.NewError("grizzled.err.no_such_card")
	ErrForced           = game.NewError("grizzled.err.forced")
	ErrCharmUsed        = game.NewError("grizzled.err.charm_used_s")
	ErrNoCharmTarget    = game.NewError("grizzled.err.no_charm_target")
	ErrNoSpeechToken    = game.NewError("grizzled.err.no_speech_token")
	ErrMute             = game.NewError("grizzled.err.mute")
	ErrCannotWithdraw   = game.NewError("grizzled.err.cannot_withdraw_s")
	ErrNotMatching      = game.NewError("grizzled.err.not_matching_s")
	ErrNoSuchTile       = game.NewError("grizzled.err.no_such_tile_s")
	ErrNoSuchHardKnock  = game.NewError("grizzled.err.no_such_knock")
	ErrTooManyCards     = game.NewError("grizzled.err.too_many_cards")
	ErrNoCharmRestore   = game.NewError("grizzled.err.no_charm_restore")
	ErrChatMuted        = game.NewError("grizzled.err.chat_muted")
	ErrChaplainSilent   = game.NewError("grizzled.err.chaplain_silent")
	ErrNotAPlayerAction = game.NewError("grizzled.err.not_a_player_action")
)
