package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bivouac-ssh/bivouac/clock/clocktest"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/server"
)

// withEnv runs run as a process whose environment is env.
func withEnv(t *testing.T, env ...string) {
	t.Helper()
	was := environ
	environ = func() []string { return env }
	t.Cleanup(func() { environ = was })
}

// The operator's language comes from --lang, else LC_ALL, LC_MESSAGES,
// LANG as a player's does; a --lang the server does not speak is refused
// in the language the environment names.
func TestOperatorLanguage(t *testing.T) {
	for _, tt := range []struct {
		args, env []string
		want      i18n.Lang
	}{
		{nil, nil, i18n.English},
		{nil, []string{"LANG=pl_PL.UTF-8"}, i18n.Polish},
		{nil, []string{"LANG=pl_PL.UTF-8", "LC_MESSAGES=ru_RU.UTF-8"}, i18n.Russian},
		{nil, []string{"LANG=ru_RU.UTF-8", "LC_ALL=C"}, i18n.Russian}, // C names no language: passed over
		{[]string{"--lang", "de"}, []string{"LANG=pl_PL.UTF-8"}, i18n.German},
		{[]string{"-lang=ru"}, nil, i18n.Russian},
		{[]string{"--data", "x", "--lang=pl_PL.UTF-8"}, nil, i18n.Polish},
		{[]string{"--", "--lang", "de"}, nil, i18n.English}, // past "--" an argument, not a flag
	} {
		if got, err := operatorLang(tt.args, tt.env); err != nil || got != tt.want {
			t.Errorf("args %q, env %q: %s, %v; want %s", tt.args, tt.env, got, err, tt.want)
		}
	}
	withEnv(t, "LANG=ru_RU.UTF-8")
	err := run(t.Context(), []string{"version", "--lang", "xx"}, io.Discard, io.Discard)
	if got := i18n.For(i18n.Russian).ErrorDetail(err); !strings.Contains(got, "--lang xx: этот сервер говорит") {
		t.Errorf("--lang xx: %q", got)
	}
}

// `bivouac serve` with LANG=pl_PL.UTF-8, then --lang ru: the lines the
// operator reads at start and at stop are in their language; the log is
// English either way.
func TestStartAndStopLinesInTheOperatorsLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang  string
		env   []string
		args  []string
		start []string
		stop  string
	}{
		{"pl", []string{"LANG=pl_PL.UTF-8"}, nil,
			[]string{"Bivouac nasłuchuje na 127.0.0.1:", "Odcisk klucza hosta: SHA256:", "Dołącz przez: ssh -p ",
				"Metryki i kontrole stanu: http://", "Uwaga: katalog danych ", "Brak administratorów: "},
			"Wyłączanie: powiadamiam graczy, zapisuję, zamykam."},
		{"ru", []string{"LANG=pl_PL.UTF-8"}, []string{"--lang", "ru"},
			[]string{"Bivouac принимает подключения на 127.0.0.1:", "Отпечаток ключа хоста: SHA256:", "Подключение: ssh -p ",
				"Метрики и проверки состояния: http://", "Внимание: каталог данных ", "Администраторов нет: "},
			"Остановка: предупреждаем игроков, сохраняем, закрываем."},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			withEnv(t, tt.env...)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var stdout, stderr lockedBuffer
			done := make(chan error, 1)
			data := t.TempDir()
			if err := os.Chmod(data, 0o755); err != nil { // warned about: others may read the host key
				t.Fatal(err)
			}
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--metrics-addr", "127.0.0.1:0"}, tt.args...)
			go func() { done <- run(ctx, args, &stdout, &stderr) }()
			clocktest.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
				select {
				case err := <-done:
					t.Fatalf("serve ended: %v\n%s", err, stderr.String())
				default:
				}
				for _, want := range tt.start {
					if !strings.Contains(stdout.String(), want) {
						return fmt.Errorf("no %q in\n%s", want, stdout.String())
					}
				}
				return nil
			})
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve: %v", err)
			}
			if !strings.Contains(stdout.String(), tt.stop) {
				t.Errorf("no %q at the stop:\n%s", tt.stop, stdout.String())
			}
			noEnglish(t, "serve's output", stdout.String())
			for _, want := range []string{"msg=listening", "msg=ready", `msg="shutting down: telling players, saving, closing"`, "msg=stopped"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("the log, which stays English, lacks %s:\n%s", want, stderr.String())
				}
			}
		})
	}
}

