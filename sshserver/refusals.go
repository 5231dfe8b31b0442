package sshserver

// Refusal is why a connection or a session was turned away: one of a fixed
// set (Refusals), never anything a client chose, so it can label the
// operator's metric (Deps.Refused) and the log's "refused" field. Every
// refusal at the door and after it has one, whoever decides it.
type Refusal string

// Why a connection or session was refused.
const (
	// Before authentication (the pre-login gate).
	RefusedGate    Refusal = "gate"    // its place went to a newcomer: too many connections logging in
	RefusedPenalty Refusal = "penalty" // its address is kept out after stalled or failed handshakes
	RefusedStalled Refusal = "stalled" // its handshake missed a deadline (version line, key exchange, authentication)
	RefusedGuesses Refusal = "guesses" // its address must wait after wrong codes
	// The player caps, once authenticated.
	RefusedPerAddress Refusal = "per_address" // Config.MaxPerIP players from its address
	RefusedFull       Refusal = "full"        // Config.MaxSessions players in all
	// Who may come in.
	RefusedNewKeys     Refusal = "new_keys"         // too many keys new to the server from its address
	RefusedBan         Refusal = "ban"              // the player or their address is banned
	RefusedAllowlist   Refusal = "allowlist"        // a key not on the allowlist, or a guest where guests may not come
	RefusedInvite      Refusal = "invite"           // a wrong, used or expired invite code
	RefusedUnavailable Refusal = "unavailable"      // who may come in could not be read (the store)
	RefusedIdentity    Refusal = "identity"         // its records of who it is do not agree
	RefusedDraining    Refusal = "draining"         // this node is handing its tables over and stopping
	RefusedCommandLong Refusal = "command_too_long" // a command line longer than MaxCommand
	RefusedInternal    Refusal = "internal"         // a panic ended its session
)

// Refusals are every Refusal, for the metric to show each from the start.
var Refusals = []Refusal{
	RefusedGate, RefusedPenalty, RefusedStalled, RefusedGuesses,
	RefusedPerAddress, RefusedFull,
	RefusedNewKeys, RefusedBan, RefusedAllowlist, RefusedInvite, RefusedUnavailable,
	RefusedIdentity, RefusedDraining, RefusedCommandLong, RefusedInternal,
}

// refused counts a refusal for the operator (Deps.Refused).
func (s *Server) refused(why Refusal) {
	if s.deps.Refused != nil {
		s.deps.Refused(why)
	}
}
