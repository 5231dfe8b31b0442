// Package sshserver is Bivouac's SSH front door: a wish (v1) server that
// identifies players by the key they proved they hold, lets keyless guests in
// with a reclaim code, caps connections, and hands each PTY session to one
// Bubble Tea program and each command session to a command handler.
//
// # Identity
//
// Any public key is accepted; the player is gossh.FingerprintSHA256 of it.
// Three records are kept in the connection's Permissions: the key the client
// offered (PublicKeyHandler), the key whose signature x/crypto checked
// (VerifiedPublicKeyCallback, which also refuses an offer/verify mismatch),
// and the identity middleware re-derives the fingerprint from the session's
// key and requires all three to agree. A client that offers one key and
// signs with another never gets the offered key's identity.
//
// Keyless clients log in by keyboard-interactive with no prompts when
// Config.AllowGuests is set. Each gets a reclaim code (NewGuestCode), a
// secret shown to its owner only; the guest's ID is a hash of it (GuestID),
// so logs, tables and the database never hold the code. A keyless login
// whose user name is a code (`ssh -p 2222 g-7kqm-x4tr-9pzc@host`, any case)
// is that guest again, if the server knows the code; wrong codes slow the
// address down (Guesses). The "g-" prefix keeps ordinary user names from
// being taken for codes. A client that has keys in its agent must skip them
// (`-o PubkeyAuthentication=no`) to log in as a guest.
//
// # Limits
//
// A connection that has not authenticated holds no player's place: it
// waits in a gate (Config.MaxStartups in all, as OpenSSH's MaxStartups with
// random early drop, and Config.MaxStartupsPerIP per address), where a
// newcomer is never refused but takes the place of the oldest connection
// of the most crowded address (its own when that is full). It must send
// its version line within Config.VersionTimeout, finish the key exchange
// within Config.KexTimeout of that, and authenticate within
// Config.HandshakeTimeout of accept; an address whose handshakes stall or
// fail owes a penalty and, past PenaltyMin, is kept out for a while
// (penalty.go). Every refusal has a reason from one set (Refusals). The caps count authenticated
// connections (Config.MaxSessions in all, Config.MaxPerIP per IPv4 address
// or IPv6 /64). A connection over a cap may still open its session so it
// can be told why, then it is ended; only a few such refused connections
// may be open at once, beyond which connections are closed unanswered.
// Config.MaxChannelsPerConn limits the sessions one
// connection may open at once, IdleTimeout and MaxTimeout the connection's
// life. A client that vanished is found by the kernel's TCP keepalives
// within Config.VanishedAfter (vanished.go). Server keepalives
// (Config.KeepAliveInterval; wish v1.4.7 has no option for them, so they
// are sent here) go to a client not heard from for an interval, as
// OpenSSH's ClientAliveInterval, and disconnect one that stopped
// answering: a client whose program hung. What a client sends is rate-limited (Config.MaxInputRate). No
// port forwarding, agent use or subsystems (sftp) are served; env requests
// are kept only for the variables Bivouac reads (TERM, LANG, LC_*,
// NO_COLOR, COLORTERM, BIVOUAC_*), short and at most 16 a session.
//
// # Terminal
//
// NewTerminal asks a PTY session's terminal for its background colour (OSC
// 11, then DA1 to mark the end) and builds the lipgloss renderer; keys typed
// meanwhile are handed on to the program, never lost. RawOutput is the
// session's channel without the emulated PTY's \n → \r\n copies, for a
// program that ends its own lines (the frame writer).
//
// # Known gaps
//
//   - A resize sent before the shell starts is dropped (see
//     earlyResizeFilter: the ssh package would otherwise wedge the session);
//     the program starts with the size the PTY request gave.
package sshserver
