// Package catalog is The Werewolves' words in every language the server
// speaks, one TOML file each (GLOSSARY.md names the terms and the
// rulebook each comes from). Importing it registers them with i18n; the
// game's module does.
package catalog

import (
	"embed"

	"github.com/bivouac-ssh/bivouac/i18n"
)

//go:embed *.toml
var files embed.FS

func init() { i18n.Register("werewolf", files) }
