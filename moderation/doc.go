// Package moderation is what admins do to players and what players report
// to admins: bans (a player kept out), mutes (a player kept silent), kicks,
// the audit log of every such action, and the reports queue.
//
// The sanctions live in the store (persistence.Moderation): bbolt on one
// machine, a JetStream bucket in a cluster. Each node keeps a view of them
// no older than Options.Refresh, so a ban made on one node holds on every
// node within seconds; Watch tells the node of bans made elsewhere so it
// can end the banned player's sessions there too.
//
// What a sanction means for a session (ending it, refusing it at the door,
// refusing its chat) is the server's business; this package decides who is
// sanctioned, for how long, and says so in catalog messages.
package moderation
