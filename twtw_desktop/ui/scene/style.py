"""Colours and sizes of the map view, in one place so the map reads the same everywhere."""

from __future__ import annotations

from PySide6.QtGui import QColor

from ...model.map import Material, Terrain

#: parchment-like ground so ink-coloured walls and tokens stand out
GROUND = QColor(236, 226, 200)
OFF_MAP = QColor(92, 84, 72)
GRID_LINE = QColor(120, 104, 80, 150)
MAP_EDGE = QColor(70, 56, 40)

TERRAIN_COLOURS: dict[Terrain, QColor] = {
    Terrain.OPEN: GROUND,
    Terrain.ROUGH: QColor(205, 188, 150),
    Terrain.STEEP: QColor(176, 140, 104),
    Terrain.GENTLE: QColor(214, 196, 156),
    Terrain.STAIRS: QColor(190, 170, 140),
    Terrain.LADDER: QColor(180, 150, 110),
    Terrain.CLIMB: QColor(150, 120, 96),
    Terrain.WATER: QColor(128, 170, 200),
    Terrain.IMPASSABLE: QColor(80, 72, 64),
}

#: how much one level of elevation lightens (up) or darkens (down) a hex, per cent
ELEVATION_STEP_PCT = 4
ELEVATION_MAX_PCT = 40

MATERIAL_COLOURS: dict[Material, QColor] = {
    Material.GLASS: QColor(90, 170, 220),
    Material.THIN_WOOD: QColor(176, 120, 60),
    Material.HARDWOOD: QColor(110, 66, 30),
    Material.ADOBE: QColor(196, 110, 70),
    Material.THIN_IRON: QColor(120, 124, 132),
    Material.BRICK: QColor(160, 56, 40),
    Material.THICK_IRON: QColor(56, 60, 70),
}

SIDE_COLOURS = {
    "posse": QColor(40, 96, 170),
    "hombres": QColor(170, 40, 36),
    "neutral": QColor(110, 110, 110),
}

BADGE_COLOURS = {
    "stunned": QColor(230, 180, 20),
    "concussed": QColor(130, 60, 160),
    "running": QColor(40, 150, 70),
    "mounted": QColor(130, 90, 40),
    "engaged": QColor(200, 90, 20),
    "held": QColor(120, 30, 30),
    "prone": QColor(60, 60, 60),
    "ducked": QColor(60, 60, 60),
    "wound": QColor(190, 20, 20),
}

SELECTION = QColor(255, 200, 0)
HIGHLIGHT = QColor(255, 255, 255)
REFUSED = QColor(200, 30, 30)
ALLOWED = QColor(30, 130, 50)


def terrain_colour(t: Terrain, elevation: int = 0) -> QColor:
    c = QColor(TERRAIN_COLOURS[t])
    if elevation:
        pct = max(-ELEVATION_MAX_PCT, min(ELEVATION_MAX_PCT, elevation * ELEVATION_STEP_PCT))
        c = c.lighter(100 + pct) if pct > 0 else c.darker(100 - pct)
    return c


def ap_colour(cost: int, budget: int) -> QColor:
    """Reachable-area shading: green for cheap, through yellow, to red at the budget."""
    f = 0.0 if budget <= 0 else max(0.0, min(1.0, cost / budget))
    if f < 0.5:
        r, g = int(60 + 390 * f), 180
    else:
        r, g = 255, int(180 - 300 * (f - 0.5))
    return QColor(min(r, 255), max(g, 40), 40, 90)
