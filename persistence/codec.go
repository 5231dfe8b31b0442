package persistence

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// recordVersion is the version written in every JSON value's envelope. It
// lets a future build read old values lazily; today it is always 1.
const recordVersion = 1

// envelope is how every JSON value is stored: {"v":1,"d":{...}}.
type envelope[T any] struct {
	V int `json:"v"`
	D T   `json:"d"`
}

// Encode is how every store writes a record: JSON in its versioned
// envelope.
func Encode[T any](v T) ([]byte, error) {
	return json.Marshal(envelope[T]{V: recordVersion, D: v})
}

// Decode parses a stored record: ErrCorrupt if it does not parse,
// ErrSchemaTooNew if a newer build wrote it. raw may point into a bbolt
// transaction's memory; json.Unmarshal copies what it keeps.
func Decode[T any](raw []byte) (T, error) {
	var e envelope[T]
	if err := json.Unmarshal(raw, &e); err != nil {
		return e.D, fmt.Errorf("%w: undecodable record: %v", ErrCorrupt, err)
	}
	if e.V > recordVersion {
		return e.D, fmt.Errorf("%w: record version %d", ErrSchemaTooNew, e.V)
	}
	return e.D, nil
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
