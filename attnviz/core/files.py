"""Reading and writing files so that no file can hang AttnViz, exhaust memory or lose work.

Reading: only regular files are opened (a FIFO would block forever, /dev/zero never ends),
and never more than a limit. Writing: to a temporary file beside the target that is then
renamed over it, so a crash or a full disk never leaves half a file; a read-only file is
not replaced; temporary files that a killed AttnViz left behind are removed at the next save
in their folder.

Whose temporary file is abandoned: a save holds an exclusive lock (flock) on its temporary file
until the file is renamed into place, and the system lets go of a lock when its process ends,
however it ends (kill -9 too). So a temporary file nobody holds a lock on belongs to a dead
save; one that is locked belongs to a live one (this process's other thread, or another
AttnViz), and is left alone. A lock rather than the writer's pid in the file name: a pid can be
reused by another program, and a pid says nothing about a process on another machine that
writes into the same network folder. On Windows, which has no flock, an open file cannot be
removed at all, which protects a live save just as well.
"""
from __future__ import annotations

import os
import stat
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Callable

try:
    import fcntl
except ImportError:  # Windows: a file open in another process cannot be removed, which is the lock
    fcntl = None  # type: ignore[assignment]

from .messages import QT_TR_NOOP, AttnVizError
from .scenario import ScenarioError
from .text import visible

TEMP_PREFIX = ".attnviz-"  # short: the target's own name may already use the system's 255 bytes
TEMP_SUFFIX = ".tmp"
STALE_SECONDS = 3600       # where files cannot be locked: a temporary file this old is abandoned


class FileProblem(ScenarioError):
    """A file that cannot be read or written; the message names the file and what is wrong."""


def problem(path, what, *values) -> FileProblem:
    """`what` is a message template and its values, or an error whose message (and translation)
    it carries."""
    what = AttnVizError(what, *values) if isinstance(what, str) else what
    return FileProblem(QT_TR_NOOP("{0}: {1}"), shown_path(path), what)


def shown_path(path, most: int = 240) -> str:
    """A path as a message names it: its control characters (a newline, an escape) made visible, and a
    path longer than `most` characters cut at its start, its end (the file's own name) kept."""
    text = str(path)
    text = text if text.isprintable() else visible(text)
    return text if len(text) <= most else "…" + text[-(most - 1):]


@contextmanager
def naming(path):
    """What goes wrong inside said naming `path`: a ScenarioError becomes its FileProblem (one that names a
    file already, the model's own, passes as it is)."""
    try:
        yield
    except FileProblem:
        raise
    except ScenarioError as e:
        raise problem(path, e) from None


def os_problem(path, error: BaseException) -> FileProblem:
    """An OSError (or a bad path) in the user's terms."""
    if isinstance(error, FileNotFoundError):
        return problem(path, QT_TR_NOOP("no such file"))
    if isinstance(error, PermissionError):
        return problem(path, QT_TR_NOOP("permission denied (the file cannot be read)"))
    if isinstance(error, IsADirectoryError):
        return problem(path, QT_TR_NOOP("is a folder, not a file"))
    if isinstance(error, ValueError):  # a NUL byte in the name
        return problem(repr(str(path)), QT_TR_NOOP("is not a usable file name"))
    return problem(path, QT_TR_NOOP("cannot be used ({0})"), getattr(error, 'strerror', None) or error)


# ---------------------------------------------------------------- reading

def regular_file(path) -> os.stat_result:
    """The file's stat, refusing folders, FIFOs, devices and sockets before anything opens them."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as e:
        raise os_problem(path, e) from None
    if stat.S_ISDIR(info.st_mode):
        raise problem(path, QT_TR_NOOP("is a folder, not a file"))
    if not stat.S_ISREG(info.st_mode):
        raise problem(path,
                      QT_TR_NOOP("is not a regular file (a pipe, a device or a socket): AttnViz opens files only"))
    return info


def optional_file(path) -> bool:
    """Whether a file a folder may hold is there: absent, False; there but a pipe, a device or a folder,
    refused (not passed over as if absent)."""
    if not os.path.lexists(path):
        return False
    regular_file(path)
    return True


def open_regular(path, limit: int) -> BinaryIO:
    """An open binary file, checked to be regular and at most `limit` bytes."""
    info = regular_file(path)
    if info.st_size > limit:
        raise too_large(path, info.st_size, limit)
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, open still returns.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError) as e:
        raise os_problem(path, e) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise problem(path, QT_TR_NOOP("is not a regular file: AttnViz opens files only"))
    return os.fdopen(fd, "rb")


def mapped_stamp(info: os.stat_result) -> tuple[int, int, int, int, int]:
    """What `still_whole` compares: the file (device, inode), its length, when it was written and when its
    inode last changed (which writing changes too, and which no one can set back as `touch -r` sets the other)."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def still_whole(path, mapped: tuple[int, int, int, int, int], opened: int | None = None) -> None:
    """Refused when the file mapped (its `mapped_stamp`) is shorter than it was (copied over while open): reading
    its mapped pages past the new end would kill the process (SIGBUS), unsaved work and all; or written since
    (the same length, other numbers: a compact model reads its weights again at every pass). Checked before
    each read of a mapped file's data; a file cut in the instant between the check and the read is not
    caught. `opened`: a descriptor of the mapped file kept open, which finds it whatever its name now (moved,
    then changed); else it is looked for under `path`, and another file there (replaced by a rename), or
    none, leaves the mapped one whole."""
    try:
        info = os.stat(path) if opened is None else os.fstat(opened)
    except OSError:
        return
    if (info.st_dev, info.st_ino) != mapped[:2]:
        return
    if info.st_size < mapped[2]:
        raise problem(path, QT_TR_NOOP("changed while AttnViz was reading it (it is shorter now): open it again"))
    if (info.st_mtime_ns, info.st_ctime_ns) != mapped[3:]:
        raise problem(path, QT_TR_NOOP("changed while AttnViz was reading it (it has been written, moved or given "
                                       "other permissions since it was opened): open it again"))


