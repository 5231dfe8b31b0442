package natsnode_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode"
	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
)

// syncBuffer is a log destination the server's goroutines may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestSingleNodeAuthenticatesAndKeepsItsSecret(t *testing.T) {
	var logs syncBuffer
	c := natstest.Start(t, 1, func(_ int, cfg *natsnode.Config) {
		cfg.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	n := c.Nodes[0]
	if n.ClusterSize() != 1 || n.ClusterAddr() != "" {
		t.Fatalf("a single node: size %d, cluster addr %q", n.ClusterSize(), n.ClusterAddr())
	}
	if host, _, _ := net.SplitHostPort(n.ClientAddr()); host != "127.0.0.1" {
		t.Fatalf("client address %s; want loopback", n.ClientAddr())
	}
	path := filepath.Join(c.Configs[0].DataDir, natsnode.CredentialsFile)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, %v; want mode 0600", fi, err)
	}
	creds, err := natsnode.LoadCredentials(c.Configs[0].DataDir)
	if err != nil {
		t.Fatal(err)
	}

	if nc, err := nats.Connect("nats://" + n.ClientAddr()); err == nil {
		nc.Close()
		t.Fatal("a client without credentials connected")
	}
	if nc, err := nats.Connect("nats://"+n.ClientAddr(), nats.UserInfo(creds.User, "wrong password")); err == nil {
		nc.Close()
		t.Fatal("a client with a wrong password connected")
	}
	nc, err := n.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	kvPutGet(t, nc, 1)

	if strings.Contains(logs.String(), creds.Password) {
		t.Fatal("the password is in the log")
	}
	if !strings.Contains(logs.String(), "JetStream") {
		t.Fatalf("the server's log did not reach ours: %q", logs.String())
	}
	if strings.Contains(logs.String(), "Plaintext passwords") {
		t.Fatal("the server holds the password in plain text")
	}
	if strings.Contains(creds.String(), creds.Password) {
		t.Fatal("Credentials.String shows the password")
	}
}

// kvPutGet proves JetStream works through nc: a bucket with the given
// replicas takes a value and gives it back.
func kvPutGet(t *testing.T, nc *nats.Conn, replicas int) {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "probe", Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	e, err := kv.Get(ctx, "k")
	if err != nil || string(e.Value()) != "v" {
		t.Fatalf("Get = %v, %v", e, err)
	}
}

func TestCredentialsReadableByOthersAreRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := natsnode.WriteCredentials(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := natsnode.WriteCredentials(dir); err == nil {
		t.Fatal("WriteCredentials replaced an existing file")
	}
	if err := os.Chmod(filepath.Join(dir, natsnode.CredentialsFile), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := natsnode.Start(natsnode.Config{DataDir: dir, Name: "n1", ClientAddr: "127.0.0.1:0"})
	if !errors.Is(err, natsnode.ErrCredentials) {
		t.Fatalf("Start with a 0644 credentials file: %v; want ErrCredentials", err)
	}
}

func TestThreeNodesReplicate(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node cluster takes a few seconds")
	}
	c := natstest.Start(t, 3, nil)
	for _, n := range c.Nodes {
		if n.ClusterSize() != 3 {
			t.Fatalf("%s: cluster size %d; want 3", n.Name(), n.ClusterSize())
		}
	}
	first, err := c.Nodes[0].Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	kvPutGet(t, first, 3)

	// The value written through node 1 is read through node 3.
	third, err := c.Nodes[2].Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	js, _ := jetstream.New(third)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	kv, err := js.KeyValue(ctx, "probe")
	if err != nil {
		t.Fatal(err)
	}
	if e, err := kv.Get(ctx, "k"); err != nil || string(e.Value()) != "v" {
		t.Fatalf("node 3 reads %v, %v", e, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info := st.(*jetstream.KeyValueBucketStatus).StreamInfo(); info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Fatalf("bucket cluster info %+v; want a leader and 2 replicas", info.Cluster)
	}

	// Node 3 sees the bucket's stream caught up with its 2 followers, and
	// never with 3 it does not have.
	if err := natsnode.CaughtUp(ctx, js, 2); err != nil {
		t.Fatal(err)
	}
	// Long enough for one listing to answer on a loaded machine (else the
	// error is the deadline's, not the replicas'), still bounded.
	short, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := natsnode.CaughtUp(short, js, 3); err == nil || !strings.Contains(err.Error(), "KV_probe: 2 of 3 replicas") {
		t.Fatalf("caught up with a follower short: %v", err)
	}
}

// The free addresses are distinct loopback ports that can be listened on,
// below the ephemeral range, so no outgoing connection can take one before
// its node listens.
func TestFreeLoopbackAddrs(t *testing.T) {
	addrs, err := natsnode.FreeLoopbackAddrs(4)
	if err != nil || len(addrs) != 4 {
		t.Fatalf("%v, %v", addrs, err)
	}
	ephemeral := 32768
	if raw, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		ephemeral, _ = strconv.Atoi(strings.Fields(string(raw))[0])
	}
	for i, a := range addrs {
		if slices.Contains(addrs[:i], a) || !strings.HasPrefix(a, "127.0.0.1:") {
			t.Fatalf("addresses %v", addrs)
		}
		if port, _ := strconv.Atoi(strings.TrimPrefix(a, "127.0.0.1:")); port >= ephemeral || port < 1024 {
			t.Errorf("%s: not below the ephemeral range (from %d)", a, ephemeral)
		}
		l, err := net.Listen("tcp", a)
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
}

func TestTLSForClientsAndRoutes(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node cluster takes a few seconds")
	}
	files := writeCerts(t)
	c := natstest.Start(t, 3, func(_ int, cfg *natsnode.Config) { cfg.TLS = &files })
	n := c.Nodes[1]
	creds, _ := natsnode.LoadCredentials(c.Configs[1].DataDir)
	if nc, err := nats.Connect("nats://"+n.ClientAddr(), nats.UserInfo(creds.User, creds.Password)); err == nil {
		nc.Close()
		t.Fatal("a plain-text client connected to a TLS node")
	}
	nc, err := n.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if !nc.TLSRequired() {
		t.Fatal("the node's own client is not on TLS")
	}
	kvPutGet(t, nc, 3) // R3 works: the routes are up, over TLS
}

// writeCerts makes a CA and one certificate for 127.0.0.1, good for server
// and client use (routes dial each other with it).
func writeCerts(t *testing.T) natsnode.TLSFiles {
	t.Helper()
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "bivouac test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "node"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	f := natsnode.TLSFiles{Cert: filepath.Join(dir, "node.pem"), Key: filepath.Join(dir, "node-key.pem"), CA: filepath.Join(dir, "ca.pem")}
	for path, block := range map[string]*pem.Block{
		f.CA:   {Type: "CERTIFICATE", Bytes: caDER},
		f.Cert: {Type: "CERTIFICATE", Bytes: leafDER},
		f.Key:  {Type: "EC PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// The first start makes the credentials file (0600); later starts on the
// same data dir use it as it is.
func TestFirstStartCreatesCredentialsOnce(t *testing.T) {
	dir := t.TempDir()
	cfg := natsnode.Config{DataDir: dir, Name: "n1", ClientAddr: "127.0.0.1:0"}
	n, err := natsnode.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.Shutdown()
	path := filepath.Join(dir, natsnode.CredentialsFile)
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file mode %v; want 0600", fi.Mode().Perm())
	}
	n, err = natsnode.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Shutdown()
	if again, _ := os.ReadFile(path); !bytes.Equal(again, first) {
		t.Fatal("a second start replaced the credentials")
	}
	if err := n.Ready(natstest.ReadyWithin); err != nil {
		t.Fatal(err)
	}
}
