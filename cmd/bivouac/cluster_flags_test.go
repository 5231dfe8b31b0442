package main

import (
	"strings"
	"testing"
)

func TestClusterFlags(t *testing.T) {
	if c, err := clusterConfig("", "", "", "127.0.0.1:4222", "127.0.0.1:6222", "", "", ""); c != nil || err != nil {
		t.Fatalf("no --cluster: %+v, %v; want a single node", c, err)
	}
	c, err := clusterConfig("camp", "n2", " 10.0.0.1:6222, 10.0.0.3:6222,", "127.0.0.1:4222", "10.0.0.2:6222", "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "camp" || c.Node != "n2" || strings.Join(c.Peers, " ") != "10.0.0.1:6222 10.0.0.3:6222" ||
		c.ClusterAddr != "10.0.0.2:6222" || c.NATSAddr != "127.0.0.1:4222" || c.TLS != nil {
		t.Fatalf("got %+v", c)
	}
	if c, err = clusterConfig("camp", "n2", "a:1", "", "", "c.pem", "k.pem", "ca.pem"); err != nil || c.TLS == nil || c.TLS.CA != "ca.pem" {
		t.Fatalf("with TLS: %+v, %v", c, err)
	}
	for _, bad := range [][8]string{
		{"", "n1", "", "", "", "", "", ""},             // --node without --cluster
		{"camp", "", "a:1", "", "", "", "", ""},        // no node ID
		{"camp", "n1", "", "", "", "", "", ""},         // no peers
		{"camp", "n1", "a:1", "", "", "c.pem", "", ""}, // half of TLS
	} {
		if _, err := clusterConfig(bad[0], bad[1], bad[2], bad[3], bad[4], bad[5], bad[6], bad[7]); err == nil {
			t.Errorf("clusterConfig%q: no error", bad)
		}
	}
}
