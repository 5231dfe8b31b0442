package natsnode

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CredentialsFile is the name, in a node's data dir, of the secret every
// node of a cluster shares.
const CredentialsFile = "nats-credentials.json"

// Credentials authenticate clients and routes. Never log them.
type Credentials struct {
	User     string `json:"user"`
	Password string `json:"password"`
}

// String keeps the password out of any log or error that prints c.
func (c Credentials) String() string {
	return "natsnode.Credentials{User: " + c.User + ", Password: <hidden>}"
}

// ErrCredentials: the credentials file is unreadable, malformed or readable
// by others than its owner.
var ErrCredentials = errors.New("nats credentials")

// WriteCredentials creates dir's credentials file with a fresh random
// password, mode 0600, and fails if one exists already.
func WriteCredentials(dir string) (Credentials, error) {
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return Credentials{}, err
	}
	c := Credentials{User: "bivouac", Password: base64.RawURLEncoding.EncodeToString(secret[:])}
	raw, err := json.Marshal(c)
	if err != nil {
		return Credentials{}, err
	}
	path := filepath.Join(dir, CredentialsFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return Credentials{}, err
	}
	if _, err := f.Write(append(raw, '\n')); err != nil {
		f.Close()
		os.Remove(path)
		return Credentials{}, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return Credentials{}, err
	}
	return c, f.Close()
}

// LoadCredentials reads dir's credentials file, creating it on first use.
// A file that group or others may read is refused: copy it with its mode.
func LoadCredentials(dir string) (Credentials, error) {
	path := filepath.Join(dir, CredentialsFile)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		c, err := WriteCredentials(dir)
		if errors.Is(err, fs.ErrExist) { // another process made it first
			return LoadCredentials(dir)
		}
		return c, err
	}
	if err != nil {
		return Credentials{}, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return Credentials{}, fmt.Errorf("%w: %s has mode %v; want 0600", ErrCredentials, path, fi.Mode().Perm())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Credentials{}, err
	}
	var c Credentials
	if err := json.Unmarshal(raw, &c); err != nil || c.User == "" || len(c.Password) < 16 {
		return Credentials{}, fmt.Errorf("%w: %s: want {\"user\": ..., \"password\": at least 16 characters}", ErrCredentials, path)
	}
	return c, nil
}
