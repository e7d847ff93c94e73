"""Loading and saving maps and encounters: strict, versioned, atomic.

Files are JSON (never pickle or YAML), UTF-8, with ``format_version`` at the top.
By convention maps end in ``.map.json`` and encounters in ``.encounter.json``, but
the kind is told from the content (:func:`detect_kind`), so a renamed file still
opens.

Loading (:func:`load_map`, :func:`load_encounter`)
    read at most 50 MB of a regular file → strict JSON (depth-capped, finite numbers,
    no repeated keys; see :mod:`.jsonsafe`) → migrate older formats up to the current
    one (:mod:`twtw_desktop.model.migrations`) → validate with the pydantic models in
    strict mode (no ``"12"`` for 12, no unknown fields) → cross-checks the models
    cannot make alone (a referenced map exists and every token is on it, carried
    weapons are in the gear catalog). Whatever goes wrong, the caller gets exactly
    one :class:`LoadError` naming the file, the field (``features.3.points.0``) and
    the reason.

Encounters and their map
    An encounter either embeds its map or names a map file in ``map_ref``, relative
    to the encounter file (``..`` is allowed so a campaign can keep ``maps/`` and
    ``encounters/`` side by side; absolute paths are refused so folders stay
    portable). :func:`load_encounter` returns a :class:`LoadedEncounter` holding the
    encounter *unchanged* (``map_ref`` kept, ``map`` still ``None``) next to the
    loaded :class:`Map` and both paths — the Encounter model forbids having both, and
    keeping them apart means saving never silently embeds a shared map. Save the map
    with :func:`save_map` and the encounter with :func:`save_encounter`; passing the
    :class:`LoadedEncounter` to :func:`save_encounter` rewrites ``map_ref`` when the
    encounter is saved into another folder.

Saving (:func:`save_map`, :func:`save_encounter`)
    serialise fully in memory → write a temporary file in the same folder → flush and
    fsync → read the temporary file back through the loader and compare it with the
    model meant to be saved → ``os.replace`` it over the original → fsync the folder.
    Any failure raises :class:`SaveError` (a :class:`LoadError`), leaves the original
    byte-for-byte untouched and removes the temporary file.

Background pictures are *not* opened by the loaders (a moved picture should not stop
a map opening); call :func:`check_background` before decoding one.
:func:`validate_file` lists every problem of a file, backgrounds included.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from ..errors import LoadError
from ..hexgrid import Hex
from ..model.encounter import Encounter
from ..model.map import Map
from ..model.migrations import CURRENT_VERSIONS, MigrationError, migrate
from ..rules.gear import GearCatalog, default_gear
from .images import check_background
from .jsonsafe import MAX_FILE_BYTES, clip, dumps_pretty, read_json

Kind = Literal["map", "encounter"]

MAP_SUFFIX = ".map.json"
ENCOUNTER_SUFFIX = ".encounter.json"

_MODELS: dict[str, type[Map] | type[Encounter]] = {"map": Map, "encounter": Encounter}
#: Top-level keys only an encounter has; ``terrain`` only a map has.
_ENCOUNTER_KEYS = frozenset({"map", "map_ref", "tokens", "characters", "deck_seed", "edition"})
#: Most problems :func:`validate_file` lists for one file.
MAX_PROBLEMS = 50


class SaveError(LoadError):
    """A file could not be saved. The file on disk is exactly as it was."""


@dataclass
class LoadedEncounter:
    """An encounter as loaded: the Encounter model exactly as in the file, the map it
    plays on (embedded or loaded from ``map_ref``) and where both came from."""

    encounter: Encounter
    map: Map
    path: Path
    #: the referenced map file, or None when the map is embedded
    map_path: Path | None = None
    #: formats the encounter file was migrated through (empty: already current)
    migrated_from: list[int] = field(default_factory=list)


# --- small helpers ---------------------------------------------------------------------


def _err(path: Path | str, reason: str, where: str = "", cls: type[LoadError] = LoadError):
    return cls(path, reason, clip(where, 160) if where else "")


def _first(problems: list[LoadError], cls: type[LoadError] = LoadError) -> LoadError:
    """One error for the caller: the first problem, counting the rest."""
    e = problems[0]
    reason = e.reason
    if len(problems) >= MAX_PROBLEMS:
        reason += f" (and at least {MAX_PROBLEMS - 1} more problems)"
    elif len(problems) > 1:
        more = len(problems) - 1
        reason += f" (and {more} more problem{'s' if more > 1 else ''})"
    return cls(e.path, reason, e.where)


def _pydantic_problems(path: Path | str, e: ValidationError, prefix: str = "") -> list[LoadError]:
    out = []
    for err in e.errors(include_url=False)[:MAX_PROBLEMS]:
        loc = ".".join(str(p) for p in err["loc"])
        if prefix:
            loc = f"{prefix}.{loc}" if loc else prefix
        kind, msg = err["type"], err["msg"]
        if kind == "extra_forbidden":
            msg = "unknown field (not part of the format)"
        elif kind == "missing":
            msg = "required field is missing"
        elif msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        out.append(_err(path, clip(msg, 300), loc))
    return out


#: Furthest a wall, label or background corner may lie from the map's origin, in map
#: units (the largest map, 400 × 400 hexes, spans about 700); a finite but absurd
#: coordinate such as 1e300 would otherwise reach the geometry and the screen.
MAX_COORDINATE = 10_000.0


def _map_problems(path: Path | str, m: Map, prefix: str = "") -> list[LoadError]:
    """Cross-checks of a valid Map the model leaves open (coordinate range)."""
    here = f"{prefix}." if prefix else ""
    out: list[LoadError] = []

    def check(where: str, *values: float) -> None:
        if len(out) < MAX_PROBLEMS and any(abs(v) > MAX_COORDINATE for v in values):
            out.append(
                _err(
                    path,
                    f"coordinate {clip(max(values, key=abs), 40)} is far off the map "
                    f"(limit ±{MAX_COORDINATE:g} map units)",
                    here + where,
                )
            )

    for i, f in enumerate(m.features):
        for j, (x, y) in enumerate(f.points):
            check(f"features.{i}.points.{j}", x, y)
    for i, lab in enumerate(m.labels):
        check(f"labels.{i}.at", *lab.at)
    if m.background is not None:
        check("background.x", m.background.x, m.background.y)
    return out


def _kind_of(raw: Any, path: Path | str) -> Kind | None:
    if isinstance(raw, dict):
        if "terrain" in raw:
            return "map"
        if _ENCOUNTER_KEYS & raw.keys():
            return "encounter"
    name = Path(path).name.lower()
    if name.endswith(MAP_SUFFIX):
        return "map"
    if name.endswith(ENCOUNTER_SUFFIX):
        return "encounter"
    return None


def _to_model(path: Path | str, kind: Kind, raw: Any) -> tuple[Any, list[int], list[LoadError]]:
    """Migrate and validate parsed JSON: (model or None, formats passed, problems)."""
    try:
        data, passed = migrate(kind, raw)
    except MigrationError as e:
        return None, [], [_err(path, e.reason, e.where)]
    except Exception as e:  # a migration tripping over malformed old data
        return None, [], [_err(path, f"could not convert this old {kind} file ({clip(e)})")]
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
        model = _MODELS[kind].model_validate_json(text, strict=True)
    except ValidationError as e:
        return None, passed, _pydantic_problems(path, e)
    except Exception as e:
        return None, passed, [_err(path, f"could not read the {kind} ({clip(e, 160)})")]
    game_map = model if isinstance(model, Map) else model.map
    problems = (
        [] if game_map is None else _map_problems(path, game_map, "" if kind == "map" else "map")
    )
    return (None if problems else model), passed, problems


def _map_ref_path(encounter_path: Path | str, ref: str) -> Path:
    """Where ``map_ref`` points, relative to the encounter file (ValueError if absolute)."""
    if "\x00" in ref:
        raise ValueError("the path contains a NUL character")
    norm = ref.replace("\\", "/")
    win = PureWindowsPath(ref)
    if norm.startswith("/") or win.drive or (len(ref) > 1 and ref[1] == ":"):
        raise ValueError("map_ref must be a path relative to the encounter file, not absolute")
    if not norm.strip("/. "):
        raise ValueError("map_ref names no file")
    return Path(encounter_path).absolute().parent / norm


def resolve_map_ref(encounter_path: Path | str, ref: str) -> Path:
    """The map file an encounter's ``map_ref`` names (LoadError if it is absolute)."""
    try:
        return _map_ref_path(encounter_path, ref)
    except ValueError as e:
        raise _err(encounter_path, str(e), "map_ref") from None


