"""Hex grid mathematics (standard library only): :mod:`.hex` — axial hexes, the six
directions and facings, lines, rings and spirals; :mod:`.layout` — pointy or flat
orientation, hex ↔ pixel, offset coordinates and the "C7" labels.
"""

from .hex import (
    DIAGONALS,
    DIRECTIONS,
    Hex,
    facing_toward,
    facing_turn,
    hex_direction,
    hex_line,
    hex_range,
    hex_ring,
    hex_round,
    hex_spiral,
    hex_walk,
    neighbor_direction,
    rotate_facing,
)
from .layout import Layout, Orientation, hex_to_offset, offset_label, offset_to_hex

__all__ = [
    "DIAGONALS",
    "DIRECTIONS",
    "Hex",
    "Layout",
    "Orientation",
    "facing_toward",
    "facing_turn",
    "hex_direction",
    "hex_line",
    "hex_range",
    "hex_ring",
    "hex_round",
    "hex_spiral",
    "hex_to_offset",
    "hex_walk",
    "neighbor_direction",
    "offset_label",
    "offset_to_hex",
    "rotate_facing",
]
