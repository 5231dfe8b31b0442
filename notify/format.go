package notify

// What goes out, in each destination's format.

import (
	"bytes"
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Format is how a notification is written for its destination.
type Format string

const (
	// FormatNtfy posts the text to an ntfy topic URL, with its title,
	// tags and click action in ntfy's headers.
	FormatNtfy Format = "ntfy"
	// FormatDiscord posts Discord's webhook JSON ({"content": …}).
	FormatDiscord Format = "discord"
	// FormatSlack posts Slack's incoming-webhook JSON ({"text": …}),
	// which Mattermost and others take too.
	FormatSlack Format = "slack"
	// FormatJSON posts the generic event (Event, schema Schema).
	FormatJSON Format = "json"
)

// Formats are the formats a player may choose.
var Formats = []Format{FormatNtfy, FormatDiscord, FormatSlack, FormatJSON}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, bool) {
	for _, f := range Formats {
		if strings.EqualFold(s, string(f)) {
			return f, true
		}
	}
	return "", false
}

// GuessFormat is the format a URL most likely wants when the player named
// none: Discord's and Slack's webhook hosts theirs, anything else ntfy.
func GuessFormat(u *url.URL) Format {
	host := strings.ToLower(u.Hostname())
	switch {
	case (host == "discord.com" || host == "discordapp.com" || strings.HasSuffix(host, ".discord.com")) && strings.HasPrefix(u.Path, "/api/webhooks/"):
		return FormatDiscord
	case host == "hooks.slack.com":
		return FormatSlack
	}
	return FormatNtfy
}

// Kind is what a notification is about.
type Kind string

const (
	KindTurn     Kind = "turn"     // it became the player's move
	KindReminder Kind = "reminder" // the move's deadline is near
	KindTest     Kind = "test"     // the player asked for one (notify test)
)

// Message is one notification, in its player's language.
type Message struct {
	Kind  Kind
	Title string // "Your move: The Grizzled"
	Text  string // "K7QX · The Grizzled · your move · 11 h left"
	// Join is the line that takes the player there:
	// `ssh -t -p 2222 host join K7QX`.
	Join string
	// Click is what tapping an ntfy notification opens (ssh://host:port);
	// it never holds a table's code.
	Click    string
	Table    string // the table's code ("" for a test)
	Game     string // the game's ID
	GameName string
	Server   string
	Deadline time.Time // zero: none
	At       time.Time
}

// Schema and SchemaVersion name the generic JSON event (FormatJSON); a
// receiver checks them before reading the rest. A new version adds
// fields or changes their meaning; fields are only ever added within one.
const (
	Schema        = "bivouac.notification"
	SchemaVersion = 1
)

// Event is the generic JSON event, schema bivouac.notification version 1
// (README, "Notifications"). Deadline and LeftSeconds are left out when
// the move has none; Table, Game and Join for a test.
type Event struct {
	Schema      string `json:"schema"`
	Version     int    `json:"version"`
	Kind        Kind   `json:"kind"`
	Server      string `json:"server,omitempty"`
	Table       string `json:"table,omitempty"`
	Game        string `json:"game,omitempty"`
	GameName    string `json:"game_name,omitempty"`
	Title       string `json:"title"`
	Text        string `json:"text"`
	Join        string `json:"join,omitempty"`
	Deadline    string `json:"deadline,omitempty"` // RFC 3339, UTC
	LeftSeconds int64  `json:"left_seconds,omitempty"`
	Sent        string `json:"sent"` // RFC 3339, UTC
}

// EventOf is m as the generic event.
func EventOf(m Message) Event {
	e := Event{Schema: Schema, Version: SchemaVersion, Kind: m.Kind, Server: m.Server, Table: m.Table, Game: m.Game,
		GameName: m.GameName, Title: m.Title, Text: m.Text, Join: m.Join, Sent: m.At.UTC().Format(time.RFC3339)}
	if !m.Deadline.IsZero() {
		e.Deadline = m.Deadline.UTC().Format(time.RFC3339)
		e.LeftSeconds = max(int64(m.Deadline.Sub(m.At)/time.Second), 0)
	}
	return e
}

// maxChat bounds a chat webhook's content (Discord takes 2,000 characters).
const maxChat = 1900

// Request is m written in format f, posted to u.
func Request(ctx context.Context, f Format, u *url.URL, m Message) (*http.Request, error) {
	var body []byte
	ctype := "application/json"
	switch f {
	case FormatDiscord:
		// No mention is parsed: a player named @everyone pings nobody.
		type mentions struct {
			Parse []string `json:"parse"`
		}
		body = marshal(struct {
			Content  string   `json:"content"`
			Username string   `json:"username"`
			Mentions mentions `json:"allowed_mentions"`
		}{Content: cut(chatText(m, "`"), maxChat), Username: "Bivouac", Mentions: mentions{Parse: []string{}}})
	case FormatSlack:
		body = marshal(struct {
			Text string `json:"text"`
		}{Text: cut(slackEscape(chatText(m, "`")), maxChat)})
	case FormatJSON:
		body = marshal(EventOf(m))
	default: // ntfy
		ctype = "text/plain; charset=utf-8"
		text := m.Text
		if m.Join != "" {
			text += "\n" + m.Join
		}
		body = []byte(cut(text, maxChat))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("User-Agent", "Bivouac-Notify/1")
	if f == FormatNtfy || f == "" {
		req.Header.Set("Title", headerText(m.Title))
		req.Header.Set("Tags", ntfyTags[m.Kind])
		if m.Kind == KindReminder {
			req.Header.Set("Priority", "high")
		}
		if m.Click != "" {
			req.Header.Set("Click", m.Click)
		}
	}
	return req, nil
}

// marshal is v as JSON, <, > and & left as they are (a receiver reads
// the text as sent; Slack's own escapes come first).
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // plain strings and numbers: cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// ntfyTags are ntfy's tags per kind: emoji names its apps show.
var ntfyTags = map[Kind]string{
	KindTurn:     "game_die,bivouac",
	KindReminder: "hourglass_flowing_sand,bivouac",
	KindTest:     "white_check_mark,bivouac",
}

// chatText is m for a chat webhook: the title, the text, and the join line
// set apart as code (mark is the chat's code mark).
func chatText(m Message, mark string) string {
	s := m.Title + "\n" + m.Text
	if m.Join != "" {
		s += "\n" + mark + m.Join + mark
	}
	return s
}

// slackEscape escapes what Slack reads as markup: a name such as
// <!channel> stays text.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// headerText is s as a header value: RFC 2047 words when it is not ASCII
// (ntfy decodes them), with no line breaks.
func headerText(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	for _, r := range s {
		if r >= utf8.RuneSelf || r < ' ' {
			return mime.BEncoding.Encode("UTF-8", s)
		}
	}
	return s
}

// cut shortens s to at most n runes.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Mask is a webhook URL as a player is shown it once it is kept: its
// scheme and host, never its path, query or user (the secret parts).
func Mask(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "…"
	}
	return u.Scheme + "://" + u.Host + "/…"
}
