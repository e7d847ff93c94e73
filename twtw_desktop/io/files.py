"""Loading and saving maps and encounters: strict, versioned, atomic — one open path.

Files are JSON (never pickle or YAML), UTF-8, with ``format_version`` at the top.
By convention maps end in ``.map.json`` and encounters in ``.encounter.json``, but
the kind is told from the content, so a renamed file still opens.

One open path (:func:`open_any`)
    Everything that reads a map or encounter — the window, the players' screen,
    ``export``, ``summary``, Save As and ``validate`` — goes through
    :func:`open_any`, which applies every check the window relies on: the file, the
    map it refers to, the background picture (:mod:`.images`), the deck file and the
    saved deck and action-time state (built once, as the table builds them). So
    ``validate`` says OK exactly when the window opens the file:
    :func:`validate_file` is the same collector, listing every problem instead of
    raising the first.

Reading, linear in the size
    at most :data:`MAX_FILE_BYTES` of a regular file (``os.stat`` first) → UTF-8 →
    a structural pre-check with array operations (nesting ≤ :data:`MAX_DEPTH`, no
    repeated key; :func:`.jsonsafe.structure_ok`) → **one parse**: pydantic's JSON
    parser straight into the strict model (NaN/infinity and every number's range are
    refused by the schemas' bounds). Only when that fails, or the file is an older
    format, does the slow strict path run (:func:`.jsonsafe.parse_json`, then
    :mod:`twtw_desktop.model.migrations`, then validation) to name the field and the
    reason. Whatever goes wrong, the caller gets one :class:`LoadError`.

Encounters and their map
    An encounter either embeds its map or names a map file in ``map_ref``, relative
    to the encounter file (``..`` is allowed so a campaign can keep ``maps/`` and
    ``encounters/`` side by side; absolute paths are refused). The loaded encounter
    keeps ``map_ref`` and the map apart (:class:`LoadedEncounter`); saving never
    silently embeds a shared map. :func:`save_encounter_with_map` is the one save of
    an encounter together with its map file.

Saving (:func:`save_map`, :func:`save_encounter`)
    validate the model (in-place list edits bypass pydantic) → serialise in memory →
    :func:`.atomic.write_atomic` (chunked, fsynced, size and bytes verified, temp
    removed on every failure, stale temps of a crash cleaned). Any failure raises
    :class:`SaveError` and leaves the original byte-for-byte untouched.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import LoadError, RulesError
from ..hexgrid import Hex
from ..model.encounter import Encounter
from ..model.map import MAX_COORDINATE, MAX_ELEVATION, Map
from ..model.migrations import CURRENT_VERSIONS, MigrationError, migrate
from ..rules.deck import Deck, DeckState, load_deck_file, standard_deck
from ..rules.editions import load_edition
from ..rules.gear import GearCatalog, default_gear
from .atomic import SaveError, clean_stale_temps, write_atomic
from .images import ImageHeaderError, PictureError, checked_picture, inside_folder
from .jsonsafe import (
    MAX_FILE_BYTES,
    clip,
    decode_text,
    dumps_pretty,
    parse_json,
    read_capped,
    structure_ok,
)

T = TypeVar("T")

Kind = Literal["map", "encounter"]

MAP_SUFFIX = ".map.json"
ENCOUNTER_SUFFIX = ".encounter.json"

_MODELS: dict[str, type[Map] | type[Encounter]] = {"map": Map, "encounter": Encounter}
#: Top-level keys only an encounter has; ``terrain`` only a map has.
_ENCOUNTER_KEYS = frozenset({"map", "map_ref", "tokens", "characters", "deck_seed", "edition"})
#: Most problems :func:`validate_file` lists for one file.
MAX_PROBLEMS = 50

__all__ = ["SaveError"]


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


@dataclass
class Opened:
    """A map or encounter file as the window opens it (see :func:`open_any`).

    A bare map file comes back as an encounter with no one on it (``kind="map"``,
    ``encounter.map is map``)."""

    path: Path
    kind: Kind
    encounter: Encounter
    map: Map
    #: the referenced map file (None when the map is embedded or the file is a map)
    map_path: Path | None = None
    migrated_from: list[int] = field(default_factory=list)
    #: the deck file's cards (None: the bundled deck) and the deck's name
    deck_cards: list[Any] | None = None
    deck_name: str = "standard"


# --- small helpers ---------------------------------------------------------------------


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a file is turned into objects or back: the
    millions of small objects of a big map would trigger full collections that find
    nothing (our data holds no cycles); reference counting still frees everything."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _err(
    path: Path | str, reason: str, where: str = "", cls: type[LoadError] = LoadError
) -> LoadError:
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


_BOUND_TYPES = frozenset(
    {"less_than", "less_than_equal", "greater_than", "greater_than_equal", "too_long", "too_short"}
)


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
        elif kind in _BOUND_TYPES and kind not in ("too_long", "too_short"):
            limit = (err.get("ctx") or {}).get("le", (err.get("ctx") or {}).get("ge"))
            if limit is not None and abs(limit) == MAX_COORDINATE and err["loc"][-1] in (0, 1):
                loc = loc.rsplit(".", 1)[0]  # the point, not its x or y
                msg = (
                    f"coordinate {clip(err.get('input'), 40)} is far off the map "
                    f"(limit ±{MAX_COORDINATE:g} map units)"
                )
            else:
                msg = f"{msg} (found {clip(err.get('input'), 40)})"  # the limit and the value
        out.append(_err(path, clip(msg, 300), loc))
    return out


def validation_problem(path: Path | str, e: ValidationError, prefix: str = "") -> LoadError:
    """A pydantic refusal as one LoadError naming the field, the limit and the value
    found (and how many more problems there are): what every file's reader says."""
    return _first(_pydantic_problems(path, e, prefix))


