"""Helpers for the geometry tests: small maps and walls drawn on hexsides."""

from __future__ import annotations

import pytest

from twtw_desktop.hexgrid import Hex, Orientation
from twtw_desktop.model.map import Feature, Map
from twtw_desktop.rules.editions import load_edition


def side_wall(game_map: Map, h: Hex, facing: int, fid: str, **kw) -> Feature:
    """A feature drawn exactly along the hexside of ``h`` facing ``facing``."""
    a, b = game_map.layout().hexside(h, facing)
    return Feature(id=fid, points=[a, b], **kw)


def line_feature(game_map: Map, a: Hex, b: Hex, fid: str, **kw) -> Feature:
    """A feature from the centre of ``a`` to the centre of ``b``."""
    lay = game_map.layout()
    return Feature(id=fid, points=[lay.hex_to_pixel(a), lay.hex_to_pixel(b)], **kw)


@pytest.fixture(params=list(Orientation), ids=lambda o: o.value)
def orientation(request) -> Orientation:
    return request.param


@pytest.fixture
def ap_v2():
    return load_edition("ap_v2")
