package i18n_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	_ "github.com/bivouac-ssh/bivouac/games" // every game's catalog, registered by its module
	"github.com/bivouac-ssh/bivouac/i18n"
)

var keyLike = regexp.MustCompile(`^[a-z]+(\.[A-Za-z0-9_\-]+)+\.?$`)

// namespaces are the first segments of the keys of every catalog, the
// shared words' and each registered game's; a string literal in the code
// that starts with one of them and looks like a key is one.
func namespaces(t *testing.T) []string {
	var ns []string
	for k := range loadCatalog(t, i18n.English) {
		if first, _, _ := strings.Cut(genderBase(k), "."); !slices.Contains(ns, first) {
			ns = append(ns, first)
		}
	}
	return ns
}

// usedKeys are the catalog keys the code names: exact keys, and families
// (literals ending in ".", completed at run time: "grizzled.card." + code).
func usedKeys(t *testing.T) (exact, families map[string]bool) {
	t.Helper()
	namespaces := namespaces(t)
	exact, families = map[string]bool{"raw": true}, map[string]bool{}
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !keyLike.MatchString(s) || !slices.Contains(namespaces, s[:strings.IndexByte(s, '.')]) {
				return true
			}
			if strings.HasSuffix(s, ".") {
				families[s] = true
			} else {
				exact[s] = true
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return exact, families
}

// catalogMsg is one catalog entry: its text, or its plural forms.
type catalogMsg map[string]string

// loadCatalog reads language l of every catalog (the shared words and
// each registered game's) into key → forms ("other" for a plain
// catalogMsg).
func loadCatalog(t *testing.T, l i18n.Lang) map[string]catalogMsg {
	t.Helper()
	out := map[string]catalogMsg{}
	for _, c := range i18n.Catalogs() {
		for k, m := range loadOne(t, c, l) {
			if _, dup := out[k]; dup {
				t.Errorf("%s: %s is in two catalogs", l, k)
			}
			out[k] = m
		}
	}
	return out
}

// loadOne reads language l of catalog c.
func loadOne(t *testing.T, c i18n.Catalog, l i18n.Lang) map[string]catalogMsg {
	t.Helper()
	b, err := fs.ReadFile(c.Files, string(l)+".toml")
	if err != nil {
		t.Fatalf("catalog %q: %v", c.Name, err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(b, &raw); err != nil {
		t.Fatalf("catalog %q, %s: %v", c.Name, l, err)
	}
	out := map[string]catalogMsg{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			switch v := v.(type) {
			case string:
				if pluralForms[k] {
					out[strings.TrimSuffix(prefix, ".")] = mergeForm(out[strings.TrimSuffix(prefix, ".")], k, v)
				} else {
					out[prefix+k] = catalogMsg{"other": v}
				}
			case map[string]any:
				walk(prefix+k+".", v)
			}
		}
	}
	walk("", raw)
	return out
}

// genderBase is the message a gendered wording ("feminine.KEY") belongs
// to, or k itself: a language has such wordings only where its sentences
// agree with the player they name.
func genderBase(k string) string {
	for _, prefix := range []string{"feminine.", "masculine."} {
		if base, ok := strings.CutPrefix(k, prefix); ok {
			return base
		}
	}
	return k
}

func mergeForm(m catalogMsg, form, text string) catalogMsg {
	if m == nil {
		m = catalogMsg{}
	}
	m[form] = text
	return m
}

var pluralForms = map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

// cldrForms are the plural categories each language needs for whole numbers.
var cldrForms = map[i18n.Lang][]string{
	i18n.English: {"one", "other"},
	i18n.German:  {"one", "other"},
	i18n.Polish:  {"one", "few", "many", "other"},
	i18n.Russian: {"one", "few", "many", "other"},
}

var placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z]+)\s*\}\}`)

func placeholders(m catalogMsg) []string {
	set := map[string]bool{}
	for _, text := range m {
		for _, p := range placeholder.FindAllStringSubmatch(text, -1) {
			set[p[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestCatalogsAreComplete: every key the code uses is in every language,
// no catalog holds a key nothing uses, a translation has the same
// placeholders as English, and a plural catalogMsg has every CLDR form its
// language needs.
func TestCatalogsAreComplete(t *testing.T) {
	exact, families := usedKeys(t)
	en := loadCatalog(t, i18n.English)
	used := func(k string) bool {
		if exact[k] {
			return true
		}
		for f := range families {
			if strings.HasPrefix(k, f) {
				return true
			}
		}
		return false
	}
	for k := range en {
		if !used(genderBase(k)) {
			t.Errorf("en: %s is used nowhere", k)
		}
	}
	for f := range families {
		found := false
		for k := range en {
			if strings.HasPrefix(k, f) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("en: nothing in the family %s…", f)
		}
	}
	for _, l := range i18n.Langs {
		cat := en
		if l != i18n.English {
			cat = loadCatalog(t, l)
		}
		for k := range exact {
			if _, ok := cat[k]; !ok {
				t.Errorf("%s: %s is missing", l, k)
			}
		}
		for k, m := range cat {
			e, ok := en[genderBase(k)]
			if !ok {
				t.Errorf("%s: %s is not in English", l, k)
				continue
			}
			if got, want := placeholders(m), placeholders(e); !slices.Equal(got, want) {
				t.Errorf("%s: %s has placeholders %v, English %v", l, k, got, want)
			}
			if len(e) > 1 || e["one"] != "" {
				for _, form := range cldrForms[l] {
					if m[form] == "" {
						t.Errorf("%s: %s lacks the plural form %q", l, k, form)
					}
				}
			}
		}
		for k := range en {
			if _, ok := cat[k]; !ok && l != i18n.English && genderBase(k) == k {
				t.Errorf("%s: %s is missing", l, k)
			}
		}
	}
}

// Every catalog of every language loads into go-i18n, as the printers once
// did at start (they now compile the catalogs alone, and keep of go-i18n
// only its plural rules): its checks of a message's forms hold.
func TestCatalogsLoadInGoI18n(t *testing.T) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, l := range i18n.Langs {
		for _, c := range i18n.Catalogs() {
			if _, err := b.LoadMessageFileFS(c.Files, string(l)+".toml"); err != nil {
				t.Errorf("catalog %q, %s: %v", c.Name, l, err)
			}
		}
	}
}
