"""Shared drawing kit for the bundled sample maps: coordinates, walls with doors and
windows cut into them, cover, boulders, elevation and token placement.

Every sample map is pointy-top with odd rows shoved right, one hex per pace. Free
geometry is in map units (hex radius 1, neighbouring centres √3 apart).

Walls lie midway between hex centres (:func:`wall_x`, :func:`wall_y`), so every hex
centre is clearly inside or outside a room and every step between neighbours crosses
a wall, a door, a window or nothing. All coordinates are rounded to 3 decimals and
nothing depends on the clock or on randomness, so rebuilding a map gives the same
bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..hexgrid import Hex, facing_toward, hex_to_offset, offset_to_hex
from ..hexgrid.layout import Orientation
from ..model.encounter import Encounter, Token
from ..model.map import (
    TERRAIN_CODES,
    CoverHeight,
    Feature,
    FeatureKind,
    Map,
    Marker,
    MarkerKind,
    Material,
    Note,
    Point,
    Terrain,
)
from ..rules.character import Character, Posture
from ..rules.editions import OptionalRules
from ..rules.samples import sample_characters

SQRT3 = math.sqrt(3.0)
#: width of a door or window opening, in map units (one pace is √3 ≈ 1.73)
OPENING = 1.6
#: a storey in paces of elevation (house convention: the pages give no unit; a
#: storey is about 3 paces, as on Main Street's saloon balcony)
STOREY = 3


# --- coordinates -----------------------------------------------------------------------


def r3(v: float) -> float:
    """Round to 3 decimals (``+ 0.0`` turns -0.0 into 0.0)."""
    return round(v, 3) + 0.0


def centre(col: int, row: int) -> Point:
    """Centre of the hex at offset (col, row), in map units."""
    return (r3(SQRT3 * (col + 0.5 * (row & 1))), r3(1.5 * row))


def wall_x(col: int) -> float:
    """The vertical line between columns ``col`` and ``col + 1``; it passes 0.43 map
    units from the nearest centres in both even and odd rows."""
    return r3(SQRT3 * (col + 0.75))


def wall_y(row: int) -> float:
    """The horizontal line between rows ``row`` and ``row + 1``."""
    return r3(1.5 * row + 0.75)


def hex_at(col: int, row: int) -> tuple[int, int]:
    """Axial ``(q, r)`` of the hex at offset (col, row)."""
    h = offset_to_hex(col, row, Orientation.POINTY)
    return (h.q, h.r)


def offset_of(h: Hex) -> tuple[int, int]:
    return hex_to_offset(h, Orientation.POINTY)


def walk(start: tuple[int, int], steps: Iterable[int]) -> list[tuple[int, int]]:
    """Offset cells visited from ``start`` stepping along hex facings (0 east, 1
    north-east, 2 north-west, 3 west, 4 south-west, 5 south-east); the start is
    included. Trails are drawn this way so consecutive cells are always neighbours."""
    h = Hex(*hex_at(*start))
    out = [start]
    for facing in steps:
        h = h.neighbor(facing)
        out.append(offset_of(h))
    return out


def hex_corners(col: int, row: int, inset: float = 1.0) -> list[Point]:
    """The six corners of a hex (pointy-top), clockwise from the east-south-east one,
    closed (the first corner repeated at the end)."""
    cx, cy = centre(col, row)
    pts = []
    for k in range(7):
        a = math.radians(30 + 60 * (k % 6))
        pts.append((r3(cx + inset * math.cos(a)), r3(cy + inset * math.sin(a))))
    return pts


# --- terrain ---------------------------------------------------------------------------


class Ground:
    """Terrain codes and elevation being painted, row by row."""

    def __init__(self, cols: int, rows: int, fill: Terrain = Terrain.OPEN) -> None:
        self.cols, self.rows = cols, rows
        self.codes = [[TERRAIN_CODES[fill]] * cols for _ in range(rows)]
        self.elev = [[0] * cols for _ in range(rows)]

    def inside(self, col: int, row: int) -> bool:
        return 0 <= col < self.cols and 0 <= row < self.rows

    def set(
        self, col: int, row: int, terrain: Terrain | None = None, elev: int | None = None
    ) -> None:
        if not self.inside(col, row):
            return
        if terrain is not None:
            self.codes[row][col] = TERRAIN_CODES[terrain]
        if elev is not None:
            self.elev[row][col] = elev

    def rect(
        self,
        cols: tuple[int, int],
        rows: tuple[int, int],
        terrain: Terrain | None = None,
        elev: int | None = None,
    ) -> None:
        """Paint the inclusive block ``cols[0]..cols[1]`` × ``rows[0]..rows[1]``."""
        for row in range(rows[0], rows[1] + 1):
            for col in range(cols[0], cols[1] + 1):
                self.set(col, row, terrain, elev)

    def terrain(self, col: int, row: int) -> str:
        return self.codes[row][col]

    def elevation(self, col: int, row: int) -> int:
        return self.elev[row][col]

    def result(self) -> tuple[list[str], list[list[int]] | None]:
        """Terrain rows and elevation rows (None when the map is flat)."""
        flat = all(v == 0 for row in self.elev for v in row)
        return ["".join(r) for r in self.codes], (None if flat else [list(r) for r in self.elev])


# --- features --------------------------------------------------------------------------


class Features:
    """Collects features in order, so the output is stable."""

    def __init__(self) -> None:
        self.items: list[Feature] = []

    def add(
        self,
        fid: str,
        points: list[Point],
        *,
        kind: FeatureKind = "wall",
        material: Material = Material.HARDWOOD,
        height: CoverHeight = CoverHeight.FULL,
        is_open: bool = False,
        opaque: bool = True,
        name: str = "",
        judge_only: bool = False,
    ) -> None:
        self.items.append(
            Feature(
                id=fid,
                kind=kind,
                points=[(r3(x), r3(y)) for x, y in points],
                material=material,
                height=height,
                is_open=is_open,
                opaque=opaque,
                name=name,
                judge_only=judge_only,
            )
        )

    def wall(
        self,
        fid: str,
        a: Point,
        b: Point,
        material: Material,
        name: str,
        openings: list[dict] | None = None,
        *,
        kind: FeatureKind = "wall",
        height: CoverHeight = CoverHeight.FULL,
        opaque: bool = True,
    ) -> None:
        """A straight wall from ``a`` to ``b`` with door/window openings (``kind``
        "cover" for a low run such as a rail or a stall partition).

        Each opening is a dict with ``at`` (position along the wall's axis, x for a
        horizontal wall, y for a vertical one), ``kind`` and optional ``material``,
        ``is_open``, ``opaque``, ``name``, ``width`` and ``id``. The wall is cut into
        pieces around the openings, and each opening becomes its own feature whose
        ends are the neighbouring pieces' ends, so doors always sit in wall gaps.
        """
        horizontal = a[1] == b[1]
        axis = 0 if horizontal else 1
        lo, hi = sorted((a[axis], b[axis]))

        def point(t: float) -> Point:
            return (t, a[1]) if horizontal else (a[0], t)

        cuts = sorted(openings or [], key=lambda o: o["at"])
        start = lo
        piece = 1
        for o in cuts:
            half = o.get("width", OPENING) / 2
            o_lo, o_hi = r3(o["at"] - half), r3(o["at"] + half)
            if not lo <= o_lo < o_hi <= hi:
                raise ValueError(f"opening {o['id']} does not fit in wall {fid}")
            if o_lo > start:
                self.add(
                    f"{fid}-{piece}",
                    [point(start), point(o_lo)],
                    kind=kind,
                    material=material,
                    name=name,
                    height=height,
                    opaque=opaque,
                )
                piece += 1
            self.add(
                o["id"],
                [point(o_lo), point(o_hi)],
                kind=o["kind"],
                material=o.get("material", material),
                is_open=o.get("is_open", False),
                opaque=o.get("opaque", True),
                name=o.get("name", o["kind"]),
            )
            start = o_hi
        if start < hi:
            self.add(
                f"{fid}-{piece}" if cuts else fid,
                [point(start), point(hi)],
                kind=kind,
                material=material,
                name=name,
                height=height,
                opaque=opaque,
            )

    def hwall(
        self,
        fid: str,
        row_line: int,
        col_lines: tuple[int, int],
        material: Material,
        name: str,
        openings: list[dict] | None = None,
        **kw: Any,
    ) -> None:
        """A wall along :func:`wall_y` ``(row_line)`` from ``wall_x(col_lines[0])`` to
        ``wall_x(col_lines[1])``."""
        y = wall_y(row_line)
        self.wall(
            fid,
            (wall_x(col_lines[0]), y),
            (wall_x(col_lines[1]), y),
            material,
            name,
            openings,
            **kw,
        )

    def vwall(
        self,
        fid: str,
        col_line: int,
        row_lines: tuple[int, int],
        material: Material,
        name: str,
        openings: list[dict] | None = None,
        **kw: Any,
    ) -> None:
        """A wall along :func:`wall_x` ``(col_line)`` from ``wall_y(row_lines[0])`` to
        ``wall_y(row_lines[1])``."""
        x = wall_x(col_line)
        self.wall(
            fid,
            (x, wall_y(row_lines[0])),
            (x, wall_y(row_lines[1])),
            material,
            name,
            openings,
            **kw,
        )

    def bar(
        self,
        fid: str,
        x0: float,
        x1: float,
        y: float,
        name: str,
        material: Material = Material.HARDWOOD,
        height: CoverHeight = CoverHeight.LOW,
    ) -> None:
        """Cover drawn as one east–west segment along the object's middle.

        A single segment is crossed once by any line passing over the object, whichever
        side it comes from; a closed outline would be crossed twice and could count
        the same trough as two layers of cover.
        """
        self.add(fid, [(x0, y), (x1, y)], kind="cover", material=material, height=height, name=name)

    def gated(
        self,
        fid: str,
        outline: list[Point],
        name: str,
        gate_id: str,
        gate_name: str,
        *,
        material: Material,
        kind: FeatureKind = "wall",
        height: CoverHeight = CoverHeight.FULL,
        gate_open: bool = False,
    ) -> None:
        """An enclosure (a fence, a vault) drawn as ``outline``, left open between its
        first and last points, and a gate of the same material and height closing that
        gap (drawn from the lower of the two ends to the higher)."""
        self.add(fid, outline, kind=kind, material=material, height=height, name=name)
        self.add(
            gate_id,
            sorted((outline[0], outline[-1])),
            kind="door",
            material=material,
            height=height,
            is_open=gate_open,
            name=gate_name,
        )

    def block(
        self,
        fid: str,
        col: int,
        row: int,
        name: str,
        material: Material,
        height: CoverHeight = CoverHeight.FULL,
    ) -> None:
        """A solid object filling one hex (a boulder, a stove): cover along the hex's
        outline; the hex itself should be impassable ground. A shot through it meets
        the object twice, going in and coming out."""
        self.add(
            fid,
            hex_corners(col, row, 0.98),
            kind="cover",
            material=material,
            height=height,
            name=name,
        )


def open_ring(
    x0: float, x1: float, y0: float, y1: float, gap_x: float, gap_y: float
) -> list[Point]:
    """A rectangle's outline (``x0``–``x1`` by ``y0``–``y1``) left open for one
    opening's width at ``gap_x`` in its edge ``gap_y`` (``y0`` or ``y1``): from one
    side of the gap round to the other, as :meth:`Features.gated` closes it with its
    gate (a vault, a corral)."""
    far = y1 if gap_y == y0 else y0
    return [
        (gap_x + OPENING / 2, gap_y),
        (x1, gap_y),
        (x1, far),
        (x0, far),
        (x0, gap_y),
        (gap_x - OPENING / 2, gap_y),
    ]


def window(
    fid: str,
    at: float,
    *,
    glass: bool = True,
    is_open: bool = False,
    name: str = "",
    material: Material | None = None,
    opaque: bool | None = None,
) -> dict:
    """An opening for :meth:`Features.wall`: a glass window, or a wooden shutter when
    ``glass`` is False, or bars when ``material`` is iron and ``opaque`` False."""
    return {
        "id": fid,
        "kind": "window",
        "at": at,
        "material": material or (Material.GLASS if glass else Material.THIN_WOOD),
        "is_open": is_open,
        "opaque": (not glass) if opaque is None else opaque,
        "name": name or ("glass window" if glass else "shuttered window"),
    }


def door(
    fid: str,
    at: float,
    *,
    is_open: bool = False,
    material: Material = Material.HARDWOOD,
    name: str = "door",
    width: float = OPENING,
) -> dict:
    """A door opening for :meth:`Features.wall`."""
    return {
        "id": fid,
        "kind": "door",
        "at": at,
        "material": material,
        "is_open": is_open,
        "name": name,
        "width": width,
    }


def col_mid(col: int) -> float:
    """The x at which steps between row pairs cross a horizontal wall above/below
    column ``col`` of an odd row (used to centre an opening on that column)."""
    return centre(col, 1)[0]


def row_mid(row: int) -> float:
    """The y at which a horizontal step crosses a vertical wall in ``row``."""
    return centre(0, row)[1]


def building(
    f: Features,
    fid: str,
    name: str,
    cols: tuple[int, int],
    rows: tuple[int, int],
    material: Material,
    *,
    north: list[dict] | None = None,
    south: list[dict] | None = None,
    west: list[dict] | None = None,
    east: list[dict] | None = None,
) -> None:
    """Four walls enclosing the hexes ``cols[0]..cols[1]`` × ``rows[0]..rows[1]``."""
    x0, x1 = wall_x(cols[0] - 1), wall_x(cols[1])
    y0, y1 = wall_y(rows[0] - 1), wall_y(rows[1])
    f.wall(f"{fid}-north", (x0, y0), (x1, y0), material, f"{name}, north wall", north)
    f.wall(f"{fid}-south", (x0, y1), (x1, y1), material, f"{name}, south wall", south)
    f.wall(f"{fid}-west", (x0, y0), (x0, y1), material, f"{name}, west wall", west)
    f.wall(f"{fid}-east", (x1, y0), (x1, y1), material, f"{name}, east wall", east)


def area_mid(c0: int, c1: int, r0: int, r1: int) -> Point:
    """Middle of the block of hexes ``c0..c1`` × ``r0..r1`` (for labels)."""
    return (r3((wall_x(c0 - 1) + wall_x(c1)) / 2), r3((wall_y(r0 - 1) + wall_y(r1)) / 2))


# --- map and encounter ---------------------------------------------------------------


def note(nid: str, cell: tuple[int, int], text: str) -> Note:
    """A Judge note on the hex at offset ``cell``."""
    return Note(id=nid, hex=hex_at(*cell), text=text)


def marker(mid: str, cell: tuple[int, int], kind: MarkerKind, text: str) -> Marker:
    """A trap/ambush/objective marker on the hex at offset ``cell``."""
    return Marker(id=mid, hex=hex_at(*cell), kind=kind, text=text)


def sample_map(
    size: tuple[int, int], ground: tuple[list[str], list[list[int]] | None], **fields: Any
) -> Map:
    """A pointy-top sample map of ``size`` (cols, rows). ``ground`` is what
    :meth:`Ground.result` gives (terrain rows, elevation rows or None); ``fields`` are
    the map's other fields (name, features, labels, notes, markers, description)."""
    terrain, elevation = ground
    cols, rows = size
    return Map(
        cols=cols,
        rows=rows,
        orientation=Orientation.POINTY,
        terrain=terrain,
        elevation=elevation,
        **fields,
    )


