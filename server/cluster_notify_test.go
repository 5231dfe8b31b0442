package server

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/notify"
	"github.com/bivouac-ssh/bivouac/sshserver/sshtest"
)

// In a cluster the outbox asks every node whether a player is connected,
// not only its own (issue 40, item 7): bob, connected to node 2, gets no
// webhook from node 1's outbox (he hears of his move in his terminal);
// once he is gone from every node, the message goes.
func TestClusterOutboxSendsNoWebhookToAPlayerConnectedElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster")
	}
	t.Parallel()
	c := startTestCluster(t, 3)
	n1 := c.nodes[0].srv
	h := newHook(t)
	hosts, err := notify.ParseHosts("http://" + h.host)
	if err != nil {
		t.Fatal(err)
	}
	bobKey := sshtest.NewKey(t)
	bobID := sshtest.Fingerprint(bobKey)
	bob := sshtest.Dial(t, c.nodes[1].addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24))
	bob.ExpectScreen(t, `bob`, 5*time.Second)
	if err := n1.updateNotify(bobID, func(s *notify.Settings) { s.URL, s.Format = "http://"+h.host+"/bob", notify.FormatNtfy }); err != nil {
		t.Fatal(err)
	}
	for i, n := range c.nodes {
		clocktest.CheckFor(t, 5*time.Second, 20*time.Millisecond, func() error {
			if !n.srv.connected(bobID) {
				return fmt.Errorf("node %d does not see bob connected on node 2", i+1)
			}
			return nil
		})
	}
	if n1.notices.Here(bobID) {
		t.Fatalf("bob has a session on node 1")
	}

	clk := clocktest.NewFast(150) // PresentAgain (5 min) in 2 s
	var asked atomic.Int32
	out := notify.New(notify.Config{Policy: notify.Policy{On: true, Hosts: hosts}, Clock: clk,
		Settings: n1.notifySettings, Ledger: notifyLedger{n1.store}, Compose: n1.composeNotification,
		Present: func(id string) bool { asked.Add(1); return n1.connected(id) }})
	t.Cleanup(out.Close)
	out.Post(notify.Turn{Player: bobID, Room: "K7QX@1", Table: "K7QX", Decision: 1, Game: "grizzled"})
	// Connected on node 2: the outbox looks, and again PresentAgain later,
	// and sends nothing.
	clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		if asked.Load() < 2 {
			return fmt.Errorf("the outbox asked %d times whether bob is connected", asked.Load())
		}
		return nil
	})
	if n := len(h.to("/bob")); n != 0 {
		t.Fatalf("bob, connected on node 2, was sent %d webhooks by node 1", n)
	}
	bob.Close()
	clocktest.CheckFor(t, 5*time.Second, 20*time.Millisecond, func() error {
		if n1.connected(bobID) {
			return fmt.Errorf("node 1 still sees bob connected")
		}
		return nil
	})
	clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		if len(h.to("/bob")) != 1 {
			return fmt.Errorf("%d webhooks to bob, gone from every node", len(h.to("/bob")))
		}
		return nil
	})
}
