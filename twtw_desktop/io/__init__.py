"""Loading and saving maps and encounters (strict JSON, versioned, atomic writes).

See :mod:`twtw_desktop.io.files` for the pipeline and the guarantees.
"""

from .files import (
    ENCOUNTER_SUFFIX,
    MAP_SUFFIX,
    LoadedEncounter,
    SaveError,
    detect_kind,
    load_encounter,
    load_map,
    resolve_map_ref,
    save_encounter,
    save_map,
    validate_file,
)
from .images import MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, check_background, image_size
from .jsonsafe import MAX_DEPTH, MAX_FILE_BYTES

__all__ = [
    "ENCOUNTER_SUFFIX",
    "MAP_SUFFIX",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_IMAGE_SIDE",
    "LoadedEncounter",
    "SaveError",
    "check_background",
    "detect_kind",
    "image_size",
    "load_encounter",
    "load_map",
    "resolve_map_ref",
    "save_encounter",
    "save_map",
    "validate_file",
]
