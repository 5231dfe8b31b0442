package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The Grafana dashboard (docs/grafana-dashboard.json) says what each
// panel shows, and its queries show that: counters as rates over
// $__rate_interval (a fixed window such as [1m] is empty when the scrape
// interval is longer, and jagged when shorter), "a minute" in a title
// only over a rate times 60, "a second" only over a bare rate, and every
// bivouac_ metric a query names is one this package serves (issue 37
// item 8: titles did not match their queries).
func TestDashboardTitlesMatchTheirQueries(t *testing.T) {
	raw, err := os.ReadFile("../docs/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	served := scrape(t, busy())
	counter := regexp.MustCompile(`\b(bivouac_\w+_total|process_cpu_seconds_total)\b`)
	window := regexp.MustCompile(`\[([^\]]+)\]`)
	name := regexp.MustCompile(`\bbivouac_[a-z_]+\b`)
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			e := tg.Expr
			if strings.Contains(e, "increase(") {
				t.Errorf("%q: %s: a rate, not an increase over a window", p.Title, e)
			}
			for _, w := range window.FindAllStringSubmatch(e, -1) {
				if w[1] != "$__rate_interval" {
					t.Errorf("%q: %s: the window is [%s], not [$__rate_interval]", p.Title, e, w[1])
				}
			}
			if counter.MatchString(e) && !strings.Contains(e, "rate(") {
				t.Errorf("%q: %s: a counter drawn without a rate", p.Title, e)
			}
			perMinute := strings.HasSuffix(strings.TrimSpace(e), "* 60")
			if strings.Contains(p.Title, "a minute") != perMinute {
				t.Errorf("%q: %s: the title and the query disagree on per minute", p.Title, e)
			}
			if strings.Contains(p.Title, "a second") && (perMinute || !strings.Contains(e, "rate(")) {
				t.Errorf("%q: %s: not per second", p.Title, e)
			}
			for _, m := range name.FindAllString(e, -1) {
				m = strings.TrimSuffix(m, "_bucket")
				if !strings.Contains(served, "# TYPE "+m+" ") {
					t.Errorf("%q: %s: no metric %s is served", p.Title, e, m)
				}
			}
		}
	}
}
