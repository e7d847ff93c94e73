"""Every file the app reads or writes: maps, encounters, their pictures and decks.

One open path (:func:`open_any`, which ``validate`` shares), one atomic write
(:func:`write_atomic`), one save of an encounter with its map
(:func:`save_encounter_with_map`), one safe way to a picture (:func:`checked_picture`,
:func:`copy_picture`). See :mod:`twtw_desktop.io.files` for the pipeline and the
guarantees.

* :mod:`.files` — maps and encounters: open, validate, save (with their decks);
* :mod:`.jsonsafe` — careful JSON reading and stable writing; :mod:`.atomic` — the
  one atomic write; :mod:`.images` — pictures a map names;
* :mod:`.journal` — the session journal file; :mod:`.party` — party files;
  :mod:`.library` — the character library; :mod:`.uvtt` — Universal VTT maps in and
  out; :mod:`.validate` — ``twtw-desktop validate`` for every file type.
"""

from .atomic import SaveError, clean_stale_temps, write_atomic
from .files import (
    ENCOUNTER_SUFFIX,
    MAP_SUFFIX,
    LoadedEncounter,
    Opened,
    deck_cards,
    detect_kind,
    load_encounter,
    load_map,
    open_any,
    resolve_map_ref,
    save_encounter,
    save_encounter_with_map,
    save_map,
    snapshot_bytes,
    time_engine,
    validate_file,
)
from .images import (
    MAX_IMAGE_BYTES,
    MAX_IMAGE_DECODED_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_IMAGE_SIDE,
    CheckedPicture,
    PictureError,
    check_background,
    check_picture_size,
    checked_picture,
    copy_picture,
    image_size,
)
from .jsonsafe import MAX_DEPTH, MAX_FILE_BYTES

__all__ = [
    "ENCOUNTER_SUFFIX",
    "MAP_SUFFIX",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_IMAGE_BYTES",
    "MAX_IMAGE_DECODED_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_IMAGE_SIDE",
    "CheckedPicture",
    "LoadedEncounter",
    "Opened",
    "PictureError",
    "SaveError",
    "check_background",
    "check_picture_size",
    "checked_picture",
    "clean_stale_temps",
    "copy_picture",
    "deck_cards",
    "detect_kind",
    "image_size",
    "load_encounter",
    "load_map",
    "open_any",
    "resolve_map_ref",
    "save_encounter",
    "save_encounter_with_map",
    "save_map",
    "snapshot_bytes",
    "time_engine",
    "validate_file",
    "write_atomic",
]