def _kind_of(raw: Any, path: Path | str) -> Kind | None:
    if isinstance(raw, dict):
        if "terrain" in raw:
            return "map"
        if _ENCOUNTER_KEYS & raw.keys():
            return "encounter"
    return _kind_by_name(path)


def _kind_by_name(path: Path | str) -> Kind | None:
    name = Path(path).name.lower()
    if name.endswith(MAP_SUFFIX):
        return "map"
    if name.endswith(ENCOUNTER_SUFFIX):
        return "encounter"
    return None


def _slow_model(path: Path | str, kind: Kind, raw: Any) -> tuple[Any, list[int], list[LoadError]]:
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
    return model, passed, []


def _parse(path: Path | str, expect: Kind | None) -> tuple[Kind, Any, list[int], list[LoadError]]:
    """Read a file once: (kind, model or None, formats passed, problems).

    The fast path (a current, clean file: one parse by pydantic) is taken whenever
    it can be; the slow strict path only to explain a refusal or to migrate.
    Raises LoadError when the file cannot be read at all.
    """
    blob = read_capped(path)
    guess = expect or _kind_by_name(path)
    if (
        guess is not None
        and b"NaN" not in blob  # non-finite numbers: let the slow path say where
        and b"Infinity" not in blob
        and structure_ok(blob)
    ):
        try:  # pydantic reads the bytes (and refuses bad UTF-8) itself
            model = _MODELS[guess].model_validate_json(blob, strict=True)
        except ValidationError as e:
            model = None
            if _plain_refusal(e):  # the file is of this kind and format: say why now
                return guess, None, [], _pydantic_problems(path, e)
            # else an old format, the other kind, or broken JSON: look closer
        if model is not None and _versions_given(model, blob):
            return guess, model, [], []
    raw = parse_json(path, decode_text(path, blob))
    kind = _kind_of(raw, path)
    if kind is None:
        raise _err(path, "this is neither a TWTW map nor an encounter file")
    if expect is not None and kind != expect:
        raise _err(
            path,
            f"this is {'an encounter' if kind == 'encounter' else 'a map'} file, not {'a map' if expect == 'map' else 'an encounter'}",
        )
    model, passed, problems = _slow_model(path, kind, raw)
    return kind, model, passed, problems


_VERSION_RE = re.compile(rb'"format_version"\s*:\s*([^,}\s]*)')


