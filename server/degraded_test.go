package server

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/records"

	js "github.com/nats-io/nats.go/jetstream"
)

// downStore answers every read as JetStream does without a majority.
type downStore struct{ persistence.Store }

var errJetStreamDown = &js.APIError{Code: 503, ErrorCode: 10008, Description: "JetStream system temporarily unavailable"}

func (downStore) Player(string) (persistence.Profile, error) {
	return persistence.Profile{}, errJetStreamDown
}
func (downStore) Room(string) (persistence.RoomRecord, error) {
	return persistence.RoomRecord{}, errJetStreamDown
}
func (downStore) Log(string) ([][]byte, error) { return nil, errJetStreamDown }
func (downStore) FinishedGames(string, int) ([]persistence.RoomRecord, error) {
	return nil, errJetStreamDown
}

// A store that cannot answer is said to be the server degraded, in the
// reader's language, never as a raw "nats: API error: code=503", and a
// player with games is never told they have no profile.
func TestUnavailableStoreReadsSayTheServerIsDegraded(t *testing.T) {
	s := &Server{store: downStore{}, log: slog.New(slog.DiscardHandler)}
	s.records = records.New(records.Options{Store: s.store, Degraded: s.degraded})
	_, profileErr := s.records.Profile("SHA256:someone")
	_, replayErr := s.records.Replay("ABCD")
	_, gamesErr := s.records.Finished("SHA256:someone", 5)
	for lang, want := range map[i18n.Lang]string{i18n.English: "the server is degraded", i18n.German: "der Server läuft eingeschränkt"} {
		p := i18n.For(lang)
		for what, err := range map[string]error{"profile": profileErr, "replay": replayErr, "games": gamesErr} {
			got := p.Error(err)
			if !strings.Contains(got, want) || strings.Contains(got, "nats") || strings.Contains(got, "503") {
				t.Errorf("%s in %s: %q", what, lang, got)
			}
		}
	}
	if errors.Is(profileErr, persistence.ErrNotFound) {
		t.Error("an unavailable profile reads as a missing one")
	}
}

// A profile that is not there is still "no profile yet", not degraded.
func TestMissingProfileIsNotDegraded(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	if err := s.degraded(persistence.ErrNotFound); !errors.Is(err, persistence.ErrNotFound) {
		t.Fatalf("not found became %v", err)
	}
}
