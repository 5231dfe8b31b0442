package server

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/sanitize"
	"github.com/bivouac-ssh/bivouac/table"
)

// reservedNames are the names no player may go by, compared by
// sanitize.Fold (so their look-alikes too): the bots' names, words that
// claim to speak for the server ("admin", "moderator", "server" in every
// language), and the words of the admins' notice and of the bot mark as
// each catalog says them. A chat line in plain mode is "NAME: text", so a
// player named "Notice from admins" would speak as the admins, and one
// named "Brunօ" as the bot beside them.
type reservedNames struct {
	bots   map[string]bool // a whole name folding to one of these (a word of it may be "Hugo")
	whole  map[string]bool // a name, or one of its words, folding to one of these
	prefix []string        // a name, or one of its words, whose fold begins with one of these
}

// staffWords claim to speak for the server, in each language the server
// speaks (and the forms a chat line would use).
var staffWords = []string{
	"admins", "administrator", "administrators", "moderator", "moderators", "mod", "mods",
	"server", "system", "sysop", "bivouac", "staff", "official",
	"administratorzy", "administratorów", "moderatorzy", "moderatorów", "serwer", "obsługa",
	"админы", "администратор", "администраторы", "администрация", "модератор", "модераторы", "сервер", "система",
	"administratoren", "moderatoren", "betreiber",
}

// staffPrefixes: a name or word that begins with one of these claims as
// much ("Admin_Bob", "AdminTeam", "Админчик").
var staffPrefixes = []string{"admin", "админ", "moderator", "модератор"}

// newReservedNames gathers the reserved names from the bots and the
// catalogs of every language.
func newReservedNames() *reservedNames {
	r := &reservedNames{bots: map[string]bool{}, whole: map[string]bool{}}
	for _, b := range table.BotNames() {
		r.bots[sanitize.Fold(b)] = true
	}
	for _, w := range staffWords {
		r.whole[sanitize.Fold(w)] = true
	}
	for _, l := range i18n.Langs {
		pr := i18n.For(l)
		for _, text := range []string{pr.T("moderation.notice", game.Text("Text", "")), pr.T("ui.tag.bot")} {
			for _, w := range words(text) {
				// "bot", "Bot", "бот" and the notice's nouns; not "from",
				// "the" or "der", which are in many a name.
				if utf8.RuneCountInString(w) >= 5 || strings.Contains(text, "("+w+")") {
					r.whole[sanitize.Fold(w)] = true
				}
			}
		}
	}
	for _, p := range staffPrefixes {
		r.prefix = append(r.prefix, sanitize.Fold(p))
	}
	return r
}

// has reports whether name is reserved: it folds to a bot's name, or it
// or one of its words folds to a reserved word or begins like a staff word.
func (r *reservedNames) has(name string) bool {
	if r.bots[sanitize.Fold(name)] {
		return true
	}
	for _, w := range append(words(name), name) {
		f := sanitize.Fold(w)
		if r.whole[f] {
			return true
		}
		for _, p := range r.prefix {
			if strings.HasPrefix(f, p) {
				return true
			}
		}
	}
	return false
}

// words splits text at everything that is not a letter or a mark
// ("Admin_2", "Notice: from" → "Admin", "Notice", "from").
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) })
}
