"""Write a file atomically with a read-back check, for any kind of JSON file.

Same steps as the map and encounter savers: a temporary file in the same folder →
flush and fsync → ``verify(tmp)`` reads it back → ``os.replace`` over the target →
fsync the folder. Any failure raises :class:`SaveError`, removes the temporary file
and leaves the target byte-for-byte as it was. Symlinks are saved through, a
read-only file or a folder at the path is refused, an existing file keeps its mode.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from ..errors import LoadError
from .files import SaveError
from .jsonsafe import clip


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


def _temporary(folder: Path, name: str) -> tuple[Path, int]:
    for _ in range(10):
        candidate = folder / f".{name[:80]}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(
                candidate,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                0o666,  # the umask applies, as for any new file
            )
        except FileExistsError:
            continue
        return candidate, fd
    raise OSError("could not create a temporary file")  # pragma: no cover


def write_atomic(path: Path | str, blob: bytes, verify: Callable[[Path], None]) -> None:
    """Write ``blob`` to ``path`` atomically; ``verify(tmp)`` raises LoadError when the
    written file does not read back as meant. Raises only SaveError."""
    target = Path(os.path.realpath(path))  # save through a symlink, not over it
    folder = target.parent
    if not folder.is_dir():
        raise SaveError(path, f"the folder {clip(folder, 120)} does not exist")
    old_mode: int | None = None
    if os.path.lexists(target):
        st = os.stat(target)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(path, "there is a folder or a special file at this path")
        if not os.access(target, os.W_OK):
            raise SaveError(path, "the file is read-only")
        old_mode = stat.S_IMODE(st.st_mode)
    tmp: Path | None = None
    try:
        tmp, fd = _temporary(folder, target.name)
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        if old_mode is not None:
            os.chmod(tmp, old_mode)
        verify(tmp)
        os.replace(tmp, target)
        tmp = None
    except SaveError:
        raise
    except LoadError as e:
        raise SaveError(path, e.reason, e.where) from None
    except OSError as e:
        reason = e.strerror or clip(e, 120)
        raise SaveError(path, f"could not save ({reason}); the file on disk is unchanged") from None
    except Exception as e:
        raise SaveError(
            path, f"could not save ({clip(e, 120)}); the file on disk is unchanged"
        ) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    fsync_folder(folder)
