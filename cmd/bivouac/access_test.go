package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A key file named on the command line that cannot be read stops the
// server at start: a typo must not leave a friends' server open to all.
func TestServeRefusesAnUnreadableAllowFile(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	err := run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(dir, "data"),
		"--allow", filepath.Join(dir, "no-such-file")}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "allow file") {
		t.Fatalf("serve with a missing --allow file: %v", err)
	}
}
