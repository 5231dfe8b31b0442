package logredact

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestSecretsAreTaggedEverywhere(t *testing.T) {
	var buf bytes.Buffer
	tg := NewTagger()
	log := slog.New(New(slog.NewTextHandler(&buf, nil), Options{Keys: []string{"room", "campaign"},
		Secret: func(s string) bool { return len(s) > 4 }, Tag: tg.Tag}))
	log.Info("room restored", "room", "AH23X5QC", "actions", 3)
	log.With("room", "ah23x5qc").Info("seat taken")
	log.Info("campaign result", slog.Group("g", "campaign", "K7QX2MPA"))
	log.Info("public room", "room", "ABCD")
	out := buf.String()
	for _, secret := range []string{"AH23X5QC", "ah23x5qc", "K7QX2MPA"} {
		if strings.Contains(out, secret) {
			t.Errorf("%s in the log:\n%s", secret, out)
		}
	}
	tag := tg.Tag("AH23X5QC")
	if strings.Count(out, "room="+tag) != 2 {
		t.Errorf("the same code, any case, does not give the same tag %s:\n%s", tag, out)
	}
	if !strings.Contains(out, "room=ABCD") || !strings.Contains(out, "actions=3") {
		t.Errorf("what is not secret was changed:\n%s", out)
	}
	if NewTagger().Tag("AH23X5QC") == tag {
		t.Error("two processes give one code the same tag")
	}
}