def _gear_or_none(gear: GearCatalog | None) -> GearCatalog | None:
    if gear is not None:
        return gear
    try:
        return default_gear()
    except LoadError:  # the app reports a broken catalog itself; don't block encounters
        return None


def _encounter_problems(
    path: Path | str, enc: Encounter, gear: GearCatalog | None
) -> tuple[Map | None, Path | None, list[LoadError]]:
    """Cross-checks of a valid Encounter: its map, tokens on that map, weapon ids."""
    problems: list[LoadError] = []
    game_map: Map | None = enc.map
    map_path: Path | None = None
    if enc.map_ref is not None:
        try:
            map_path = _map_ref_path(path, enc.map_ref)
        except ValueError as e:
            problems.append(_err(path, str(e), "map_ref"))
        else:
            try:
                game_map = load_map(map_path)
            except LoadError as e:
                problems.append(
                    _err(path, f"the map it refers to cannot be loaded: {e}", "map_ref")
                )
        if game_map is not None:
            for i, t in enumerate(enc.tokens):
                if not game_map.contains(Hex(*t.hex)):
                    problems.append(
                        _err(
                            path,
                            f"token {t.id!r} is off the map at {list(t.hex)}",
                            f"tokens.{i}.hex",
                        )
                    )
    if gear is not None:
        for i, c in enumerate(enc.characters):
            for j, w in enumerate(c.weapons):
                if w.weapon_id not in gear.weapons:
                    problems.append(
                        _err(
                            path,
                            f"{c.name} carries {clip(w.weapon_id)!r}, which is not in the gear catalog",
                            f"characters.{i}.weapons.{j}.weapon_id",
                        )
                    )
    return game_map, map_path, problems


