package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bivouac-ssh/bivouac/game"
	"github.com/bivouac-ssh/bivouac/i18n"
	"github.com/bivouac-ssh/bivouac/persistence"
	"github.com/bivouac-ssh/bivouac/server/node"
)

// The admin socket lets `bivouac backup` take a hot copy from a running
// server: the database file is locked by the server, so another process
// can't open it, but it can ask the server for a consistent copy (a bbolt
// read transaction's WriteTo) over a Unix socket only the operator can reach
// (it lives in the 0700 data dir, mode 0600). `bivouac drain` asks a
// cluster node to hand its tables over and stop (package node).

// DatabaseFile is the bbolt database's file name in the data directory.
const DatabaseFile = "bivouac.db"

// AdminSocket is the admin socket's file name in the data directory.
const AdminSocket = "admin.sock"

// listenAdmin serves admin requests until the listener is closed.
func (s *Server) listenAdmin() error {
	path := filepath.Join(s.cfg.DataDir, AdminSocket)
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return fmt.Errorf("another server answers on %s", path)
	}
	os.Remove(path) // a socket left by a killed server
	l, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return err
	}
	s.admin = l
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serveAdmin(c)
		}
	}()
	return nil
}

// backupStall is how long the admin socket's backup reader may take to
// accept one write before the backup is given up.
var backupStall = 30 * time.Second

// stallLimit is a connection whose every write must go through within d:
// a reader that stops reading ends the stream, not the server's patience.
type stallLimit struct {
	c net.Conn
	d time.Duration
}

func (w stallLimit) Write(p []byte) (int, error) {
	_ = w.c.SetWriteDeadline(time.Now().Add(w.d)) // fails only on a closed connection, as the write then does
	return w.c.Write(p)
}

func (s *Server) serveAdmin(c net.Conn) {
	defer c.Close()
	// Deadlines fail only on a closed connection, where the read or
	// write that follows fails too.
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(c, 256)).ReadString('\n')
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	req, lang := adminRequest(line)
	switch req {
	case "backup":
		b, ok := s.store.(persistence.Backuper)
		if !ok {
			return // a cluster's store keeps replicas, not a file: the copy is empty, which Backup says
		}
		if _, err := b.SpooledBackup(stallLimit{c, backupStall}); err != nil {
			s.log.Error("backup over the admin socket", "err", err)
		}
	case "drain":
		s.adminDrain(c, i18n.For(lang), node.DrainOptions{})
	case "drain --force":
		s.adminDrain(c, i18n.For(lang), node.DrainOptions{Force: true})
	default:
		fmt.Fprintln(c, unknownRequest)
	}
}

// unknownRequest answers a request the server does not know: an older
// server answers so to a newer tool's request, which asks again the old
// way (RequestDrain).
const unknownRequest = "unknown request"

// adminRequest splits an admin socket request into what is asked and the
// language the asker reads ("drain --force lang=pl"): a drain's lines
// are for the operator who runs `bivouac drain`, whose language may not
// be the server's. Without lang=, English (what older tools read).
func adminRequest(line string) (req string, lang i18n.Lang) {
	fields := strings.Fields(line)
	lang = i18n.English
	if n := len(fields); n > 1 {
		if code, ok := strings.CutPrefix(fields[n-1], "lang="); ok {
			lang, _ = i18n.Parse(code)
			fields = fields[:n-1]
		}
	}
	return strings.Join(fields, " "), lang
}

// ErrNotACluster: a single node has nowhere to drain to.
var ErrNotACluster = game.NewError("op.drain.single_node")

// Drain hands this cluster node's tables to the other nodes, sends its
// players there and stops the server (node.Node.Drain); a single node
// has nowhere to drain to.
func (s *Server) Drain(ctx context.Context, o node.DrainOptions, progress func(node.Handover)) (node.DrainReport, error) {
	if s.cluster == nil {
		return node.DrainReport{}, ErrNotACluster
	}
	return s.cluster.Drain(ctx, o, progress, s.Shutdown)
}

// Draining reports whether a drain has begun.
func (s *Server) Draining() bool { return s.cluster != nil && s.cluster.Draining() }

// Drained is closed once a drain has stopped the server (never on a
// single node: nil).
func (s *Server) Drained() <-chan struct{} {
	if s.cluster == nil {
		return nil
	}
	return s.cluster.Drained()
}

// DrainDone begins the last line of a drain over the admin socket when
// it succeeded ("drained: " and the summary in the asker's language);
// any other last line says why it did not.
const DrainDone = "drained"

// drainWithin bounds a drain asked for over the admin socket: every table
// handed over (handoverWithin each, drainAtOnce at a time) and the stop.
const drainWithin = 10 * time.Minute