def _plain_refusal(e: ValidationError) -> bool:
    """Errors that the slow path would only repeat: none about the format version,
    the file's kind (unknown or missing top-level fields) or its JSON."""
    for err in e.errors(include_url=False)[:MAX_PROBLEMS]:
        loc = err["loc"]
        if not loc or loc[0] == "format_version" or err["type"].startswith("json"):
            return False
        if len(loc) == 1 and err["type"] in ("extra_forbidden", "missing", "model_type"):
            return False
        if loc[0] == "map" and len(loc) > 1 and loc[1] == "format_version":
            return False
    return True


def _versions_given(model: BaseModel, blob: bytes) -> bool:
    """The file named its format as a whole number (the models default it and their
    Literal would take ``1.0`` or ``true``; a file must not)."""
    if "format_version" not in model.model_fields_set:
        return False
    if not all(m.group(1).isdigit() for m in _VERSION_RE.finditer(blob)):
        return False
    inner = getattr(model, "map", None)
    return not isinstance(inner, Map) or "format_version" in inner.model_fields_set


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


def _picture_problems(map_file: Path | str, m: Map, prefix: str = "") -> list[LoadError]:
    """The map's background picture, checked as the window will read it."""
    if m.background is None:
        return []
    try:
        checked_picture(map_file, m.background, read=False)
    except PictureError as e:
        where = f"{prefix}.{e.where}" if prefix else e.where
        if Path(e.path) != Path(map_file):
            return [_err(map_file, e.reason, where)]
        return [_err(e.path, e.reason, where)]
    return []


def deck_file_path(encounter_path: Path | str, ref: str) -> Path:
    """The deck file an encounter names: inside the encounter's own folder, checked
    like a picture (relative, no ``..``, no symlink out). LoadError otherwise."""
    try:
        return inside_folder(Path(encounter_path).absolute().parent, ref)
    except ImageHeaderError as e:
        reason = str(e).replace("map's folder", "encounter's folder")
        raise _err(encounter_path, f"deck file {clip(ref)!r}: {reason}", "deck_file") from None
    except FileNotFoundError:
        raise _err(encounter_path, f"deck file {clip(ref)!r} not found", "deck_file") from None
    except (OSError, RuntimeError, ValueError) as e:
        raise _err(
            encounter_path, f"deck file {clip(ref)!r} cannot be read ({clip(e, 120)})", "deck_file"
        ) from None


def deck_cards(encounter: Encounter, path: Path | str | None) -> tuple[list[Any], str]:
    """The cards an encounter plays with and the deck's name: its deck file (checked by
    :func:`deck_file_path`) or the bundled deck. Raises LoadError."""
    if not encounter.deck_file:
        return standard_deck(), "standard"
    base = path if path is not None else Path.cwd() / "unsaved.encounter.json"
    cards = load_deck_file(deck_file_path(base, encounter.deck_file))
    return cards, Path(encounter.deck_file).stem


def time_engine(edition: Any) -> tuple[Any, type[BaseModel]]:
    """(engine class, saved-state model) of an edition's action time: AP v2's action
    track or a Phases round."""
    # (the engines' models are imported here, for an encounter saved in action time:
    # the window's first frame of one in narrative time does without them)
    if edition.time == "segments":
        from ..rules.action_track import ActionTrack, TrackState  # lazy: start-up

        return ActionTrack, TrackState
    from ..rules.phases import PhaseRound, PhaseState  # lazy: start-up

    return PhaseRound, PhaseState


def _play_problems(
    path: Path | str, enc: Encounter
) -> tuple[list[Any] | None, str, list[LoadError]]:
    """Build the deck and the action time from the saved state exactly as the table
    will: (deck file cards, deck name, problems)."""
    try:
        cards, name = deck_cards(enc, path)
    except LoadError as e:
        if Path(e.path) == Path(path):
            return None, "standard", [e]
        return None, "standard", [_err(path, f"the deck file cannot be loaded: {e}", "deck_file")]
    problems: list[LoadError] = []
    try:
        state = DeckState.model_validate(enc.deck_state) if enc.deck_state else None
        deck = Deck(cards, seed=enc.deck_seed, state=state, name=name)
    except ValidationError as e:
        return cards, name, _pydantic_problems(path, e, "deck_state")
    except (RulesError, ValueError, KeyError, TypeError) as e:
        return (
            cards,
            name,
            [_err(path, f"the saved deck cannot be set up ({clip(e, 200)})", "deck_state")],
        )
    if enc.mode == "action":
        try:
            edition = load_edition(enc.edition)
            engine, model = time_engine(edition)
            st = model.model_validate(enc.action_state) if enc.action_state else None
            engine(enc.characters, edition, deck, enc.options, state=st)
        except ValidationError as e:
            problems += _pydantic_problems(path, e, "action_state")
        except (LoadError, RulesError, ValueError, KeyError, TypeError) as e:
            problems.append(
                _err(
                    path, f"the saved action time cannot be set up ({clip(e, 200)})", "action_state"
                )
            )
    return (cards if enc.deck_file else None), name, problems


