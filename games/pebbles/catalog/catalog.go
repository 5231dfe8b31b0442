// Package catalog is Pebbles' words in every language the server speaks,
// one TOML file each (GLOSSARY.md names the terms). Importing it
// registers them with i18n under the game's ID; the game's module does.
package catalog

import (
	"embed"

	"github.com/bivouac-ssh/bivouac/i18n"
)

//go:embed *.toml
var files embed.FS

func init() { i18n.Register("pebbles", files) }
