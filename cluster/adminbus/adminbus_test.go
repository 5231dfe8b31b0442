package adminbus

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/bivouac-ssh/bivouac/cluster/natsnode/natstest"
)

func connect(t *testing.T, c *natstest.Cluster) *nats.Conn {
	t.Helper()
	nc, err := c.Nodes[0].Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// Every node that answers is heard, in the order asked, each saying what
// it did; a node nobody serves and a node that hangs are both reported as
// not answering, and the whole ask ends within its bound.
func TestAskHearsEveryNodeAndNamesTheSilentOnes(t *testing.T) {
	t.Parallel()
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c)
	since := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, node := range []string{"n2", "n3"} {
		sub, err := Serve(nc, node, func(r Request) Reply {
			if r.Op == OpWho {
				return Reply{Sessions: []Session{{Name: "bob@" + node, ID: "SHA256:" + node, Since: since, Tables: []string{"ABCD"}}}}
			}
			return Reply{Count: len(r.Text)}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sub.Unsubscribe() })
	}
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	sub, err := Serve(nc, "n5", func(Request) Reply { <-hang; return Reply{} })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	const within = 300 * time.Millisecond
	began := time.Now()
	got := Ask(context.Background(), nc, []string{"n2", "n4", "n3", "n5", "bad.node"}, Request{Op: OpWho}, within)
	if took := time.Since(began); took > within+time.Second {
		t.Errorf("Ask took %v with a bound of %v", took, within)
	}
	if len(got) != 5 {
		t.Fatalf("%d answers, want 5: %+v", len(got), got)
	}
	for i, want := range []string{"n2", "n4", "n3", "n5", "bad.node"} {
		if got[i].Node != want {
			t.Errorf("answer %d is from %q, want %q", i, got[i].Node, want)
		}
	}
	for _, i := range []int{0, 2} {
		a := got[i]
		if a.Err != nil || len(a.Reply.Sessions) != 1 || a.Reply.Sessions[0].Name != "bob@"+a.Node ||
			!a.Reply.Sessions[0].Since.Equal(since) || a.Reply.Sessions[0].Tables[0] != "ABCD" {
			t.Errorf("node %s answered %+v, %v", a.Node, a.Reply, a.Err)
		}
	}
	for _, i := range []int{1, 3} {
		if !errors.Is(got[i].Err, ErrNoAnswer) {
			t.Errorf("node %s: err %v, want ErrNoAnswer", got[i].Node, got[i].Err)
		}
	}
	if got[4].Err == nil {
		t.Error("a node ID that is no subject token was asked")
	}

	say := Ask(context.Background(), nc, []string{"n3"}, Request{Op: OpSay, Text: "hello"}, within)
	if say[0].Err != nil || say[0].Reply.Count != 5 {
		t.Errorf("say: %+v", say[0])
	}
}

// A node serves only its own subject, and refuses an ID that would
// subscribe to others' (a wildcard).
func TestServeRefusesAWildcardNode(t *testing.T) {
	t.Parallel()
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c)
	for _, node := range []string{"", "*", ">", "n.1"} {
		if _, err := Serve(nc, node, func(Request) Reply { return Reply{} }); err == nil {
			t.Errorf("Serve accepted node ID %q", node)
		}
	}
}

// A node answers at most maxBusy requests at once: one past them is not
// answered, and its asker hears so within the bound, not after the
// others finish.
func TestServeAnswersABoundedNumberAtOnce(t *testing.T) {
	t.Parallel()
	c := natstest.Start(t, 1, nil)
	nc := connect(t, c)
	release := make(chan struct{})
	started := make(chan struct{}, maxBusy+1)
	sub, err := Serve(nc, "n2", func(Request) Reply {
		started <- struct{}{}
		<-release
		return Reply{Count: 1}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	held := make(chan Answer, maxBusy)
	for range maxBusy {
		go func() { held <- Ask(context.Background(), nc, []string{"n2"}, Request{Op: OpClose}, 10*time.Second)[0] }()
	}
	for range maxBusy {
		<-started
	}
	extra := Ask(context.Background(), nc, []string{"n2"}, Request{Op: OpWho}, 300*time.Millisecond)[0]
	if !errors.Is(extra.Err, ErrNoAnswer) {
		t.Errorf("a request past %d at once: %+v, want ErrNoAnswer", maxBusy, extra)
	}
	if len(started) > 0 {
		t.Errorf("a request past %d at once was handled", maxBusy)
	}
	close(release)
	for range maxBusy {
		if a := <-held; a.Err != nil || a.Reply.Count != 1 {
			t.Errorf("a held request: %+v", a)
		}
	}
}
