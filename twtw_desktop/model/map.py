"""The tactical map as data: terrain, elevation, walls and cover, doors, windows,
labels, Judge-only notes and markers, and an optional background image.

Coordinates
-----------
* Hexes are axial ``[q, r]`` pairs (see :mod:`twtw_desktop.hexgrid`); the map is a
  rectangle of ``cols × rows`` hexes in offset layout (odd rows shoved right for
  pointy-top maps, odd columns shoved down for flat-top ones).
* Free geometry (wall polylines, label positions, the background image) is stored in
  **map units**: the pixel space of this map's orientation with a hex radius of 1.0
  and the hex ``[0, 0]`` centred on the origin. Neighbouring hex centres are √3 map
  units apart, which is one pace. :meth:`Map.layout` converts for any zoom.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import Annotated, Any, Final, Literal

from pydantic import Field, field_validator, model_validator

from ..hexgrid import Hex, Layout, Orientation, hex_to_offset, offset_to_hex
from ..rules.base import Mutable, Strict

MAP_FORMAT_VERSION: Final = 1
MAX_MAP_SIDE = 1000  # hexes per side; 200×200 and 1000×1000 are the benchmark sizes
#: Most walls, cover, doors and windows on one map.
MAX_FEATURES = 100_000
#: Most labels, notes or markers (each) on one map.
MAX_ANNOTATIONS = 10_000
#: Most points in one wall polyline.
MAX_POINTS = 10_000
#: Furthest a wall, label or background corner may lie from the map's origin, in map
#: units (the largest map, 1000 × 1000 hexes, spans about 1,750); a finite but absurd
#: coordinate such as 1e300 would otherwise reach the geometry and the screen.
MAX_COORDINATE = 10_000.0
#: Largest hex coordinate (axial q or r) anything may name: well past any map edge.
MAX_HEX_COORD = 4 * MAX_MAP_SIDE
#: Highest and lowest elevation of a hex.
MAX_ELEVATION = 1000
#: Widest/tallest picture (background) in pixels.
MAX_PICTURE_SIDE = 16_384

Coord = Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Point = tuple[Coord, Coord]
HexCoord = Annotated[int, Field(ge=-MAX_HEX_COORD, le=MAX_HEX_COORD)]
HexPos = tuple[HexCoord, HexCoord]


class Terrain(StrEnum):
    """Terrain of a hex and the one-character code used in map files."""

    OPEN = "open"
    ROUGH = "rough"
    STEEP = "steep"  # steep grade: +1 AP per pace (000)
    GENTLE = "gentle"  # gentle grade: +1 AP per 2 paces (000)
    STAIRS = "stairs"  # +1 AP per 2 paces (000)
    LADDER = "ladder"  # +1 AP per pace (000)
    CLIMB = "climb"  # climbable wall/cliff face: +2 AP per pace (000)
    WATER = "water"
    IMPASSABLE = "impassable"


TERRAIN_CODES: dict[Terrain, str] = {
    Terrain.OPEN: ".",
    Terrain.ROUGH: "r",
    Terrain.STEEP: "S",
    Terrain.GENTLE: "g",
    Terrain.STAIRS: "s",
    Terrain.LADDER: "l",
    Terrain.CLIMB: "c",
    Terrain.WATER: "w",
    Terrain.IMPASSABLE: "#",
}
CODE_TERRAIN: dict[str, Terrain] = {v: k for k, v in TERRAIN_CODES.items()}


class Material(StrEnum):
    """Wall and cover materials; their AV comes from the edition's cover table."""

    GLASS = "glass"
    THIN_WOOD = "thin_wood"
    HARDWOOD = "hardwood"
    ADOBE = "adobe"
    THIN_IRON = "thin_iron"
    BRICK = "brick"
    THICK_IRON = "thick_iron"


class CoverHeight(StrEnum):
    """``low`` covers legs and belly of a standing figure and does not block sight over
    it; ``full`` is full height and blocks sight."""

    LOW = "low"
    FULL = "full"


FeatureKind = Literal["wall", "cover", "door", "window"]
MarkerKind = Literal["trap", "ambush", "objective", "other"]


