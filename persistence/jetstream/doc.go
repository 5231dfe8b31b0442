// Package jetstream is persistence.Store on NATS JetStream: the storage of
// a Bivouac cluster, where several nodes act as one server. It passes the
// same contract tests as the bbolt store (persistence/storetest).
//
//	nc, _ := node.Connect() // cluster/natsnode
//	s, err := jetstream.Open(ctx, nc, jetstream.Options{Replicas: min(3, node.ClusterSize())})
//
// # Where things live
//
// Names start with Options.Name ("bivouac"); IDs and fingerprints become
// keys and subject tokens in base64url, as they may hold any byte.
//
//	stream bivouac-logs      subjects bivouac.log.<room>: one subject per
//	                         room, one message per action, its number in
//	                         the header Bivouac-Seq
//	KV bivouac-records       every other record, one key prefix a kind:
//	  room.<room ID>           → RoomRecord (the room directory)
//	  player.<fingerprint>     → Profile
//	  campaign.<campaign ID>   → Campaign
//	  finished.<fingerprint>.<room ID> → when the room finished (the
//	                           index for FinishedGames)
//	  review.<room ID>         → a finished game's review
//	  alive.at                 → the last alive mark (8 bytes BE ns;
//	                           alive.last: an earlier release's)
//	  sanction.…, audit.…, report.…, access.… (moderation.go, access.go)
//	  node.<node ID>           → the ssh line that reaches that node of
//	                           the cluster (nodes.go)
//	KV bivouac-sightings     what was seen of each player (capped)
//
// One bucket for all those kinds, not one each: every replicated group's
// leader heartbeats its followers every second, which was most of an idle
// cluster's cost. Open moves the records of an earlier release's buckets
// into it (upgrade.go).
//
// Every value is the JSON envelope the bbolt store writes
// (persistence.Encode). Each stream and bucket has Options.Replicas
// replicas: a write returns once a majority holds it.
//
// # Consistency
//
//   - Append is fenced: entry n is published with JetStream's
//     expected-last-subject-sequence set to the stream sequence of entry
//     n-1 (cached after this store's own appends, read from the stream
//     otherwise), so the stream's leader stores it only if nothing was
//     appended to the room since. Two writers can never both store number
//     n; the loser gets persistence.ErrFenced.
//   - UpdatePlayer, UpdateCampaign, RecordCampaignResult and PutRoom are
//     compare-and-set loops on one key's revision: read, change, write
//     if the revision is still the one read, else read again. No update
//     is lost; the change functions may run more than once.
//   - Reads go to each stream's leader (direct gets are turned off on the
//     buckets): a store reads its own writes, which a lagging replica
//     answering a direct get would not guarantee.
//
// # Caveats
//
//   - Writes that bbolt makes in one transaction are several here, in an
//     order that keeps the important record right: a finishing PutRoom
//     writes the room, then each player's stats and history entry; a
//     campaign change writes the campaign, then members' profiles. A node
//     dying in between leaves stats or memberships short, never a room,
//     log or campaign wrong.
//   - DeleteRoom removes the record first, then the log, review and
//     history entries; leftovers of a crash in between are invisible and
//     cleared when the ID is used again.
//   - Reading a log walks the room's subject one message per round trip
//     (about 70 µs each on a loopback cluster); Rooms, EachPlayer and
//     FinishedGames walk their bucket the same way. Rooms has no status
//     index: it reads every room, finished ones included.
//   - JetStream syncs files to disk every two minutes by default and
//     counts on replicas instead (natsnode.Config.SyncAlways changes
//     that, at a steep price: no group commit).
//   - After a whole cluster restarts, each stream elects its leader in its
//     own time; Open waits for all of them until its context ends.
package jetstream