# --- public: reading -------------------------------------------------------------------


def detect_kind(path: Path | str) -> Kind:
    """``"map"`` or ``"encounter"``, from the file's content (or its name if the
    content does not say). LoadError if the file is unreadable or neither."""
    try:
        raw = read_json(path)
    except LoadError:
        raise
    except Exception as e:  # never let another exception type escape
        raise _err(path, f"cannot read the file ({clip(e)})") from None
    kind = _kind_of(raw, path)
    if kind is None:
        raise _err(path, "this is neither a TWTW map nor an encounter file")
    return kind


def load_map(path: Path | str) -> Map:
    """Load a map file (any supported format version). Raises only LoadError."""
    try:
        raw = read_json(path)
        if _kind_of(raw, path) == "encounter":
            raise _err(path, "this is an encounter file, not a map")
        model, _, problems = _to_model(path, "map", raw)
    except LoadError:
        raise
    except Exception as e:  # never let another exception type escape
        raise _err(path, f"cannot read the map ({clip(e, 160)})") from None
    if problems:
        raise _first(problems)
    return model


def load_encounter(path: Path | str, *, gear: GearCatalog | None = None) -> LoadedEncounter:
    """Load an encounter file and the map it plays on. Raises only LoadError.

    ``gear`` is the catalog carried weapons are checked against (default: the bundled
    one; when that cannot load, weapons are not checked here).
    """
    try:
        raw = read_json(path)
        if _kind_of(raw, path) == "map":
            raise _err(path, "this is a map file, not an encounter")
        enc, passed, problems = _to_model(path, "encounter", raw)
        if not problems:
            game_map, map_path, problems = _encounter_problems(path, enc, _gear_or_none(gear))
    except LoadError:
        raise
    except Exception as e:
        raise _err(path, f"cannot read the encounter ({clip(e, 160)})") from None
    if problems:
        raise _first(problems)
    assert game_map is not None
    return LoadedEncounter(enc, game_map, Path(path), map_path, passed)


