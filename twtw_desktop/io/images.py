"""The one safe way to a picture a map names (backgrounds), without Qt.

A map names its background by a path relative to the map file. A shared map is
someone else's file, so every reader of a picture — the window, the players' screen,
the export, Save As and ``validate`` — goes through :func:`checked_picture`:

1. the path must be relative, without ``..``, and stay inside the map's own folder
   once symlinks are resolved (:func:`inside_folder`);
2. ``os.stat`` before any ``open``: a regular file (never a FIFO, device or folder,
   so nothing can hang or stream forever), at most :data:`MAX_IMAGE_BYTES` on disk;
3. it is opened non-blocking and ``fstat``-ed again (the file checked is the file
   read), and read whole into memory (at most 64 MB);
4. only the PNG ``IHDR`` chunk or the JPEG ``SOF`` marker is parsed — our own few
   lines of ``struct``, no decoding — and the size is held against
   :data:`MAX_IMAGE_SIDE` and :data:`MAX_IMAGE_DECODED_BYTES` and against the size
   the map declares. A "decompression bomb" is refused from its first 33 bytes;
5. a picture cut short is refused (:func:`check_complete`: a PNG's chunks whole, CRCs
   right, up to ``IEND``; a JPEG's end-of-image marker), so ``validate``, ``export``,
   ``summary`` and the window all refuse the same file the same way.

The Qt side (``ui/scene/picture.py``) then decodes those bytes with ``QImageReader``
under the same limits, enforced again by the reader's allocation limit.
:func:`copy_picture` is Save As: the same checks, then an atomic copy into the new
map's folder only.
"""

from __future__ import annotations

import io
import os
import stat
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath
from typing import BinaryIO, Literal

from ..errors import LoadError
from ..model.map import MAX_PICTURE_SIDE, BackgroundImage
from .atomic import SaveError, write_atomic
from .jsonsafe import clip

#: Widest/tallest picture accepted, in pixels (also BackgroundImage's field limit).
MAX_IMAGE_SIDE = MAX_PICTURE_SIDE
#: Most memory one decoded picture may take (4 bytes a pixel).
MAX_IMAGE_DECODED_BYTES = 256 * 1024 * 1024
#: Largest picture accepted, in pixels (what fits in :data:`MAX_IMAGE_DECODED_BYTES`).
MAX_IMAGE_PIXELS = MAX_IMAGE_DECODED_BYTES // 4
#: Largest picture file accepted on disk.
MAX_IMAGE_BYTES = 64 * 1024 * 1024

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic …); C4
#: (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_MAX_SEGMENTS = 1000

ImageFormat = Literal["png", "jpeg"]


class ImageHeaderError(ValueError):
    """The picture's header is missing, broken or of an unsupported format."""


