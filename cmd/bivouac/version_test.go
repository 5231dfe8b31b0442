package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionSaysModuleCommitAndGo(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "bivouac", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-27T21:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := versionText(en, info)
	for _, want := range []string{"bivouac v1.2.3\n", "module:  bivouac\n", "commit:  0123abcd (with uncommitted changes)\n", "date:    2026-11-27T21:00:00Z\n", "go:      go1.26.0\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("versionText lacks %q:\n%s", want, got)
		}
	}
	bare := versionText(en, &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "bivouac"}})
	if !strings.Contains(bare, "bivouac (devel)\n") || !strings.Contains(bare, "commit:  unknown") {
		t.Errorf("without a version or commit:\n%s", bare)
	}

	var out strings.Builder
	if err := run(t.Context(), []string{"version"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "go:      "+runtime.Version()) || !strings.Contains(out.String(), "module:  github.com/bivouac-ssh/bivouac") {
		t.Fatalf("bivouac version:\n%s", out.String())
	}
	for _, flag := range []string{"--version", "-v", "-version"} {
		var flagOut strings.Builder
		if err := run(t.Context(), []string{flag}, &flagOut, &flagOut); err != nil || flagOut.String() != out.String() {
			t.Errorf("bivouac %s: %v\n%s", flag, err, flagOut.String())
		}
	}
}

// deploy/bivouac.service passes systemd's own check. The unit names the
// installed binary; the check needs an executable there, so a copy of the
// unit names this test's binary instead.
func TestSystemdUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("no systemd-analyze here")
	}
	unit, err := os.ReadFile("../../deploy/bivouac.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DynamicUser=yes", "StateDirectory=bivouac", "BIVOUAC_DATA=/var/lib/bivouac", "NoNewPrivileges=yes",
		"ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
		"AmbientCapabilities=CAP_NET_BIND_SERVICE", "Restart=on-failure", "KillSignal=SIGTERM", "ExecStart=/usr/local/bin/bivouac serve\n"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("the unit lacks %q", want)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "bivouac.service")
	if err := os.WriteFile(copyPath, []byte(strings.Replace(string(unit), "/usr/local/bin/bivouac", self, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", copyPath).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}
