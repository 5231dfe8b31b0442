package persistence

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// recordVersion is the version written in every JSON value's envelope. It
// lets a future build read old values lazily; today it is always 1.
const recordVersion = 1

// envelope is how every JSON value is stored:
// {"v":1,"c":"8 hex digits","d":{...}}, c being the CRC-32C (Castagnoli)
// of v and d's JSON (recordSum). A flipped byte anywhere in it no longer
// matches, even one that leaves valid JSON (a digit of a score, a letter
// of a name). Values written before the checksum have no c and are read
// as they are; each gets one when it is next written.
type envelope[T any] struct {
	V int    `json:"v"`
	C string `json:"c,omitempty"`
	D T      `json:"d"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// recordSum is the checksum of a record of version v whose data is d.
func recordSum(v int, d []byte) string {
	sum := crc32.Update(crc32.Checksum(strconv.AppendInt(nil, int64(v), 10), castagnoli), castagnoli, d)
	return fmt.Sprintf("%08x", sum)
}

// Encode is how every store writes a record: JSON in its versioned,
// checksummed envelope.
func Encode[T any](v T) ([]byte, error) {
	d, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(envelope[json.RawMessage]{V: recordVersion, C: recordSum(recordVersion, d), D: d})
}

// Decode parses a stored record: ErrCorrupt if it does not parse or its
// checksum does not match, ErrSchemaTooNew if a newer build wrote it. raw
// may point into a bbolt transaction's memory; json.Unmarshal copies what
// it keeps. DecodeAt says where a damaged record is.
func Decode[T any](raw []byte) (T, error) {
	var out T
	d, err := checkRecord(raw)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(d, &out); err != nil {
		return out, fmt.Errorf("%w: undecodable record: %v", ErrCorrupt, err)
	}
	return out, nil
}

// checkRecord checks a stored record's envelope and checksum and returns
// its data's JSON.
func checkRecord(raw []byte) (json.RawMessage, error) {
	var e envelope[json.RawMessage]
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("%w: undecodable record: %v", ErrCorrupt, err)
	}
	if e.C != "" && e.C != recordSum(e.V, e.D) {
		return nil, fmt.Errorf("%w: the record's checksum does not match its contents", ErrCorrupt)
	}
	if e.V > recordVersion {
		return nil, fmt.Errorf("%w: record version %d", ErrSchemaTooNew, e.V)
	}
	return e.D, nil
}

// damagedRecordAdvice ends the error of a damaged record met while the
// server runs: what the operator does.
const damagedRecordAdvice = "restore a backup made with `bivouac backup`: stop the server, move bivouac.db aside and put the backup in its place"

// DecodeAt is Decode of the record under key in bucket: a damaged one is
// named, with what to do.
func DecodeAt[T any](bucket, key []byte, raw []byte) (T, error) {
	v, err := Decode[T](raw)
	if errors.Is(err, ErrCorrupt) {
		err = fmt.Errorf("%w (bucket %s, key %q); %s", err, bucket, key, damagedRecordAdvice)
	}
	return v, err
}

// putJSON stores v, JSON in its envelope, under key.
func putJSON[T any](b *bolt.Bucket, key string, v T) error {
	val, err := Encode(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), val)
}

func u64be(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}

// maxKey bounds IDs and fingerprints (bbolt allows 32 KiB keys; ours are short).
const maxKey = 256

// CheckKey refuses an ID or fingerprint no store accepts (ErrInvalid):
// empty, longer than 256 bytes, or holding a NUL (bbolt's index
// separator).
func CheckKey(what, k string) error {
	if k == "" || len(k) > maxKey || strings.IndexByte(k, 0) >= 0 {
		return fmt.Errorf("%w: bad %s %q", ErrInvalid, what, k)
	}
	return nil
}

// joinKey builds an index key: parts separated by NUL.
func joinKey(parts ...[]byte) []byte {
	return bytes.Join(parts, []byte{0})
}
