// Package persistence is Bivouac's storage: every table's setup and action
// log, player profiles, campaigns, reviews and finished games.
//
// # One contract, two stores
//
// Store is the interface the room actor (through Journal), the lobby,
// profiles, campaigns, reviews and records use. Two types implement it:
//
//   - Bolt, the default: one bbolt file on one machine (Open). Everything
//     below about files, buckets, schemas and backups is Bolt's.
//   - jetstream.Store (package persistence/jetstream): the same records
//     on a NATS JetStream cluster, for several Bivouac nodes that act as
//     one server. Its doc says where each record lives.
//
// Both pass one suite of contract tests, persistence/storetest, which is
// the exact meaning of each method: errors (ErrNotFound, ErrExists,
// ErrInvalid, ErrSeq, ErrStale), log order, read-modify-write that loses
// no update under concurrency, room deletion taking its log and review,
// and fenced appends. The record rules both apply (what a replaced room
// keeps, who a finished game counts for, how a campaign takes a result)
// are methods of the records (rules.go), so the stores differ only in how
// they make them atomic: bbolt in one transaction, JetStream with
// compare-and-set on each record.
//
// Append is fenced: action n of a room is stored only if the room's last
// action is n-1, and of two writers racing for one number exactly one
// wins; the other gets ErrFenced (an ErrSeq). On a cluster this is what
// keeps a node that lost a room from adding to its log.
//
// # Event sourcing
//
// A game is its RoomRecord (game.Setup and Seed) plus its ordered action
// log. State is never stored as the truth: the room actor rebuilds it by
// replaying Log through the game's Apply (replaying a long game takes
// milliseconds, so nothing stores states to skip ahead).
//
// The actor calls Append for each accepted action and publishes views
// only after Append returns: by then the action is durable (on Bolt,
// fsynced; on JetStream, held by a majority of replicas). Appends from
// many tables at once share one transaction and one fsync: those that come
// while a commit runs all go into the next (groupCommit); a lone table's
// Append commits at once.
//
// # Usage
//
//	s, err := persistence.Open(filepath.Join(dataDir, "bivouac.db"), persistence.Options{})
//	if errors.Is(err, persistence.ErrInUse) { ... } // another server runs on this data dir
//	defer s.Close()
//
//	rec, err := s.PutRoom(persistence.RoomRecord{ID: id, Setup: setup, Seed: seed, Status: persistence.StatusWaiting})
//	err = s.Append(id, 1, entry) // then 2, 3, ...: one writer per room
//	entries, err := s.Log(id)    // replay after a restart; LastSeq(id) to resume numbering
//	rec.Status, rec.Result = persistence.StatusFinished, &result
//	rec, err = s.PutRoom(rec) // and the players' stats count the game, once
//
// The room actor talks to the store through Journal, which implements
// table.Journal and converts table.RoomRecord (a room's code is its ID);
// after a restart Journal.Restorable gives each waiting or playing room's
// record and log for table.Hub.Restore.
//
// # Opening a Bolt file
//
// Open never writes to a file it does not recognise. It first opens an
// existing file read-only (a shared lock) and checks it: a bbolt file whose
// size covers its pages, with a "meta" bucket holding the magic
// "bivouac" and a schema version this build knows. Failures are typed:
//
//   - ErrInUse: the lock is held (a second server on the same data dir);
//     Open gives up after Options.Timeout (default 1 s) instead of hanging.
//   - ErrNotBivouac: empty file, not bbolt at all, or bbolt without our meta.
//   - ErrCorrupt: bbolt but damaged (truncated, bad meta checksums, no
//     schema version).
//   - ErrSchemaTooNew: written by a newer Bivouac; upgrade the binary.
//
// Only then is the file reopened read-write. A missing file is created under
// a temporary name and hard-linked into place complete, so a crash never
// leaves an empty or half-initialised database at the path.
//
// # Schema and migrations
//
// The schema version is a big-endian uint64 under meta/schema; this build
// writes len(migrations)+1 (today 2: version 2 added reviews). Changing the layout means appending a
// function to the migrations table (store.go) that upgrades version N to
// N+1; Open runs every pending step in a single write transaction, so a
// file is either wholly old or wholly new. Back up before upgrading: an
// older binary refuses the migrated file with ErrSchemaTooNew.
//
// Buckets (top level) and their keys:
//
//	meta        "magic" → "bivouac", "schema" → uint64 BE
//	rooms       room ID → RoomRecord (JSON)
//	roomstatus  status NUL room ID → empty (index for Rooms(status...))
//	logs        room ID → bucket: seq uint64 BE → entry (the caller's bytes)
//	snapshots   no longer written; kept so files from older builds open
//	            as they were, and deleting a room clears what they saved
//	players     fingerprint → Profile (JSON)
//	campaigns   campaign ID → Campaign (JSON)
//	finished    fingerprint NUL finished-unix-nanos BE NUL room ID → room ID
//	            (index for FinishedGames, newest last)
//	reviews     room ID → a finished game's review (JSON, the coach's own)
//
// Records are JSON wrapped as {"v":1,"d":{...}}: "v" is the record
// version, so a later build can read old records; a record with a newer
// "v" reads as ErrSchemaTooNew. Log entries are opaque
// bytes (table.EncodeEntry, the game's codec). Big-endian sequence keys
// make bbolt's byte order the log order. IDs and fingerprints must be
// non-empty, at most 256 bytes and free of NUL (the index separator).
//
// # Guarantees
//
//   - Append is durable when it returns nil, and idempotent: repeating
//     (room, seq, same bytes) succeeds without change, so it is safe under
//     the group commit's reruns and caller retries. A gap is ErrSeq, a different
//     payload for a stored number ErrFenced. The room must exist (PutRoom
//     first).
//   - Each of PutRoom, UpdatePlayer, CreateCampaign, UpdateCampaign and
//     RecordCampaignResult is one transaction: indexes, profile stats,
//     campaign memberships and veteran marks change with the record or not
//     at all. A game counts in stats once, when its room first becomes
//     finished; RecordCampaignResult refuses a room twice (ErrExists).
//   - Every byte slice returned is a copy (bbolt's memory dies with its
//     transaction).
//   - Backup is a consistent hot copy (a read transaction's WriteTo);
//     BackupFile writes it atomically (temporary file, fsync, rename, 0600)
//     and refuses the data directory, the live file under any name and
//     non-regular files (CheckBackupTarget).
//
// # Caveats
//
//   - One writer per room: two goroutines appending to one room race for
//     the next number and one gets ErrFenced. Rooms are independent.
//   - The functions given to UpdatePlayer and UpdateCampaign run inside the
//     write transaction, which blocks every other writer: no I/O in them.
//     Other stores may run them more than once (Store's doc).
//   - Open checks the whole file before it writes: meta pages, size, the
//     structure of every page in the tree (pages.go: a damaged page is a
//     DamagedPage naming it, never a runtime error) and every key and
//     value. Every ErrCorrupt it returns ends with what to do: restore a
//     backup made with `bivouac backup`; the file is left untouched.
//     Damage that happens while the server runs costs the reads that meet
//     it an ErrCorrupt; Bolt.Check walks every page for operators.
//   - Rooms() with no status decodes every room ever stored; pass statuses.
//   - Long read transactions (a Backup to a slow writer) delay the file's
//     growth for writers; bbolt remaps only when no reader holds the map.
//   - Deleting a room leaves campaign history naming it.
package persistence
