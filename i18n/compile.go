package i18n

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/bivouac-ssh/bivouac/game"
)

// formNames are CLDR's plural categories; a compiled message keeps its
// forms at these indexes.
var formNames = [...]string{"zero", "one", "two", "few", "many", "other"}

const formOther = 5

// message is one catalog entry split at its placeholders, per plural form.
type message struct {
	forms   [len(formNames)][]segment
	plural  bool   // has forms other than "other"
	size    int    // a guess at the rendered length, for the builder
	catalog string // the catalog that holds it ("" for the shared words)
	// gendered holds, by game.Gender, the wording for a Player who asked
	// to be addressed in the feminine or masculine (catalog keys
	// "feminine.KEY", "masculine.KEY"); nil where the message itself
	// reads right for everyone.
	gendered *[len(genderPrefixes)]*message
}

// genderPrefixes are, by game.Gender, the catalog roots of the wordings
// that agree with a feminine or masculine Player. Neutral and unset have
// none: they read the message itself, worded to need no gender.
var genderPrefixes = [...]string{game.Feminine: "feminine.", game.Masculine: "masculine."}

// segment is literal text, or (arg set) the argument of that name.
type segment struct {
	text string
	arg  string
}

// compileCatalogs reads language l of every catalog as go-i18n does
// (nested tables make dotted keys; a table of plural forms is one message)
// and compiles every message into one map. A key two catalogs define
// panics: which one a reader got would depend on their order.
func compileCatalogs(cats []Catalog, l Lang) map[string]*message {
	out, from := map[string]*message{}, map[string]string{}
	for _, c := range cats {
		for k, m := range compileCatalog(c, l) {
			if other, dup := from[k]; dup {
				panic(fmt.Sprintf("i18n: %s: %s is in catalog %q and in %q", l, k, other, c.Name))
			}
			m.catalog = c.Name
			out[k], from[k] = m, c.Name
		}
	}
	attachGendered(out)
	return out
}

// compileCatalog is language l of one catalog, compiled.
func compileCatalog(c Catalog, l Lang) map[string]*message {
	b, err := fs.ReadFile(c.Files, string(l)+".toml")
	if err != nil {
		panic("i18n: " + c.Name + ": " + err.Error())
	}
	var raw map[string]any
	if err := toml.Unmarshal(b, &raw); err != nil {
		panic("i18n: " + c.Name + ": " + err.Error())
	}
	out := map[string]*message{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			switch v := v.(type) {
			case string:
				out[prefix+k] = compileForms(map[string]string{"other": v})
			case map[string]any:
				if forms, ok := pluralTable(v); ok {
					out[prefix+k] = compileForms(forms)
				} else {
					walk(prefix+k+".", v)
				}
			}
		}
	}
	walk("", raw)
	return out
}

// attachGendered moves each gendered wording ("feminine.KEY") onto the
// message KEY, where rendering looks for it. A wording whose message is
// missing is dropped (the catalog tests report it).
func attachGendered(out map[string]*message) {
	for k, m := range out {
		for g, prefix := range genderPrefixes {
			base, ok := strings.CutPrefix(k, prefix)
			if prefix == "" || !ok {
				continue
			}
			delete(out, k)
			if b := out[base]; b != nil {
				if b.gendered == nil {
					b.gendered = new([len(genderPrefixes)]*message)
				}
				b.gendered[g] = m
			}
		}
	}
}

// pluralTable reports whether a table is one message's plural forms.
func pluralTable(m map[string]any) (map[string]string, bool) {
	forms := map[string]string{}
	for k, v := range m {
		s, ok := v.(string)
		if !ok || !isForm(k) {
			return nil, false
		}
		forms[k] = s
	}
	return forms, len(forms) > 0
}

func isForm(k string) bool {
	for _, f := range formNames {
		if f == k {
			return true
		}
	}
	return false
}

func compileForms(forms map[string]string) *message {
	m := &message{plural: len(forms) > 1}
	for i, f := range formNames {
		if text, ok := forms[f]; ok {
			m.forms[i] = compileText(text)
			m.size = max(m.size, len(text)+16)
		}
	}
	return m
}

// compileText splits "{{.Player}} plays {{.Card}}." into its pieces.
func compileText(s string) []segment {
	var out []segment
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		name := strings.TrimPrefix(strings.TrimSpace(s[i+2:i+j]), ".")
		if i > 0 {
			out = append(out, segment{text: s[:i]})
		}
		out = append(out, segment{arg: name})
		s = s[i+j+2:]
	}
	if s != "" || len(out) == 0 {
		out = append(out, segment{text: s})
	}
	return out
}
