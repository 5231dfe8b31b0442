package persistence

import bolt "go.etcd.io/bbolt"

// AppendUpdateEach is Append without batching: one db.Update (one commit,
// one fsync) per action, for BenchmarkAppendUpdateEach.
func (s *Bolt) AppendUpdateEach(room string, seq uint64, e []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error { return appendTx(tx, room, seq, e) })
}
