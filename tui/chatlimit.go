package tui

import "time"

// chatLimit is a token bucket for one session's chat: a burst of lines,
// then one per interval. A refused line is reported, never silently dropped.
type chatLimit struct {
	burst  int
	every  time.Duration
	tokens float64
	last   time.Time
}

func newChatLimit(burst int, every time.Duration) chatLimit {
	if burst <= 0 {
		burst = 5
	}
	if every <= 0 {
		every = 2 * time.Second
	}
	return chatLimit{burst: burst, every: every, tokens: float64(burst)}
}

// take spends a token at now, or says how long until one is free.
func (c *chatLimit) take(now time.Time) time.Duration {
	if !c.last.IsZero() {
		c.tokens = min(float64(c.burst), c.tokens+float64(now.Sub(c.last))/float64(c.every))
	}
	c.last = now
	if c.tokens >= 1 {
		c.tokens--
		return 0
	}
	return time.Duration((1 - c.tokens) * float64(c.every))
}
