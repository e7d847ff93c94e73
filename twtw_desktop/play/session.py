"""A table from a file, and back: what the ``play`` command and the tests use.

The window opens files through its document; the command line and the tests open a
:class:`~twtw_desktop.play.table.Table` here, through the same io functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import io as io_mod
from ..model import Encounter, Map
from .table import Table


@dataclass
class OpenTable:
    table: Table
    path: Path
    map_path: Path | None


def open_table(path: str | Path) -> OpenTable:
    """An encounter file (or a bare map, as an encounter with no one on it) in play.
    Raises :class:`~twtw_desktop.errors.LoadError` only."""
    p = Path(path)
    if io_mod.detect_kind(p) == "map":
        bare = io_mod.load_map(p)
        return OpenTable(Table(Encounter(name=bare.name, map=bare), bare, source=p), p, None)
    loaded = io_mod.load_encounter(p)
    enc = loaded.encounter
    m: Map = enc.map if enc.map is not None else loaded.map
    return OpenTable(Table(enc, m, source=p), p, loaded.map_path)


def save_table(opened: OpenTable, out: str | Path) -> None:
    """Write the table's encounter atomically (the map inside it when it was a
    separate file and the result goes elsewhere)."""
    table = opened.table
    table.sync_to_model()
    enc = table.encounter
    if enc.map_ref is not None:
        enc = enc.model_copy(update={"map": table.map, "map_ref": None})
    io_mod.save_encounter(enc, Path(out))
