// Package natsnode runs the NATS server a Bivouac cluster node embeds: a
// nats-server with JetStream, started as a library inside the bivouac
// process, so a cluster needs no other service.
//
// A node keeps JetStream's files under <data dir>/nats. It listens for
// clients (this process's own connections) and, in a cluster, for routes
// from its peers, on the configured addresses only: loopback by default.
// Every connection, client or route, authenticates with the user and
// password in <data dir>/nats-credentials.json, which the first start
// creates (mode 0600, random password). Every node of one cluster needs
// the same file: create it on one node (or with WriteCredentials) and copy
// it to the others before their first start. The password is never
// logged. TLS (certificate, key and a CA to verify peers) is optional and
// covers both clients and routes.
//
//	n, err := natsnode.Start(natsnode.Config{DataDir: dir, Name: "n1", Cluster: "bivouac",
//		ClusterAddr: "127.0.0.1:6222", Peers: []string{"127.0.0.1:6223", "127.0.0.1:6224"}})
//	if err := n.Ready(10 * time.Second); err != nil { ... } // JetStream answers
//	nc, err := n.Connect()                                   // authenticated client
//	defer n.Shutdown()
package natsnode
