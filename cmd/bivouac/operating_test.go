package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// docs/OPERATING.md is where an operator reads of every flag: each flag
// of serve, backup and drain, and each environment variable their help
// names, is in it.
func TestOperatingNamesEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../docs/OPERATING.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	env := regexp.MustCompile(`BIVOUAC_[A-Z_]+`)
	for _, cmd := range []string{"serve", "backup", "drain"} {
		var help bytes.Buffer
		if err := run(t.Context(), []string{cmd, "-h"}, io.Discard, &help); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", cmd, err)
		}
		flags := 0
		for _, line := range strings.Split(help.String(), "\n") {
			name, ok := strings.CutPrefix(line, "  --")
			if !ok {
				continue
			}
			flags++
			name, _, _ = strings.Cut(name, " ")
			if !strings.Contains(doc, "`--"+name+"`") {
				t.Errorf("docs/OPERATING.md does not name %s's --%s: add it to the table under Flags", cmd, name)
			}
		}
		if flags == 0 {
			t.Errorf("%s -h listed no flags:\n%s", cmd, help.String())
		}
		for _, v := range env.FindAllString(help.String(), -1) {
			if !strings.Contains(doc, v) {
				t.Errorf("docs/OPERATING.md does not name %s, which %s reads", v, cmd)
			}
		}
	}
}
