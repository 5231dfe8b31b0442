package natsnode

import (
	"errors"
	"fmt"
)

// Healthy is nil when this node's JetStream serves: the cluster's meta
// group has a leader (a majority of the nodes answer) and every stream and
// consumer placed here is current; else it says why not. It asks the
// server in the process (nats-server's own /healthz check), no request
// crosses the network: cheap enough for a probe every second.
func (n *Node) Healthy() error {
	st := n.srv.Healthz(nil)
	if st == nil || st.Status == "ok" {
		return nil
	}
	if st.Error != "" {
		return errors.New(st.Error)
	}
	return fmt.Errorf("jetstream %s", st.Status)
}
