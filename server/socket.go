package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

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
	switch strings.TrimSpace(line) {
	case "backup":
		b, ok := s.store.(persistence.Backuper)
		if !ok {
			fmt.Fprintln(c, "this store keeps replicas, not a backup file")
			return
		}
		if _, err := b.SpooledBackup(stallLimit{c, backupStall}); err != nil {
			s.log.Error("backup over the admin socket", "err", err)
		}
	case "drain":
		s.adminDrain(c, node.DrainOptions{})
	case "drain --force":
		s.adminDrain(c, node.DrainOptions{Force: true})
	default:
		fmt.Fprintln(c, "unknown request")
	}
}

// Drain hands this cluster node's tables to the other nodes, sends its
// players there and stops the server (node.Node.Drain); a single node
// has nowhere to drain to.
func (s *Server) Drain(ctx context.Context, o node.DrainOptions, progress func(string)) (node.DrainReport, error) {
	if s.cluster == nil {
		return node.DrainReport{}, errors.New("drain: this server is not a node of a cluster, so no other node can take its tables; stop it instead")
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

// DrainDone is the last line of a drain over the admin socket when it
// succeeded; any other last line says why it did not.
const DrainDone = "drained"

// drainWithin bounds a drain asked for over the admin socket: every table
// handed over (handoverWithin each, drainAtOnce at a time) and the stop.
const drainWithin = 10 * time.Minute

// adminDrain drains the node for `bivouac drain`, a line to w per table,
// then DrainDone and a summary, or why not.
func (s *Server) adminDrain(w io.Writer, o node.DrainOptions) {
	ctx, cancel := context.WithTimeout(context.Background(), drainWithin)
	defer cancel()
	var mu sync.Mutex
	rep, err := s.Drain(ctx, o, func(line string) {
		mu.Lock()
		fmt.Fprintln(w, line)
		mu.Unlock()
	})
	if err != nil && rep.Tables == nil {
		fmt.Fprintln(w, err)
		return
	}
	failed := 0
	for _, h := range rep.Tables {
		if h.Err != nil {
			failed++
		}
	}
	fmt.Fprintf(w, "%s: %d tables handed over, %d left to the other nodes' takeover, %d sessions sent to another node; stopped", DrainDone, len(rep.Tables)-failed, failed, rep.Told)
	if err != nil {
		fmt.Fprintf(w, " (%v)", err)
	}
	fmt.Fprintln(w)
}

// RequestDrain asks the cluster node running on dataDir, over its admin
// socket, to hand each of its tables to another node, send its players
// there, and stop: one node's step of a rolling upgrade. It copies to out
// where each table went and returns once the node has stopped. Unless
// force, a node whose stop would leave the cluster without a majority
// refuses, saying so (node.ErrNoMajorityLeft).
func RequestDrain(ctx context.Context, dataDir string, force bool, out io.Writer) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", filepath.Join(dataDir, AdminSocket))
	if err != nil {
		return fmt.Errorf("no server runs on %s: %w", dataDir, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	req := "drain\n"
	if force {
		req = "drain --force\n"
	}
	if _, err := io.WriteString(c, req); err != nil {
		return err
	}
	last := ""
	lines := bufio.NewScanner(c)
	for lines.Scan() {
		last = lines.Text()
		fmt.Fprintln(out, last)
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("stopped waiting; the node goes on draining: %w", ctx.Err())
	case strings.HasPrefix(last, DrainDone+":"):
		return nil
	case last == "":
		return errors.New("the server said nothing")
	}
	return errors.New("the node was not drained")
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
		if err := persistence.WriteBackupFile(dest, dataDir, db, fromServer(c), openable); err != nil {
			if errors.Is(err, persistence.ErrRefusedTarget) {
				return true, err
			}
			return true, fmt.Errorf("backup from the running server: %w", err)
		}
		return true, nil
	}
	if _, err := os.Stat(db); err != nil {
		return false, fmt.Errorf("no database to back up: %w", err)
	}
	store, err := persistence.Open(db, persistence.Options{})
	if err != nil {
		return false, err
	}
	defer store.Close()
	return false, store.BackupFile(dest)
}

// fromServer asks the server on the admin connection c for a backup and
// copies it to w.
func fromServer(c net.Conn) func(w io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(c, "backup\n"); err != nil {
			return err
		}
		n, err := io.Copy(w, c)
		if err == nil && n == 0 {
			err = errors.New("the server sent nothing")
		}
		return err
	}
}

// openable checks a copy by opening it as a Bivouac database.
func openable(path string) error {
	check, err := persistence.Open(path, persistence.Options{})
	if err != nil {
		return fmt.Errorf("the copy does not open: %w", err)
	}
	return check.Close()
}
