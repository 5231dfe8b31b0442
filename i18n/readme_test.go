package i18n

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OpenSSH takes only the first -o SetEnv option of a command line, so the
// README never shows two on one line: several variables go in one quoted
// option, or in ~/.ssh/config (issue 30 item 11).
func TestReadmeSetsEnvironmentTheWayOpenSSHReadsIt(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for i, line := range strings.Split(readme, "\n") {
		if strings.Count(line, "SetEnv=") > 1 && strings.Count(line, "-o") > 1 {
			t.Errorf("README.md:%d gives OpenSSH two SetEnv options (it keeps the first): %s", i+1, line)
		}
	}
	for _, want := range []string{`-o "SetEnv=LANG=pl_PL.UTF-8 NO_COLOR=1"`, "    SetEnv LANG=pl_PL.UTF-8 NO_COLOR=1"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not show %s", want)
		}
	}
}
