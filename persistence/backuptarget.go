package persistence

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bivouac-ssh/bivouac/game"
)

// ErrRefusedTarget: a backup was not written because its target is a place
// a backup must never go (see CheckBackupTarget). Nothing was touched.
var ErrRefusedTarget = errors.New("backup refused")

// refused is an ErrRefusedTarget saying, in the operator's words
// (op.backup.refused.WHY, which say nothing was written), which target
// and why.
func refused(target, why string, args ...game.Arg) error {
	return game.Refuse(ErrRefusedTarget, game.M("op.backup.refused."+why, append([]game.Arg{game.Text("File", target)}, args...)...))
}

// writeFailed is a backup that failed as it was written: err is the
// system's, in Go's words; a target it would have replaced is untouched.
func writeFailed(target string, err error) error {
	var said *game.Error
	if errors.As(err, &said) {
		return err
	}
	return &game.Error{Msg: game.M("op.backup.failed", game.Text("File", target), game.Text("Why", err.Error())), Err: err}
}

// CheckBackupTarget returns the file a backup to target would replace (the
// target with its symbolic links and ".." resolved), or an ErrRefusedTarget
// saying why it must not be written:
//
//   - it is the live database (live), under any name: same device and
//     inode, so a symlink, a ".." path or a hard link to it is refused;
//   - it lies inside the data directory (dataDir, compared by device and
//     inode at every level, so bind mounts and symlinked parents count):
//     that directory holds the live database, the host key and the admin
//     socket, and a rename there replaces them;
//   - it exists and is not a regular file (a directory, FIFO, device or
//     socket, or a symlink to one), or it is a symlink to nothing: a
//     rename would turn a device node or pipe into a regular file;
//   - another process holds it open as a bbolt database (bbolt's file
//     lock): another server's live database;
//   - it sits beside a host key or an admin socket (DataDirMarks): it is
//     in another server's data directory.
//
// An empty dataDir or live skips that check. The answer holds only until
// the file system changes: WriteBackupFile checks again before its rename.
func CheckBackupTarget(target, dataDir, live string) (string, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", refused(target, "unchecked", game.Text("Why", err.Error()))
	}
	real, err := resolveTarget(target, abs)
	if err != nil {
		return "", err
	}
	if err := checkTargetFile(target, real, live); err != nil {
		return "", err
	}
	for _, mark := range DataDirMarks {
		if _, err := os.Lstat(filepath.Join(filepath.Dir(real), mark)); err == nil {
			return "", refused(target, "beside", game.Text("Mark", mark))
		}
	}
	if dataDir == "" {
		return real, nil
	}
	data, err := os.Stat(dataDir)
	if err != nil {
		return "", refused(target, "data_unchecked", game.Text("Dir", dataDir), game.Text("Why", err.Error()))
	}
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil && os.SameFile(fi, data) {
			return "", refused(target, "in_data", game.Text("Dir", dataDir))
		}
		if dir == filepath.Dir(dir) {
			return real, nil
		}
	}
}

// resolveTarget resolves every symbolic link in abs (target made
// absolute): in its directories (which must exist) and, if abs is itself
// a link, to the file it names.
func resolveTarget(target, abs string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", refused(target, "no_dir", game.Text("Dir", filepath.Dir(abs)))
	}
	path := filepath.Join(dir, filepath.Base(abs))
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
		return path, nil
	}
	if err != nil {
		return "", refused(target, "unchecked", game.Text("Why", err.Error()))
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", refused(target, "dangling")
	}
	return real, nil
}

// checkTargetFile refuses real (the resolved target) if it exists and is
// not a regular file, or is the live database.
func checkTargetFile(target, real, live string) error {
	fi, err := os.Lstat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return refused(target, "unchecked", game.Text("Why", err.Error()))
	}
	if kind := notRegular(fi.Mode()); kind != "" {
		return refused(target, "not_regular", game.Term("Kind", "op.backup.kind."+kind))
	}
	if heldAsDatabase(real) {
		return refused(target, "held")
	}
	if live == "" {
		return nil
	}
	if lfi, err := os.Stat(live); err == nil && os.SameFile(fi, lfi) {
		return refused(target, "live", game.Text("Live", live))
	}
	return nil
}

// DataDirMarks are the files that make a directory a Bivouac server's data
// directory, beside its database: the host key (hostkeys.FileName) and the
// admin socket (server.AdminSocket). A backup is never written beside them.
var DataDirMarks = []string{"ssh_host_ed25519_key", "admin.sock"}

// notRegular names what a file of mode m is (op.backup.kind.NAME), or
// "" for a regular file.
func notRegular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "special"
}

// WriteBackupFile writes a backup to target, refused as CheckBackupTarget
// says. fill writes the copy; verify (may be nil) checks the finished
// temporary file before it takes target's place. The copy goes into a
// temporary file beside the resolved target (mode 0600), is synced, checked
// again for a refused target, and renamed over it: a crash leaves the old
// file or the complete new one, and a refused target is never touched.
func WriteBackupFile(target, dataDir, live string, fill func(w io.Writer) error, verify func(tmp string) error) (err error) {
	real, err := CheckBackupTarget(target, dataDir, live)
	if err != nil {
		return err
	}
	dir := filepath.Dir(real)
	f, err := os.CreateTemp(dir, ".bivouac-backup-*")
	if err != nil {
		return writeFailed(target, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o600); err != nil {
		return writeFailed(target, err)
	}
	if err = fill(f); err != nil {
		return writeFailed(target, err)
	}
	if err = f.Sync(); err != nil {
		return writeFailed(target, err)
	}
	if err = f.Close(); err != nil {
		return writeFailed(target, err)
	}
	if verify != nil {
		if err = verify(f.Name()); err != nil {
			return writeFailed(target, err)
		}
	}
	// The target may have changed while the copy was written.
	if err = checkTargetFile(target, real, live); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), real); err != nil {
		return writeFailed(target, err)
	}
	return syncDir(dir)
}
