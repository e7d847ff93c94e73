"""Careful JSON reading and compact, stable JSON writing for map and encounter files.

Reading never trusts the file: it refuses anything that is not a regular file, files
over :data:`MAX_FILE_BYTES`, text that is not UTF-8, nesting deeper than
:data:`MAX_DEPTH` (checked by a bracket scan *before* the text reaches :mod:`json`,
so a hostile 10,000-deep file gives a clear :class:`LoadError` instead of a
``RecursionError``), ``NaN``/``Infinity`` and numbers too big for a float, and objects
that repeat a key. Every refusal is one :class:`LoadError` naming the file.

Writing (:func:`dumps_pretty`) keeps files small and diff-friendly: one-space indent,
short values on one line, terrain and elevation rows one per line, long lists of
numbers or points packed into lines about :data:`LINE_WIDTH` wide, and the objects of
a list longer than :data:`LONG_LIST` (the walls of a big map) one per line.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import LoadError

#: Largest map or encounter file read or written (a 1000×1000 map with 5,000 walls
#: is about 8 MB; the margin is for long encounter logs and many characters).
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Deepest nesting of arrays/objects accepted (the formats themselves need about 10).
MAX_DEPTH = 64
#: Target line width of saved files.
LINE_WIDTH = 100
#: Lists longer than this are written one item per line, however long the line.
LONG_LIST = 128
#: Longest piece of user text quoted back in an error message.
_CLIP = 80

# A JSON string, or the unterminated rest of the text after a stray quote. Unrolled
# so matching is linear; DOTALL so an escaped newline cannot end the match early.
_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET_RE = re.compile(r"[^\[\]{}]+")
_CHUNK = 1 << 20


def clip(text: object, limit: int = _CLIP) -> str:
    """Quote user-supplied text safely in a message: one line, at most ``limit`` chars."""
    s = str(text)
    s = "".join(ch if ch.isprintable() else "?" for ch in s[: limit + 1])
    return s if len(s) <= limit else s[: limit - 1] + "…"


# --- reading ---------------------------------------------------------------------------


def read_capped(path: Path | str, cap: int | None = None) -> bytes:
    """The bytes of a regular file no bigger than ``cap``; LoadError otherwise.

    Devices, pipes and folders are refused before opening, so ``/dev/zero`` or a FIFO
    can never make the loader hang, and at most ``cap + 1`` bytes are ever read.
    """
    cap = MAX_FILE_BYTES if cap is None else cap
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise LoadError(path, "file not found") from None
    except (OSError, ValueError) as e:
        raise LoadError(path, f"cannot read the file ({_os_reason(e)})") from None
    if stat.S_ISDIR(st.st_mode):
        raise LoadError(path, "this is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise LoadError(path, "this is not a regular file")
    if st.st_size > cap:
        raise LoadError(path, f"the file is {_mb(st.st_size)}; the limit is {_mb(cap)}")
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as e:
        raise LoadError(path, f"cannot read the file ({_os_reason(e)})") from None
    if len(data) > cap:
        raise LoadError(path, f"the file is larger than the limit of {_mb(cap)}")
    return data


def decode_text(path: Path | str, data: bytes) -> str:
    """UTF-8 text (a leading byte-order mark is allowed and dropped)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LoadError(path, "the file is UTF-16 text; save it as UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise LoadError(
            path, f"the file is not UTF-8 text (bad byte 0x{data[e.start]:02x})", f"line {line}"
        ) from None


def max_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """Deepest array/object nesting of JSON ``text``, counting brackets outside strings.

    Stops counting once ``limit`` is passed (returns a value above ``limit``). Runs in
    linear time at C speed (regex + numpy), so even a 50 MB file of brackets is quick.
    """
    brackets = _NOT_BRACKET_RE.sub("", _STRING_RE.sub("", text))
    if not brackets:
        return 0
    raw = brackets.encode("ascii")
    depth = 0
    deepest = 0
    for start in range(0, len(raw), _CHUNK):
        b = np.frombuffer(raw, dtype=np.uint8, count=min(_CHUNK, len(raw) - start), offset=start)
        steps = np.where((b == ord("[")) | (b == ord("{")), 1, -1).astype(np.int32)
        running = np.cumsum(steps, dtype=np.int64) + depth
        deepest = max(deepest, int(running.max()))
        if deepest > limit:
            return deepest
        depth = int(running[-1])
    return deepest


