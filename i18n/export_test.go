package i18n

import "slices"

// What the tests of package i18n_test read of a printer's messages. They
// import the registry of games, which registers every game's catalog; the
// package's own tests cannot (the games import i18n).

// Messages are the keys of p's language, each with the catalog that holds
// it ("" for the shared words); a gendered wording is under its message.
func Messages(p *Printer) map[string]string {
	out := make(map[string]string, len(p.messages))
	for k, m := range p.messages {
		out[k] = m.catalog
	}
	return out
}

// Args are the names of the arguments key's wordings use, each once.
func Args(p *Printer, key string) []string { return p.messages[key].args() }

// Counted says whether key's message takes a count: it has plural forms,
// or a Count argument.
func Counted(p *Printer, key string) bool {
	m := p.messages[key]
	return m.plural || slices.Contains(m.args(), "Count")
}

// Gendered says whether key's message has a wording for a feminine or
// masculine Player.
func Gendered(p *Printer, key string) bool { return p.messages[key].gendered != nil }

// args are the names of the arguments m's forms use, each once.
func (m *message) args() []string {
	var v []string
	for _, f := range m.forms {
		for _, s := range f {
			if s.arg != "" && !slices.Contains(v, s.arg) {
				v = append(v, s.arg)
			}
		}
	}
	return v
}
