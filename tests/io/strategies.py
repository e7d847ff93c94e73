"""Hypothesis strategies and tiny file builders shared by the io tests."""

from __future__ import annotations

import struct
import zlib

from hypothesis import strategies as st

from twtw_desktop.hexgrid import Orientation, offset_to_hex
from twtw_desktop.model.map import (
    MAX_PICTURE_SIDE,
    TERRAIN_CODES,
    BackgroundImage,
    CoverHeight,
    Feature,
    Label,
    Map,
    Marker,
    Material,
    Note,
)

# --- picture headers (no real pixels: the checker only reads the header) ---------------


def png_header(width: int, height: int, *, crc_ok: bool = True) -> bytes:
    """PNG signature + IHDR chunk (8-bit RGBA) + an empty IEND: a header-only PNG."""
    body = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    crc = zlib.crc32(b"IHDR" + body) & 0xFFFFFFFF
    if not crc_ok:
        crc ^= 1
    ihdr = struct.pack(">I", 13) + b"IHDR" + body + struct.pack(">I", crc)
    iend = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND") & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + ihdr + iend


def jpeg_header(width: int, height: int, *, app_segments: int = 1, fill: bool = False) -> bytes:
    """SOI, some APPn segments, an SOF0 frame header with the size, then EOI."""
    out = b"\xff\xd8"
    for i in range(app_segments):
        payload = b"JFIF\x00" + bytes(9 + i)
        out += b"\xff" + bytes([0xE0 + i % 16]) + struct.pack(">H", len(payload) + 2) + payload
    if fill:
        out += b"\xff\xff\xff"  # fill bytes before a marker are legal
    sof = struct.pack(">BHHB", 8, height, width, 3) + bytes(9)
    out += (b"\xff" if not fill else b"") + b"\xc0" + struct.pack(">H", len(sof) + 2) + sof
    return out + b"\xff\xd9"


# --- random maps -----------------------------------------------------------------------

coord = st.floats(min_value=-200, max_value=200, allow_nan=False, allow_infinity=False)
point = st.tuples(coord, coord)
ident = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12)
# any printable text, including accents and quotes; no lone surrogates (not UTF-8)
words = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@st.composite
def features(draw, fid: str) -> Feature:
    pts = draw(st.lists(point, min_size=2, max_size=6))
    if all(p == pts[0] for p in pts):
        pts[-1] = (pts[0][0] + 1.0, pts[0][1])
    return Feature(
        id=fid,
        kind=draw(st.sampled_from(["wall", "cover", "door", "window"])),
        points=pts,
        material=draw(st.sampled_from(list(Material))),
        height=draw(st.sampled_from(list(CoverHeight))),
        is_open=draw(st.booleans()),
        opaque=draw(st.booleans()),
        ablation=draw(st.integers(0, 10)),
        name=draw(words),
        judge_only=draw(st.booleans()),
    )


@st.composite
def maps(draw, max_side: int = 12) -> Map:
    """Any valid map up to ``max_side`` × ``max_side`` with random content."""
    cols = draw(st.integers(1, max_side))
    rows = draw(st.integers(1, max_side))
    orientation = draw(st.sampled_from(list(Orientation)))
    codes = "".join(TERRAIN_CODES.values())
    terrain = [draw(st.text(alphabet=codes, min_size=cols, max_size=cols)) for _ in range(rows)]
    elevation = None
    if draw(st.booleans()):
        elevation = [[draw(st.integers(-1000, 1000)) for _ in range(cols)] for _ in range(rows)]

    def on_map():
        return st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1)).map(
            lambda cr: (lambda h: (h.q, h.r))(offset_to_hex(cr[0], cr[1], orientation))
        )

    ids = draw(st.lists(ident, unique=True, max_size=12))
    a, b, c = sorted(draw(st.lists(st.integers(0, len(ids)), min_size=3, max_size=3)))
    f_ids, l_ids, n_ids, m_ids = ids[:a], ids[a:b], ids[b:c], ids[c:]
    background = draw(
        st.none()
        | st.builds(
            BackgroundImage,
            path=st.sampled_from(["bg.png", "pictures/street.jpg", "a b/ü.png"]),
            x=coord,
            y=coord,
            scale=st.floats(0.001, 1000),
            rotation=st.sampled_from([0, 60, 120, 180, 240, 300]),
            opacity=st.floats(0, 1),
            width=st.integers(1, MAX_PICTURE_SIDE),
            height=st.integers(1, MAX_PICTURE_SIDE),
            visible_to_players=st.booleans(),
        )
    )
    return Map(
        name=draw(words),
        cols=cols,
        rows=rows,
        orientation=orientation,
        hex_px=draw(st.floats(4.5, 400)),
        print_hex_mm=draw(st.floats(1.5, 100)),
        terrain=terrain,
        elevation=elevation,
        features=[draw(features(i)) for i in f_ids],
        labels=[
            Label(
                id=i,
                at=draw(point),
                text=draw(words),
                judge_only=draw(st.booleans()),
                size=draw(st.floats(0.01, 20)),
            )
            for i in l_ids
        ],
        notes=[Note(id=i, hex=draw(on_map()), text=draw(words)) for i in n_ids],
        markers=[
            Marker(
                id=i,
                hex=draw(on_map()),
                kind=draw(st.sampled_from(["trap", "ambush", "objective", "other"])),
                text=draw(words),
                judge_only=draw(st.booleans()),
            )
            for i in m_ids
        ],
        background=background,
        description=draw(words),
    )
