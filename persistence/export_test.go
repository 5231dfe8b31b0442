package persistence

import bolt "go.etcd.io/bbolt"

// AppendUpdateEach is Append without batching: one db.Update (one commit,
// one fsync) per action, for BenchmarkAppendUpdateEach.
func (s *Bolt) AppendUpdateEach(room string, seq uint64, e []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error { return appendTx(tx, room, seq, e) })
}

// PutBlob writes value under key in a bucket of tests' own, for tests
// that need the file to grow.
func (s *Bolt) PutBlob(key string, value []byte) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("test-blobs"))
		if err != nil {
			return err
		}
		return b.Put([]byte(key), value)
	})
}
