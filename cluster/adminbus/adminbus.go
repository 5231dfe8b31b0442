// Package adminbus carries an admin's command to every node of a cluster
// over NATS, so that `admin who`, `kick`, `say` and `close` act on the
// whole cluster and not only on the node the admin is connected to.
//
// # Protocol
//
// Each node answers requests on bivouac.admin.<node ID> (Serve): a JSON
// Request naming one operation (who, kick, say, close), answered with a
// JSON Reply saying what that node did with its own sessions and tables.
// The admin's node asks every other node at once (Ask), each request
// bounded by a timeout, and says which nodes did not answer: a dead node,
// or one too busy to answer in time, is named, never silently left out.
// The subjects are apart from the tables' (bivouac.room.*,
// bivouac.session.*: cluster/remote).
//
// # Who may ask
//
// Only a client holding the cluster's NATS credential can connect at all
// (cluster/natsnode: every client and route authenticates with it), so
// only the cluster's own nodes publish here. A node trusts the admin
// check the asking node made, as it trusts a ban another node stored: the
// credential is the boundary, and the same credential already reads every
// table's log. Requests carry what a node needs and no more (an identity,
// a line of text, a table code); the receiving node cleans the text again
// before a player sees it. Table codes travel here and must never be
// logged: this package logs nothing.
package adminbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Operations, a Request's Op.
const (
	OpWho   = "who"   // the node's player sessions
	OpKick  = "kick"  // end Player's sessions, with Text as the reason
	OpSay   = "say"   // Text as a notice to every session
	OpClose = "close" // close table Code if this node runs it
	// OpRevoke ends Player's sessions: their key is no longer let in.
	OpRevoke = "revoke"
)

// Request is what the admin's node asks.
type Request struct {
	Op     string `json:"op"`
	Player string `json:"player,omitempty"` // kick: the player's identity
	Text   string `json:"text,omitempty"`   // kick: the reason; say: the notice
	Code   string `json:"code,omitempty"`   // close: the table
}

// Session is one player session as `admin who` lists it.
type Session struct {
	Name   string    `json:"name"`
	ID     string    `json:"id"`
	Addr   string    `json:"addr,omitempty"`
	Since  time.Time `json:"since"`
	Tables []string  `json:"tables,omitempty"` // the codes of the tables it sits at
}

// Reply is one node's answer.
type Reply struct {
	Sessions []Session `json:"sessions,omitempty"` // who
	// Seated is, for who, the players connected at the tables this node
	// runs, by identity: the codes. A session on another node sits at
	// them through this one, and only this one knows.
	Seated map[string][]string `json:"seated,omitempty"`
	// Count is how many sessions a kick ended or a notice reached on the
	// node, and for close 1 if the node ran the table and closed it.
	Count int `json:"count,omitempty"`
}

// Handler answers one request on this node.
type Handler func(Request) Reply

// ErrNoAnswer: a node did not answer within the bound (it is down, cut
// off, or too busy), or nobody serves its subject.
var ErrNoAnswer = errors.New("the node did not answer")

// maxBusy bounds the requests a node answers at once: close waits for the
// table to save itself, and a burst must not pile goroutines up. One past
// it is not answered, which the asker reports as a node that did not.
const maxBusy = 8

// subject is where node answers: bivouac.admin.<node>.
func subject(node string) string { return "bivouac.admin." + node }

// validNode refuses a node ID that is not one subject token.
func validNode(node string) error {
	if node == "" || strings.ContainsAny(node, ".*> \t\r\n") {
		return fmt.Errorf("node ID %q cannot name a NATS subject", node)
	}
	return nil
}

// Serve answers the admin requests sent to node with h until the
// subscription returned is unsubscribed (or the connection closes).
func Serve(nc *nats.Conn, node string, h Handler) (*nats.Subscription, error) {
	if err := validNode(node); err != nil {
		return nil, err
	}
	busy := make(chan struct{}, maxBusy)
	return nc.Subscribe(subject(node), func(m *nats.Msg) {
		var req Request
		if m.Reply == "" || json.Unmarshal(m.Data, &req) != nil {
			return
		}
		select {
		case busy <- struct{}{}:
		default:
			return
		}
		go func() {
			defer func() { <-busy }()
			b, err := json.Marshal(h(req))
			if err == nil {
				_ = m.Respond(b) // an asker that gave up is not waiting
			}
		}()
	})
}

// Answer is one node's answer to Ask.
type Answer struct {
	Node  string
	Reply Reply
	Err   error // nil, ErrNoAnswer, or why the answer could not be read
}

// Ask sends req to each of nodes at once and returns their answers, in
// the order of nodes, within the bound: a node that has not answered
// within it, or by the time ctx ends, is ErrNoAnswer.
func Ask(ctx context.Context, nc *nats.Conn, nodes []string, req Request, within time.Duration) []Answer {
	body, err := json.Marshal(req)
	out := make([]Answer, len(nodes))
	var wg sync.WaitGroup
	for i, node := range nodes {
		out[i].Node = node
		if err != nil {
			out[i].Err = err
			continue
		}
		if out[i].Err = validNode(node); out[i].Err != nil {
			continue
		}
		wg.Go(func() { out[i].Reply, out[i].Err = ask(ctx, nc, node, body, within) })
	}
	wg.Wait()
	return out
}

func ask(ctx context.Context, nc *nats.Conn, node string, body []byte, within time.Duration) (Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	m, err := nc.RequestWithContext(ctx, subject(node), body)
	if err != nil {
		return Reply{}, fmt.Errorf("%w: %w", ErrNoAnswer, err)
	}
	var r Reply
	if err := json.Unmarshal(m.Data, &r); err != nil {
		return Reply{}, fmt.Errorf("node %s answered in a form this node cannot read: %w", node, err)
	}
	return r, nil
}
