"""Universal VTT battle maps (``.dd2vtt``, ``.df2vtt``, ``.uvtt``) in and out.

The format (0.2 and 0.3) is JSON: ``resolution`` (``map_origin`` and ``map_size`` in
grid squares, ``pixels_per_grid``), ``line_of_sight`` and (0.3) ``objects_line_of_sight``
polylines of ``{x, y}`` points in grid squares, ``portals`` (``position``, two
``bounds`` points, ``rotation``, ``closed``, ``freestanding``), ``lights`` and the
picture as base64 PNG or WebP in ``image``.

Decisions (the user guide, resources/manual/user-guide.md, says the same):

* ``map_origin`` is **subtracted**: a point at ``map_origin`` is the picture's top-left
  corner (as MapTool reads it; Foundry's importer ignores it, which agrees whenever the
  origin is 0, as it is in nearly every file). Export writes an origin of 0.
* A portal **without** ``closed`` is a closed door. ``"window": true`` on a portal (our
  own export writes it) makes it a window; every other portal is a door.
* ``hex_size`` is how many grid squares one hex spans flat to flat (default 1): one
  square is ``√3 / hex_size`` map units. The picture's top-left corner sits on the
  centre of hex [0, 0] and the map gets just enough pointy-top hexes to cover the
  whole picture (and the ``map_size`` rectangle if that is larger).
* Lights become Judge-only notes on their hex with their radius (in paces) and colour;
  export writes such notes back as lights (at the note's hex centre).

Everything here is Qt-free. Decoding the picture (to check it really is one, and to
turn a WebP into the PNG the map refers to) is the caller's job, passed in as
``to_png`` — :func:`twtw_desktop.ui.files.uvtt_dialog.picture_to_png` in the app and the
command line. The limits are the project's own: the file-size cap of every JSON file
(:data:`MAX_FILE_BYTES`), the JSON depth cap, the picture caps of :mod:`.images` read
from the picture's header before any decoding, and :data:`MAX_MAP_SIDE` hexes a side.
Points are counted before the JSON parser runs, so ten million of them are refused
from a byte count, not after building ten million objects.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import math
import os
import re
import secrets
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LoadError
from ..hexgrid import Hex, Orientation
from ..model.edit import map_bounds, map_to_image
from ..model.map import (
    MAX_MAP_SIDE,
    BackgroundImage,
    Feature,
    Map,
    Material,
    Note,
)
from .files import save_map
from .images import (
    MAX_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_IMAGE_SIDE,
    PNG_SIGNATURE,
    check_background,
)
from .jsonsafe import MAX_FILE_BYTES, clip, decode_text, parse_json, read_capped

SUFFIXES = (".dd2vtt", ".df2vtt", ".uvtt")
FORMATS = (0.2, 0.3)
#: Most wall, object and portal points in one file (a detailed cave map has tens of
#: thousands); counted from the raw bytes before parsing.
MAX_POINTS = 500_000
#: Most polylines + portals + lights in one file.
MAX_ENTRIES = 100_000
#: Points per Feature in the map model (longer polylines are cut into pieces that
#: share their end points, so no segment is lost).
_FEATURE_POINTS = Feature.model_fields["points"].metadata[-1].max_length
#: Grid squares one hex may span.
MIN_HEX_SIZE = 0.25
MAX_HEX_SIZE = 50.0
#: Hex width (flat to flat) in map units: one pace.
_PACE = math.sqrt(3.0)
#: Points may lie this many map sizes outside the picture (walls drawn off its edge).
_MARGIN = 1.0
#: Pixels per hex of the plain picture exported for a map without a background.
_BLANK_PPG = 50
_BLANK_MAX_SIDE = 4096
_BLANK_RGB = (0xF2, 0xEB, 0xDA)

ToPng = Callable[[bytes, str, int, int], bytes]


class UvttError(LoadError):
    """A Universal VTT file that cannot be imported, or a map that cannot be exported."""


# --- the parsed file -------------------------------------------------------------------

Pt = tuple[float, float]


@dataclass
class Portal:
    a: Pt
    b: Pt
    closed: bool = True
    window: bool = False


@dataclass
class Light:
    at: Pt
    range: float
    color: str  # "#rrggbb"
    intensity: float


@dataclass
class UvttFile:
    """A checked Universal VTT file; every coordinate in grid squares with the
    picture's top-left corner at (0, 0) (``map_origin`` already subtracted)."""

    format: float
    size: Pt  # map_size in squares
    ppg: float  # pixels per grid square
    walls: list[list[Pt]] = field(default_factory=list)
    objects: list[list[Pt]] = field(default_factory=list)
    portals: list[Portal] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)
    image: bytes = b""
    image_format: str = "png"  # "png" or "webp"
    width: int = 0  # picture pixels
    height: int = 0

    @property
    def extent(self) -> Pt:
        """Squares the map must cover: the picture and the ``map_size`` rectangle."""
        return (max(self.size[0], self.width / self.ppg), max(self.size[1], self.height / self.ppg))

    def point_count(self) -> int:
        return sum(len(p) for p in self.walls) + sum(len(p) for p in self.objects)


