"""The encounter and the map as data (pydantic, no Qt)."""

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
