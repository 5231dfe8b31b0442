// Package notify sends players a message when they are away: a webhook
// each player sets (ntfy, Discord, Slack or a generic JSON event) hears
// that it is their move at a correspondence table, and again when the
// move's deadline is near.
//
// # The outbox
//
// Each node has one Outbox. Its tables Post a Turn when they wait on a
// player and Withdraw it when they no longer do; neither call blocks a
// table. The outbox keeps at most one message per player and table (a
// newer move replaces an older one) and MaxQueued in all, and sends from
// its own goroutines when it may:
//
//   - at most one message per player and table each Bundle (30 minutes):
//     a move that comes sooner waits, and goes only if the table still
//     waits on the player then;
//   - the reminder when a quarter of the move's time is left, once;
//   - not in the player's quiet hours (in their time zone): what falls due
//     then waits for their end;
//   - not while the player is connected, to any node of a cluster (their
//     terminal tells them; Config.Present asks): it looks again every
//     PresentAgain; when that cannot be told in time (a node slow to
//     answer), it asks again after UnsureAgain, and sends at the
//     UnsureTries-th such answer in a row (an away player must be reached);
//     one player's slow answer holds up only their own message;
//   - at most PlayerBurst at once per player and DestBurst per destination
//     host, then one each PlayerEvery and DestEvery;
//   - a failure worth trying again (no connection, a timeout, 5xx, 429) is
//     tried again after 30 s, 2 min, 8 min, 30 min and 1 h, then given up.
//
// # Surviving a restart
//
// The queue survives a restart, a kill -9 or a failover by being built
// again from what is durable, rather than kept twice: what is owed is in
// the tables' journals (whom each waits on, since when, until when), what
// went is in a Ledger (the player's profile). A table restored or taken
// over posts what it owes as it comes back; the ledger drops what went
// already, and what a bundle, quiet hours or a reminder held back falls
// due again at its time, computed from the same marks. What is lost is a
// failed message's count of tries and its wait: after a restart it is
// tried at once, and MaxAttempts times again (so a destination down
// across restarts hears at most MaxAttempts tries per start). A message
// sent in the moment between the destination's answer and the ledger's
// write may go twice after a crash; none is lost. Past MaxQueued, a new
// message is dropped and counted (ReasonQueueFull, the metric's
// queue_full); the table posts it again at its next move or restart.
//
// # Server-side request forgery
//
// The server makes HTTP requests to URLs its players choose: the attack
// is a player who points their webhook at something only the server can
// reach (the cloud's metadata service at 169.254.169.254 and the
// credentials it hands out, a database or admin page on the server's own
// network, the metrics listener on loopback). So:
//
//   - nothing is sent unless the operator turns notifications on (Policy.On);
//   - only hosts the operator lists are taken, HTTPS only unless a host is
//     listed with http://, on the scheme's port unless another is listed;
//   - the address a host resolves to is checked when the connection is
//     made (Policy.Client's dialer), not when the URL is set, so a name
//     that later resolves elsewhere is caught: loopback, private,
//     link-local, multicast, shared (CGNAT), reserved and the cloud
//     metadata addresses, IPv4-mapped or embedded in IPv6, are refused
//     unless that very address is listed;
//   - no proxy from the environment, no redirect followed, no cookies;
//   - the whole exchange within Timeout (5 s), the answer read to MaxBody
//     (4 KiB) and never shown: a player reads its status line only.
//
// A webhook URL is a secret: kept in the profile, shown masked (Mask),
// never logged, never a metric label. A log line names the destination's
// host and the reason only.
//
// # What goes out
//
// A message names the table (its code) and the game, and says whose move
// it is and how long is left; never anything of a hand. No table code is
// ever put in a URL: the ntfy click action opens ssh://host:port, and the
// join line (`ssh -t -p PORT host join CODE`) travels in the body, to the
// player's own destination.
package notify