class _NonFinite:
    """Stands in for NaN/Infinity while parsing, so the loader can say where it was."""

    def __init__(self, token: str) -> None:
        self.token = token


class _DuplicateKey(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _find_nonfinite(value: Any, path: list[str]) -> tuple[str, str] | None:
    if isinstance(value, _NonFinite):
        return ".".join(path), value.token
    items: Iterable[tuple[str, Any]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return None
    for k, v in items:
        found = _find_nonfinite(v, [*path, clip(k, 40)])
        if found:
            return found
    return None


def parse_json(path: Path | str, text: str) -> Any:
    """Strictly parse JSON text: depth-capped, finite numbers only, no repeated keys."""
    depth = max_depth(text)
    if depth > MAX_DEPTH:
        raise LoadError(path, f"the data is nested more than {MAX_DEPTH} levels deep")
    nonfinite: list[bool] = []

    def constant(token: str) -> _NonFinite:
        nonfinite.append(True)
        return _NonFinite(token)

    def number(token: str) -> float | _NonFinite:
        f = float(token)
        if math.isfinite(f):
            return f
        nonfinite.append(True)
        return _NonFinite(token)

    try:
        value = json.loads(
            text, parse_constant=constant, parse_float=number, object_pairs_hook=_pairs
        )
    except json.JSONDecodeError as e:
        raise LoadError(
            path, f"not valid JSON: {e.msg}", f"line {e.lineno}, column {e.colno}"
        ) from None
    except _DuplicateKey as e:
        raise LoadError(path, f"the key {clip(e.args[0])!r} appears twice in one object") from None
    except (ValueError, RecursionError, MemoryError) as e:
        # int() refusing a 5000-digit number, or a parser limit we did not foresee
        raise LoadError(path, f"not valid JSON: {clip(e, 160)}") from None
    if nonfinite:
        found = _find_nonfinite(value, [])
        where, token = found if found else ("", "NaN")
        raise LoadError(
            path, f"{clip(token)} is not allowed: every number must be finite", where or ""
        )
    return value


def read_json(path: Path | str) -> Any:
    """Read, decode and strictly parse one JSON file (see the module docstring)."""
    return parse_json(path, decode_text(path, read_capped(path)))


# --- writing ---------------------------------------------------------------------------

#: Keys whose list items always go one per line (map rows).
ROW_KEYS = frozenset({"terrain", "elevation"})


def _not_json(o: object) -> Any:
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


#: json's own C encoder, made once (json.dumps builds a new one for every call):
#: no indent, ", " and ": " separators, keys in order, NaN/Infinity refused
_C_ENCODER = (
    json.encoder.c_make_encoder(  # type: ignore[attr-defined]  # private, no stub
        None, _not_json, json.encoder.encode_basestring, None, ": ", ", ", False, False, False
    )
    if json.encoder.c_make_encoder is not None  # type: ignore[attr-defined]
    else None
)
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def _encode(value: Any) -> str:
    if _C_ENCODER is None:  # pragma: no cover - a Python without the _json module
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


_encode_str = json.encoder.encode_basestring  # the C escaper json itself uses


def _one_line(value: Any) -> str:
    t = type(value)  # scalars straight to the C functions json would call
    if t is str:
        return _encode_str(value)
    if t is int:
        return int.__repr__(value)
    if t is float and math.isfinite(value):
        return float.__repr__(value)
    if (t is list or t is tuple) and 0 < len(value) <= 8:  # points, hexes: no encoder set-up
        parts = []
        for v in value:
            tv = type(v)
            if tv is int:
                parts.append(int.__repr__(v))
            elif tv is float and math.isfinite(v):
                parts.append(float.__repr__(v))
            elif tv is str:
                parts.append(_encode_str(v))
            else:
                return _encode(value)
        return "[" + ", ".join(parts) + "]"
    return _encode(value)


def _is_small(value: Any) -> bool:
    """Numbers, short strings and short flat lists (points, hexes) pack together."""
    if isinstance(value, (int, float, bool)) or value is None:
        return True
    if isinstance(value, str):
        return len(value) <= 24
    if isinstance(value, list):
        return len(value) <= 4 and all(
            isinstance(v, (int, float, bool)) or v is None for v in value
        )
    return False


def _longer_than(value: Any, budget: int) -> bool:
    """True when ``value`` surely takes more than ``budget`` characters as JSON (a
    lower bound, given up as soon as it passes the budget: cheap on a big value)."""
    n = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            n += 2 + 4 * len(v)  # braces, and per key its quotes, ": " and ", "
            stack.extend(v.values())
            n += sum(len(k) for k in v) if len(v) < budget else budget
        elif isinstance(v, (list, tuple)):
            n += len(v) + 1  # brackets and separators
            stack.extend(v)
        elif isinstance(v, str):
            n += len(v) + 2
        else:
            n += 1
        if n > budget:
            return True
    return False


def _short(value: Any, indent: int, lead: int, inner: str) -> str | None:
    """``value`` on one line or packed into a few, when it fits; None otherwise."""
    if isinstance(value, dict):
        # never dump a big object whole just to learn it does not fit on one line
        if ROW_KEYS & value.keys():
            return None  # map rows always go one per line: the object is laid out in full
        if _longer_than(value, LINE_WIDTH * len(value)):
            return None  # not even its pieces could fit
        if not _longer_than(value, LINE_WIDTH):
            one = _one_line(value)
            if lead + len(one) <= LINE_WIDTH:
                return one
        budget = LINE_WIDTH - len(inner) - 2
        pieces = []
        for k, v in value.items():
            if _longer_than(v, budget):
                return None
            pieces.append(f"{_one_line(k)}: {_one_line(v)}")
        if all(len(inner) + len(p) + 2 <= LINE_WIDTH for p in pieces):
            return _pack(pieces, "{", "}", lead, inner)
        return None
    # an item takes at least 3 characters with its ", ": a long list cannot fit
    one = _one_line(value) if 3 * len(value) <= LINE_WIDTH else ""
    if one and lead + len(one) <= LINE_WIDTH:
        return one
    if all(_is_small(v) for v in value):
        return _pack([_one_line(v) for v in value], "[", "]", lead, inner)
    return None


def _emit(out: list[str], value: Any, indent: int, lead: int, key: str | None) -> None:
    """Append ``value`` as JSON text starting at column ``lead``, nested lines at
    ``indent`` (pieces are joined once at the end: a big file is never copied piece
    by piece into ever larger strings)."""
    if not (isinstance(value, (dict, list)) and value):
        out.append(_one_line(value))
        return
    inner = " " * (indent + 1)
    if isinstance(value, list) and (
        key in ROW_KEYS or (len(value) > LONG_LIST and isinstance(value[0], dict))
    ):
        # map rows, and the objects of a long list (thousands of walls), one per
        # line: one encoder call each, so big files save at json.dumps speed
        out.append("[\n")
        out.append(",\n".join([inner + _one_line(v) for v in value]))
        out.append("\n" + " " * indent + "]")
        return
    short = _short(value, indent, lead, inner)
    if short is not None:
        out.append(short)
        return
    if isinstance(value, dict):
        out.append("{\n")
        for n, (k, v) in enumerate(value.items()):
            head = f"{inner}{_one_line(k)}: "
            out.append(",\n" + head if n else head)
            _emit(out, v, indent + 1, len(head), k)
        out.append("\n" + " " * indent + "}")
        return
    out.append("[\n")
    for n, v in enumerate(value):
        out.append(",\n" + inner if n else inner)
        _emit(out, v, indent + 1, len(inner), None)
    out.append("\n" + " " * indent + "]")


def _pack(pieces: list[str], opening: str, closing: str, lead: int, inner: str) -> str:
    """Pieces joined by ", " and wrapped near LINE_WIDTH, continuation lines at
    ``inner``: ``{"a": 1, "b": 2,`` / `` "c": 3}``."""
    out = [opening]
    col = lead + 1
    for i, p in enumerate(pieces):
        if i and col + 2 + len(p) + 1 > LINE_WIDTH:
            out.append(",\n" + inner + p)
            col = len(inner) + len(p)
        else:
            out.append((", " if i else "") + p)
            col += (2 if i else 0) + len(p)
    out.append(closing)
    return "".join(out)


def dumps_pretty(value: Any) -> str:
    """Compact, stable, human-readable JSON (ends with a newline).

    The same value always gives the same text, so saved files diff cleanly and the
    bundled samples can be rebuilt byte for byte. Refuses NaN/Infinity (ValueError).
    """
    out: list[str] = []
    _emit(out, value, 0, 0, None)
    out.append("\n")
    return "".join(out)


# --- helpers ---------------------------------------------------------------------------


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n < 1024**3 else f"{n / 1024**3:.1f} GB"


def _os_reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return clip(e, 120)


# --- a fast structural pre-check -------------------------------------------------------

_QUOTE, _BACKSLASH, _COLON = 0x22, 0x5C, 0x3A
_NO_STRUCTURE = b"0123456789 ,.-+\n\r\t"
_OPEN_OBJ, _CLOSE_OBJ, _OPEN_ARR, _CLOSE_ARR = 0x7B, 0x7D, 0x5B, 0x5D


def structure_ok(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """True when JSON ``data`` is nested at most ``limit`` deep and no object repeats a
    key — decided with array operations, linear in the size, without parsing.

    False means "look closer": the slow strict parser (:func:`parse_json`) then gives
    the exact message. Text with backslash escapes or unbalanced quotes is always
    sent there (rare in these files), so this never has to understand escapes.
    """
    if _BACKSLASH in data:
        return False
    # numbers, separators and blanks carry no structure: drop them first (one C pass),
    # so a grid of a million elevation values costs nothing below. Keys lose their
    # digits too; two keys that then look alike only send the file to the slow path.
    data = data.translate(None, _NO_STRUCTURE)
    b = np.frombuffer(data, dtype=np.uint8)
    quotes = np.flatnonzero(b == _QUOTE)
    if len(quotes) % 2:
        return False
    marks = np.flatnonzero(
        (b == _OPEN_OBJ) | (b == _CLOSE_OBJ) | (b == _OPEN_ARR) | (b == _CLOSE_ARR) | (b == _COLON)
    )
    # outside a string: an even number of quotes before the position
    marks = marks[(np.searchsorted(quotes, marks) % 2) == 0]
    kinds = b[marks]
    steps = np.zeros(len(marks), dtype=np.int64)
    steps[(kinds == _OPEN_OBJ) | (kinds == _OPEN_ARR)] = 1
    steps[(kinds == _CLOSE_OBJ) | (kinds == _CLOSE_ARR)] = -1
    depth = np.cumsum(steps)
    if len(depth) and (int(depth.max()) > limit or int(depth.min()) < 0):
        return False
    colons = kinds == _COLON
    if not colons.any():
        return True
    key_depth = depth[colons]
    key_pos = marks[colons]
    opens = kinds == _OPEN_OBJ
    open_pos, open_depth = marks[opens], depth[opens]
    # the object holding a key: the last "{" opened at the key's depth before it
    owner = np.empty(len(key_pos), dtype=np.int64)
    for level in np.flatnonzero(np.bincount(key_depth)):  # (np.unique loads numpy.ma)
        at = key_depth == level
        starts = open_pos[open_depth == level]
        owner[at] = np.searchsorted(starts, key_pos[at]) - 1 + int(level) * len(data)
    # the key of a colon: the string that closes last before it
    closing = quotes[1::2]
    k = np.searchsorted(closing, key_pos) - 1
    if (k < 0).any():
        return False
    starts_q = quotes[0::2][k].tolist()
    ends_q = closing[k].tolist()
    keys = [data[s + 1 : e] for s, e in zip(starts_q, ends_q, strict=True)]
    # each distinct key text gets a number; (object, key) pairs compared as integers
    names = {k: i for i, k in enumerate(set(keys))}
    key_ids = np.fromiter(map(names.__getitem__, keys), dtype=np.int64, count=len(keys))
    pairs = np.sort(owner * len(names) + key_ids)
    return not (pairs[1:] == pairs[:-1]).any()
