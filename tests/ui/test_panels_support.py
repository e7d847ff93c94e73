"""Shared builders for the panel tests (no tests here).

``small_document()`` builds an encounter on a blank map with a few sample
characters and their tokens; ``sample_document()`` opens the bundled sample
encounter when it exists and falls back to the small one.
"""

from __future__ import annotations

from pathlib import Path

from twtw_desktop.model import Encounter, Map
from twtw_desktop.model.encounter import Token
from twtw_desktop.model.map import Feature, Material
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.samples import sample_characters

#: (character id, hex q, r, facing) placed by :func:`small_document`
PLACES = (
    ("miranda_valentine", 2, 3, 0),
    ("cyril_wellington", 2, 5, 0),
    ("felicia_laroq", 9, 3, 3),
    ("angus_laroq", 10, 5, 3),
)


def small_encounter(edition: str = "ap_v2", with_cover: bool = False) -> Encounter:
    chars = sample_characters()
    cs = [chars[cid] for cid, *_ in PLACES]
    for c in cs:
        for w in c.weapons:
            w.readied = True
            w.cocked = True
            w.loaded = max(w.loaded, 1)
    features = []
    if with_cover:
        # a thin wooden wall just in front of Felicia (hex 9,3), low enough to see over
        features.append(
            Feature(
                id="crate",
                kind="cover",
                points=[(13.0, 3.2), (13.0, 6.8)],
                material=Material.THIN_WOOD,
            )
        )
    m = Map.blank(16, 10, name="Test street", features=features)
    tokens = [
        Token(id=f"t_{cid}", character_id=cid, hex=(q, r), facing=f) for cid, q, r, f in PLACES
    ]
    return Encounter(name="Panel test", edition=edition, map=m, characters=cs, tokens=tokens)


def small_document(edition: str = "ap_v2", with_cover: bool = False):
    from twtw_desktop.ui.core.document import EncounterDocument

    return EncounterDocument(small_encounter(edition, with_cover))


def sample_encounter_path() -> Path | None:
    p = maps_dir() / "main_street.encounter.json"
    return p if p.exists() else None
