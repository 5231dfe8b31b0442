package hostkeys

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func TestEnsureCreatesThenReuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path, fp, err := Ensure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, FileName) {
		t.Errorf("path = %q", path)
	}
	if !strings.HasPrefix(fp, "SHA256:") {
		t.Errorf("fingerprint = %q", fp)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("key mode = %#o, want 0600", got)
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := di.Mode().Perm(); got != 0o700 {
		t.Errorf("dir mode = %#o, want 0700", got)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "-----BEGIN OPENSSH PRIVATE KEY-----") {
		t.Errorf("not OpenSSH PEM: %.40q", data)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	if signer.PublicKey().Type() != gossh.KeyAlgoED25519 {
		t.Errorf("key type %s", signer.PublicKey().Type())
	}
	if got := gossh.FingerprintSHA256(signer.PublicKey()); got != fp {
		t.Errorf("fingerprint %s != key's %s", fp, got)
	}

	path2, fp2, err := Ensure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if path2 != path || fp2 != fp {
		t.Errorf("second Ensure gave %s %s, want the same key %s %s", path2, fp2, path, fp)
	}
	data2, _ := os.ReadFile(path)
	if string(data2) != string(data) {
		t.Error("key file was rewritten")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("data dir holds %d entries, want only the key (temp file left behind?)", len(entries))
	}
}

func TestEnsureRefusesWideMode(t *testing.T) {
	dir := t.TempDir()
	path, _, err := Ensure(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = Ensure(dir)
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("err = %v, want a refusal that says chmod 600", err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Error("mode was changed behind the operator's back")
	}
}

func TestEnsureNeverOverwritesGarbledKey(t *testing.T) {
	for name, content := range map[string]string{
		"garbage":   "not a key at all\n",
		"empty":     "",
		"truncated": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := Ensure(dir)
			if err == nil || !strings.Contains(err.Error(), "not a valid OpenSSH private key") {
				t.Fatalf("err = %v", err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != content {
				t.Error("garbled key was overwritten")
			}
		})
	}
}

func TestEnsureRefusesDirectoryAsKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Ensure(dir); err == nil {
		t.Fatal("want an error for a directory in place of the key")
	}
}

func TestEnsureConcurrentStartsAgree(t *testing.T) {
	dir := t.TempDir()
	const n = 8
	fps := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, fps[i], errs[i] = Ensure(dir)
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if fps[i] != fps[0] {
			t.Fatalf("starts disagree on the key: %s vs %s", fps[i], fps[0])
		}
	}
}

func TestEnsureEmptyDir(t *testing.T) {
	if _, _, err := Ensure(""); err == nil {
		t.Fatal("want an error")
	}
}