class Feature(Mutable):
    """A wall, a piece of cover, a door or a window, as a polyline in map units.

    ``ablation`` is how much AV attacks have shot away (000: an ablating hit lowers
    the cover's AV by one and it stays lowered). Doors and windows have ``is_open``;
    a closed door blocks movement and sight, an open one neither; a window blocks
    movement, and sight only when ``height`` is full and it is shuttered (``opaque``).
    """

    id: Annotated[str, Field(min_length=1, max_length=64)]
    kind: FeatureKind = "wall"
    points: Annotated[list[Point], Field(min_length=2, max_length=MAX_POINTS)]
    material: Material = Material.HARDWOOD
    height: CoverHeight = CoverHeight.FULL
    is_open: bool = False
    opaque: bool = True
    ablation: Annotated[int, Field(ge=0, le=10)] = 0
    name: Annotated[str, Field(max_length=200)] = ""
    judge_only: bool = False

    @field_validator("points")
    @classmethod
    def _distinct(cls, v: list[Point]) -> list[Point]:
        if all(p == v[0] for p in v):
            raise ValueError("a wall needs two different points")
        return v

    def av(self, cover_av: dict[str, int]) -> int:
        """Current AV: the edition's AV for the material less ablation (never below 0)."""
        return max(0, cover_av[self.material.value] - self.ablation)

    @property
    def blocks_movement(self) -> bool:
        if self.kind == "door":
            return not self.is_open
        if self.kind == "window":
            return True
        return self.height is CoverHeight.FULL or self.kind == "wall"

    @property
    def blocks_sight(self) -> bool:
        if self.kind == "door":
            return not self.is_open
        if self.kind == "window":
            return (not self.is_open) and self.opaque and self.material is not Material.GLASS
        return self.height is CoverHeight.FULL


class Label(Mutable):
    id: Annotated[str, Field(min_length=1, max_length=64)]
    at: Point
    text: Annotated[str, Field(max_length=500)]
    judge_only: bool = False
    size: Annotated[float, Field(gt=0, le=20)] = 1.0


class Note(Mutable):
    """A Judge-only note pinned to a hex (never shown on the players' screen)."""

    id: Annotated[str, Field(min_length=1, max_length=64)]
    hex: HexPos
    text: Annotated[str, Field(max_length=10_000)]


class Marker(Mutable):
    """Trap, ambush or objective marker; Judge-only unless ``judge_only`` is False."""

    id: Annotated[str, Field(min_length=1, max_length=64)]
    hex: HexPos
    kind: MarkerKind = "other"
    text: Annotated[str, Field(max_length=1000)] = ""
    judge_only: bool = True


class BackgroundImage(Mutable):
    """A picture under the grid, referenced by a path relative to the map file.

    ``x``/``y`` place the image's top-left corner in map units, ``scale`` is map units
    per image pixel, ``rotation`` turns it in 60° steps about its top-left corner.
    ``width``/``height`` are the image's pixel size as declared when imported: the
    loader checks them against the file header before any decoding.
    """

    path: Annotated[str, Field(min_length=1, max_length=500)]
    x: Coord = 0.0
    y: Coord = 0.0
    scale: Annotated[float, Field(gt=0, le=1000)] = 0.05
    rotation: Literal[0, 60, 120, 180, 240, 300] = 0
    opacity: Annotated[float, Field(ge=0, le=1)] = 1.0
    width: Annotated[int, Field(ge=1, le=MAX_PICTURE_SIDE)]
    height: Annotated[int, Field(ge=1, le=MAX_PICTURE_SIDE)]
    visible_to_players: bool = True


