package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/words"
)

// The operator reads this program in their own language, chosen as a
// player's is: --lang if given, else the process's LC_ALL, LC_MESSAGES or
// LANG (a language the server does not speak is passed over), else
// English. What a script or a log collector reads stays English whatever
// the language: the log, exit codes, the first line of `bivouac version`,
// the health endpoints' bodies and the metrics (docs/OPERATING.md).

// environ is the process's environment (tests give their own).
var environ = os.Environ

// operatorLang is the language args (--lang, -lang, --lang=XX) or env
// name; a --lang naming none the server speaks is an error.
func operatorLang(args, env []string) (i18n.Lang, error) {
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if !eq {
			if i+1 >= len(args) {
				break // the flag package says a value is missing
			}
			value = args[i+1]
		}
		if l, ok := i18n.Parse(value); ok {
			return l, nil
		}
		l, _ := i18n.FromEnv(env)
		return l, words.Refuse(nil, words.M("op.err.lang", words.Text("Lang", value)))
	}
	l, _ := i18n.FromEnv(env)
	return l, nil
}

// langFlag is --lang on a subcommand's flags: operatorLang has read it
// before the flags are parsed, so that their own errors are in the
// operator's language; here it is only accepted.
func langFlag(fs *flag.FlagSet) { fs.String("lang", "", "op.flag.lang") }

// opError is an error of the program's own, said from the catalog.
func opError(key string, args ...words.Arg) error { return words.Refuse(nil, words.M(key, args...)) }

// flagSet is a subcommand's flags: help (-h) in the operator's language
// through printFlags, and a mistyped flag answered in one line, not
// with the whole list.
func flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	langFlag(fs)
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}

// flagSetMade, if set, hears of each subcommand's flags (tests).
var flagSetMade func(*flag.FlagSet)

// parseFlags parses args into fs: -h prints the flags to stderr (and is
// flag.ErrHelp); a flag error is said in the operator's words, with how
// to list the flags.
func parseFlags(p *i18n.Printer, fs *flag.FlagSet, args []string, stderr io.Writer) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		printFlags(p, fs, stderr)
		return err
	}
	return flagError(fs.Name(), err)
}

// The flag package's own errors, in its words (Go 1.26), and what each
// says to the operator instead.
var flagErrors = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^flag provided but not defined: -+(?P<Flag>.*)$`), "op.err.flag_unknown"},
	{regexp.MustCompile(`^flag needs an argument: -+(?P<Flag>.*)$`), "op.err.flag_value_missing"},
	{regexp.MustCompile(`^invalid (?:boolean )?value "(?P<Value>.*)" for (?:flag )?-+(?P<Flag>[^:]*): .*$`), "op.err.flag_value_bad"},
	{regexp.MustCompile(`^bad flag syntax: (?P<Flag>.*)$`), "op.err.flag_syntax"},
}

// flagError is a flag package error of subcommand cmd in the catalog's
// words.
func flagError(cmd string, err error) error {
	for _, f := range flagErrors {
		m := f.re.FindStringSubmatch(err.Error())
		if m == nil {
			continue
		}
		args := []words.Arg{words.Text("Command", cmd)}
		for i, name := range f.re.SubexpNames() {
			if name != "" {
				args = append(args, words.Text(name, m[i]))
			}
		}
		return opError(f.key, args...)
	}
	return err
}

// flagEnv is the environment variable each flag with one takes its
// default from (a flag given wins).
var flagEnv = map[string]string{
	"addr": "BIVOUAC_ADDR", "data": "BIVOUAC_DATA", "guests": "BIVOUAC_GUESTS",
	"max-sessions": "BIVOUAC_MAX_SESSIONS", "max-per-ip": "BIVOUAC_MAX_PER_IP",
	"max-startups": "BIVOUAC_MAX_STARTUPS", "max-startups-per-ip": "BIVOUAC_MAX_STARTUPS_PER_IP",
	"new-keys-per-ip": "BIVOUAC_NEW_KEYS_PER_IP", "tables-per-ip": "BIVOUAC_TABLES_PER_IP",
	"typing-per-ip": "BIVOUAC_TYPING_PER_IP", "memory-limit": "BIVOUAC_MEMORY_LIMIT",
	"public-host": "BIVOUAC_PUBLIC_HOST", "cluster": "BIVOUAC_CLUSTER", "node": "BIVOUAC_NODE",
	"peers": "BIVOUAC_PEERS", "nats-addr": "BIVOUAC_NATS_ADDR", "cluster-addr": "BIVOUAC_CLUSTER_ADDR",
	"tls-cert": "BIVOUAC_TLS_CERT", "tls-key": "BIVOUAC_TLS_KEY", "tls-ca": "BIVOUAC_TLS_CA",
	"insecure-routes": "BIVOUAC_INSECURE_ROUTES=1", "allow": "BIVOUAC_ALLOW",
	"no-guests": "BIVOUAC_NO_GUESTS=1", "name": "BIVOUAC_NAME", "motd": "BIVOUAC_MOTD",
	"admins": "BIVOUAC_ADMINS", "metrics-addr": "BIVOUAC_METRICS_ADDR",
	"log-format": "BIVOUAC_LOG_FORMAT", "notify": "BIVOUAC_NOTIFY=1", "notify-hosts": "BIVOUAC_NOTIFY_HOSTS",
}

// helpWidth is the column a flag's description is wrapped at.
const helpWidth = 78

// printFlags lists fs's flags to w: each flag with its default, then what
// it does and its environment variable, wrapped to 80 columns.
func printFlags(p *i18n.Printer, fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintln(w, p.T("op.help.flags", words.Text("Command", fs.Name())))
	fs.VisitAll(func(f *flag.Flag) {
		head := "  --" + f.Name
		if def := f.DefValue; def != "" && def != "false" && def != "0" { // 0: a default the description gives
			head += "  " + p.T("op.help.default", words.Text("Value", def))
		}
		fmt.Fprintln(w, head)
		text := p.T(f.Usage)
		if env := flagEnv[f.Name]; env != "" {
			text += " " + p.T("op.help.env", words.Text("Env", env))
		}
		for _, line := range wrap(text, helpWidth-6) {
			fmt.Fprintln(w, "      "+line)
		}
	})
}

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