// A server that does not start says why in the operator's language: its
// port taken (in Polish), its data directory in use by another server (in
// Russian). The log has the error in Go's words.
func TestStartFailureInTheOperatorsLanguage(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	var out, log lockedBuffer
	err = run(t.Context(), []string{"serve", "--addr", taken.Addr().String(), "--data", t.TempDir(), "--lang", "pl"}, &out, &log)
	if want := " " + taken.Addr().String() + " jest zajęty przez inny program"; err == nil || !strings.HasPrefix(out.String(), "Serwer nie wystartował:") || !strings.Contains(out.String(), want) {
		t.Errorf("a taken port: %v, said %q; want %q", err, out.String(), want)
	}
	if !strings.Contains(log.String(), "address already in use") {
		t.Errorf("the log lacks Go's words:\n%s", log.String())
	}

	dir := t.TempDir()
	srv, err := server.New(server.Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out = lockedBuffer{}
	err = run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--lang", "ru"}, &out, io.Discard)
	if want := "Сервер не запустился: в каталоге данных " + dir + " уже работает другой сервер Bivouac"; err == nil || !strings.Contains(out.String(), want) {
		t.Errorf("a data directory in use: %v, said %q; want %q", err, out.String(), want)
	}
	noEnglish(t, "a start failure", out.String())
}

// The join lines stand one under the other, each label ending where the
// first one ends, in every language.
func TestJoinLabelsAlign(t *testing.T) {
	for _, l := range i18n.Langs {
		p := i18n.For(l)
		first, more := []rune(p.T("op.run.join")), []rune(p.T("op.run.join_or"))
		if len(more) > len(first) {
			t.Errorf("%s: %q is wider than %q: the ssh lines would not align", l, string(more), string(first))
		}
	}
}

// `bivouac drain` of a single node is refused in the operator's language,
// as is a drain with no server on the data directory.
func TestDrainRefusalInPolishAndRussian(t *testing.T) {
	dir := t.TempDir()
	srv, err := server.New(server.Config{Addr: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, tt := range []struct {
		env  string
		lang i18n.Lang
		want string
	}{
		{"LANG=pl_PL.UTF-8", i18n.Polish, "Odmowa opróżnienia: ten serwer nie jest węzłem klastra, więc żaden inny węzeł nie może przejąć jego stołów"},
		{"LC_ALL=ru_RU.UTF-8", i18n.Russian, "Освобождение отклонено: этот сервер не узел кластера, так что никакой другой узел не может принять его столы"},
	} {
		withEnv(t, tt.env)
		var out strings.Builder
		err := run(t.Context(), []string{"drain", "--data", dir}, &out, io.Discard)
		if err == nil || !strings.Contains(out.String(), tt.want) {
			t.Errorf("%s: drain of a single node: %v, said %q", tt.lang, err, out.String())
		}
		noEnglish(t, "drain's refusal", out.String()+i18n.For(tt.lang).ErrorDetail(err))
	}
	withEnv(t, "LANG=ru_RU.UTF-8")
	err = run(t.Context(), []string{"drain", "--data", t.TempDir()}, io.Discard, io.Discard)
	if got := i18n.For(i18n.Russian).ErrorDetail(err); !strings.HasPrefix(got, "В каталоге данных ") {
		t.Errorf("drain with no server, in Russian: %q", got)
	}
	if srv.Draining() {
		t.Fatal("a single node is draining")
	}
}

// Every flag of serve, backup and drain is described by an operator
// catalog key that every language has, and -h lists them all in the
// operator's language.
func TestEveryFlagIsDescribedInEveryLanguage(t *testing.T) {
	for _, cmd := range []string{"serve", "backup", "drain"} {
		for _, l := range i18n.Langs {
			var help strings.Builder
			if err := run(t.Context(), []string{cmd, "-h", "--lang", string(l)}, io.Discard, &help); !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("%s -h: %v", cmd, err)
			}
			if l != i18n.English {
				noEnglish(t, cmd+" -h in "+string(l), help.String())
			}
			for _, line := range strings.Split(help.String(), "\n") {
				if width := len([]rune(line)); width > 80 {
					t.Errorf("%s -h in %s: a line of %d columns: %q", cmd, l, width, line)
				}
			}
		}
	}
	// Each usage names a key every language renders.
	fs := flagSetsOf(t)
	for cmd, set := range fs {
		set.VisitAll(func(f *flag.Flag) {
			if !strings.HasPrefix(f.Usage, "op.flag.") {
				t.Errorf("%s --%s: usage %q is not an operator catalog key", cmd, f.Name, f.Usage)
			}
			for _, l := range i18n.Langs {
				if got := i18n.For(l).T(f.Usage); got == f.Usage || got == "" {
					t.Errorf("%s --%s: %s has no %s", cmd, f.Name, l, f.Usage)
				}
			}
		})
	}
}

// flagSetsOf are the flags each subcommand defines, as its -h reads them.
func flagSetsOf(t *testing.T) map[string]*flag.FlagSet {
	t.Helper()
	sets := map[string]*flag.FlagSet{}
	flagSetMade = func(fs *flag.FlagSet) { sets[fs.Name()] = fs }
	defer func() { flagSetMade = nil }()
	for _, cmd := range []string{"serve", "backup", "drain"} {
		if err := run(t.Context(), []string{cmd, "-h"}, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s -h: %v", cmd, err)
		}
	}
	return sets
}

// Mistakes an operator makes are answered in their language: a mistyped
// flag or command, a bad value, a missing file name.
func TestMistakesAnsweredInTheOperatorsLanguage(t *testing.T) {
	cases := []struct {
		args []string
		want map[i18n.Lang]string
	}{
		{[]string{"serve", "--bogus"}, map[i18n.Lang]string{
			i18n.Polish: "bivouac serve nie ma flagi --bogus", i18n.Russian: "у bivouac serve нет флага --bogus", i18n.German: "bivouac serve hat kein Flag --bogus"}},
		{[]string{"serve", "--max-sessions", "lots"}, map[i18n.Lang]string{
			i18n.Polish: "--max-sessions lots: ta flaga nie przyjmuje takiej wartości", i18n.Russian: "--max-sessions lots: этот флаг не принимает такое значение"}},
		{[]string{"--max-sessions", "5", "serve", "--bogus"}, map[i18n.Lang]string{
			i18n.Polish: "nieoczekiwane słowo serve", i18n.Russian: "лишнее слово serve", i18n.German: "unerwartetes Wort serve"}},
		{[]string{"serve", "--max-sessions", "5", "oops"}, map[i18n.Lang]string{i18n.Polish: "nieoczekiwane słowo oops"}},
		{[]string{"serve", "--guests", "maybe"}, map[i18n.Lang]string{i18n.Polish: "--guests maybe: yes, watch lub no"}},
		{[]string{"serve", "--cluster", "c"}, map[i18n.Lang]string{i18n.Russian: "--cluster требует --node"}},
		{[]string{"backup"}, map[i18n.Lang]string{i18n.Polish: "użycie: bivouac backup [--data KATALOG] PLIK"}},
		{[]string{"drain", "extra"}, map[i18n.Lang]string{i18n.German: "Aufruf: bivouac drain [--data VERZEICHNIS] [--force]"}},
		{[]string{"frobnicate"}, map[i18n.Lang]string{i18n.Russian: "неизвестная команда frobnicate"}},
	}
	for _, c := range cases {
		for l, want := range c.want {
			args := append(slices.Clone(c.args), "--lang", string(l))
			if c.args[0] == "frobnicate" {
				args = c.args
				withEnv(t, "LANG="+string(l))
			}
			err := run(t.Context(), args, io.Discard, io.Discard)
			got := i18n.For(l).ErrorDetail(err)
			if err == nil || !strings.Contains(got, want) {
				t.Errorf("%s %q: %q, want %q", l, args, got, want)
			}
			noEnglish(t, fmt.Sprintf("%q", args), got)
		}
	}
}

// `bivouac version` and `bivouac help` in Polish and Russian: the first
// line of version stays "bivouac VERSION" for scripts.
func TestVersionAndHelpInTheOperatorsLanguage(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.Polish, i18n.Russian, i18n.German} {
		var out strings.Builder
		if err := run(t.Context(), []string{"version", "--lang", string(l)}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), "bivouac ") {
			t.Errorf("%s: version's first line changed: %q", l, out.String())
		}
		var help strings.Builder
		if err := run(t.Context(), []string{"help", "--lang", string(l)}, &help, io.Discard); err != nil {
			t.Fatal(err)
		}
		if help.String() != i18n.For(l).T("op.usage") {
			t.Errorf("%s: help is not the catalog's usage:\n%s", l, help.String())
		}
		noEnglish(t, "help in "+string(l), help.String())
		for _, line := range strings.Split(help.String(), "\n") {
			if width := len([]rune(line)); width > 80 {
				t.Errorf("%s: help has a line of %d columns: %q", l, width, line)
			}
		}
	}
	var ru strings.Builder
	_ = run(t.Context(), []string{"version", "--lang", "ru"}, &ru, io.Discard)
	for _, want := range []string{"модуль:", "go:"} {
		if !strings.Contains(ru.String(), want) {
			t.Errorf("Russian version lacks %q:\n%s", want, ru.String())
		}
	}
}

