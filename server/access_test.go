package server

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bivouac/access"
	"bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// authorizedLine is a signer's public key as a line of an authorized_keys file.
func authorizedLine(s gossh.Signer) string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
}

// writeKeys writes an authorized_keys file of the signers' keys.
func writeKeys(t *testing.T, path string, signers ...gossh.Signer) {
	t.Helper()
	var b strings.Builder
	for _, s := range signers {
		b.WriteString(authorizedLine(s) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The server holds the admins named by --admins, by the fingerprint a
// session's identity carries; without the file it says how to name them.
func TestServerKnowsItsAdmins(t *testing.T) {
	admin, player := sshtest.NewKey(t), sshtest.NewKey(t)
	file := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, file, admin)
	srv, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Access: access.Config{AdminsFile: file}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !srv.Access().IsAdmin(sshtest.Fingerprint(admin)) || srv.Access().IsAdmin(sshtest.Fingerprint(player)) {
		t.Fatal("IsAdmin does not follow the admins file")
	}

	var logs sshtest.Buffer
	bare, err := New(Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if !strings.Contains(logs.String(), "--admins FILE") {
		t.Fatalf("no hint at start about naming admins:\n%s", logs.String())
	}
}
