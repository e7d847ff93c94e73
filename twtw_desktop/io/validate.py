"""``validate`` for every file type the app writes (and the ones it reads).

:func:`validate_any` tells the type from the file's name, then its content, and checks
it with the very reader the app uses for it:

========================================  ============================================
``*.map.json``, ``*.encounter.json``       :func:`~twtw_desktop.io.files.validate_file`
(and their ``.autosave`` recovery copies)
``*.party.json`` (and the character        :func:`~twtw_desktop.io.party.load_party`
library's ``my_characters.party.json``)
``*.journal.jsonl`` (and set-aside         :func:`~twtw_desktop.io.journal.read_journal`
``….recovered-*``/``….declined-*``)
other ``*.jsonl`` (``play`` scripts)       :func:`~twtw_desktop.io.journal.read_script`
``*.uvtt``, ``*.dd2vtt``, ``*.df2vtt``     :func:`~twtw_desktop.io.uvtt.parse`
a deck file (``cards``)                    :func:`~twtw_desktop.rules.deck.load_deck_file`
========================================  ============================================

PDF and PNG exports are not read back by the app; ``validate`` says so instead of
failing on them.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import LoadError
from ..rules.deck import load_deck_file
from .files import validate_file
from .journal import read_journal, read_script
from .jsonsafe import decode_text, parse_json, read_capped
from .party import load_party
from .uvtt import parse as parse_uvtt

#: what each kind is called in validate's output
KINDS = {
    "map-or-encounter": "map or encounter",
    "party": "party",
    "journal": "session journal",
    "script": "play script",
    "uvtt": "Universal VTT battle map",
    "deck": "deck",
    "export": "export",
}
_UVTT = (".uvtt", ".dd2vtt", ".df2vtt")


def kind_of(path: Path | str) -> str:
    """The file type, by name first, then by content (a deck has ``cards``)."""
    name = Path(path).name.lower()
    if name.endswith(".autosave"):
        name = name[: -len(".autosave")]
    if name.endswith(".party.json"):
        return "party"
    if ".journal.jsonl" in name:
        return "journal"
    if name.endswith(".jsonl"):
        return "script"
    if name.endswith(_UVTT):
        return "uvtt"
    if name.endswith((".pdf", ".png")):
        return "export"
    if name.endswith((".map.json", ".encounter.json")):
        return "map-or-encounter"
    try:
        raw = parse_json(path, decode_text(path, read_capped(path)))
    except LoadError:
        return "map-or-encounter"  # its own reader says what is wrong
    if isinstance(raw, dict) and "cards" in raw and "terrain" not in raw:
        return "deck"
    if isinstance(raw, dict) and "exported_from" in raw:
        return "party"
    return "map-or-encounter"


def validate_any(path: Path | str) -> tuple[str, list[str]]:
    """(the file's kind, every problem found, one line each; empty when it is fine)."""
    kind = kind_of(path)
    try:
        if kind == "party":
            load_party(path)
        elif kind == "journal":
            contents = read_journal(path)
            return kind, [f"{path}: {p}" for p in contents.problems]
        elif kind == "script":
            read_script(Path(path))  # the steps' legality needs an encounter: play checks it
        elif kind == "uvtt":
            parse_uvtt(path)
        elif kind == "deck":
            load_deck_file(path)
        elif kind == "export":
            read_capped(path)  # there and readable; the app never reads it back
        else:
            return kind, validate_file(path)
    except LoadError as e:
        return kind, [str(e)]
    except Exception as e:  # never a traceback from validate
        return kind, [f"{path}: cannot read the file ({type(e).__name__}: {e})"]
    return kind, []


__all__ = ["KINDS", "kind_of", "validate_any"]
