"""The encounter and the map as data (pydantic, no Qt): what a file holds, nothing that
plays it.

* :mod:`.map` — the tactical map: terrain, elevation, walls and cover, doors and
  windows, labels, Judge-only notes and markers, a background picture;
* :mod:`.encounter` — an encounter: its map, characters and tokens, the deck's state,
  the action-time state, the log;
* :mod:`.edit` — map editing as plain functions (the editor's strokes);
* :mod:`.party` — the posse between fights;
* :mod:`.migrations` — file format versions and the steps between them.

Reading and writing these files is :mod:`twtw_desktop.io`'s.
"""

from .encounter import Encounter, LogEntry, Token
from .map import (
    BackgroundImage,
    CoverHeight,
    Feature,
    Label,
    Map,
    Marker,
    Material,
    Note,
    Terrain,
)

__all__ = [
    "BackgroundImage",
    "CoverHeight",
    "Encounter",
    "Feature",
    "Label",
    "LogEntry",
    "Map",
    "Marker",
    "Material",
    "Note",
    "Terrain",
    "Token",
]