// englishWords are words of English sentences that no Polish, Russian or
// German sentence of the operator's holds, once flags, paths, addresses,
// commands and other literals are set aside.
var englishWords = []string{"the", "and", "of", "is", "are", "not", "with", "which", "when", "for", "this", "that",
	"every", "written", "refused", "tables", "table", "players", "listening", "usage", "unknown", "default",
	"environment", "node", "nodes", "stopped", "draining", "drained", "shutting", "down", "saving", "closing",
	"directory", "file", "key", "address", "connections", "needs", "has", "lists", "them", "value", "language", "host"}

// literal is a token an operator types or reads as it is in every
// language: a flag, a path, an address, a variable, a command line.
var literal = regexp.MustCompile(`^(-.*|.*[./:=_@%$].*|[A-Z0-9_]+|bivouac|serve|sim|backup|drain|version|help|yes|watch|no|text|json|en|pl|ru|de|ssh)$`)

// noEnglish fails t if text, said in Polish, Russian or German, holds an
// English word: a sentence left untranslated.
func noEnglish(t *testing.T, what, text string) {
	t.Helper()
	if word := englishIn(text); word != "" {
		t.Errorf("%s: English %q in:\n%s", what, word, text)
	}
}

// englishIn is the first English word of text, or "".
func englishIn(text string) string {
	for _, token := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" \t\n,;()[]«»\"'…", r) }) {
		if literal.MatchString(token) {
			continue
		}
		if word := strings.ToLower(strings.TrimRight(token, ".:!?")); slices.Contains(englishWords, word) {
			return word
		}
	}
	return ""
}

// The scan finds the English of the operator's sentences: the start
// lines, the drain refusal, the flags' help.
func TestEnglishIsFound(t *testing.T) {
	for _, key := range []string{"op.run.listening", "op.run.shutting_down", "op.drain.single_node", "op.flag.addr",
		"op.help.flags", "op.backup.refused.in_data", "op.err.flag_unknown", "op.usage"} {
		if englishIn(en.T(key)) == "" {
			t.Errorf("no English found in %s: %q", key, en.T(key))
		}
	}
}