def validate_file(path: Path | str, *, gear: GearCatalog | None = None) -> list[str]:
    """Every problem found in a map or encounter file, one line each (empty = OK).

    Goes further than loading: also checks the background picture's path and header,
    and lists up to :data:`MAX_PROBLEMS` schema problems instead of the first.
    """
    try:
        raw = read_json(path)
        kind = _kind_of(raw, path)
        if kind is None:
            return [str(_err(path, "this is neither a TWTW map nor an encounter file"))]
        model, _, problems = _to_model(path, kind, raw)
        if model is not None:
            game_map = model if isinstance(model, Map) else model.map
            prefix = "" if kind == "map" else "map."
            if game_map is not None and game_map.background is not None:
                try:
                    check_background(path, game_map.background)
                except LoadError as e:
                    problems.append(_err(path, e.reason, prefix + e.where))
            if kind == "encounter":
                problems += _encounter_problems(path, model, _gear_or_none(gear))[2]
    except LoadError as e:
        return [str(e)]
    except Exception as e:
        return [str(_err(path, f"cannot read the file ({clip(e, 160)})"))]
    return [str(p) for p in problems[:MAX_PROBLEMS]]


# --- public: writing -------------------------------------------------------------------


def _nonfinite_at(value: Any, where: str = "") -> str | None:
    """Dotted path of the first NaN/infinite float inside free-form data, if any."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "(top)"
    if isinstance(value, BaseModel):
        value = dict(value)
    items: Iterable[tuple[Any, Any]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for k, v in items:
        found = _nonfinite_at(v, f"{where}.{k}" if where else str(k))
        if found:
            return found
    return None


def _serialise(path: Path | str, model: BaseModel, kind: Kind) -> bytes:
    bad = _nonfinite_at(model)
    if bad:  # pydantic would quietly write null for it
        raise _err(path, f"the {kind} holds a number that is not finite", bad, cls=SaveError)
    try:
        data = model.model_dump(mode="json", warnings="error")
        if data.get("format_version") != CURRENT_VERSIONS[kind]:  # a model/version mismatch
            raise ValueError(f"format_version is not {CURRENT_VERSIONS[kind]}")
        text = dumps_pretty(data)
        blob = text.encode("utf-8")
    except UnicodeEncodeError:
        raise _err(
            path, f"the {kind} holds text that cannot be written as UTF-8", cls=SaveError
        ) from None
    except Exception as e:  # serialisation warnings, NaN in free-form data, odd objects
        raise _err(
            path, f"the {kind} holds data that cannot be saved ({clip(e, 160)})", cls=SaveError
        ) from None
    if len(blob) > MAX_FILE_BYTES:
        raise _err(
            path,
            f"the {kind} is too large to save ({len(blob) // (1024 * 1024)} MB; "
            f"files are limited to {MAX_FILE_BYTES // (1024 * 1024)} MB)",
            cls=SaveError,
        )
    return blob


def _first_difference(a: BaseModel, b: BaseModel) -> str:
    da, db = a.model_dump(), b.model_dump()
    for k in da:
        if da.get(k) != db.get(k):
            return k
    return "(unknown field)"


def _read_back(path: Path | str, tmp: Path, kind: Kind, expected: BaseModel) -> None:
    """The temporary file must load to exactly the model meant to be saved."""
    try:
        raw = read_json(tmp)
    except LoadError as e:
        raise _err(path, f"the written file does not read back ({e.reason})", e.where) from None
    model, _, problems = _to_model(tmp, kind, raw)
    if problems:
        p = problems[0]
        raise _err(path, f"the {kind} is not valid and was not saved: {p.reason}", p.where)
    if model != expected:
        raise _err(
            path,
            f"the written file reads back differently at {_first_difference(expected, model)}",
        )


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable where the OS allows fsync on a folder (POSIX)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _atomic_save(path: Path | str, blob: bytes, kind: Kind, model: BaseModel) -> None:
    target = Path(os.path.realpath(path))  # save through a symlink, not over it
    folder = target.parent
    if not folder.is_dir():
        raise _err(path, f"the folder {clip(folder, 120)} does not exist", cls=SaveError)
    old_mode: int | None = None
    if os.path.lexists(target):
        st = os.stat(target)
        if not stat.S_ISREG(st.st_mode):
            raise _err(path, "there is a folder or a special file at this path", cls=SaveError)
        if not os.access(target, os.W_OK):
            raise _err(path, "the file is read-only", cls=SaveError)
        old_mode = stat.S_IMODE(st.st_mode)
    tmp: Path | None = None
    try:
        for _ in range(10):
            candidate = folder / f".{target.name[:80]}.{secrets.token_hex(4)}.tmp"
            try:
                fd = os.open(
                    candidate,
                    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                    0o666,  # the umask applies, as for any new file
                )
            except FileExistsError:
                continue
            tmp = candidate
            break
        else:  # pragma: no cover - ten random names all taken
            raise OSError("could not create a temporary file")
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        if old_mode is not None:
            os.chmod(tmp, old_mode)
        _read_back(path, tmp, kind, model)
        os.replace(tmp, target)
        tmp = None
    except SaveError:
        raise
    except LoadError as e:
        raise _err(path, e.reason, e.where, cls=SaveError) from None
    except OSError as e:
        reason = e.strerror or clip(e, 120)
        raise _err(
            path, f"could not save ({reason}); the file on disk is unchanged", cls=SaveError
        ) from None
    except Exception as e:
        raise _err(
            path, f"could not save ({clip(e, 120)}); the file on disk is unchanged", cls=SaveError
        ) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _fsync_folder(folder)


def save_map(game_map: Map, path: Path | str) -> None:
    """Save a map atomically (see the module docstring). Raises only SaveError."""
    if not isinstance(game_map, Map):
        raise _err(path, f"expected a Map, got {type(game_map).__name__}", cls=SaveError)
    _atomic_save(path, _serialise(path, game_map, "map"), "map", game_map)


def save_encounter(encounter: Encounter | LoadedEncounter, path: Path | str) -> Encounter:
    """Save an encounter atomically. Raises only SaveError; returns what was written.

    Given a :class:`LoadedEncounter` with a referenced map, ``map_ref`` is rewritten
    relative to the new location, so *Save As* into another folder keeps pointing at
    the same map file (the returned Encounter carries the new ``map_ref``). The map
    itself is not written: save it with :func:`save_map`.
    """
    enc = encounter.encounter if isinstance(encounter, LoadedEncounter) else encounter
    if not isinstance(enc, Encounter):
        raise _err(path, f"expected an Encounter, got {type(enc).__name__}", cls=SaveError)
    if isinstance(encounter, LoadedEncounter) and enc.map_ref and encounter.map_path:
        try:
            rel = os.path.relpath(
                encounter.map_path.absolute(), Path(path).absolute().parent
            ).replace(os.sep, "/")
        except ValueError:  # another drive on Windows
            raise _err(
                path,
                "the map is on another drive; save the encounter next to its map",
                "map_ref",
                cls=SaveError,
            ) from None
        if rel != enc.map_ref:
            enc = enc.model_copy(deep=True)
            enc.map_ref = rel
    if enc.map_ref is not None:
        try:
            _map_ref_path(path, enc.map_ref)
        except ValueError as e:
            raise _err(path, str(e), "map_ref", cls=SaveError) from None
    _atomic_save(path, _serialise(path, enc, "encounter"), "encounter", enc)
    return enc
