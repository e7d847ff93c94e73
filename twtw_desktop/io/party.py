"""Reading and writing party files (``*.party.json``, :class:`~twtw_desktop.model.party.Party`).

Same guarantees as maps and encounters: strict JSON (:mod:`.jsonsafe`), strict
pydantic validation (no unknown fields, no ``"12"`` for 12), every carried weapon in
the gear catalog and no more rounds loaded than it holds; one :class:`LoadError`
naming the file and the field. Saving checks in memory that the serialised party
reads back equal, then writes it with the package's one atomic write
(:func:`twtw_desktop.io.atomic.write_atomic`): a failed save leaves the file as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from ..errors import LoadError
from ..model.party import PARTY_FORMAT_VERSION, Party
from ..rules.gear import GearCatalog, default_gear
from ..rules.samples import check_sheet
from .atomic import write_atomic
from .files import SaveError, validation_problem
from .jsonsafe import MAX_FILE_BYTES, clip, dumps_pretty, read_json


def party_from_data(path: Path | str, raw: object, gear: GearCatalog | None = None) -> Party:
    """Validate parsed JSON as a party (LoadError naming ``path`` and the field)."""
    if not isinstance(raw, dict):
        raise LoadError(path, "this is not a TWTW party file (expected a JSON object)")
    version = raw.get("format_version")
    if version != PARTY_FORMAT_VERSION:
        if isinstance(version, int) and version > PARTY_FORMAT_VERSION:
            reason = (
                f"this party file is format {version}, newer than this program reads "
                f"({PARTY_FORMAT_VERSION}); update TWTW Desktop"
            )
        else:
            reason = f"format_version must be {PARTY_FORMAT_VERSION}, not {clip(version)}"
        raise LoadError(path, reason, "format_version")
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=False)
        party = Party.model_validate_json(text, strict=True)
    except ValidationError as e:
        raise validation_problem(path, e) from None
    gear = gear if gear is not None else default_gear()
    for c in party.characters:
        check_sheet(Path(path), c, gear)
    return party


def load_party(path: Path | str, *, gear: GearCatalog | None = None) -> Party:
    """Load a party file. Raises only LoadError."""
    try:
        return party_from_data(path, read_json(path), gear)
    except LoadError:
        raise
    except Exception as e:  # never let another exception type escape
        raise LoadError(path, f"cannot read the party ({clip(e, 160)})") from None


def save_party(party: Party, path: Path | str) -> None:
    """Save a party file atomically. Raises only SaveError."""
    if not isinstance(party, Party):
        raise SaveError(path, f"expected a Party, got {type(party).__name__}")
    try:
        blob = dumps_pretty(party.model_dump(mode="json", warnings="error")).encode("utf-8")
    except Exception as e:
        raise SaveError(
            path, f"the party holds data that cannot be saved ({clip(e, 160)})"
        ) from None
    if len(blob) > MAX_FILE_BYTES:
        raise SaveError(path, "the party is too large to save")
    try:
        back = party_from_data(path, json.loads(blob))
    except LoadError as e:
        reason = f"the party is not valid and was not saved: {e.reason}"
        raise SaveError(path, reason, e.where) from None
    if back != party:
        raise SaveError(path, "the party would read back differently; it was not saved")
    write_atomic(path, blob, cls=SaveError)