class Map(Mutable):
    """A tactical map. Terrain is stored as ``rows`` strings of ``cols`` terrain codes
    (see :data:`TERRAIN_CODES`); elevation, when present, as rows of integers."""

    format_version: Literal[1] = MAP_FORMAT_VERSION
    name: Annotated[str, Field(max_length=200)] = "Untitled map"
    cols: Annotated[int, Field(ge=1, le=MAX_MAP_SIDE)]
    rows: Annotated[int, Field(ge=1, le=MAX_MAP_SIDE)]
    orientation: Orientation = Orientation.POINTY
    #: on-screen hex radius at 100 % zoom, and the printed hex width (flat to flat)
    hex_px: Annotated[float, Field(gt=4, le=400)] = 32.0
    print_hex_mm: Annotated[float, Field(gt=1, le=100)] = 25.4
    terrain: list[str]
    elevation: list[list[Annotated[int, Field(ge=-MAX_ELEVATION, le=MAX_ELEVATION)]]] | None = None
    features: Annotated[list[Feature], Field(max_length=MAX_FEATURES)] = []
    labels: Annotated[list[Label], Field(max_length=MAX_ANNOTATIONS)] = []
    notes: Annotated[list[Note], Field(max_length=MAX_ANNOTATIONS)] = []
    markers: Annotated[list[Marker], Field(max_length=MAX_ANNOTATIONS)] = []
    background: BackgroundImage | None = None
    description: Annotated[str, Field(max_length=20_000)] = ""

    @model_validator(mode="after")
    def _shape(self) -> Map:
        if len(self.terrain) != self.rows:
            raise ValueError(f"terrain has {len(self.terrain)} rows, the map has {self.rows}")
        for i, row in enumerate(self.terrain):
            if len(row) != self.cols:
                raise ValueError(f"terrain row {i + 1} has {len(row)} hexes, expected {self.cols}")
            bad = set(row) - set(CODE_TERRAIN)
            if bad:
                raise ValueError(
                    f"terrain row {i + 1} has unknown code(s) {''.join(sorted(bad))!r}; "
                    f"codes are {''.join(CODE_TERRAIN)}"
                )
        if self.elevation is not None and (
            len(self.elevation) != self.rows or any(len(r) != self.cols for r in self.elevation)
        ):
            raise ValueError("elevation must have the same rows × cols as the terrain")
        ids = [f.id for f in self.features] + [x.id for x in self.labels]
        ids += [n.id for n in self.notes] + [m.id for m in self.markers]
        dup = duplicate_ids(ids)
        if dup:
            raise ValueError(f"duplicate id(s): {', '.join(sorted(dup))}")
        for n in self.notes:
            if not self.contains(Hex(*n.hex)):
                raise ValueError(f"note {n.id!r} is off the map at {list(n.hex)}")
        for m in self.markers:
            if not self.contains(Hex(*m.hex)):
                raise ValueError(f"marker {m.id!r} is off the map at {list(m.hex)}")
        return self

    # -- construction -------------------------------------------------------------

    @classmethod
    def blank(
        cls, cols: int, rows: int, orientation: Orientation = Orientation.POINTY, **kw: Any
    ) -> Map:
        return cls(
            cols=cols,
            rows=rows,
            orientation=orientation,
            terrain=["." * cols for _ in range(rows)],
            **kw,
        )

    # -- geometry helpers -----------------------------------------------------------

    def layout(self, size: float = 1.0, origin: Point = (0.0, 0.0)) -> Layout:
        """The layout for this map; ``size=1`` gives map units."""
        return Layout(self.orientation, size, origin[0], origin[1])

    def offset(self, h: Hex) -> tuple[int, int]:
        return hex_to_offset(h, self.orientation)

    def hex_at(self, col: int, row: int) -> Hex:
        return offset_to_hex(col, row, self.orientation)

    def contains(self, h: Hex) -> bool:
        col, row = hex_to_offset(h, self.orientation)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the map, row by row."""
        for row in range(self.rows):
            for col in range(self.cols):
                yield offset_to_hex(col, row, self.orientation)

    def terrain_at(self, h: Hex) -> Terrain:
        col, row = hex_to_offset(h, self.orientation)
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            return Terrain.IMPASSABLE
        return CODE_TERRAIN[self.terrain[row][col]]

    def set_terrain(self, h: Hex, t: Terrain) -> None:
        col, row = hex_to_offset(h, self.orientation)
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            raise ValueError(f"hex {h.q},{h.r} is off the map")
        line = self.terrain[row]
        self.terrain[row] = line[:col] + TERRAIN_CODES[t] + line[col + 1 :]

    def elevation_at(self, h: Hex) -> int:
        if self.elevation is None:
            return 0
        col, row = hex_to_offset(h, self.orientation)
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            return 0
        return self.elevation[row][col]

    def feature(self, feature_id: str) -> Feature:
        for f in self.features:
            if f.id == feature_id:
                return f
        raise KeyError(f"no wall or cover called {feature_id!r}")

    def new_id(self, prefix: str) -> str:
        taken = {f.id for f in self.features} | {x.id for x in self.labels}
        taken |= {n.id for n in self.notes} | {m.id for m in self.markers}
        i = 1
        while f"{prefix}{i}" in taken:
            i += 1
        return f"{prefix}{i}"


def duplicate_ids(ids: list[str]) -> set[str]:
    """The ids that appear more than once (one pass: linear in the number of ids)."""
    seen: set[str] = set()
    dup: set[str] = set()
    for i in ids:
        (dup if i in seen else seen).add(i)
    return dup


class MapSummary(Strict):
    name: str
    cols: int
    rows: int
    features: int
