package sshserver

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"

	gossh "golang.org/x/crypto/ssh"
)

// rawSession dials the server with a fresh key and opens one session, for
// requests sshtest does not send.
func rawSession(t *testing.T, addr string) (*gossh.Client, *gossh.Session) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, wait)
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{
		User:            "raw",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(sshtest.NewKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         wait,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := gossh.NewClient(cc, chans, reqs)
	t.Cleanup(func() { client.Close() })
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	return client, sess
}

// Only the variables Bivouac reads are kept, short and few; the rest are
// declined and never stored (issue 12 item 3).
func TestEnvRequestsAreFiltered(t *testing.T) {
	srv := start(t, Config{})
	_, sess := rawSession(t, srv.addr)
	for _, kv := range [][2]string{{"LANG", "pl_PL.UTF-8"}, {"NO_COLOR", "1"}, {"LC_ALL", "C"}, {"BIVOUAC_UI", "plain"}} {
		if err := sess.Setenv(kv[0], kv[1]); err != nil {
			t.Errorf("%s refused: %v", kv[0], err)
		}
	}
	big := strings.Repeat("x", 30<<10)
	for _, kv := range [][2]string{{"EVIL", "1"}, {"LD_PRELOAD", "/tmp/x.so"}, {"LANG", big}, {"LC_" + strings.Repeat("A", 100), "1"}} {
		if err := sess.Setenv(kv[0], kv[1]); err == nil {
			t.Errorf("%s (%d bytes) accepted", kv[0][:min(len(kv[0]), 12)], len(kv[1]))
		}
	}
	refused := 0
	for i := range 40 {
		if sess.Setenv("LC_X"+strings.Repeat("Y", i), "1") != nil {
			refused++
		}
	}
	if refused != 40-(maxEnvs-4) {
		t.Errorf("%d of 40 more LC_ variables refused, want all past %d in all", refused, maxEnvs)
	}
	out, err := sess.Output("env")
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if !strings.Contains(got, "LANG=pl_PL.UTF-8") || strings.Contains(got, "EVIL") || strings.Contains(got, "xxxx") {
		t.Errorf("the session's environment: %.300s", got)
	}
	if !strings.HasPrefix(got, "16 vars:") {
		t.Errorf("want 16 variables kept: %.300s", got)
	}
}

// Agent forwarding is declined, not accepted and ignored (issue 12 item 9).
func TestAgentForwardingIsDeclined(t *testing.T) {
	srv := start(t, Config{})
	_, sess := rawSession(t, srv.addr)
	ok, err := sess.SendRequest("auth-agent-req@openssh.com", true, nil)
	if err != nil || ok {
		t.Fatalf("auth-agent-req answered %v, %v; want a plain no", ok, err)
	}
	done := make(chan error, 1)
	go func() { _, err := sess.Output("rooms"); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the session does not go on after the refusal: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("the session hangs after the refusal")
	}
}
