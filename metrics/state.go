package metrics

import "github.com/prometheus/client_golang/prometheus"

// stateCollector reads what already exists (sessions, tables, the node's
// health) at each scrape, so nothing is counted as players play.
type stateCollector struct {
	src                                    Sources
	players, tables, ready, nodes, clReady *prometheus.Desc
	frames                                 *prometheus.Desc
}

func newStateCollector(src Sources) *stateCollector {
	return &stateCollector{src: src,
		players: prometheus.NewDesc("bivouac_players_connected", "Player sessions on this node, by kind (key, guest, plain).", []string{"kind"}, nil),
		tables:  prometheus.NewDesc("bivouac_tables", "Tables this node runs, by game and state.", []string{"game", "state"}, nil),
		ready:   prometheus.NewDesc("bivouac_ready", "1 when the node serves fully (its store open; in a cluster, JetStream has a majority and the node caught up), else 0.", nil, nil),
		nodes:   prometheus.NewDesc("bivouac_cluster_nodes", "Nodes the cluster was configured with (absent on a single node).", nil, nil),
		clReady: prometheus.NewDesc("bivouac_cluster_ready", "1 when JetStream has a majority and this node caught up, else 0 (absent on a single node).", nil, nil),
		frames:  prometheus.NewDesc("bivouac_frames_total", "Screen changes written to player sessions.", nil, nil),
	}
}

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.players, c.tables, c.ready, c.nodes, c.clReady, c.frames} {
		ch <- d
	}
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	if c.src.Players != nil {
		counts := c.src.Players()
		for _, kind := range []string{KindKey, KindGuest, KindPlain} {
			ch <- prometheus.MustNewConstMetric(c.players, prometheus.GaugeValue, float64(counts[kind]), kind)
		}
	}
	if c.src.Tables != nil {
		type key struct{ game, state string }
		counts := map[key]int{}
		c.src.Tables(func(game, state string) { counts[key{game, state}]++ })
		for k, n := range counts {
			ch <- prometheus.MustNewConstMetric(c.tables, prometheus.GaugeValue, float64(n), k.game, k.state)
		}
	}
	if c.src.Ready != nil {
		ch <- prometheus.MustNewConstMetric(c.ready, prometheus.GaugeValue, bool01(c.src.Ready() == nil))
	}
	if c.src.Frames != nil {
		ch <- prometheus.MustNewConstMetric(c.frames, prometheus.CounterValue, float64(c.src.Frames()))
	}
	if c.src.Cluster != nil {
		st := c.src.Cluster()
		ch <- prometheus.MustNewConstMetric(c.nodes, prometheus.GaugeValue, float64(st.Nodes))
		ch <- prometheus.MustNewConstMetric(c.clReady, prometheus.GaugeValue, bool01(st.Ready))
	}
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
