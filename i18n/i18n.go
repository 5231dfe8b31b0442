// Package i18n renders the words players read, in their own language.
//
// Rules and screens name what they say by a catalog key with typed
// arguments (game.Msg); a Printer turns that into English, Polish, Russian
// or German. The catalogs are TOML files, one per language, read by
// go-i18n, which brings CLDR's plural rules ("1 karta / 2 karty / 5
// kart"): the shared words embedded from catalog/ here, and each game's
// own, which its module registers (Register) from the game's folder
// (games/ID/catalog, beside a GLOSSARY.md of the game's terms and the
// rulebook each comes from).
package i18n

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/bivouac-ssh/bivouac/game"
)

// Lang is a language the server speaks: "en", "pl", "ru" or "de".
type Lang string

const (
	English Lang = "en"
	Polish  Lang = "pl"
	Russian Lang = "ru"
	German  Lang = "de"
)

// Langs are the languages in the order the lobby's language key cycles
// them: those with a catalog.
var Langs = []Lang{English, Polish, Russian, German}

// Next is the language after l in Langs (the lobby's language key).
func (l Lang) Next() Lang {
	for i, x := range Langs {
		if x == l {
			return Langs[(i+1)%len(Langs)]
		}
	}
	return English
}

//go:embed catalog/*.toml
var shared embed.FS

// A Catalog is a set of words in every language the server speaks: a TOML
// file a language, named for it (en.toml, pl.toml, ru.toml, de.toml).
type Catalog struct {
	Name  string // "" for the shared words; else the game's ID
	Files fs.FS
}

// catalogs are the shared words, then each game's as its module
// registered them. The first printer seals them: printers are shared by
// every session and never change.
var catalogs = struct {
	sync.Mutex
	list   []Catalog
	sealed bool
}{list: []Catalog{{Files: sharedFiles()}}}

func sharedFiles() fs.FS {
	f, err := fs.Sub(shared, "catalog")
	if err != nil {
		panic("i18n: " + err.Error()) // a constant path into an embedded tree
	}
	return f
}

// Register adds a game's words: its module calls it from its package's
// init, so the words are in before any printer is made. name is the
// game's ID; files hold en.toml, pl.toml, ru.toml and de.toml. A name
// registered twice, or a registration after the first printer, panics: a
// build defect that every test rendering words catches at once. A key two
// catalogs both define panics when the printers are made.
func Register(name string, files fs.FS) {
	catalogs.Lock()
	defer catalogs.Unlock()
	if catalogs.sealed {
		panic("i18n: catalog " + name + " registered after the first printer was made: register it from an init func")
	}
	for _, c := range catalogs.list {
		if c.Name == name || name == "" {
			panic(fmt.Sprintf("i18n: catalog %q registered twice", name))
		}
	}
	catalogs.list = append(catalogs.list, Catalog{Name: name, Files: files})
}

// Catalogs are the shared words and every registered game's, in the order
// they came.
func Catalogs() []Catalog {
	catalogs.Lock()
	defer catalogs.Unlock()
	return append([]Catalog(nil), catalogs.list...)
}

// sealedCatalogs are the catalogs the printers are made from; none may be
// registered after.
func sealedCatalogs() []Catalog {
	catalogs.Lock()
	defer catalogs.Unlock()
	catalogs.sealed = true
	return catalogs.list
}

