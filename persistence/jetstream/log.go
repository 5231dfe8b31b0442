package jetstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// seqHeader carries an entry's number in the room's log (the stream's own
// sequence numbers count every room's entries together).
const seqHeader = "Bivouac-Seq"

// tip is the last entry of a room's log: its number in the room and its
// sequence in the stream, which the next append must name.
type tip struct {
	n, streamSeq uint64
}

// tipCache remembers each room's tip after this store's own appends, so
// an actor appending action after action pays one round trip each.
type tipCache struct {
	mu sync.Mutex
	m  map[string]tip
}

func (c *tipCache) get(room string) (tip, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[room]
	return t, ok
}

func (c *tipCache) set(room string, t tip) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]tip{}
	}
	c.m[room] = t
}

func (c *tipCache) forget(room string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, room)
}

func (c *tipCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

func (s *Store) subject(room string) string { return s.name + ".log." + key(room) }

// Append stores entry as action seq of a room's log (see persistence.Bolt
// for the rules). It is fenced: the entry is published with JetStream's
// expected-last-subject-sequence set to the stream sequence of entry
// seq-1, so the stream leader refuses it if anything else was appended to
// the room since; of two writers racing for one number exactly one wins,
// and the other gets persistence.ErrFenced.
func (s *Store) Append(roomID string, seq uint64, entry []byte) error {
	if err := persistence.CheckKey("room id", roomID); err != nil {
		return err
	}
	if seq == 0 {
		return fmt.Errorf("room %s: %w: sequence numbers start at 1", roomID, persistence.ErrSeq)
	}
	if len(entry) == 0 {
		return fmt.Errorf("%w: room %s action %d: empty entry", persistence.ErrInvalid, roomID, seq)
	}
	ctx, cancel := s.ctx()
	defer cancel()
	last, known := s.tips.get(roomID)
	for attempt := 1; ; attempt++ {
		if !known || last.n != seq-1 {
			var err error
			if last, err = s.readTip(ctx, roomID); err != nil {
				return err
			}
			if seq <= last.n { // someone stored this number: perhaps this very entry, on a try whose ack was lost
				return s.sameAsStored(ctx, roomID, seq, entry)
			}
			if seq > last.n+1 {
				return fmt.Errorf("room %s action %d: %w: last stored is %d", roomID, seq, persistence.ErrSeq, last.n)
			}
		}
		msg := nats.NewMsg(s.subject(roomID))
		msg.Header.Set(seqHeader, strconv.FormatUint(seq, 10))
		msg.Data = entry
		ack, err := s.js.PublishMsg(ctx, msg, js.WithExpectLastSequencePerSubject(last.streamSeq))
		if err == nil {
			s.tips.set(roomID, tip{n: seq, streamSeq: ack.Sequence})
			return nil
		}
		s.tips.forget(roomID)
		if !wrongLastSequence(err) {
			return fmt.Errorf("room %s action %d: %w", roomID, seq, err)
		}
		// Refused: either another writer appended, or (on a replicated
		// stream) an earlier message on this subject was still being
		// applied, which the leader also refuses. Read the tip again to
		// tell which.
		if attempt == maxAttempts {
			return fmt.Errorf("room %s action %d: %w", roomID, seq, errContention)
		}
		known = false
		if attempt > 3 {
			time.Sleep(time.Millisecond)
		}
	}
}

// wrongLastSequence reports the stream leader's refusal of a fenced
// publish (code 10071, or 10164 on replicated streams).
func wrongLastSequence(err error) bool {
	var apiErr *js.APIError
	return errors.As(err, &apiErr) &&
		(apiErr.ErrorCode == js.JSErrCodeStreamWrongLastSequence || apiErr.ErrorCode == js.JSErrCodeStreamWrongLastSequenceConstant)
}

// sameAsStored answers an Append of a number already stored: nil for the
// same bytes (a retry), ErrFenced for others.
func (s *Store) sameAsStored(ctx context.Context, roomID string, seq uint64, entry []byte) error {
	stored, err := s.readLog(ctx, roomID, seq-1, seq)
	if err != nil {
		return err
	}
	if len(stored) == 1 && bytes.Equal(stored[0], entry) {
		return nil
	}
	return fmt.Errorf("room %s action %d: %w: already stored with different bytes", roomID, seq, persistence.ErrFenced)
}

// readTip reads a room's last entry from the stream's leader, after
// checking the room exists (ErrNotFound).
func (s *Store) readTip(ctx context.Context, roomID string) (tip, error) {
	if err := s.roomExists(ctx, roomID); err != nil {
		return tip{}, err
	}
	m, err := s.logs.GetLastMsgForSubject(ctx, s.subject(roomID))
	if errors.Is(err, js.ErrMsgNotFound) {
		return tip{}, nil
	}
	if err != nil {
		return tip{}, err
	}
	n, err := entryNumber(m.Header)
	if err != nil {
		return tip{}, fmt.Errorf("room %s: %w", roomID, err)
	}
	return tip{n: n, streamSeq: m.Sequence}, nil
}

func entryNumber(h nats.Header) (uint64, error) {
	n, err := strconv.ParseUint(h.Get(seqHeader), 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%w: a log entry without its number", persistence.ErrCorrupt)
	}
	return n, nil
}

func (s *Store) roomExists(ctx context.Context, roomID string) error {
	if _, err := s.rooms.Get(ctx, key(roomID)); errors.Is(err, js.ErrKeyNotFound) {
		return fmt.Errorf("room %q: %w", roomID, persistence.ErrNotFound)
	} else if err != nil {
		return err
	}
	return nil
}

// Log returns a room's whole action log in order.
func (s *Store) Log(roomID string) ([][]byte, error) { return s.LogSince(roomID, 0) }

// LogSince returns the actions after number after, in order.
func (s *Store) LogSince(roomID string, after uint64) ([][]byte, error) {
	if err := persistence.CheckKey("room id", roomID); err != nil {
		return nil, err
	}
	ctx, cancel := s.ctx()
	err := s.roomExists(ctx, roomID)
	cancel()
	if err != nil {
		return nil, err
	}
	// A walk, one round trip per entry (a long game's log has thousands):
	// bounded as a scan is, each request by roundTrip.
	ctx, cancel = s.scanCtx()
	defer cancel()
	return s.readLog(ctx, roomID, after, 0)
}

// readLog reads the entries numbered after+1 up to upTo (0: to the end
// as it was when the read began).
func (s *Store) readLog(ctx context.Context, roomID string, after, upTo uint64) ([][]byte, error) {
	// One request, bounded as each of the walk's is: ctx is the whole
	// walk's (ten times the store's timeout), and a request sent while
	// the stream elects a leader is never answered.
	try, cancel := context.WithTimeout(ctx, roundTrip)
	m, err := s.logs.GetLastMsgForSubject(try, s.subject(roomID))
	cancel()
	if errors.Is(err, js.ErrMsgNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	last, err := entryNumber(m.Header)
	if err != nil {
		return nil, err
	}
	if upTo == 0 || upTo > last {
		upTo = last
	}
	if after >= upTo {
		return nil, nil
	}
	// Walk the room's subject one message at a time from the stream's
	// leader ("next message on this subject from sequence x"): consistent
	// reads and no consumer left behind, at one round trip per entry.
	out := make([][]byte, 0, upTo-after)
	from := uint64(1)
	for want := uint64(1); want <= upTo; want++ {
		msg, err := msgFrom(ctx, s.logs, from, s.subject(roomID))
		if err != nil {
			return nil, err
		}
		n, err := entryNumber(msg.Header)
		if err != nil {
			return nil, err
		}
		if n != want {
			return nil, fmt.Errorf("%w: room %s log jumps from %d to %d", persistence.ErrCorrupt, roomID, want-1, n)
		}
		if n > after {
			out = append(out, msg.Data) // a fresh slice per message
		}
		from = msg.Sequence + 1
	}
	return out, nil
}

// LastSeq returns the number of the last action stored for a room.
func (s *Store) LastSeq(roomID string) (uint64, error) {
	if err := persistence.CheckKey("room id", roomID); err != nil {
		return 0, err
	}
	ctx, cancel := s.ctx()
	defer cancel()
	t, err := s.readTip(ctx, roomID)
	return t.n, err
}
