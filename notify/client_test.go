package notify

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func send(t *testing.T, c *http.Client, raw string) Outcome {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	req, err := Request(context.Background(), FormatNtfy, u, Message{Kind: KindTest, Title: "t", Text: "x"})
	if err != nil {
		t.Fatal(err)
	}
	return do(c, req, time.Now)
}

// portOf is the port of an httptest server.
func portOf(t *testing.T, s *httptest.Server) string {
	t.Helper()
	_, port, err := net.SplitHostPort(strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// A listed host name that resolves to a loopback address is refused when
// the client connects, before a byte is sent; listing the address itself
// lets it through. This is the check a DNS answer that changes (a
// rebinding) meets.
func TestClientRefusesAtConnectTime(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	port := portOf(t, srv)

	byName := policy(t, "http://localhost:"+port)
	if _, err := byName.Check("http://localhost:" + port + "/hook"); err != nil {
		t.Fatalf("a listed name is taken when set: %v", err)
	}
	out := send(t, byName.Client(), "http://localhost:"+port+"/hook")
	if out.Reason != ReasonAddress || !strings.HasPrefix(out.Msg.Key, "notify.err.resolved.") {
		t.Errorf("localhost resolving to loopback: %+v", out)
	}
	if hits.Load() != 0 {
		t.Fatal("the request reached the loopback receiver")
	}

	both := policy(t, "http://localhost:"+port+",127.0.0.1,::1")
	if out := send(t, both.Client(), "http://localhost:"+port+"/hook"); !out.OK() || out.Status != 200 {
		t.Errorf("with the address listed too: %+v", out)
	}
	if hits.Load() != 1 {
		t.Errorf("the receiver got %d requests, want 1", hits.Load())
	}
}

// No environment proxy is used: a proxy would be where the connection
// goes, and its address is not the destination's.
func TestClientUsesNoProxy(t *testing.T) {
	p := policy(t, "ntfy.sh")
	tr := p.Client().Transport.(*http.Transport)
	if tr.Proxy != nil {
		t.Error("the transport reads a proxy")
	}
}

// A redirect is not followed, even to a listed host: it is a failure the
// player reads.
func TestClientFollowsNoRedirect(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Add(1) }))
	defer target.Close()
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/x", http.StatusTemporaryRedirect)
	}))
	defer redir.Close()
	p := policy(t, "http://127.0.0.1:"+portOf(t, redir)+",http://127.0.0.1:"+portOf(t, target))
	out := send(t, p.Client(), redir.URL+"/hook")
	if out.Reason != ReasonRedirect || out.Status != http.StatusTemporaryRedirect {
		t.Errorf("redirect: %+v", out)
	}
	if reached.Load() != 0 {
		t.Error("the redirect was followed")
	}
}

// An answer that never ends is read to MaxBody and left; one that never
// comes is given up at the timeout.
func TestClientBoundsAnswers(t *testing.T) {
	t.Parallel()
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 1024))
		for range 1 << 20 { // a gigabyte, if anyone read it
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	stall := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-stall }))
	defer silent.Close()
	defer close(stall)
	p := policy(t, "http://127.0.0.1:"+portOf(t, endless)+",http://127.0.0.1:"+portOf(t, silent))
	c := p.client(time.Second)
	if out := send(t, c, endless.URL+"/"); !out.OK() {
		t.Errorf("endless answer: %+v", out)
	}
	if out := send(t, c, silent.URL+"/"); out.Reason != ReasonTimeout {
		t.Errorf("silent answer: %+v", out)
	}
}

func TestClientStatuses(t *testing.T) {
	t.Parallel()
	codes := map[string]int{"/ok": 200, "/accepted": 202, "/bad": 400, "/gone": 410, "/slow": 429, "/down": 503}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			w.Header().Set("Retry-After", "120")
		}
		w.WriteHeader(codes[r.URL.Path])
	}))
	defer srv.Close()
	p := policy(t, "http://127.0.0.1:"+portOf(t, srv))
	c := p.Client()
	for path, want := range map[string]Reason{"/ok": "", "/accepted": "", "/bad": ReasonRejected, "/gone": ReasonRejected, "/slow": ReasonThrottled, "/down": ReasonServer} {
		out := send(t, c, srv.URL+path)
		if out.Reason != want || out.Status != codes[path] {
			t.Errorf("%s: %+v, want reason %q", path, out, want)
		}
		if want != "" && out.transient() != (want == ReasonThrottled || want == ReasonServer) {
			t.Errorf("%s: transient %v", path, out.transient())
		}
		if path == "/slow" && out.retryAfter != 2*time.Minute {
			t.Errorf("Retry-After read as %v", out.retryAfter)
		}
	}
	// Nobody listening.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	if out := send(t, policy(t, "http://127.0.0.1:"+port).Client(), "http://"+addr+"/"); out.Reason != ReasonConnect {
		t.Errorf("nobody listening: %+v", out)
	}
}