def read_limited(path, limit: int) -> bytes:
    """All of a regular file of at most `limit` bytes (reading limit + 1 at most, whatever
    its size claimed)."""
    with open_regular(path, limit) as f:
        try:
            # Python allocates what a read asks for: ask for the size the file claims (a 2 KB
            # config.json is not read into a 64 MB buffer), then for the rest of the limit if it grew.
            data = f.read(min(os.fstat(f.fileno()).st_size, limit) + 1)
            while 0 < len(data) <= limit and (more := f.read(min(limit + 1 - len(data), 1 << 20))):
                data += more
        except OSError as e:
            raise os_problem(path, e) from None
    if len(data) > limit:
        raise too_large(path, len(data), limit)
    return data


def too_large(path, size: int, limit: int) -> FileProblem:
    return problem(path, QT_TR_NOOP("is too large: {0:,} bytes, more than the {1:,} AttnViz reads from such a file"),
                   size, limit)


def stamp(path) -> tuple | None:
    """What identifies the file's contents on disk (for "changed since it was opened"), or None."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


# ---------------------------------------------------------------- writing

Writer = Callable[[BinaryIO], None]


def check_writable(path) -> None:
    """What atomic_write would refuse of `path` (no folder, a folder, a device, a read-only file), said before
    long work makes what is to be written."""
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    _check_target(path, path.parent if str(path.parent) else Path("."))


def atomic_write(path, data: bytes | Writer, private: bool = False, replace=None) -> None:
    """Write `data` (bytes, or a function writing to a file) to `path`, or leave `path` as it was.

    `private` files (crash copies, logs) are readable by their owner only. `replace(tmp, path)`,
    os.replace by default, puts the written file in place; it may raise to drop it instead."""
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)  # write through a link
    folder = path.parent if str(path.parent) else Path(".")
    _check_target(path, folder)
    clean_stale_temporaries(folder)
    fd, tmp = _locked_temporary(path, folder)
    f = os.fdopen(fd, "wb")
    try:
        data(f) if callable(data) else f.write(data)
        f.flush()
        os.fsync(f.fileno())
        os.chmod(tmp, 0o600 if private else _mode_for(path))  # mkstemp makes 0600
        if fcntl is None:
            f.close()  # Windows renames no open file
        # Renamed while still open and locked: no other save can take it for abandoned.
        (replace or os.replace)(tmp, path)
        _sync_folder(folder)
    except OSError as e:
        _close_quietly(f)
        _remove_quietly(tmp)
        raise problem(path, QT_TR_NOOP("could not be written ({0})"), e.strerror or e) from None
    except BaseException:
        _close_quietly(f)
        _remove_quietly(tmp)
        raise
    _close_quietly(f)  # written, synced and in place: closing lets go of the lock


def _locked_temporary(path: Path, folder: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, open and locked. Another save may clean the folder
    between the file's creation and its lock: then it is gone, and another one is made."""
    while True:
        try:
            fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
        except OSError as e:
            raise problem(path, QT_TR_NOOP("cannot write in {0} ({1})"), folder, e.strerror) from None
        if _lock(fd) is not False and os.fstat(fd).st_nlink > 0:
            return fd, tmp
        os.close(fd)  # taken for abandoned before it was locked: its cleaner removes it


def _lock(fd: int) -> bool | None:
    """Lock the open file for this process's write: True, False if someone holds it, None where
    files cannot be locked (no flock, or a file system without locks)."""
    if fcntl is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return None
    return True


def _check_target(path: Path, folder: Path) -> None:
    try:
        folder_exists = folder.is_dir()
        info = os.stat(path) if os.path.lexists(path) else None
    except (OSError, ValueError) as e:
        raise os_problem(path, e) from None
    if not folder_exists:
        raise problem(path, QT_TR_NOOP("the folder {0} does not exist"), shown_path(folder, 60))
    if info is None:
        return
    if stat.S_ISDIR(info.st_mode):
        raise problem(path, QT_TR_NOOP("is a folder; give a file name"))
    if not stat.S_ISREG(info.st_mode):
        raise problem(path, QT_TR_NOOP("is not a regular file (a pipe or a device): AttnViz does not write there"))
    if not info.st_mode & 0o222:  # checked by its bits: root may write anything, and must not either
        raise problem(path, QT_TR_NOOP("is read-only: AttnViz does not replace it; save under another name "
                            "or make the file writable first"))


def clean_stale_temporaries(folder: Path) -> None:
    """Remove the temporary files of AttnViz's own pattern that no live save holds: those a
    killed or crashed save left behind (see the module's notes)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(TEMP_PREFIX) and entry.name.endswith(TEMP_SUFFIX):
            try:
                if entry.is_file(follow_symlinks=False):
                    _remove_if_abandoned(entry.path)
            except OSError:
                pass


def _remove_if_abandoned(path: str) -> None:
    if fcntl is None:
        os.unlink(path)  # refused while a live save has the file open
        return
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        held = _lock(fd)
        if held is None:  # no locks here: only age tells
            if os.fstat(fd).st_mtime < time.time() - STALE_SECONDS:
                os.unlink(path)
        elif held and os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
            os.unlink(path)  # while locked: its writer, were it alive, could not have it
    finally:
        os.close(fd)


def _mode_for(path: Path) -> int:
    """The replaced file's permissions, or what a new file gets under the user's umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _close_quietly(f) -> None:
    try:
        f.close()
    except OSError:
        pass


def _remove_quietly(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
