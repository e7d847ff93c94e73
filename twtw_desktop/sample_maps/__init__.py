"""The bundled sample maps and encounters, one module per map.

Each module builds its :class:`~twtw_desktop.model.map.Map` and a matching
:class:`~twtw_desktop.model.encounter.Encounter` (which refers to the map file by
``map_ref``) from code, deterministically: no clock, no randomness, every coordinate
rounded to 3 decimals. :data:`SAMPLES` lists them in the order File > Open Sample
shows them; ``python -m twtw_desktop.samples_build`` writes them all into ``maps/``.
The building blocks every map uses — ground painting, walls with their doors and
windows, gated enclosures, cover bars and blocks, notes, markers, placed tokens — are
in :mod:`.common`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from ..model.encounter import Encounter
from ..model.map import Map
from . import laroq_hacienda, legless_gulch, longhorn_saloon, main_street


@dataclass(frozen=True)
class Sample:
    """One bundled sample: its files and the functions that build them."""

    key: str
    map_file: str
    encounter_file: str
    build_map: Callable[[], Map]
    build_encounter: Callable[[], Encounter]


def _sample(module: ModuleType) -> Sample:
    return Sample(
        key=module.__name__.rsplit(".", 1)[-1],
        map_file=module.MAP_FILE,
        encounter_file=module.ENCOUNTER_FILE,
        build_map=module.build_map,
        build_encounter=module.build_encounter,
    )


#: The bundled samples, in menu order: the town, the saloon, the gulch, the hacienda.
SAMPLES: tuple[Sample, ...] = tuple(
    _sample(m) for m in (main_street, longhorn_saloon, legless_gulch, laroq_hacienda)
)

#: Encounter file names in menu order (the UI sorts the bundled files by this).
ENCOUNTER_ORDER: tuple[str, ...] = tuple(s.encounter_file for s in SAMPLES)

__all__ = ["ENCOUNTER_ORDER", "SAMPLES", "Sample"]