# --- the people ------------------------------------------------------------------------


def npc(sheets: dict[str, Character], template_id: str, new_id: str, name: str) -> Character:
    """A copy of a bundled sample sheet under a new id and name (a deterministic
    stand-in for :func:`twtw_desktop.rules.samples.npc_template`, whose ids are
    random)."""
    c = sheets[template_id].model_copy(deep=True)
    c.id = new_id
    c.name = name
    return c


@dataclass
class Place:
    """Where one character's token stands at the start of a sample encounter.

    ``face`` is the id of the character looked at, or a facing 0–5.
    """

    cid: str
    col: int
    row: int
    face: str | int
    hidden: bool = False
    posture: Posture = Posture.STANDING
    velocity: tuple[float, float] = (0.0, 0.0)
    mounted: bool = False
    why: str = field(default="", compare=False)


def place_tokens(places: list[Place]) -> list[Token]:
    """Tokens for ``places``, each facing its target."""
    where = {p.cid: Hex(*hex_at(p.col, p.row)) for p in places}
    out = []
    for p in places:
        facing = p.face if isinstance(p.face, int) else facing_toward(where[p.cid], where[p.face])
        out.append(
            Token(
                id=f"token-{p.cid}",
                character_id=p.cid,
                hex=hex_at(p.col, p.row),
                facing=facing,
                hidden=p.hidden,
                posture=p.posture,
                velocity=p.velocity,
                mounted=p.mounted,
            )
        )
    return out


def bundled_sheets() -> dict[str, Character]:
    """Fresh copies of the bundled sample characters."""
    return sample_characters()


def sample_encounter(sheets: dict[str, Character], places: list[Place], **fields: Any) -> Encounter:
    """An encounter on a sample map: the characters of ``places`` in that order (their
    sheets taken from ``sheets``), each with its token placed by :func:`place_tokens`;
    ``fields`` are the encounter's other fields (name, edition, map_ref, deck_seed,
    notes)."""
    # 000 Pushing the Limit: "Revolvers are not designed for fan-firing. Increase the
    # Rel of any revolver by 1 when fan-firing." — on in every sample, the Phases one
    # too (AP v2 applies it whatever the switch says; 001 makes it a switch)
    fields.setdefault("options", OptionalRules(pushing_the_limit=True))
    return Encounter(
        characters=[sheets[p.cid] for p in places],
        tokens=place_tokens(places),
        **fields,
    )
