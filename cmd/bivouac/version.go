package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/words"
)

// runVersion is `bivouac version`: the module's version, the commit it was
// built from, and the Go that built it, from the binary's build info.
func runVersion(p *i18n.Printer, stdout io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil // a binary built without module support
	}
	_, err := io.WriteString(stdout, versionText(p, info))
	return err
}

// versionText says what info (nil: none in the binary) knows of the build.
// The first line, "bivouac VERSION", is the same in every language: a
// script reads it.
func versionText(p *i18n.Printer, info *debug.BuildInfo) string {
	if info == nil {
		return p.T("op.version.no_info") + "\n"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)" // Go's name for a build outside a module version
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	commit := settings["vcs.revision"]
	switch {
	case commit == "":
		commit = p.T("op.version.no_commit")
	case settings["vcs.modified"] == "true":
		commit = p.T("op.version.modified", words.Text("Commit", commit))
	}
	rows := [][2]string{{p.T("op.version.module"), info.Main.Path}, {p.T("op.version.commit"), commit}}
	if t := settings["vcs.time"]; t != "" {
		rows = append(rows, [2]string{p.T("op.version.date"), t})
	}
	rows = append(rows, [2]string{p.T("op.version.go"), info.GoVersion})
	width := 0
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r[0]))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "bivouac %s\n", version)
	for _, r := range rows {
		fmt.Fprintf(&b, "%s%s%s\n", r[0], strings.Repeat(" ", width+2-utf8.RuneCountInString(r[0])), r[1])
	}
	return b.String()
}