# --- picture headers -------------------------------------------------------------------


def picture_header(data: bytes) -> tuple[str, int, int]:
    """("png" | "webp", width, height) of picture bytes, from the header alone.

    ValueError (one plain sentence) for anything that is not a PNG or WebP picture.
    """
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 33:
            raise ValueError("the PNG picture is cut short")
        length, ctype = struct.unpack(">I4s", data[8:16])
        body = data[16:29]
        (crc,) = struct.unpack(">I", data[29:33])
        if ctype != b"IHDR" or length != 13 or zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            raise ValueError("the PNG picture has a broken header")
        w, h = struct.unpack(">II", body[:8])
        fmt = "png"
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        fmt = "webp"
        w, h = _webp_size(data)
    else:
        raise ValueError("the embedded image is not a PNG or WebP picture")
    if w == 0 or h == 0:
        raise ValueError(f"the {fmt.upper()} picture has no pixels ({w}×{h})")
    return fmt, w, h


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    body = data[20:40]
    if len(body) < 10:
        raise ValueError("the WebP picture is cut short")
    if chunk == b"VP8 ":
        if body[3:6] != b"\x9d\x01\x2a":
            raise ValueError("the WebP picture has a broken header")
        w, h = struct.unpack("<HH", body[6:10])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L":
        if body[0] != 0x2F:
            raise ValueError("the WebP picture has a broken header")
        bits = int.from_bytes(body[1:5], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        w = int.from_bytes(body[4:7], "little") + 1
        h = int.from_bytes(body[7:10], "little") + 1
        return w, h
    raise ValueError("the WebP picture has an unknown header")


def check_picture_size(w: int, h: int) -> None:
    """ValueError when a picture is over the background caps of :mod:`.images`."""
    if w > MAX_IMAGE_SIDE or h > MAX_IMAGE_SIDE or w * h > MAX_IMAGE_PIXELS:
        raise ValueError(
            f"the picture is {w}×{h} pixels, too large: the limit is {MAX_IMAGE_SIDE} a side "
            f"and {MAX_IMAGE_PIXELS // 1_000_000} megapixels"
        )


# --- parsing ---------------------------------------------------------------------------


class _Bad(Exception):
    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


def _num(v: Any, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        found = clip(v, 20) if isinstance(v, str) else type(v).__name__
        raise _Bad(f"expected a number, found {found}", where)
    f = float(v)
    if not math.isfinite(f):  # pragma: no cover - parse_json refuses these already
        raise _Bad("the number is not finite", where)
    return f


def _obj(v: Any, where: str) -> dict:
    if not isinstance(v, dict):
        raise _Bad("expected an object", where)
    return v


def _xy(v: Any, where: str) -> Pt:
    d = _obj(v, where)
    if "x" not in d or "y" not in d:
        raise _Bad("a point needs x and y", where)
    return (_num(d["x"], where + ".x"), _num(d["y"], where + ".y"))


def _list(v: Any, where: str) -> list:
    if v is None:
        return []
    if not isinstance(v, list):
        raise _Bad("expected a list", where)
    return v


def _precount(data: bytes) -> None:
    """Refuse files with too many points or values before the JSON parser builds
    them. Base64 has neither braces nor commas, so the picture does not count."""
    objects = data.count(b"{")
    if objects > MAX_POINTS + 3 * MAX_ENTRIES:
        raise _Bad(
            f"the file holds {objects:,} points and other objects; "
            f"the limit is {MAX_POINTS:,} wall points"
        )
    values = data.count(b",")
    if values > 4 * MAX_POINTS + 10 * MAX_ENTRIES:
        raise _Bad(f"the file holds {values:,} values, far more than a battle map needs")


def _format(raw: dict) -> float:
    if "format" not in raw:
        raise _Bad("no format: this is not a Universal VTT file", "format")
    f = _num(raw["format"], "format")
    if not any(abs(f - k) < 1e-9 for k in FORMATS):
        raise _Bad(f"format {f:g} is not supported (only 0.2 and 0.3)", "format")
    return f


def _resolution(raw: dict) -> tuple[Pt, Pt, float]:
    if "resolution" not in raw:
        raise _Bad("no resolution: the file does not say how big its grid is", "resolution")
    res = _obj(raw["resolution"], "resolution")
    origin = _xy(res.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin")
    if "map_size" not in res:
        raise _Bad("no map_size", "resolution.map_size")
    size = _xy(res["map_size"], "resolution.map_size")
    if "pixels_per_grid" not in res:
        raise _Bad("no pixels_per_grid", "resolution.pixels_per_grid")
    ppg = _num(res["pixels_per_grid"], "resolution.pixels_per_grid")
    if not 1 <= ppg <= MAX_IMAGE_SIDE:
        raise _Bad(
            f"pixels_per_grid {ppg:g} is outside 1..{MAX_IMAGE_SIDE}", "resolution.pixels_per_grid"
        )
    for v, axis in ((size[0], "x"), (size[1], "y")):
        if not 0 < v <= MAX_IMAGE_SIDE:
            raise _Bad(
                f"map_size {axis} = {v:g} squares is outside 0..{MAX_IMAGE_SIDE}",
                f"resolution.map_size.{axis}",
            )
        if v * ppg > MAX_IMAGE_SIDE + ppg:
            raise _Bad(
                f"map_size {axis} = {v:g} squares of {ppg:g} pixels is wider than the "
                f"{MAX_IMAGE_SIDE}-pixel limit of a picture",
                f"resolution.map_size.{axis}",
            )
    squares = size[0] * size[1]
    if squares > MAX_MAP_SIDE * MAX_MAP_SIDE:
        raise _Bad(
            f"a grid of {squares:,.0f} squares is more than a map of {MAX_MAP_SIDE}×"
            f"{MAX_MAP_SIDE} hexes can hold",
            "resolution.map_size",
        )
    return origin, size, ppg


def _picture(raw: dict) -> tuple[bytes, str, int, int]:
    text = raw.get("image")
    if not isinstance(text, str) or not text:
        raise _Bad("no picture: image must be a base64 PNG or WebP", "image")
    if text.startswith("data:"):
        text = text.partition(",")[2]
    if any(c in text[:200] for c in "\r\n\t "):  # base64 wrapped in lines
        text = "".join(text.split())
    if len(text) * 3 // 4 > MAX_IMAGE_BYTES:
        raise _Bad(
            f"the picture is about {len(text) * 3 // 4 // (1024 * 1024)} MB; the limit is "
            f"{MAX_IMAGE_BYTES // (1024 * 1024)} MB",
            "image",
        )
    try:
        head = base64.b64decode(text[:64], validate=True)
    except (binascii.Error, ValueError):
        raise _Bad("image is not base64 text", "image") from None
    try:
        fmt, w, h = picture_header(head)
        check_picture_size(w, h)
    except ValueError as e:
        raise _Bad(str(e), "image") from None
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise _Bad("image is not base64 text", "image") from None
    return data, fmt, w, h


def _polylines(raw: dict, key: str, origin: Pt, box: tuple[float, ...]) -> list[list[Pt]]:
    out = []
    for i, line in enumerate(_list(raw.get(key), key)):
        where = f"{key}.{i}"
        pts = [
            _inside(_xy(p, f"{where}.{j}"), origin, box, f"{where}.{j}")
            for j, p in enumerate(_list(line, where))
        ]
        out.append(pts)
    return out


def _inside(p: Pt, origin: Pt, box: tuple[float, ...], where: str) -> Pt:
    x, y = p[0] - origin[0], p[1] - origin[1]
    if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
        raise _Bad(f"the point ({p[0]:g}, {p[1]:g}) lies far outside the map", where)
    return (x, y)


def _color(v: Any, where: str) -> str:
    if v is None:
        return "#ffffff"
    if not isinstance(v, str):
        raise _Bad("a colour must be hex text such as ffeccd8b", where)
    s = v.strip().lstrip("#").lower()
    if len(s) not in (6, 8) or any(c not in "0123456789abcdef" for c in s):
        raise _Bad(f"{clip(v, 20)!r} is not an ARGB hex colour", where)
    return "#" + s[-6:]


def parse(path: Path | str) -> UvttFile:
    """Read and check a Universal VTT file. Raises only :class:`UvttError`, one line
    naming the file and the field."""
    try:
        data = read_capped(path, MAX_FILE_BYTES)
        try:
            _precount(data)
        except _Bad as e:
            raise UvttError(path, e.reason) from None
        text = decode_text(path, data)
        del data
        raw = parse_json(path, text)
        del text
        return _checked(raw)
    except _Bad as e:
        raise UvttError(path, e.reason, clip(e.where, 160) if e.where else "") from None
    except UvttError:
        raise
    except LoadError as e:
        raise UvttError(path, e.reason, e.where) from None
    except MemoryError:
        raise UvttError(path, "the file is too large to read into memory") from None


def _checked(raw: Any) -> UvttFile:
    if not isinstance(raw, dict):
        raise _Bad("this is not a Universal VTT file (expected a JSON object)")
    fmt = _format(raw)
    origin, size, ppg = _resolution(raw)
    image, ifmt, w, h = _picture(raw)
    ext = (max(size[0], w / ppg), max(size[1], h / ppg))
    box = (-_MARGIN * ext[0], -_MARGIN * ext[1], (1 + _MARGIN) * ext[0], (1 + _MARGIN) * ext[1])
    entries = 0
    for key in ("line_of_sight", "objects_line_of_sight", "portals", "lights"):
        entries += len(_list(raw.get(key), key))
    if entries > MAX_ENTRIES:
        raise _Bad(
            f"the file has {entries:,} walls, portals and lights; the limit is {MAX_ENTRIES:,}"
        )
    walls = _polylines(raw, "line_of_sight", origin, box)
    objects = _polylines(raw, "objects_line_of_sight", origin, box)
    portals = []
    for i, p in enumerate(_list(raw.get("portals"), "portals")):
        where = f"portals.{i}"
        d = _obj(p, where)
        bounds = _list(d.get("bounds"), where + ".bounds")
        if len(bounds) != 2:
            raise _Bad("a portal needs two bounds points", where + ".bounds")
        a = _inside(_xy(bounds[0], where + ".bounds.0"), origin, box, where + ".bounds.0")
        b = _inside(_xy(bounds[1], where + ".bounds.1"), origin, box, where + ".bounds.1")
        closed = d.get("closed", True)
        if not isinstance(closed, bool):
            raise _Bad("closed must be true or false", where + ".closed")
        window = d.get("window", False)
        if not isinstance(window, bool):
            raise _Bad("window must be true or false", where + ".window")
        portals.append(Portal(a, b, closed, window))
    lights = []
    for i, li in enumerate(_list(raw.get("lights"), "lights")):
        where = f"lights.{i}"
        d = _obj(li, where)
        at = _inside(_xy(d.get("position"), where + ".position"), origin, box, where + ".position")
        rng = _num(d.get("range", 0), where + ".range")
        if not 0 <= rng <= 10 * max(ext):
            raise _Bad(f"range {rng:g} is not a light's radius in squares", where + ".range")
        intensity = _num(d.get("intensity", 1), where + ".intensity")
        lights.append(Light(at, rng, _color(d.get("color"), where + ".color"), intensity))
    uv = UvttFile(fmt, size, ppg, walls, objects, portals, lights, image, ifmt, w, h)
    if uv.point_count() + 2 * len(portals) > MAX_POINTS:
        raise _Bad(f"the file has more than {MAX_POINTS:,} wall points")
    return uv


# --- Universal VTT → Map ---------------------------------------------------------------


def square_units(hex_size: float) -> float:
    """Map units per grid square when one hex spans ``hex_size`` squares."""
    return _PACE / hex_size


def hexes_to_cover(width: float, height: float) -> tuple[int, int]:
    """Columns and rows of pointy-top hexes (odd rows shoved right) covering the
    rectangle (0, 0)–(width, height) in map units, hex [0, 0] centred on (0, 0).

    Every row covers x from 0 to √3·(cols − ½) and the rows together y from −½ to
    1.5·(rows − 1) + ½, whatever the shove.
    """
    cols = max(1, math.ceil((width - _PACE / 2) / _PACE - 1e-9) + 1)
    rows = max(1, math.ceil((height - 0.5) / 1.5 - 1e-9) + 1)
    return cols, rows


def smallest_hex_size(uv: UvttFile) -> float:
    """The smallest ``hex_size`` (to 1/100) at which the picture fits in a map."""
    w, h = uv.extent
    s = max(w / (MAX_MAP_SIDE - 0.5), h * _PACE / (1.5 * (MAX_MAP_SIDE - 1) + 0.5))
    return math.ceil(s * 100) / 100


def _chunks(pts: list[Pt]) -> list[list[Pt]]:
    """A polyline without repeated consecutive points, cut into pieces the Feature
    model accepts (neighbouring pieces share an end point); [] when degenerate."""
    clean: list[Pt] = []
    for p in pts:
        if not clean or p != clean[-1]:
            clean.append(p)
    if len(clean) < 2:
        return []
    step = _FEATURE_POINTS - 1
    return [clean[i : i + step + 1] for i in range(0, len(clean) - 1, step)]


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass
class ImportReport:
    """What an import made, for the status line and the command line."""

    map: Map
    picture: Path | None = None
    skipped: int = 0  # degenerate polylines and portals (one point, or zero length)

    def describe(self) -> str:
        m = self.map
        kinds = [f.kind for f in m.features]
        parts = [
            f"{m.cols}×{m.rows} hexes",
            _n(kinds.count("wall"), "wall"),
            _n(kinds.count("door"), "door"),
            _n(kinds.count("window"), "window"),
            _n(len(m.notes), "light") + " as Judge notes",
        ]
        if self.skipped:
            parts.append(_n(self.skipped, "empty wall") + " skipped")
        return ", ".join(parts)


def to_map(
    uv: UvttFile,
    *,
    hex_size: float = 1.0,
    material: Material = Material.HARDWOOD,
    name: str = "Imported battle map",
    picture: str = "picture.png",
) -> ImportReport:
    """The map of a parsed file. ValueError (one sentence) when it cannot be made:
    a hex size out of range or a picture too big for :data:`MAX_MAP_SIDE` hexes."""
    if not (math.isfinite(hex_size) and MIN_HEX_SIZE <= hex_size <= MAX_HEX_SIZE):
        raise ValueError(
            f"the hex size must be {MIN_HEX_SIZE:g} to {MAX_HEX_SIZE:g} grid squares, "
            f"not {hex_size:g}"
        )
    u = square_units(hex_size)
    ext = uv.extent
    cols, rows = hexes_to_cover(ext[0] * u, ext[1] * u)
    if cols > MAX_MAP_SIDE or rows > MAX_MAP_SIDE:
        need = smallest_hex_size(uv)
        hint = f"; use a hex size of at least {need:g} squares" if need <= MAX_HEX_SIZE else ""
        raise ValueError(
            f"at {hex_size:g} squares a hex the {ext[0]:g}×{ext[1]:g}-square map needs "
            f"{cols}×{rows} hexes, more than {MAX_MAP_SIDE} a side{hint}"
        )
    m = Map.blank(cols, rows, Orientation.POINTY, name=clip(name, 200))
    m.background = BackgroundImage(
        path=picture, x=0.0, y=0.0, scale=u / uv.ppg, width=uv.width, height=uv.height
    )

    def mu(p: Pt) -> Pt:
        return (p[0] * u, p[1] * u)

    features: list[Feature] = []
    skipped = 0
    for line in [*uv.walls, *uv.objects]:
        pieces = _chunks([mu(p) for p in line])
        skipped += not pieces
        for piece in pieces:
            features.append(
                Feature(id=f"w{len(features) + 1}", kind="wall", points=piece, material=material)
            )
    n_door = n_win = 0
    for p in uv.portals:
        a, b = mu(p.a), mu(p.b)
        if a == b:
            skipped += 1
            continue
        if p.window:
            n_win += 1
            fid, kind, mat = f"win{n_win}", "window", Material.GLASS
        else:
            n_door += 1
            fid, kind, mat = f"d{n_door}", "door", material
        features.append(
            Feature(
                id=fid,
                kind="window" if kind == "window" else "door",
                points=[a, b],
                material=mat,
                is_open=not p.closed,
            )
        )
    m.features = features
    lay = m.layout()
    notes = []
    for i, light in enumerate(uv.lights):
        h = lay.pixel_to_hex(*mu(light.at))
        col, row = m.offset(h)
        h = m.hex_at(min(max(col, 0), cols - 1), min(max(row, 0), rows - 1))
        paces = light.range / hex_size
        notes.append(
            Note(
                id=f"light{i + 1}",
                hex=(h.q, h.r),
                text=(
                    f"Light: radius {paces:.4g} paces, colour {light.color}, intensity "
                    f"{light.intensity:g} (from the battle map; the table has no lighting "
                    "rules yet)"
                ),
            )
        )
    m.notes = notes
    m = Map.model_validate(m.model_dump())  # every check of the model, once
    return ImportReport(m, None, skipped)


# --- files -----------------------------------------------------------------------------


def _write_atomic(target: Path, blob: bytes) -> None:
    """Write ``blob`` through a temporary file in the target's folder, then rename:
    no reader ever sees half a file and a failure leaves nothing behind."""
    tmp = target.parent / f".{target.name[:80]}.{secrets.token_hex(4)}.tmp"
    try:
        with open(tmp, "xb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _stem(out: Path) -> str:
    name = out.name
    for suffix in (".map.json", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)] or "map"
    return out.stem or "map"


def _picture_name(folder: Path, stem: str, png: bytes) -> tuple[str, bool]:
    """A file name for the picture in ``folder``: ``stem.png``, or ``stem-2.png`` …
    when another picture has that name; (name, already there with these bytes)."""
    for n in range(1, 1000):
        name = f"{stem}.png" if n == 1 else f"{stem}-{n}.png"
        p = folder / name
        if not os.path.lexists(p):
            return name, False
        with contextlib.suppress(OSError):
            if p.is_file() and p.stat().st_size == len(png) and p.read_bytes() == png:
                return name, True
    raise OSError(f"too many pictures called {stem}-N.png in the folder")


def import_file(
    src: Path | str,
    out: Path | str,
    to_png: ToPng,
    *,
    hex_size: float = 1.0,
    material: Material = Material.HARDWOOD,
    uv: UvttFile | None = None,
) -> ImportReport:
    """Import ``src`` as the map ``out`` with its picture as a PNG beside it.

    ``to_png(data, fmt, width, height)`` decodes the picture and returns PNG bytes of
    the same pixel size (or raises ValueError). Nothing is written unless everything
    succeeds: the picture goes through a temporary file, and is removed again when
    the map cannot be saved. Raises only :class:`UvttError`.
    """
    out = Path(out)
    if uv is None:
        uv = parse(src)
    stem = _stem(out)
    try:
        if not out.parent.is_dir():
            raise ValueError(f"the folder {clip(out.parent, 120)} does not exist")
        report = to_map(uv, hex_size=hex_size, material=material, name=stem.replace("_", " "))
        png = to_png(uv.image, uv.image_format, uv.width, uv.height)
        fmt, w, h = picture_header(png)
        if (fmt, w, h) != ("png", uv.width, uv.height):
            raise ValueError(f"the picture decoder gave a {w}×{h} {fmt}")
        pic_name, present = _picture_name(out.parent, stem, png)
    except ValueError as e:
        raise UvttError(src, str(e)) from None
    except OSError as e:
        raise UvttError(out, f"cannot write here ({e.strerror or e})") from None
    bg = report.map.background
    if bg is None:
        raise UvttError(src, "the battle map has no picture")
    report.map.background = bg.model_copy(update={"path": pic_name})
    pic = out.parent / pic_name
    created = False
    try:
        if not present:
            _write_atomic(pic, png)
            created = True
        save_map(report.map, out)
    except LoadError as e:
        if created:
            with contextlib.suppress(OSError):
                os.unlink(pic)
        raise UvttError(e.path, e.reason, e.where) from None
    except OSError as e:
        if created:
            with contextlib.suppress(OSError):
                os.unlink(pic)
        raise UvttError(pic, f"cannot write the picture ({e.strerror or e})") from None
    report.picture = pic
    return report


# --- Map → Universal VTT ---------------------------------------------------------------


def png_blank(width: int, height: int, rgb: tuple[int, int, int] = _BLANK_RGB) -> bytes:
    """A plain one-colour PNG (no decoder needed)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    row = b"\x00" + bytes(rgb) * width
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(row * height, 9))
        + chunk(b"IEND", b"")
    )


def _round(v: float) -> float | int:
    r = round(v, 6)
    return int(r) if r == int(r) else r


@dataclass
class ExportReport:
    path: Path
    walls: int
    portals: int
    left_out: int  # low cover, which does not block sight

    def describe(self) -> str:
        s = f"wrote {self.path}: {_n(self.walls, 'wall')}, {self.portals} doors and windows"
        if self.left_out:
            s += f" ({self.left_out} pieces of low cover left out: they do not block sight)"
        return s


def to_uvtt(m: Map, map_path: Path | str | None, to_png: ToPng | None = None) -> tuple[dict, int]:
    """The Universal VTT (format 0.3) of a map: (JSON object, low-cover pieces left
    out). The background picture (checked like any background) is embedded at its own
    pixel size; a map without one gets a plain picture of its hexes. ``to_png``
    converts a JPEG background; it is not needed for PNG ones."""
    bg = m.background
    if bg is not None:
        if map_path is None:
            raise ValueError("the map has a background picture but no file to find it beside")
        pic = check_background(map_path, bg)
        png = read_capped(pic, MAX_IMAGE_BYTES)
        if not png.startswith(PNG_SIGNATURE):
            if to_png is None:
                raise ValueError("the background is a JPEG and no picture converter was given")
            png = to_png(png, "jpeg", bg.width, bg.height)
        width, height = bg.width, bg.height
        ppg = _PACE / bg.scale

        def sq(p: Pt) -> Pt:
            ix, iy = map_to_image(bg, *p)
            return (ix / ppg, iy / ppg)

    else:
        left, top, right, bottom = map_bounds(m)
        ppg = min(_BLANK_PPG, _BLANK_MAX_SIDE * _PACE / max(right - left, bottom - top))
        ppg = max(1, math.floor(ppg))
        width = max(1, math.ceil((right - left) / _PACE * ppg))
        height = max(1, math.ceil((bottom - top) / _PACE * ppg))
        png = png_blank(width, height)

        def sq(p: Pt) -> Pt:
            return ((p[0] - left) / _PACE, (p[1] - top) / _PACE)

    def xy(p: Pt) -> dict:
        x, y = sq(p)
        return {"x": _round(x), "y": _round(y)}

    walls, objects, portals = [], [], []
    low = 0
    for f in m.features:
        if f.kind == "wall":
            walls.append([xy(p) for p in f.points])
        elif f.kind == "cover":
            if f.blocks_sight:
                objects.append([xy(p) for p in f.points])
            else:
                low += 1
        else:
            for a, b in zip(f.points, f.points[1:], strict=False):
                pa, pb = sq(a), sq(b)
                portal = {
                    "position": xy(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)),
                    "bounds": [xy(a), xy(b)],
                    "rotation": _round(math.atan2(pb[1] - pa[1], pb[0] - pa[0])),
                    "closed": not f.is_open,
                    "freestanding": False,
                }
                if f.kind == "window":
                    portal["window"] = True
                portals.append(portal)
    data = {
        "format": 0.3,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": _round(width / ppg), "y": _round(height / ppg)},
            "pixels_per_grid": _round(ppg),
        },
        "line_of_sight": walls,
        "objects_line_of_sight": objects,
        "portals": portals,
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": _lights(m, xy),
        "image": base64.b64encode(png).decode("ascii"),
    }
    return data, low


#: The Judge notes an import makes of lights, read back on export.
_LIGHT_NOTE = re.compile(
    r"^Light: radius ([0-9.e+]+) paces, colour #([0-9a-f]{6}), intensity ([-0-9.e+]+)"
)


def _lights(m: Map, xy: Callable[[Pt], dict]) -> list[dict]:
    """Lights back from the notes an import made (one grid square is one hex)."""
    lay = m.layout()
    out = []
    for n in m.notes:
        found = _LIGHT_NOTE.match(n.text)
        if not found:
            continue
        radius, rgb, intensity = found.groups()
        try:
            r, k = float(radius), float(intensity)
        except ValueError:
            continue
        if not (math.isfinite(r) and math.isfinite(k)):
            continue
        out.append(
            {
                "position": xy(lay.hex_to_pixel(Hex(*n.hex))),
                "range": _round(r),
                "intensity": _round(k),
                "color": "ff" + rgb,
                "shadows": True,
            }
        )
    return out


def export_file(
    m: Map, map_path: Path | str | None, out: Path | str, to_png: ToPng | None = None
) -> ExportReport:
    """Write the map as a Universal VTT file (atomically). Raises only UvttError."""
    out = Path(out)
    try:
        if not out.parent.is_dir():
            raise ValueError(f"the folder {clip(out.parent, 120)} does not exist")
        data, low = to_uvtt(m, map_path, to_png)
        blob = json.dumps(data, separators=(",", ":"), allow_nan=False).encode("ascii")
        if len(blob) > MAX_FILE_BYTES:
            raise ValueError(
                f"the file would be {len(blob) // (1024 * 1024)} MB; the limit is "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB"
            )
        _write_atomic(out, blob)
    except LoadError as e:
        raise UvttError(e.path, e.reason, e.where) from None
    except ValueError as e:
        raise UvttError(out, str(e)) from None
    except OSError as e:
        raise UvttError(out, f"cannot write the file ({e.strerror or e})") from None
    return ExportReport(out, len(data["line_of_sight"]), len(data["portals"]), low)