// adminDrain drains the node for `bivouac drain`, a line to w per table,
// then DrainDone and a summary, or why not, in p's language.
func (s *Server) adminDrain(w io.Writer, p *i18n.Printer, o node.DrainOptions) {
	ctx, cancel := context.WithTimeout(context.Background(), drainWithin)
	defer cancel()
	var mu sync.Mutex
	rep, err := s.Drain(ctx, o, func(h node.Handover) {
		mu.Lock()
		fmt.Fprintln(w, p.Msg(handoverWords(h)))
		mu.Unlock()
	})
	if err != nil && rep.Tables == nil {
		fmt.Fprintln(w, p.ErrorDetail(err))
		return
	}
	failed := 0
	for _, h := range rep.Tables {
		if h.Err != nil {
			failed++
		}
	}
	summary := p.T("op.drain.done",
		game.Sub("Handed", game.M("op.drain.n_handed", game.Count(len(rep.Tables)-failed))),
		game.Sub("Left", game.M("op.drain.n_left", game.Count(failed))),
		game.Sub("Told", game.M("op.drain.n_told", game.Count(rep.Told))))
	if err != nil {
		summary += " " + p.T("op.drain.stop_failed", game.Text("Why", p.ErrorDetail(err)))
	}
	fmt.Fprintf(w, "%s: %s\n", DrainDone, summary)
}

// handoverWords is what the operator reads of one table a drain handed
// over, or could not (why is in the log).
func handoverWords(h node.Handover) game.Msg {
	if h.Err != nil {
		return game.M("op.drain.table_left", game.Text("Code", h.Room))
	}
	return game.M("op.drain.table", game.Text("Code", h.Room), game.Text("Node", h.Node), game.Text("Join", h.Join),
		game.Num("Ms", int(h.Took.Milliseconds())))
}

// RequestDrain asks the cluster node running on dataDir, over its admin
// socket, to hand each of its tables to another node, send its players
// there, and stop: one node's step of a rolling upgrade. It copies to out
// where each table went and returns once the node has stopped. Unless
// force, a node whose stop would leave the cluster without a majority
// refuses, saying so (node.ErrNoMajorityLeft). The node says all this
// in lang, the operator's language; a node of an older version, which
// knows no language in the request, in English.
func RequestDrain(ctx context.Context, dataDir string, force bool, lang i18n.Lang, out io.Writer) error {
	req := "drain"
	if force {
		req += " --force"
	}
	last, err := askDrain(ctx, dataDir, req+" lang="+string(lang), out)
	if err == nil && last == unknownRequest {
		last, err = askDrain(ctx, dataDir, req, out)
	}
	switch {
	case err != nil:
		return err
	case ctx.Err() != nil:
		return game.Refuse(nil, game.M("op.drain.stopped_waiting"))
	case strings.HasPrefix(last, DrainDone+":"):
		return nil
	case last == "":
		return game.Refuse(nil, game.M("op.drain.silent"))
	}
	return game.Refuse(nil, game.M("op.drain.not_drained"))
}

// askDrain sends req over the admin socket on dataDir and copies the
// answer to out, a line at a time, but for an unknownRequest (then the
// last line, for RequestDrain to ask again). The marker that begins the
// last line of a drain that succeeded is for RequestDrain, not the
// operator.
func askDrain(ctx context.Context, dataDir, req string, out io.Writer) (last string, err error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", filepath.Join(dataDir, AdminSocket))
	if err != nil {
		return "", game.Refuse(nil, game.M("op.drain.no_server", game.Text("Dir", dataDir)))
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := io.WriteString(c, req+"\n"); err != nil {
		return "", err
	}
	lines := bufio.NewScanner(c)
	for lines.Scan() {
		last = lines.Text()
		if last == unknownRequest {
			continue
		}
		fmt.Fprintln(out, strings.TrimPrefix(last, DrainDone+": "))
	}
	return last, nil
}

// Backup writes a consistent copy of the database on dataDir to dest:
// from the running server through its admin socket (live), or straight
// from the file if no server holds it. Either way dest is checked first
// and refused, with nothing touched, if it is in the data directory, is
// the live database under any name, or exists and is not a regular file
// (persistence.CheckBackupTarget).
func Backup(ctx context.Context, dataDir, dest string) (live bool, err error) {
	db := filepath.Join(dataDir, DatabaseFile)
	if _, err := persistence.CheckBackupTarget(dest, dataDir, db); err != nil {
		return false, err
	}
	var d net.Dialer
	if c, err := d.DialContext(ctx, "unix", filepath.Join(dataDir, AdminSocket)); err == nil {
		defer c.Close()
		return true, persistence.WriteBackupFile(dest, dataDir, db, fromServer(c), openable)
	}
	if _, err := os.Stat(db); err != nil {
		return false, game.Refuse(nil, game.M("op.backup.no_database", game.Text("Dir", dataDir)))
	}
	store, err := persistence.Open(db, persistence.Options{})
	if err != nil {
		return false, err
	}
	defer store.Close()
	return false, store.BackupFile(dest)
}

// fromServer asks the server on the admin connection c for a backup and
// copies it to w. A cluster node sends nothing: its store is replicated
// in JetStream, with no file to copy.
func fromServer(c net.Conn) func(w io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(c, "backup\n"); err != nil {
			return err
		}
		n, err := io.Copy(w, c)
		if err == nil && n == 0 {
			err = game.Refuse(nil, game.M("op.backup.empty"))
		}
		return err
	}
}

// openable checks a copy by opening it as a Bivouac database.
func openable(path string) error {
	check, err := persistence.Open(path, persistence.Options{})
	if err != nil {
		return game.Refuse(err, game.M("op.backup.copy_bad", game.Text("Why", err.Error())))
	}
	return check.Close()
}
