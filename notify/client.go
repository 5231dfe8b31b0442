package notify

// The one HTTP client notifications leave through, and what a send's
// outcome is.

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/bivouac-ssh/bivouac/words"
)

// The client's bounds. Each answers a way a destination, or someone who
// controls one, could hold the server's resources: a host that accepts the
// connection and never answers (Timeout), answers forever (MaxBody), or
// with endless headers (maxHeader).
const (
	// Timeout is all a send may take: resolving, connecting, TLS, the
	// request and the answer's body.
	Timeout = 5 * time.Second
	// MaxBody is how much of an answer is read (the rest is not).
	MaxBody = 4 << 10
	// maxHeader bounds the answer's headers.
	maxHeader = 16 << 10
)

// Client is the HTTP client notifications use: every connection it makes
// goes to an address Policy.Dialable allows, checked on the address the
// name resolved to, at the moment of connecting (so a name that resolves
// to a public address when the URL is set and to 169.254.169.254 later is
// still refused); no proxy from the environment; no redirect followed; no
// cookies; the whole exchange within Timeout.
func (p Policy) Client() *http.Client { return p.client(Timeout) }

func (p Policy) client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{
		Timeout: timeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return ErrNotAddress
			}
			return p.Dialable(ap.Addr())
		},
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    timeout,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: maxHeader,
		DisableCompression:     true, // an answer is read to MaxBody as sent, never inflated
		MaxIdleConns:           16,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        time.Minute,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
	}
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		// A redirect is the answer, never followed: a listed host must not
		// send the server on to another one (an unlisted host, or an
		// address of the server's own network).
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Reason says why a notification was not sent, a few fixed values (a
// metric's label, a line a player reads). ReasonOff, ReasonInvalid,
// ReasonHost and ReasonAddress are also why a URL is refused when set.
type Reason string

const (
	ReasonOff       Reason = "off"       // the operator has not turned notifications on
	ReasonInvalid   Reason = "invalid"   // not a URL the policy takes (any more)
	ReasonHost      Reason = "host"      // a host, or port, not listed
	ReasonAddress   Reason = "address"   // resolved to (or is) an address that is refused
	ReasonDNS       Reason = "dns"       // the name does not resolve
	ReasonConnect   Reason = "connect"   // no connection
	ReasonTimeout   Reason = "timeout"   // no answer within Timeout
	ReasonTLS       Reason = "tls"       // the certificate or the handshake failed
	ReasonRedirect  Reason = "redirect"  // answered with a redirect, not followed
	ReasonRejected  Reason = "rejected"  // a 4xx answer: the destination will not take it
	ReasonServer    Reason = "server"    // a 5xx answer
	ReasonThrottled Reason = "throttled" // 429: the destination asks us to slow down
	ReasonQueueFull Reason = "queue_full"
	ReasonGaveUp    Reason = "gave_up" // still failing after the last retry
)

// Reasons are every Reason a failure may have: a metric serves each from
// the start.
var Reasons = []Reason{ReasonOff, ReasonInvalid, ReasonHost, ReasonAddress, ReasonDNS, ReasonConnect,
	ReasonTimeout, ReasonTLS, ReasonRedirect, ReasonRejected, ReasonServer, ReasonThrottled, ReasonQueueFull, ReasonGaveUp}

// Outcome is what came back from one send.
type Outcome struct {
	Status int    // the HTTP status (0: none came)
	Reason Reason // "" when sent
	// Msg says it for the player: what the destination answered, or why
	// nothing was sent.
	Msg  words.Msg
	Took time.Duration
	// retryAfter is the delay a 429 or 503 asked for, if any.
	retryAfter time.Duration
}

// OK reports a send the destination took.
func (o Outcome) OK() bool { return o.Reason == "" }

// transient reports a failure worth trying again later.
func (o Outcome) transient() bool {
	switch o.Reason {
	case ReasonDNS, ReasonConnect, ReasonTimeout, ReasonServer, ReasonThrottled:
		return true
	}
	return false
}

// do sends req with c and reads the answer to MaxBody.
func do(c *http.Client, req *http.Request, now func() time.Time) Outcome {
	began := now()
	resp, err := c.Do(req)
	if err != nil {
		o := failure(err)
		o.Took = now().Sub(began)
		return o
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxBody)) // an answer's words are not shown: the destination's, not ours
	_ = resp.Body.Close()
	o := Outcome{Status: resp.StatusCode, Took: now().Sub(began)}
	status := words.Text("Status", strconv.Itoa(resp.StatusCode)+" "+http.StatusText(resp.StatusCode))
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		o.Msg = words.M("notify.sent", status)
	case c >= 300 && c < 400:
		o.Reason, o.Msg = ReasonRedirect, words.M("notify.fail.redirect", status)
	case c == http.StatusTooManyRequests:
		o.Reason, o.Msg = ReasonThrottled, words.M("notify.fail.status", status)
		o.retryAfter = retryAfter(resp.Header.Get("Retry-After"))
	case c >= 500:
		o.Reason, o.Msg = ReasonServer, words.M("notify.fail.status", status)
		o.retryAfter = retryAfter(resp.Header.Get("Retry-After"))
	default:
		o.Reason, o.Msg = ReasonRejected, words.M("notify.fail.status", status)
	}
	return o
}

// retryAfter reads a Retry-After in seconds (a date is not honoured: the
// backoff decides), bounded to an hour.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(h)
	if err != nil || n <= 0 {
		return 0
	}
	return min(time.Duration(n)*time.Second, time.Hour)
}

// failure classifies an error of the client.
func failure(err error) Outcome {
	var ref *Refusal
	if errors.As(err, &ref) {
		return Outcome{Reason: ref.Reason, Msg: ref.Msg}
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var uerr *url.Error
	switch {
	case errors.As(err, &dnsErr):
		return Outcome{Reason: ReasonDNS, Msg: words.M("notify.fail.dns")}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &uerr) && uerr.Timeout():
		return Outcome{Reason: ReasonTimeout, Msg: words.M("notify.fail.timeout", words.Num("Seconds", int(Timeout/time.Second)))}
	case errors.As(err, &certErr), errors.As(err, &recErr):
		return Outcome{Reason: ReasonTLS, Msg: words.M("notify.fail.tls")}
	}
	return Outcome{Reason: ReasonConnect, Msg: words.M("notify.fail.connect")}
}