// The client's errors classify: a refusal keeps its reason.
func TestFailureClassifies(t *testing.T) {
	t.Parallel()
	ref := refuse(ReasonAddress, "notify.err.resolved.loopback")
	if o := failure(&url.Error{Op: "Post", URL: "x", Err: &net.OpError{Op: "dial", Err: ref}}); o.Reason != ReasonAddress {
		t.Errorf("a wrapped refusal: %+v", o)
	}
	if o := failure(&net.DNSError{Err: "no such host", Name: "x"}); o.Reason != ReasonDNS {
		t.Errorf("dns: %+v", o)
	}
	if o := failure(errors.New("boom")); o.Reason != ReasonConnect {
		t.Errorf("other: %+v", o)
	}
}

func TestRequestFormats(t *testing.T) {
	t.Parallel()
	m := Message{Kind: KindReminder, Title: "Twój ruch: Wiarusi", Text: "K7QX · Wiarusi · @everyone <!channel> · 15 min",
		Join: "ssh -t -p 2222 camp.example.org join K7QX", Click: "ssh://camp.example.org:2222", Table: "K7QX",
		Game: "grizzled", GameName: "Wiarusi", Deadline: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), At: time.Date(2026, 3, 1, 11, 45, 0, 0, time.UTC)}
	u, _ := url.Parse("https://ntfy.sh/topic?auth=secret")
	body := func(f Format) (*http.Request, string) {
		req, err := Request(context.Background(), f, u, m)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(req.Body)
		return req, string(b)
	}
	req, b := body(FormatNtfy)
	if req.URL.String() != u.String() || req.Method != http.MethodPost {
		t.Errorf("ntfy request %s %s", req.Method, req.URL)
	}
	if got := req.Header.Get("Title"); !strings.HasPrefix(got, "=?UTF-8?b?") {
		t.Errorf("a Polish title is not RFC 2047: %q", got)
	}
	if req.Header.Get("Tags") != "hourglass_flowing_sand,bivouac" || req.Header.Get("Priority") != "high" || req.Header.Get("Click") != "ssh://camp.example.org:2222" {
		t.Errorf("ntfy headers %v", req.Header)
	}
	if !strings.HasSuffix(b, "\nssh -t -p 2222 camp.example.org join K7QX") {
		t.Errorf("ntfy body %q", b)
	}
	_, b = body(FormatDiscord)
	if !strings.Contains(b, `"allowed_mentions":{"parse":[]}`) || !strings.Contains(b, "`ssh -t -p 2222") {
		t.Errorf("discord body %s", b)
	}
	_, b = body(FormatSlack)
	if strings.Contains(b, "<!channel>") || !strings.Contains(b, "&lt;!channel&gt;") {
		t.Errorf("slack body %s", b)
	}
	_, b = body(FormatJSON)
	for _, want := range []string{`"schema":"bivouac.notification"`, `"version":1`, `"kind":"reminder"`, `"table":"K7QX"`,
		`"game":"grizzled"`, `"deadline":"2026-03-01T12:00:00Z"`, `"left_seconds":900`, `"sent":"2026-03-01T11:45:00Z"`} {
		if !strings.Contains(b, want) {
			t.Errorf("json body %s lacks %s", b, want)
		}
	}
}

func TestMaskShowsNoSecret(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://ntfy.sh/bivouac-anna-7f3k":                "https://ntfy.sh/…",
		"https://user:pw@ntfy.example.org:8443/t?auth=tok": "https://ntfy.example.org:8443/…",
		"https://discord.com/api/webhooks/123/SECRETTOKEN": "https://discord.com/…",
		"%%%": "…",
	} {
		if got := Mask(raw); got != want {
			t.Errorf("Mask(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestGuessFormat(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]Format{
		"https://discord.com/api/webhooks/1/x":    FormatDiscord,
		"https://discordapp.com/api/webhooks/1/x": FormatDiscord,
		"https://discord.com/other":               FormatNtfy,
		"https://hooks.slack.com/services/T/B/x":  FormatSlack,
		"https://ntfy.sh/topic":                   FormatNtfy,
	} {
		u, _ := url.Parse(raw)
		if got := GuessFormat(u); got != want {
			t.Errorf("GuessFormat(%s) = %s, want %s", raw, got, want)
		}
	}
}
