"""The one atomic write of the package: every file the app writes goes through here.

``write_atomic(path, data)`` writes ``data`` (bytes, or a callable that writes the
file at a path it is given — a PDF or PNG writer) to a temporary file in the target's
own folder, in chunks, fsyncs it, gives it the permissions of the file it replaces and
renames it over the target, then fsyncs the folder. On every failure path the
temporary file is removed and the target is byte-for-byte as it was.

A crash (``kill -9``, a power cut) between creating the temporary file and the rename
leaves ``.NAME.XXXXXXXX.tmp`` behind; the next save of the same file removes every
such leftover first (:func:`clean_stale_temps`), so leftovers never pile up.

Before anything is written :func:`check_writable` refuses a target that is a folder or
a special file, and a file without any write permission bit — checked on the mode bits
themselves, so running as root does not silently overwrite a read-only file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from ..errors import LoadError
from .jsonsafe import clip


class SaveError(LoadError):
    """A file could not be saved. The file on disk is exactly as it was."""


#: Bytes written per ``write`` call (a 200 MB file is never one giant write).
CHUNK = 1 << 20
#: Temporary files are ``.<target name, at most this long>.<8 hex>.tmp<suffix>``.
_NAME_KEEP = 80
_DISK_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}

Writer = Callable[[Path], None]


def _tmp_prefix(target: Path) -> str:
    return f".{target.name[:_NAME_KEEP]}."


def _tmp_pattern(target: Path) -> re.Pattern[str]:
    return re.compile(
        re.escape(_tmp_prefix(target)) + r"[0-9a-f]{8}\.tmp(?:" + re.escape(target.suffix) + ")?$"
    )


def clean_stale_temps(target: Path | str) -> int:
    """Remove temporary files a crashed save of ``target`` left beside it; returns how
    many went. Only names this module makes for this very file are touched."""
    target = Path(os.path.realpath(target))
    pattern = _tmp_pattern(target)
    removed = 0
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return 0
    for entry in entries:
        if pattern.match(entry.name) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed += 1
    return removed


def disk_full(e: BaseException) -> bool:
    return isinstance(e, OSError) and e.errno in _DISK_FULL


def os_reason(e: BaseException) -> str:
    """A short reason for an OS error; a full disk (or a file-size limit) says so."""
    if disk_full(e):
        detail = e.strerror if isinstance(e, OSError) and e.strerror else "no space left"
        return f"the disk is full: {detail}"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return clip(e, 120)


def check_writable(path: Path | str, cls: type[LoadError] = SaveError) -> int | None:
    """Refuse a target that cannot be replaced safely; return the mode bits of the
    file it replaces (None when there is no file yet)."""
    target = Path(os.path.realpath(path))
    folder = target.parent
    if not folder.is_dir():
        raise cls(path, f"the folder {clip(folder, 120)} does not exist")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise cls(path, f"cannot be saved ({os_reason(e)})") from None
    if not stat.S_ISREG(st.st_mode):
        raise cls(path, "there is a folder or a special file at this path")
    mode = stat.S_IMODE(st.st_mode)
    # the mode bits, not os.access: root may write anything, but a file the Judge
    # made read-only must not be overwritten behind their back
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise cls(path, "the file is read-only; make it writable or save under another name")
    return mode


def _new_temp(target: Path) -> tuple[int, Path]:
    for _ in range(10):
        candidate = (
            target.parent / f"{_tmp_prefix(target)}{secrets.token_hex(4)}.tmp{target.suffix}"
        )
        try:
            fd = os.open(
                candidate,
                os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                0o666,  # the umask applies, as for any new file
            )
        except FileExistsError:
            continue
        return fd, candidate
    raise OSError(errno.EEXIST, "could not create a temporary file")  # pragma: no cover


def _write_chunks(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    total = len(view)
    while view:
        n = os.write(fd, view[:CHUNK])
        view = view[n:]
    os.fsync(fd)
    # the check instead of a read-back parse: the file holds exactly these bytes
    if os.fstat(fd).st_size != total:
        raise _Mismatch("the written file has the wrong size")
    pos = 0
    while pos < total:
        got = os.pread(fd, min(CHUNK, total - pos), pos)
        if not got or got != data[pos : pos + len(got)]:
            raise _Mismatch("the written file reads back differently")
        pos += len(got)


class _Mismatch(Exception):
    """The temporary file does not hold what was written (a failing disk)."""


def fsync_folder(folder: Path) -> None:
    """Make a rename durable where the OS allows fsync on a folder (POSIX)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(
    path: Path | str, data: bytes | Writer, *, cls: type[LoadError] = SaveError
) -> None:
    """Replace ``path`` with ``data`` atomically (see the module docstring).

    ``data`` is the file's bytes, or a callable ``write(tmp_path)`` that writes the
    file itself (it must write something). Raises only ``cls`` (a LoadError); then
    the target is unchanged and no temporary file is left.
    """
    target = Path(os.path.realpath(path))  # save through a symlink, not over it
    old_mode = check_writable(path, cls)
    clean_stale_temps(target)
    tmp: Path | None = None
    try:
        fd, tmp = _new_temp(target)
        if callable(data):
            os.close(fd)
            data(tmp)
            size = os.stat(tmp).st_size
            if size == 0:
                raise cls(path, "nothing was written (the disk may be full)")
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
        else:
            try:
                _write_chunks(fd, data)
            finally:
                os.close(fd)
        if old_mode is not None:
            os.chmod(tmp, old_mode)
        os.replace(tmp, target)
        tmp = None
    except LoadError as e:
        if isinstance(e, cls):
            raise
        raise cls(path, e.reason, e.where) from None
    except OSError as e:
        raise cls(path, f"could not save ({os_reason(e)}); the file on disk is unchanged") from None
    except _Mismatch as e:
        raise cls(path, f"{e}; the file on disk is unchanged") from None
    except Exception as e:
        if callable(data):
            raise  # the writer's own error (the caller knows its writer); temp still goes
        raise cls(path, f"could not save ({clip(e, 120)}); the file on disk is unchanged") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    fsync_folder(target.parent)
