"""Where the bundled data lives (decks, gear, editions, sample characters, maps).

In a source checkout (the usual, editable install) the data sits in the repository's
top-level ``resources/`` and ``maps/`` folders. In a built wheel ``resources/`` is
packaged as ``twtw_desktop._resources``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from . import __version__

_REPO = Path(__file__).resolve().parent.parent


@cache
def resources_dir() -> Path:
    """The folder holding the bundled data files."""
    here = _REPO / "resources"
    if here.is_dir():
        return here
    # wheel install: resources/ was packaged as twtw_desktop/_resources (a data
    # folder without __init__.py, so it is found by path, not imported)
    return Path(__file__).resolve().parent / "_resources"


def resource_path(*parts: str) -> Path:
    """Path of one bundled data file, e.g. ``resource_path("gear", "weapons.json")``."""
    return resources_dir().joinpath(*parts)


@cache
def maps_dir() -> Path:
    """The folder holding the bundled sample maps and encounters."""
    here = _REPO / "maps"
    if here.is_dir():
        return here
    return resources_dir() / "maps"


def version() -> str:
    """The installed distribution's version; a bundle without package metadata
    (PyInstaller) falls back to ``twtw_desktop.__version__``."""
    # lazy: start-up (importlib.metadata and the email package it loads)
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("twtw-desktop")
    except PackageNotFoundError:
        return __version__
