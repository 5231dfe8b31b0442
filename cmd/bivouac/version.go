package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// runVersion is `bivouac version`: the module's version, the commit it was
// built from, and the Go that built it, from the binary's build info.
func runVersion(stdout io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil // a binary built without module support
	}
	_, err := io.WriteString(stdout, versionText(info))
	return err
}

// versionText says what info (nil: none in the binary) knows of the build.
func versionText(info *debug.BuildInfo) string {
	if info == nil {
		return "bivouac: no build information in this binary\n"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	commit := settings["vcs.revision"]
	switch {
	case commit == "":
		commit = "unknown (the build recorded no git information: see go help buildvcs)"
	case settings["vcs.modified"] == "true":
		commit += " (with uncommitted changes)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bivouac %s\n", version)
	fmt.Fprintf(&b, "module:  %s\n", info.Main.Path)
	fmt.Fprintf(&b, "commit:  %s\n", commit)
	if t := settings["vcs.time"]; t != "" {
		fmt.Fprintf(&b, "date:    %s\n", t)
	}
	fmt.Fprintf(&b, "go:      %s\n", info.GoVersion)
	return b.String()
}
