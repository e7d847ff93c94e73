"""Format versions of map and encounter files, and the migrations between them.

Every file carries ``format_version``. Loading a file older than the current format
runs a chain of migration functions, one per step (``0 → 1``, ``1 → 2``, …), on the
raw JSON data before the pydantic models see it; a file newer than this program is
refused with a message saying so. Migrations are pure functions from a dict to a new
dict; register one with :func:`migration`.

Format history
--------------

**Map format 0** — the pre-release draft format (never shipped, kept so early test
maps still open). Its shape::

    {
      "format_version": 0,
      "name": "Main Street",                       # optional
      "orientation": "pointy",                     # optional, "pointy" or "flat"
      "terrain": [["open", "rough", ...], ...],    # rows of terrain *names*
      "elevation": [[0, 1, ...], ...],             # optional, as in format 1
      "walls": [                                   # optional
        {"material": "brick", "a": [x, y], "b": [x, y], "height": "full"}
      ],
      "labels": [{"text": "Bank", "at": [x, y]}],  # optional
      "description": "..."                         # optional
    }

The map's size came from the terrain rows; walls were single straight segments with
no ids (``height`` optional, default full); there were no doors, windows, notes,
markers or background. Coordinates were already map units.

**Map format 1** — the current format (:class:`twtw_desktop.model.map.Map`): terrain
as strings of one-character codes, ``cols``/``rows`` stated, features as polylines
with ids and kinds.

**Encounter format 1** — the first and current encounter format. An embedded map is
migrated with the map chain, so an encounter keeps opening when only the map
format moves on.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal

from .encounter import ENCOUNTER_FORMAT_VERSION
from .map import MAP_FORMAT_VERSION, TERRAIN_CODES, CoverHeight, Material, Terrain

Kind = Literal["map", "encounter"]
Migration = Callable[[dict[str, Any]], dict[str, Any]]

#: The format each kind of file is written in by this program.
CURRENT_VERSIONS: dict[str, int] = {
    "map": MAP_FORMAT_VERSION,
    "encounter": ENCOUNTER_FORMAT_VERSION,
}

_MIGRATIONS: dict[str, dict[int, Migration]] = {"map": {}, "encounter": {}}


class MigrationError(ValueError):
    """The file's data cannot be brought up to the current format.

    ``where`` is the dotted field path *in the file as written* (old field names).
    """

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


class NewerFormatError(MigrationError):
    """The file was written by a newer program than this one."""


def migration(kind: Kind, from_version: int) -> Callable[[Migration], Migration]:
    """Register ``fn`` as the step from ``from_version`` to ``from_version + 1``."""

    def register(fn: Migration) -> Migration:
        steps = _MIGRATIONS[kind]
        if from_version in steps:
            raise RuntimeError(f"two {kind} migrations from format {from_version}")
        if from_version >= CURRENT_VERSIONS[kind]:
            raise RuntimeError(f"{kind} migration from {from_version} is not below current")
        steps[from_version] = fn
        return fn

    return register


def oldest_version(kind: Kind) -> int:
    """The oldest format of this kind that can still be read."""
    current = CURRENT_VERSIONS[kind]
    v = current
    while v - 1 in _MIGRATIONS[kind]:
        v -= 1
    return v


def migrate(kind: Kind, raw: Any, where: str = "") -> tuple[dict[str, Any], list[int]]:
    """Bring ``raw`` (parsed JSON) up to the current format of ``kind``.

    Returns the migrated data (a new object; ``raw`` is untouched) and the list of
    formats it passed through (empty when already current). Raises
    :class:`MigrationError` (or :class:`NewerFormatError`) naming the field.
    """
    here = f"{where}." if where else ""
    label = "map" if kind == "map" else "encounter"
    if not isinstance(raw, dict):
        raise MigrationError(f"a {label} must be a JSON object", where)
    if "format_version" not in raw:
        raise MigrationError(
            f"no format_version: this is not a TWTW Desktop {label} file",
            f"{here}format_version",
        )
    version = raw["format_version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise MigrationError("format_version must be a whole number", f"{here}format_version")
    current = CURRENT_VERSIONS[kind]
    if version > current:
        raise NewerFormatError(
            f"made by a newer TWTW Desktop (format {version}); this version reads up to {current}",
            f"{here}format_version",
        )
    oldest = oldest_version(kind)
    if version < oldest:
        raise MigrationError(
            f"format {version} is too old: this version reads {label} formats "
            f"{oldest} to {current}",
            f"{here}format_version",
        )
    # a copy only when something will change it: a current file is used as it is (a
    # shallow copy, so placing a migrated embedded map never touches ``raw``)
    data = copy.deepcopy(raw) if version < current else dict(raw)
    passed: list[int] = []
    while version < current:
        data = _MIGRATIONS[kind][version](data)
        if data.get("format_version") != version + 1:  # a programming error, not the file's
            raise RuntimeError(f"{kind} migration from {version} did not produce {version + 1}")
        passed.append(version)
        version += 1
    if kind == "encounter" and isinstance(data.get("map"), dict):
        data["map"], _ = migrate("map", data["map"], f"{here}map")
    return data, passed


# --- map 0 → 1 -------------------------------------------------------------------------

_V0_MAP_KEYS = {
    "format_version",
    "name",
    "orientation",
    "terrain",
    "elevation",
    "walls",
    "labels",
    "description",
}
_V0_WALL_KEYS = {"material", "a", "b", "height"}
_V0_LABEL_KEYS = {"text", "at"}
_TERRAIN_NAMES = ", ".join(t.value for t in Terrain)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _point(v: Any, where: str) -> list[float]:
    if not (isinstance(v, list) and len(v) == 2 and all(_number(x) for x in v)):
        raise MigrationError("must be a point [x, y] of two numbers", where)
    return [float(v[0]), float(v[1])]


def _only_keys(obj: Any, allowed: set[str], where: str, what: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise MigrationError(f"must be an object ({what})", where)
    for k in obj:
        if k not in allowed:
            raise MigrationError(
                f"unknown field for a format-0 {what}", f"{where}.{k}" if where else k
            )
    return obj


@migration("map", 0)
def map_v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Draft maps: terrain names → code strings, ``walls`` → ``features``, ids added."""
    _only_keys(data, _V0_MAP_KEYS, "", "map")
    rows = data.get("terrain")
    if not isinstance(rows, list) or not rows:
        raise MigrationError("must be a non-empty list of rows of terrain names", "terrain")
    width = None
    terrain: list[str] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or not row:
            raise MigrationError("must be a non-empty list of terrain names", f"terrain.{r}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise MigrationError(
                f"row has {len(row)} hexes, the first row has {width}", f"terrain.{r}"
            )
        codes = []
        for c, name in enumerate(row):
            try:
                codes.append(TERRAIN_CODES[Terrain(name)])
            except (ValueError, TypeError):
                raise MigrationError(
                    f"{str(name)[:40]!r} is not a terrain ({_TERRAIN_NAMES})", f"terrain.{r}.{c}"
                ) from None
        terrain.append("".join(codes))

    walls = data.get("walls", [])
    if not isinstance(walls, list):
        raise MigrationError("must be a list of walls", "walls")
    features = []
    for i, w in enumerate(walls):
        where = f"walls.{i}"
        _only_keys(w, _V0_WALL_KEYS, where, "wall")
        for key in ("material", "a", "b"):
            if key not in w:
                raise MigrationError("required field is missing", f"{where}.{key}")
        materials = {m.value for m in Material}
        if not isinstance(w["material"], str) or w["material"] not in materials:
            raise MigrationError(
                f"{str(w['material'])[:40]!r} is not a material ({', '.join(sorted(materials))})",
                f"{where}.material",
            )
        height = w.get("height", CoverHeight.FULL.value)
        if not isinstance(height, str) or height not in {h.value for h in CoverHeight}:
            raise MigrationError(f"{str(height)[:40]!r} is not 'low' or 'full'", f"{where}.height")
        features.append(
            {
                "id": f"w{i + 1}",
                "kind": "wall",
                "points": [_point(w["a"], f"{where}.a"), _point(w["b"], f"{where}.b")],
                "material": w["material"],
                "height": height,
            }
        )

    labels_in = data.get("labels", [])
    if not isinstance(labels_in, list):
        raise MigrationError("must be a list of labels", "labels")
    labels = []
    for i, lab in enumerate(labels_in):
        where = f"labels.{i}"
        _only_keys(lab, _V0_LABEL_KEYS, where, "label")
        if "text" not in lab or "at" not in lab:
            raise MigrationError("a label needs 'text' and 'at'", where)
        labels.append(
            {"id": f"l{i + 1}", "at": _point(lab["at"], f"{where}.at"), "text": lab["text"]}
        )

    out: dict[str, Any] = {"format_version": 1}
    for key in ("name", "orientation"):
        if key in data:
            out[key] = data[key]
    out["cols"] = width
    out["rows"] = len(terrain)
    out["terrain"] = terrain
    if "elevation" in data:
        out["elevation"] = data["elevation"]
    out["features"] = features
    out["labels"] = labels
    if "description" in data:
        out["description"] = data["description"]
    return out