// go-i18n owns CLDR's plural rules, which pick a message's form for a
// count; its bundle here holds only the forms by name, so a count's form
// can be asked for. The catalogs themselves are compiled (compile.go):
// each message's forms split at their placeholders, so that rendering one
// is filling in its blanks (a line drawn on every frame of every session
// costs one allocation, not a text/template execution). A bundle of every
// catalog, which the printers never read, was 5 MiB of each server's
// heap; the tests load the catalogs into one to check their format
// (TestCatalogsLoadInGoI18n).
var bundle = sync.OnceValue(func() *goi18n.Bundle {
	b := goi18n.NewBundle(language.English)
	for _, l := range Langs {
		b.MustAddMessages(language.Make(string(l)), &goi18n.Message{ID: formsID,
			Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"})
	}
	return b
})

const formsID = "i18n.plural-forms"

// Parse reads a POSIX locale ("pl_PL.UTF-8", "de_DE@euro", "ru") or a
// language tag ("de-AT") and reports the language it names, if the server
// speaks it. "C", "POSIX", garbage and other languages are not ok.
func Parse(locale string) (Lang, bool) {
	s := locale
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexAny(s, "_-"); i >= 0 {
		s = s[:i]
	}
	if len(s) < 2 || len(s) > 3 {
		return English, false
	}
	l := Lang(strings.ToLower(s))
	for _, x := range Langs {
		if x == l {
			return l, true
		}
	}
	return English, false
}

// FromEnv picks the language from a session's environment the way POSIX
// does (LC_ALL, then LC_MESSAGES, then LANG); a variable naming a language
// the server does not speak is passed over. ok is false when none names one.
func FromEnv(env []string) (Lang, bool) {
	for _, name := range [...]string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		for _, kv := range env {
			if v, found := strings.CutPrefix(kv, name+"="); found && v != "" {
				if l, ok := Parse(v); ok {
					return l, true
				}
			}
		}
	}
	return English, false
}

// Printer renders messages in one language. Printers are shared by every
// session that reads that language and are safe for concurrent use.
type Printer struct {
	lang     Lang
	loc      *goi18n.Localizer
	messages map[string]*message // this language's catalog, compiled
	fallback map[string]*message // English, for a key the catalog lacks
	forms    [countCache]uint8   // plural form of 0..countCache-1 (index into formNames)
}

// printers are made each when first asked for: a server whose players
// all read English never compiles the other languages' catalogs.
var printers = map[Lang]func() *Printer{}

func init() {
	for _, l := range Langs {
		printers[l] = sync.OnceValue(func() *Printer { return newPrinter(l) })
	}
}

func newPrinter(l Lang) *Printer {
	p := &Printer{lang: l, loc: goi18n.NewLocalizer(bundle(), string(l))}
	p.messages = compileCatalogs(sealedCatalogs(), l)
	p.fallback = p.messages
	if l != English {
		p.fallback = For(English).messages
	}
	for n := range countCache {
		p.forms[n] = p.formOf(n)
	}
	return p
}

// For is the printer of language l (English for a language not spoken here).
func For(l Lang) *Printer {
	if p, ok := printers[l]; ok {
		return p()
	}
	return printers[English]()
}

// Lang is the printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// T renders a catalog key with arguments. A key missing from the catalog
// renders as itself (the catalog tests keep that from happening).
func (p *Printer) T(key string, args ...game.Arg) string { return p.render(key, args) }

// Name is a player's name as this printer's readers see it: a bot's name
// (ending in game.BotMark) is marked in their language.
func (p *Printer) Name(s string) string {
	if base, ok := strings.CutSuffix(s, game.BotMark); ok {
		return p.T("name.bot", game.Text("Name", base))
	}
	return s
}

// Msg renders a message.
func (p *Printer) Msg(m game.Msg) string {
	if m.Key == "" {
		return ""
	}
	return p.T(m.Key, m.Args...)
}

// Error renders an error for a player in the printer's language: a
// game.Error's message; a call that ran out of time as such; any other
// error (the server's plumbing: a store, a network) as a catalog sentence,
// never its Go text, which is English and for the log.
func (p *Printer) Error(err error) string {
	var e *game.Error
	switch {
	case errors.As(err, &e):
		return p.Msg(e.Msg)
	case errors.Is(err, context.DeadlineExceeded):
		return p.T("ui.err.too_slow")
	default:
		return p.T("ui.err.server")
	}
}

// ErrorDetail renders an error for an operator: a game.Error's message in
// the printer's language, any other (a file's, a port's: the system's) by
// its own text, as Go gives it and the log has it.
func (p *Printer) ErrorDetail(err error) string {
	var e *game.Error
	if errors.As(err, &e) {
		return p.Msg(e.Msg)
	}
	return err.Error()
}

func (p *Printer) render(key string, args []game.Arg) string {
	m := p.messages[key]
	if m == nil {
		if m = p.fallback[key]; m == nil {
			return key
		}
	}
	if m.gendered != nil {
		m = m.forPlayer(args)
	}
	form := formOther
	if m.plural {
		for _, a := range args {
			if a.Name == "Count" {
				form = p.form(a.Num)
				break
			}
		}
	}
	segs := m.forms[form]
	if segs == nil {
		segs = m.forms[formOther]
	}
	if len(segs) == 1 && segs[0].arg == "" {
		return segs[0].text
	}
	var b strings.Builder
	b.Grow(m.size)
	for _, sg := range segs {
		if sg.arg == "" {
			b.WriteString(sg.text)
			continue
		}
		for _, a := range args {
			if a.Name == sg.arg {
				p.writeArg(&b, a)
				break
			}
		}
	}
	return b.String()
}

// forPlayer is m's wording for the player its arguments name as Player:
// the one agreeing with how they asked to be addressed, if the catalog
// has it, else m itself.
func (m *message) forPlayer(args []game.Arg) *message {
	for _, a := range args {
		if a.Name == "Player" && a.Kind == game.ArgText {
			if int(a.Gender) < len(m.gendered) && m.gendered[a.Gender] != nil {
				return m.gendered[a.Gender]
			}
			break
		}
	}
	return m
}

func (p *Printer) writeArg(b *strings.Builder, a game.Arg) {
	switch a.Kind {
	case game.ArgNum:
		var buf [20]byte
		b.Write(strconv.AppendInt(buf[:0], int64(a.Num), 10))
	case game.ArgText:
		b.WriteString(p.Name(a.Str))
	case game.ArgTerm:
		b.WriteString(p.T(a.Str))
	case game.ArgMsg:
		if len(a.Msgs) > 0 {
			b.WriteString(p.Msg(a.Msgs[0]))
		}
	case game.ArgList:
		for i, m := range a.Msgs {
			if i > 0 {
				switch {
				case a.Str != "":
					b.WriteString(a.Str)
				case i == len(a.Msgs)-1:
					b.WriteString(p.T("list.last"))
				default:
					b.WriteString(p.T("list.sep"))
				}
			}
			b.WriteString(p.Msg(m))
		}
		if len(a.Msgs) == 0 && a.Str == "" {
			b.WriteString(p.T("list.none"))
		}
	}
}

// form is the plural form of n in the printer's language.
func (p *Printer) form(n int) int {
	if n >= 0 && n < countCache {
		return int(p.forms[n])
	}
	return int(p.formOf(n))
}

// formOf asks go-i18n (CLDR's rules) which form n takes.
func (p *Printer) formOf(n int) uint8 {
	name, err := p.loc.Localize(&goi18n.LocalizeConfig{MessageID: formsID, PluralCount: n})
	if err != nil {
		return formOther
	}
	for i, f := range formNames {
		if f == name {
			return uint8(i)
		}
	}
	return formOther
}

const countCache = 1000

// And joins parts as the language lists things: "a, b and c".
func (p *Printer) And(parts []string) string { return p.join(parts) }

// Or joins alternatives: "a, b or c".
func (p *Printer) Or(parts []string) string {
	if len(parts) < 2 {
		return p.join(parts)
	}
	return strings.Join(parts[:len(parts)-1], p.T("list.sep")) + p.T("list.or") + parts[len(parts)-1]
}

// join writes a list the way the language does: "a, b and c".
func (p *Printer) join(parts []string) string {
	switch len(parts) {
	case 0:
		return p.T("list.none")
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], p.T("list.sep")) + p.T("list.last") + parts[len(parts)-1]
}

// Event is what a log line says to this printer's readers: a narration in
// their language, or a chat line as its speaker typed it. Screens keep the
// lines they drew from one frame to the next (uikit.LogMemo), so an event
// is rendered once per session that shows it, not once per frame.
func (p *Printer) Event(e *game.Event) string {
	if e.Msg.IsZero() {
		return e.Text
	}
	return p.Msg(e.Msg)
}
