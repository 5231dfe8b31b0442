package server

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/cluster/playerbus"
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
			if here, err := n.srv.connected(bobID); !here || err != nil {
				return fmt.Errorf("node %d does not see bob connected on node 2 (%v)", i+1, err)
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
		Present: func(id string) (bool, error) { asked.Add(1); return n1.connected(id) }})
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
		if here, err := n1.connected(bobID); here || err != nil {
			return fmt.Errorf("node 1 still sees bob connected (%v)", err)
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

// A node slow to say whether its player is connected leaves it untold:
// node 1's outbox neither takes the silence for "away" (bob plays on node
// 2, whose answers are held back) nor waits on it for ever. Bob's message
// waits and asks again, and goes at the notify.UnsureTries-th untold
// answer; carol's, posted meanwhile (connected nowhere: told at once),
// goes at once.
func TestClusterOutboxAsksASlowNodeAgainBeforeSending(t *testing.T) {
	if testing.Short() {
		t.Skip("a two-node cluster")
	}
	t.Parallel()
	c := startTestCluster(t, 2)
	n1, n2 := c.nodes[0].srv, c.nodes[1].srv
	h := newHook(t)
	hosts, err := notify.ParseHosts("http://" + h.host)
	if err != nil {
		t.Fatal(err)
	}
	bobKey := sshtest.NewKey(t)
	bobID := sshtest.Fingerprint(bobKey)
	bob := sshtest.Dial(t, c.nodes[1].addr, sshtest.WithUser("bob"), sshtest.WithKey(bobKey), sshtest.WithPTY(80, 24))
	bob.ExpectScreen(t, `bob`, 5*time.Second)
	clocktest.CheckFor(t, 5*time.Second, 20*time.Millisecond, func() error {
		if here, err := n1.connected(bobID); !here || err != nil {
			return fmt.Errorf("node 1 does not see bob connected on node 2 (%v)", err)
		}
		return nil
	})
	// Node 2 is slow: it hears the question and answers after the asker
	// has given up (when the test ends).
	held := make(chan struct{})
	t.Cleanup(func() { close(held) })
	n2.cluster.Players().Handle(kindHere, func(to, _ string, _ []byte, reply func([]byte)) {
		if reply != nil && n2.notices.Here(to) {
			go func() { <-held; reply([]byte{1}) }()
		}
	})
	if here, err := n1.connected(bobID); here || !errors.Is(err, playerbus.ErrSilent) {
		t.Fatalf("node 1, node 2 silent: bob connected %v, %v; want untold (ErrSilent)", here, err)
	}

	carolID := "SHA256:carol-away"
	for id, path := range map[string]string{bobID: "/bob", carolID: "/carol"} {
		if err := n1.updateNotify(id, func(s *notify.Settings) { s.URL, s.Format = "http://"+h.host+path, notify.FormatNtfy }); err != nil {
			t.Fatal(err)
		}
	}
	clk := clocktest.NewFast(150) // notify.UnsureAgain (1 min) in 0.4 s
	var asked atomic.Int32
	out := notify.New(notify.Config{Policy: notify.Policy{On: true, Hosts: hosts}, Clock: clk,
		Settings: n1.notifySettings, Ledger: notifyLedger{n1.store}, Compose: n1.composeNotification,
		Present: func(id string) (bool, error) {
			if id == bobID {
				asked.Add(1)
			}
			return n1.connected(id)
		}})
	t.Cleanup(out.Close)
	out.Post(notify.Turn{Player: bobID, Room: "K7QX@1", Table: "K7QX", Decision: 1, Game: "grizzled"})
	clocktest.CheckFor(t, 5*time.Second, 5*time.Millisecond, func() error {
		if asked.Load() < 1 {
			return fmt.Errorf("the outbox has not asked about bob yet")
		}
		return nil
	})
	out.Post(notify.Turn{Player: carolID, Room: "Z9ZZ@1", Table: "Z9ZZ", Decision: 1, Game: "grizzled"})
	clocktest.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		if len(h.to("/carol")) != 1 {
			return fmt.Errorf("carol, connected nowhere, got %d webhooks", len(h.to("/carol")))
		}
		return nil
	})
	if n := len(h.to("/bob")); n != 0 {
		t.Fatalf("bob got %d webhooks on node 2's first silence (asked %d times)", n, asked.Load())
	}
	clocktest.CheckFor(t, 15*time.Second, 20*time.Millisecond, func() error {
		if len(h.to("/bob")) != 1 {
			return fmt.Errorf("%d webhooks to bob after %d untold answers", len(h.to("/bob")), asked.Load())
		}
		return nil
	})
	if n := asked.Load(); n != notify.UnsureTries {
		t.Errorf("bob's presence asked %d times before his webhook, want %d", n, notify.UnsureTries)
	}
}
