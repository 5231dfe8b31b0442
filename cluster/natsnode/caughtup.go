package natsnode

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// CaughtUp waits until every stream js sees has a leader and at least
// followers replicas besides it, all current and online: a node that just
// came back must catch up before losing another one leaves a majority.
// Once ctx ends it says which stream was behind, and why.
func CaughtUp(ctx context.Context, js jetstream.JetStream, followers int) error {
	var why error
	for {
		behind := streamBehind(ctx, js, followers)
		if behind == nil {
			return nil
		}
		// A listing cut short by ctx's end says only that: the reason
		// found before it is the one to give.
		if why == nil || ctx.Err() == nil {
			why = behind
		}
		select {
		case <-ctx.Done():
			return errors.Join(errors.New("natsnode: streams not caught up"), why)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// streamBehind is why one of js's streams is not caught up, nil if none.
func streamBehind(ctx context.Context, js jetstream.JetStream, followers int) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second) // one slow answer does not use up the wait
	defer cancel()
	var behind error
	streams := js.ListStreams(ctx)
	for info := range streams.Info() {
		name, cl := info.Config.Name, info.Cluster
		if cl == nil || cl.Leader == "" {
			behind = fmt.Errorf("%s: no leader", name)
			continue
		}
		if len(cl.Replicas) < followers {
			behind = fmt.Errorf("%s: %d of %d replicas", name, len(cl.Replicas), followers)
		}
		for _, p := range cl.Replicas {
			if !p.Current || p.Offline {
				behind = fmt.Errorf("%s: %s behind", name, p.Name)
			}
		}
	}
	if behind == nil {
		return streams.Err()
	}
	return behind
}
