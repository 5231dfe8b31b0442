// Package hostkeys keeps the server's SSH host key in the data directory.
//
// Ensure creates an ed25519 key on first start and reuses it afterwards, so
// players' known_hosts entries stay valid across restarts.
//
// # Policy
//
//   - The key file is written in OpenSSH PEM form (ssh-keygen can read it),
//     with mode 0600; a missing data directory is created with mode 0700.
//     An existing directory is left as it is.
//   - A key file readable or writable by anyone but its owner (mode wider
//     than 0600) is refused, as OpenSSH refuses such private keys: someone
//     else may already have read it. The error says how to fix it (chmod 600,
//     or move the file away to get a new key and have players accept the
//     new fingerprint).
//   - A key file that does not parse is a clear error and is never
//     overwritten: a host key is an identity and only a person may discard it.
//   - Creation is atomic: the key is written to a temporary file that is then
//     hard-linked into place, so a crash never leaves half a key behind and two
//     processes starting at once agree on one key.
package hostkeys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// FileName is the host key's file name inside the data directory.
const FileName = "ssh_host_ed25519_key"

// Ensure returns the path of the host key in dir, creating dir (0700) and an
// ed25519 key (0600) if there is none, and the key's SHA256 fingerprint as
// ssh-keygen -l prints it ("SHA256:…"). See the package doc for the policy on
// permissions and unreadable keys.
func Ensure(dir string) (keyPath string, fingerprint string, err error) {
	if dir == "" {
		return "", "", errors.New("hostkeys: empty data directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", fmt.Errorf("hostkeys: create data directory: %w", err)
	}
	keyPath = filepath.Join(dir, FileName)

	_, err = os.Stat(keyPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := create(dir, keyPath); err != nil {
			return "", "", err
		}
	case err != nil:
		return "", "", fmt.Errorf("hostkeys: %w", err)
	}
	fp, err := load(keyPath)
	if err != nil {
		return "", "", err
	}
	return keyPath, fp, nil
}

// Fingerprint returns the SHA256 fingerprint of the key at path after the
// same checks Ensure makes, without creating anything.
func Fingerprint(path string) (string, error) { return load(path) }

func load(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("hostkeys: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("hostkeys: %s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("hostkeys: host key %s has mode %#o, so others may read it; "+
			"make it private with `chmod 600 %s` (or move it away to create a new key, "+
			"which players will then have to accept)", path, perm, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("hostkeys: %w", err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		var pe *gossh.PassphraseMissingError
		if errors.As(err, &pe) {
			return "", fmt.Errorf("hostkeys: host key %s is protected by a passphrase; "+
				"the server needs an unencrypted key", path)
		}
		return "", fmt.Errorf("hostkeys: host key %s is not a valid OpenSSH private key (%v); "+
			"it was left untouched: restore it, or move it away to create a new one", path, err)
	}
	return gossh.FingerprintSHA256(signer.PublicKey()), nil
}

// create writes a new key to a temporary file and links it into place. If
// another process created the key meanwhile, its key wins and ours is dropped.
func create(dir, keyPath string) error {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("hostkeys: generate key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "bivouac host key")
	if err != nil {
		return fmt.Errorf("hostkeys: encode key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+FileName+".tmp-*") // mode 0600
	if err != nil {
		return fmt.Errorf("hostkeys: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) //nolint:errcheck // the link, if any, keeps the key

	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close() //nolint:errcheck
		return fmt.Errorf("hostkeys: %w", err)
	}
	if _, err := tmp.Write(pem.EncodeToMemory(block)); err != nil {
		tmp.Close() //nolint:errcheck
		return fmt.Errorf("hostkeys: write key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close() //nolint:errcheck
		return fmt.Errorf("hostkeys: write key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("hostkeys: write key: %w", err)
	}
	if err := os.Link(tmpName, keyPath); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("hostkeys: install key: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // make the new name durable
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
