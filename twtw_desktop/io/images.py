"""Checking a map's background picture before any image decoder sees it.

A map names its background by a path relative to the map file. A shared map is
someone else's file, so :func:`check_background` refuses paths that leave the map's
folder (absolute paths, drive letters, ``..``, symlinks resolving elsewhere) and reads
only the PNG ``IHDR`` chunk or the JPEG ``SOF`` marker — with our own few lines of
``struct``, no decoding — to compare the real pixel size with the size the map
declares and with the caps below. A "decompression bomb" (a tiny file claiming
100000×100000 pixels) is therefore refused from its first 33 bytes.
"""

from __future__ import annotations

import os
import stat
import struct
import zlib
from pathlib import Path, PureWindowsPath
from typing import BinaryIO, Literal

from ..errors import LoadError
from ..model.map import BackgroundImage
from .jsonsafe import clip

#: Widest/tallest background accepted, in pixels (also BackgroundImage's field limit).
MAX_IMAGE_SIDE = 20_000
#: Largest background accepted, in pixels (100 megapixels ≈ 400 MB decoded as RGBA).
MAX_IMAGE_PIXELS = 100_000_000
#: Largest background file accepted.
MAX_IMAGE_BYTES = 200 * 1024 * 1024

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


def image_size(path: Path | str) -> tuple[ImageFormat, int, int]:
    """The format and pixel size of a PNG or JPEG file, from its header only."""
    with open(path, "rb") as f:
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


def check_background(map_path: Path | str, background: BackgroundImage) -> Path:
    """The checked absolute path of a map's background picture.

    Raises :class:`LoadError` (naming the map file and the ``background`` field) when
    the path leaves the map's folder, the file is missing, is not a PNG/JPEG, is over
    the size caps, or its real pixel size differs from the declared width/height.
    Only the file header is read.
    """
    where = "background.path"
    shown = clip(background.path)
    try:
        parts = _relative_parts(background.path)
        base = Path(map_path).absolute().parent.resolve()
        target = base.joinpath(*parts).resolve(strict=True)
    except ImageHeaderError as e:
        raise LoadError(map_path, f"background {shown!r}: {e}", where) from None
    except FileNotFoundError:
        raise LoadError(map_path, f"background picture {shown!r} not found", where) from None
    except (OSError, RuntimeError, ValueError) as e:  # loops, bad names, permissions
        raise LoadError(map_path, f"background {shown!r} cannot be opened ({e})", where) from None
    if not target.is_relative_to(base):
        raise LoadError(
            map_path,
            f"background {shown!r} leads outside the map's folder (a link to {clip(target)})",
            where,
        )
    try:
        st = target.stat()
        if not stat.S_ISREG(st.st_mode):
            raise ImageHeaderError("it is not a regular file")
        if st.st_size > MAX_IMAGE_BYTES:
            raise ImageHeaderError(
                f"the file is {st.st_size // (1024 * 1024)} MB; the limit is "
                f"{MAX_IMAGE_BYTES // (1024 * 1024)} MB"
            )
        fmt, width, height = image_size(target)
    except ImageHeaderError as e:
        raise LoadError(map_path, f"background {shown!r}: {e}", where) from None
    except OSError as e:
        reason = e.strerror or str(e)
        raise LoadError(
            map_path, f"background {shown!r} cannot be read ({reason})", where
        ) from None
    if width > MAX_IMAGE_SIDE or height > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
        raise LoadError(
            map_path,
            f"background {shown!r} is {width}×{height} pixels, too large: the limit is "
            f"{MAX_IMAGE_SIDE}×{MAX_IMAGE_SIDE} and {MAX_IMAGE_PIXELS // 1_000_000} megapixels",
            where,
        )
    if (width, height) != (background.width, background.height):
        raise LoadError(
            map_path,
            f"background {shown!r} is a {width}×{height} {fmt.upper()}, but the map "
            f"declares {background.width}×{background.height}",
            "background.width",
        )
    return target