def _read_exact(f: BinaryIO, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise ImageHeaderError("the picture is cut short (truncated header)")
    return data


def _png_size(f: BinaryIO) -> tuple[int, int]:
    length, ctype = struct.unpack(">I4s", _read_exact(f, 8))
    if ctype != b"IHDR" or length != 13:
        raise ImageHeaderError("broken PNG: the first chunk is not a 13-byte IHDR")
    body = _read_exact(f, 13)
    (crc,) = struct.unpack(">I", _read_exact(f, 4))
    if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
        raise ImageHeaderError("broken PNG: the IHDR checksum is wrong")
    width, height = struct.unpack(">II", body[:8])
    if width == 0 or height == 0 or width > 2**31 - 1 or height > 2**31 - 1:
        raise ImageHeaderError(f"broken PNG: impossible size {width}×{height}")
    return width, height


def _jpeg_size(f: BinaryIO) -> tuple[int, int]:
    for _ in range(_JPEG_MAX_SEGMENTS):
        if _read_exact(f, 1) != b"\xff":
            raise ImageHeaderError("broken JPEG: expected a marker")
        marker = _read_exact(f, 1)[0]
        while marker == 0xFF:  # fill bytes before a marker
            marker = _read_exact(f, 1)[0]
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            continue
        if marker in (0xD9, 0xDA):
            raise ImageHeaderError("broken JPEG: no frame header before the image data")
        (length,) = struct.unpack(">H", _read_exact(f, 2))
        if length < 2:
            raise ImageHeaderError("broken JPEG: a segment has an impossible length")
        if marker in _JPEG_SOF:
            if length < 7:
                raise ImageHeaderError("broken JPEG: the frame header is too short")
            _precision, height, width = struct.unpack(">BHH", _read_exact(f, 5))
            if width == 0 or height == 0:
                raise ImageHeaderError(
                    "unsupported JPEG: the frame header gives no size (0 pixels)"
                )
            return width, height
        f.seek(length - 2, os.SEEK_CUR)
    raise ImageHeaderError("broken JPEG: no frame header in the first 1000 segments")


def image_size(path: Path | str | bytes) -> tuple[ImageFormat, int, int]:
    """The format and pixel size of a PNG or JPEG (a file, or its bytes), from its
    header only."""
    with open(path, "rb") if not isinstance(path, bytes) else io.BytesIO(path) as f:
        head = f.read(8)
        if head == PNG_SIGNATURE:
            return ("png", *_png_size(f))
        if head[:3] == b"\xff\xd8\xff":
            f.seek(2)
            return ("jpeg", *_jpeg_size(f))
    if head[:6] in (b"GIF87a", b"GIF89a"):
        found = "a GIF picture"
    elif head[:2] == b"BM":
        found = "a BMP picture"
    elif head[:4] == b"RIFF":
        found = "a RIFF/WebP picture"
    else:
        found = "not a PNG or JPEG picture"
    raise ImageHeaderError(f"the file is {found}; backgrounds must be PNG or JPEG")


def check_complete(fmt: ImageFormat, data: bytes) -> None:
    """Refuse a picture cut short (a copy or download that stopped half way, header
    intact): a PNG's chunks must run whole, each with a right CRC, to ``IEND``; a
    JPEG must end with its end-of-image marker. No pixel is decoded."""
    if fmt == "jpeg":
        if b"\xff\xd9" not in data[-4096:]:
            raise ImageHeaderError("the JPEG is cut short (no end-of-image marker)")
        return
    pos = len(PNG_SIGNATURE)
    end = len(data)
    while True:
        if pos + 12 > end:
            raise ImageHeaderError("the PNG is cut short (it stops before its end chunk)")
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        stop = pos + 12 + length
        if stop > end:
            raise ImageHeaderError(
                f"the PNG is cut short (its {kind.decode('latin-1')!r} chunk is not whole)"
            )
        (crc,) = struct.unpack(">I", data[stop - 4 : stop])
        if zlib.crc32(data[pos + 4 : stop - 4]) != crc:
            raise ImageHeaderError(
                f"the PNG is damaged (its {kind.decode('latin-1')!r} chunk fails its check)"
            )
        if kind == b"IEND":
            return
        pos = stop


def _relative_parts(ref: str) -> list[str]:
    """The path components of a background reference, refusing escapes."""
    if "\x00" in ref:
        raise ImageHeaderError("the path contains a NUL character")
    norm = ref.replace("\\", "/")
    win = PureWindowsPath(ref)
    if norm.startswith("/") or win.drive or win.root or (len(ref) > 1 and ref[1] == ":"):
        raise ImageHeaderError(
            "the path is absolute; a background must sit in the map's folder "
            "and be named relative to it"
        )
    parts = [p for p in norm.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ImageHeaderError("the path uses '..' to leave the map's folder")
    if not parts:
        raise ImageHeaderError("the path names no file")
    return parts


class PictureError(LoadError):
    """A picture a map names was refused; ``reason`` says which check failed."""


@dataclass(frozen=True)
class CheckedPicture:
    """A picture that passed every check: where it is, its bytes, format and size."""

    path: Path
    data: bytes
    format: ImageFormat
    width: int
    height: int


def inside_folder(base: Path, ref: str) -> Path:
    """``ref`` (relative, ``/`` or ``\\`` separated) resolved under ``base``; raises
    ImageHeaderError when it is absolute, uses ``..`` or resolves (through a symlink)
    outside ``base``, FileNotFoundError when it is not there."""
    parts = _relative_parts(ref)
    base = base.resolve()
    target = base.joinpath(*parts).resolve(strict=True)
    if not target.is_relative_to(base):
        raise ImageHeaderError(f"it leads outside the map's folder (a link to {clip(target)})")
    return target


def _read_regular(target: Path, cap: int) -> bytes:
    """The bytes of ``target``: stat first (a regular file, at most ``cap`` bytes),
    then a non-blocking open and fstat, so a FIFO or device swapped in is refused
    too, never waited on."""
    st = os.stat(target)
    if not stat.S_ISREG(st.st_mode):
        raise ImageHeaderError("it is not a regular file (a folder, pipe or device)")
    if st.st_size > cap:
        raise ImageHeaderError(f"the file is {_mb(st.st_size)}; the limit is {_mb(cap)}")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(target, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ImageHeaderError("it is not a regular file (a folder, pipe or device)")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(cap + 1)
    finally:
        os.close(fd)
    if len(data) > cap:
        raise ImageHeaderError(f"the file is larger than the limit of {_mb(cap)}")
    return data


def read_picture_file(path: Path | str) -> bytes:
    """The bytes of a picture the Judge picked (a regular file ≤ 64 MB, stat first,
    never a pipe or device). Raises ImageHeaderError or OSError."""
    return _read_regular(Path(path), MAX_IMAGE_BYTES)


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_picture_size(width: int, height: int) -> None:
    """Refuse a picture over the side or decoded-memory limits (ImageHeaderError)."""
    if width > MAX_IMAGE_SIDE or height > MAX_IMAGE_SIDE:
        raise ImageHeaderError(
            f"it is {width}×{height} pixels; the limit is {MAX_IMAGE_SIDE} pixels a side"
        )
    if width * height * 4 > MAX_IMAGE_DECODED_BYTES:
        raise ImageHeaderError(
            f"it is {width}×{height} pixels, {width * height * 4 // (1024 * 1024)} MB "
            f"decoded; the limit is {MAX_IMAGE_DECODED_BYTES // (1024 * 1024)} MB"
        )


def checked_picture(
    map_path: Path | str, background: BackgroundImage, *, read: bool = True
) -> CheckedPicture:
    """The map's background picture after every check in the module docstring.

    Raises :class:`PictureError` (a LoadError naming the map file and the
    ``background`` field). ``read=False`` still opens the file (the header is
    checked) but keeps no bytes.
    """
    where = "background.path"
    shown = clip(background.path)
    try:
        target = inside_folder(Path(map_path).absolute().parent, background.path)
        data = _read_regular(target, MAX_IMAGE_BYTES)
        fmt, width, height = image_size(data)
        check_picture_size(width, height)
        check_complete(fmt, data)
    except ImageHeaderError as e:
        raise PictureError(map_path, f"background {shown!r}: {e}", where) from None
    except FileNotFoundError:
        raise PictureError(map_path, f"background picture {shown!r} not found", where) from None
    except (OSError, RuntimeError, ValueError) as e:  # loops, bad names, permissions
        reason = getattr(e, "strerror", None) or clip(e, 120)
        raise PictureError(
            map_path, f"background {shown!r} cannot be read ({reason})", where
        ) from None
    if (width, height) != (background.width, background.height):
        raise PictureError(
            map_path,
            f"background {shown!r} is a {width}×{height} {fmt.upper()}, but the map "
            f"declares {background.width}×{background.height}",
            "background.width",
        )
    return CheckedPicture(target, data if read else b"", fmt, width, height)


def check_background(map_path: Path | str, background: BackgroundImage) -> Path:
    """The checked absolute path of a map's background picture (see
    :func:`checked_picture`)."""
    return checked_picture(map_path, background, read=False).path


def copy_picture(
    map_path: Path | str, background: BackgroundImage, new_map_path: Path | str
) -> Path | None:
    """Save As for a picture: check it as :func:`checked_picture` does, then copy it
    atomically to the same relative path beside ``new_map_path`` — never outside that
    folder. Returns the copy (None when nothing had to be copied: same folder, or an
    identical picture is already there). Raises SaveError."""
    pic = checked_picture(map_path, background)
    folder = Path(new_map_path).absolute().parent.resolve()
    parts = _relative_parts(background.path)
    dst = folder.joinpath(*parts)
    try:
        real_dst = Path(os.path.realpath(dst))
    except (OSError, ValueError) as e:
        raise SaveError(
            new_map_path, f"the picture cannot be copied ({e})", "background.path"
        ) from None
    if not real_dst.is_relative_to(folder):
        raise SaveError(
            new_map_path,
            f"the picture would land outside the map's folder ({clip(real_dst)})",
            "background.path",
        )
    if real_dst == pic.path:
        return None
    if os.path.lexists(real_dst):
        try:
            same = _read_regular(real_dst, MAX_IMAGE_BYTES) == pic.data
        except (OSError, ImageHeaderError):
            same = False
        if same:
            return None
        raise SaveError(
            new_map_path,
            f"a different picture called {clip(background.path)} is already in that folder",
            "background.path",
        )
    try:
        real_dst.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SaveError(new_map_path, f"the picture cannot be copied ({e.strerror or e})") from None
    if not Path(os.path.realpath(real_dst.parent)).is_relative_to(folder):
        raise SaveError(new_map_path, "the picture would land outside the map's folder")
    write_atomic(real_dst, pic.data)
    return real_dst
