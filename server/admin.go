package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bivouac-ssh/bivouac/persistence"
)

// The admin socket lets `bivouac backup` take a hot copy from a running
// server: the database file is locked by the server, so another process
// can't open it, but it can ask the server for a consistent copy (a bbolt
// read transaction's WriteTo) over a Unix socket only the operator can reach
// (it lives in the 0700 data dir, mode 0600). `bivouac drain` asks a
// cluster node to hand its tables over and stop (drain.go).

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
		if _, err := b.Backup(c); err != nil {
			s.log.Error("backup over the admin socket", "err", err)
		}
	case "drain":
		s.adminDrain(c)
	default:
		fmt.Fprintln(c, "unknown request")
	}
}
