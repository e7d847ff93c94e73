"""Small Universal VTT files made in the tests (never downloaded): a picture with
its walls drawn in dark ink, so a screenshot shows whether imported walls sit on
the picture's walls."""

from __future__ import annotations

import base64
import itertools
import json
import struct
import zlib
from pathlib import Path

import numpy as np

from twtw_desktop.io.images import PNG_SIGNATURE


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def png_of(pixels: np.ndarray) -> bytes:
    """An RGB PNG of an (h, w, 3) uint8 array."""
    h, w, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(raw, 6))
        + _chunk(b"IEND", b"")
    )


def png_header_only(width: int, height: int) -> bytes:
    """The first 33 bytes of a PNG claiming ``width``×``height`` (a decompression
    bomb's header)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return PNG_SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(b"\x00" * 64))


def webp_vp8l_header(width: int, height: int) -> bytes:
    """A lossless WebP header claiming ``width``×``height`` (header only)."""
    bits = (width - 1) | ((height - 1) << 14)
    body = b"\x2f" + bits.to_bytes(4, "little") + b"\x00" * 16
    return (
        b"RIFF"
        + struct.pack("<I", 4 + 8 + len(body))
        + b"WEBP"
        + b"VP8L"
        + struct.pack("<I", len(body))
        + body
    )


def drawn_picture(size: tuple[int, int], ppg: int, lines: list[list[tuple[float, float]]]):
    """Parchment picture of ``size`` squares with ``lines`` (in squares) inked 3 px
    wide and a faint square grid."""
    w, h = size[0] * ppg, size[1] * ppg
    img = np.full((h, w, 3), (236, 224, 196), dtype=np.uint8)
    img[::ppg, :] = (200, 190, 170)
    img[:, ::ppg] = (200, 190, 170)
    for line in lines:
        for (x0, y0), (x1, y1) in itertools.pairwise(line):
            n = int(max(abs(x1 - x0), abs(y1 - y0)) * ppg * 2) + 2
            xs = np.linspace(x0 * ppg, x1 * ppg, n)
            ys = np.linspace(y0 * ppg, y1 * ppg, n)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    xi = np.clip(np.round(xs).astype(int) + dx, 0, w - 1)
                    yi = np.clip(np.round(ys).astype(int) + dy, 0, h - 1)
                    img[yi, xi] = (40, 30, 25)
    return img


def pt(x: float, y: float) -> dict:
    return {"x": x, "y": y}


def saloon(fmt: float = 0.3, ppg: int = 40, origin=(0, 0)) -> dict:
    """A 12×9-square saloon: outer walls with a door gap, an inner wall, a bar
    counter (objects_line_of_sight in 0.3), a door, a window and two lights."""
    ox, oy = origin
    walls = [
        [(10, 1), (11, 1), (11, 8), (6, 8)],
        [(5, 8), (1, 8), (1, 1), (9, 1)],
        [(7, 1), (7, 5)],
    ]
    counter = [[(2, 3), (5, 3), (5, 4)]]
    drawn = walls + counter + [[(5, 8), (6, 8)], [(9, 1), (10, 1)]]
    img = drawn_picture((12, 9), ppg, drawn)

    def shift(line):
        return [pt(x + ox, y + oy) for x, y in line]

    data = {
        "format": fmt,
        "resolution": {
            "map_origin": pt(ox, oy),
            "map_size": pt(12, 9),
            "pixels_per_grid": ppg,
        },
        "line_of_sight": [shift(w) for w in walls],
        "portals": [
            {
                "position": pt(5.5 + ox, 8 + oy),
                "bounds": shift([(5, 8), (6, 8)]),
                "rotation": 0,
                "closed": True,
                "freestanding": False,
            },
            {
                "position": pt(9.5 + ox, 1 + oy),
                "bounds": shift([(9, 1), (10, 1)]),
                "rotation": 0,
                "freestanding": False,
                "window": True,
            },
        ],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [
            {
                "position": pt(3 + ox, 2 + oy),
                "range": 4,
                "intensity": 1,
                "color": "ffeccd8b",
                "shadows": True,
            }
        ],
        "image": base64.b64encode(png_of(img)).decode("ascii"),
    }
    if fmt >= 0.3:
        data["objects_line_of_sight"] = [shift(c) for c in counter]
    else:
        data["line_of_sight"] += [shift(c) for c in counter]
    return data


def write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