def _encounter_problems(
    path: Path | str, enc: Encounter, gear: GearCatalog | None, pictures: bool
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
            else:
                if pictures:
                    for bad in _picture_problems(map_path, game_map):
                        problems.append(
                            _err(path, f"the map it refers to cannot be loaded: {bad}", "map_ref")
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
    elif pictures and game_map is not None:
        problems += _picture_problems(path, game_map, "map")
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


def _collect(
    path: Path | str, gear: GearCatalog | None, *, expect: Kind | None = None, pictures: bool = True
) -> tuple[Opened | None, list[LoadError]]:
    """Everything :func:`open_any` checks: (the opened file or None, every problem)."""
    kind, model, passed, problems = _parse(path, expect)
    if model is None:
        return None, problems
    p = Path(path)
    if kind == "map":
        problems = _picture_problems(path, model) if pictures else []
        enc = Encounter(name=model.name, map=model)
        return (None if problems else Opened(p, "map", enc, model)), problems
    game_map, map_path, problems = _encounter_problems(path, model, _gear_or_none(gear), pictures)
    cards, deck_name, more = _play_problems(path, model) if not problems else (None, "", [])
    problems += more
    if problems or game_map is None:
        return None, problems
    return Opened(p, "encounter", model, game_map, map_path, passed, cards, deck_name), []


# --- public: reading -------------------------------------------------------------------


def _guarded(path: Path | str, what: str, fn: Callable[[], T]) -> T:
    try:
        return fn()
    except LoadError:
        raise
    except (MemoryError, RecursionError) as e:
        raise _err(path, f"the {what} is too large to read ({type(e).__name__})") from None
    except Exception as e:  # never let another exception type escape
        raise _err(path, f"cannot read the {what} ({clip(e, 160)})") from None


def open_any(path: Path | str, *, gear: GearCatalog | None = None) -> Opened:
    """Open a map or an encounter file the way the window does, parsing it once.

    Every check applies (see the module docstring): the file, its map, the background
    picture, the deck file and saved state. Raises only :class:`LoadError` (the first
    problem, counting the others). Temp files a crashed save of the file or of its
    map left behind are cleared.
    """

    def go() -> Opened:
        with _gc_paused():
            opened, problems = _collect(path, gear)
        if problems:
            raise _first(problems)
        assert opened is not None
        for done in (path, opened.map_path):
            if done is not None:
                clean_stale_temps(done)
        return opened

    return _guarded(path, "file", go)


def detect_kind(path: Path | str) -> Kind:
    """``"map"`` or ``"encounter"``, from the file's content (or its name if the
    content does not say). LoadError if the file is unreadable or neither."""

    def go() -> Kind:
        raw = parse_json(path, decode_text(path, read_capped(path)))
        kind = _kind_of(raw, path)
        if kind is None:
            raise _err(path, "this is neither a TWTW map nor an encounter file")
        return kind

    return _guarded(path, "file", go)


def load_map(path: Path | str) -> Map:
    """Load a map file (any supported format version), without opening its picture.
    Raises only LoadError."""

    def go() -> Map:
        _, model, _, problems = _parse(path, "map")
        if problems:
            raise _first(problems)
        return model

    return _guarded(path, "map", go)


def load_encounter(path: Path | str, *, gear: GearCatalog | None = None) -> LoadedEncounter:
    """Load an encounter file and the map it plays on (pictures are not opened; use
    :func:`open_any` for everything). Raises only LoadError.

    ``gear`` is the catalog carried weapons are checked against (default: the bundled
    one; when that cannot load, weapons are not checked here).
    """

    def go() -> LoadedEncounter:
        opened, problems = _collect(path, gear, expect="encounter", pictures=False)
        if problems:
            raise _first(problems)
        assert opened is not None
        return LoadedEncounter(
            opened.encounter, opened.map, Path(path), opened.map_path, opened.migrated_from
        )

    return _guarded(path, "encounter", go)


def validate_file(path: Path | str, *, gear: GearCatalog | None = None) -> list[str]:
    """Every problem found in a map or encounter file, one line each.

    Empty exactly when :func:`open_any` opens the file (the same checks, listing up
    to :data:`MAX_PROBLEMS` problems instead of the first).
    """
    try:
        _, problems = _collect(path, gear)
    except LoadError as e:
        return [str(e)]
    except (MemoryError, RecursionError) as e:
        return [str(_err(path, f"the file is too large to read ({type(e).__name__})"))]
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


def _elevation_problem(m: dict[str, Any]) -> str | None:
    """Rows × cols and the range of an elevation grid, at C speed (min/max per row)."""
    elev = m.get("elevation")
    if elev is None:
        return None
    if len(elev) != m.get("rows") or any(len(r) != m.get("cols") for r in elev):
        return "elevation must have the same rows × cols as the terrain"
    try:
        # one C pass over the grid: its distinct values (a few on any real map)
        values = set().union(*elev)
    except TypeError:  # a row that is not a list, or a value that is not hashable
        return "elevation holds something that is not a whole number"
    if any(type(v) is not int for v in values) or any(
        type(v) is not int for row in elev[:1] for v in row[:1]
    ):
        return "elevation holds something that is not a whole number"
    lo, hi = (min(values), max(values)) if values else (0, 0)
    if lo < -MAX_ELEVATION or hi > MAX_ELEVATION:
        return f"elevation must lie within ±{MAX_ELEVATION} (found {lo}..{hi})"
    return None


def _check_before_save(path: Path | str, kind: Kind, data: dict[str, Any]) -> None:
    """Validate what is about to be written (an in-place list edit bypasses pydantic's
    assignment check). The big elevation grid is checked by :func:`_elevation_problem`
    instead of value by value; everything else by the model itself."""
    m = data if kind == "map" else data.get("map")
    light = data
    if isinstance(m, dict) and m.get("elevation") is not None:
        bad = _elevation_problem(m)
        if bad:
            raise _err(path, f"the {kind} is not valid and was not saved: {bad}", cls=SaveError)
        lite_map = {**m, "elevation": None}
        light = lite_map if kind == "map" else {**data, "map": lite_map}
    try:
        _MODELS[kind].model_validate(light)
    except ValidationError as e:
        p = _pydantic_problems(path, e)[0]
        raise _err(
            path, f"the {kind} is not valid and was not saved: {p.reason}", p.where, cls=SaveError
        ) from None


def _free_form(model: BaseModel) -> list[tuple[str, Any]]:
    """The fields typed ``Any`` (where a NaN can hide from the schemas' bounds)."""
    if not isinstance(model, Encounter):
        return []
    out: list[tuple[str, Any]] = [("deck_state", model.deck_state)]
    out.append(("action_state", model.action_state))
    out += [(f"log.{i}.detail", e.detail) for i, e in enumerate(model.log) if e.detail]
    return out


def _dump(model: BaseModel) -> dict[str, Any]:
    """``model.model_dump(mode="json")``, but the elevation grid (a million numbers on
    a 1000×1000 map, already JSON: rows of ints) goes in as the model holds it, not
    copied number by number; :func:`_check_before_save` checks it as it is."""
    m = model if isinstance(model, Map) else getattr(model, "map", None)
    elev = m.elevation if isinstance(m, Map) else None
    if elev is None:
        return model.model_dump(mode="json", warnings="error")
    if model is m:
        return _with_elevation(
            model.model_dump(mode="json", warnings="error", exclude={"elevation"}), elev
        )
    data = model.model_dump(mode="json", warnings="error", exclude={"map": {"elevation"}})
    data["map"] = _with_elevation(data["map"], elev)
    return data


def _with_elevation(dumped: dict[str, Any], elev: list) -> dict[str, Any]:
    """A map's dump with its elevation put back in its place (the fields' order)."""
    return {
        k: elev if k == "elevation" else dumped[k]
        for k in Map.model_fields
        if k == "elevation" or k in dumped
    }


def _serialise(path: Path | str, model: BaseModel, kind: Kind) -> bytes:
    for where, value in _free_form(model):
        bad = _nonfinite_at(value, where)
        if bad:  # pydantic would quietly write null for it
            raise _err(path, f"the {kind} holds a number that is not finite", bad, cls=SaveError)
    try:
        data = _dump(model)
        if data.get("format_version") != CURRENT_VERSIONS[kind]:  # a model/version mismatch
            raise ValueError(f"format_version is not {CURRENT_VERSIONS[kind]}")
    except Exception as e:  # serialisation warnings, odd objects
        raise _err(
            path, f"the {kind} holds data that cannot be saved ({clip(e, 160)})", cls=SaveError
        ) from None
    _check_before_save(path, kind, data)
    try:
        blob = dumps_pretty(data).encode("utf-8")
    except UnicodeEncodeError:
        raise _err(
            path, f"the {kind} holds text that cannot be written as UTF-8", cls=SaveError
        ) from None
    except Exception as e:
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


def snapshot_bytes(model: Map | Encounter, path: Path | str) -> bytes:
    """A map's or an encounter's file bytes, checked as a save checks them, without
    writing (the autosave serialises on the GUI thread and writes elsewhere). Raises
    only SaveError."""
    kind: Kind = "map" if isinstance(model, Map) else "encounter"
    with _gc_paused():
        return _serialise(path, model, kind)


def save_map(game_map: Map, path: Path | str) -> None:
    """Save a map atomically (see the module docstring). Raises only SaveError."""
    if not isinstance(game_map, Map):
        raise _err(path, f"expected a Map, got {type(game_map).__name__}", cls=SaveError)
    with _gc_paused():
        blob = _serialise(path, game_map, "map")
    write_atomic(path, blob)


def save_encounter(
    encounter: Encounter | LoadedEncounter,
    path: Path | str,
    *,
    before_write: Callable[[bytes], None] | None = None,
) -> Encounter:
    """Save an encounter atomically. Raises only SaveError; returns what was written.
    ``before_write`` is given the file's bytes just before they are written (the
    session journal notes their hash first).

    Given a :class:`LoadedEncounter` with a referenced map, ``map_ref`` is rewritten
    relative to the new location, so *Save As* into another folder keeps pointing at
    the same map file (the returned Encounter carries the new ``map_ref``). The map
    itself is not written: save it with :func:`save_map`, or use
    :func:`save_encounter_with_map`.
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
            enc = enc.model_copy(update={"map_ref": rel})
    if enc.map_ref is not None:
        try:
            _map_ref_path(path, enc.map_ref)
        except ValueError as e:
            raise _err(path, str(e), "map_ref", cls=SaveError) from None
    with _gc_paused():
        blob = _serialise(path, enc, "encounter")
    if before_write is not None:
        before_write(blob)
    write_atomic(path, blob)  # which clears the file's stale temps first
    return enc


def save_encounter_with_map(
    encounter: Encounter,
    game_map: Map,
    path: Path | str,
    *,
    map_path: Path | str | None = None,
    write_map: bool = True,
    before_write: Callable[[bytes], None] | None = None,
) -> Encounter:
    """The one save of an encounter with its map: a referenced map file
    (``map_path``) is written first when ``write_map`` (the map changed), then the
    encounter, with ``map_ref`` rewritten relative to ``path``. Returns the Encounter
    as written. Raises only SaveError; a failure writing the encounter leaves the
    encounter file as it was (the map file, if written, holds the new map).
    """
    if encounter.map_ref is not None and map_path is not None:
        if write_map:
            save_map(game_map, map_path)
        else:
            clean_stale_temps(map_path)  # a crashed earlier save's leftover
        loaded = LoadedEncounter(encounter, game_map, Path(path), Path(map_path))
        return save_encounter(loaded, path, before_write=before_write)
    return save_encounter(encounter, path, before_write=before_write)
