package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"bivouac/engine"
	"bivouac/persistence"

	"github.com/charmbracelet/ssh"
)

// command answers `ssh host CMD` without a PTY, as plain text.
func (s *server) command(sess ssh.Session, args []string) int {
	out := sess
	switch strings.ToLower(args[0]) {
	case "rooms", "tables", "ls":
		s.listRooms(out)
		return 0
	case "help":
		fmt.Fprint(out, sshHelp)
		return 0
	case "join":
		fmt.Fprintln(sess.Stderr(), "join needs a terminal: ssh -t -p PORT host join CODE")
		return 2
	}
	fmt.Fprintf(sess.Stderr(), "unknown command %q\n\n%s", args[0], sshHelp)
	return 2
}

const sshHelp = `Bivouac: card games over ssh.

  ssh -p PORT host              open the lobby (needs a terminal)
  ssh -t -p PORT host join CODE go straight to a table
  ssh -p PORT host rooms        list open tables as text
  ssh -p PORT host help         this text

Players are known by their SSH key. Without a key you play as a guest; the
lobby shows a code: log in as CODE@host later to get your seat back.
`

func (s *server) listRooms(w io.Writer) {
	rooms := s.hub.List()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tGAME\tSEATED\tSTATUS\tPLAYERS")
	n := 0
	for _, r := range rooms {
		if r.Private || r.Status == engine.StatusClosed {
			continue
		}
		n++
		var names []string
		for _, st := range r.Seats {
			if st.Name != "" {
				names = append(names, st.Name)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", r.Code, r.Title, len(r.Seats)-r.Open, len(r.Seats), r.Status, strings.Join(names, ", "))
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(w, "(no open tables: ssh in with a terminal and press n to start one)")
	}
}

// runBackup writes a consistent copy of the database while the server runs.
func runBackup(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", envOr("BIVOUAC_DATA", "./data"), "data directory (env BIVOUAC_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: bivouac backup [--data DIR] FILE")
	}
	store, err := persistence.Open(filepath.Join(*data, "bivouac.db"), persistence.Options{})
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.BackupFile(fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s\n", fs.Arg(0))
	return nil
}
