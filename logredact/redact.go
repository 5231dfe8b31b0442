// Package logredact keeps secrets (private table codes, campaign codes)
// out of the log: a log/slog Handler that writes chosen attributes as a
// tag when their value is a secret. A tag is 8 hex digits of an
// HMAC-SHA256 of the value under a salt drawn when the process starts
// (Tagger): the same secret gives the same tag within one run, so a line
// can still be followed to the next, and nothing outside the process can
// tell which secret it was.
package logredact

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"slices"
	"strings"
)

// Tagger names secrets in the log.
type Tagger struct{ salt [32]byte }

// NewTagger draws a fresh salt.
func NewTagger() *Tagger {
	t := &Tagger{}
	_, _ = rand.Read(t.salt[:]) // never fails (crypto/rand, Go 1.24+)
	return t
}

// Tag is "<" and 8 hex digits ">". Codes are typed in any case, so the
// tag ignores it.
func (t *Tagger) Tag(secret string) string {
	m := hmac.New(sha256.New, t.salt[:])
	m.Write([]byte(strings.ToUpper(secret)))
	return "<" + hex.EncodeToString(m.Sum(nil)[:4]) + ">"
}

// Options configure New.
type Options struct {
	Keys   []string          // attribute keys that may hold a secret ("room", "campaign")
	Secret func(string) bool // whether such a value is one (nil: every value)
	Tag    func(string) string
}

// New wraps next.
func New(next slog.Handler, o Options) slog.Handler {
	if o.Tag == nil {
		o.Tag = NewTagger().Tag
	}
	if o.Secret == nil {
		o.Secret = func(string) bool { return true }
	}
	return &handler{next: next, o: o}
}

type handler struct {
	next slog.Handler
	o    Options
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	secret := false
	r.Attrs(func(a slog.Attr) bool {
		secret = h.holds(a)
		return !secret
	})
	if !secret {
		return h.next.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.redact(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = h.redact(a)
	}
	return &handler{next: h.next.WithAttrs(red), o: h.o}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name), o: h.o}
}

// holds reports whether a (or an attribute in its group) is a secret.
func (h *handler) holds(a slog.Attr) bool {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		return slices.ContainsFunc(v.Group(), h.holds)
	}
	return slices.Contains(h.o.Keys, a.Key) && h.o.Secret(v.String())
}

func (h *handler) redact(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		g := v.Group()
		red := make([]any, len(g))
		for i, b := range g {
			red[i] = h.redact(b)
		}
		return slog.Group(a.Key, red...)
	}
	if slices.Contains(h.o.Keys, a.Key) && h.o.Secret(v.String()) {
		return slog.String(a.Key, h.o.Tag(v.String()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
