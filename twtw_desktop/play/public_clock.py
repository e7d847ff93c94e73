"""The round and segment (or phase) in words, and each character's public row on the
action track: what the players may know of the clock, without Qt.

The players' devices (:mod:`twtw_desktop.web`) show these; :func:`headline` is also
the players' screen's strip headline (``ui/players/strip.py``): one wording for both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .table import TableView

ROMAN = ("I", "II", "III", "IV")


def _value(v: object) -> str:
    return str(getattr(v, "value", v))


def roman(n: int) -> str:
    return ROMAN[n - 1] if 1 <= n <= 4 else str(n)


def headline(table: TableView) -> str:
    """ "Narrative time", "Round 2 · Segment 7", "Round 1 · Phase III"…; ``table`` is
    anything with ``in_action``, ``track`` and ``edition`` (a Table, the window's
    document)."""
    if not table.in_action:
        return "Narrative time"
    st = table.track.state
    stage = _value(st.stage)
    rnd = int(st.round or 0)
    if rnd == 0 or stage == "idle":
        return "Action time — the round is about to start"
    if stage == "ended":
        return f"Round {rnd} · over"
    if table.edition.time == "segments":
        seg = int(st.segment or 0)
        return f"Round {rnd} · initiative" if seg == 0 else f"Round {rnd} · Segment {seg}"
    if stage == "declare":
        return f"Round {rnd} · declaring speeds"
    if stage == "resolved":
        return f"Round {rnd} · card flipped"
    return f"Round {rnd} · Phase {roman(int(st.phase or 0))}"


def public_rows(table: TableView) -> dict[str, dict[str, Any]]:
    """Each character's row on the track as plain data: AP this round, counters,
    spent and status (AP v2), or the declared speed, phase and status (Phases).
    Whose rows may be shown is the caller's rule (a player sees their own)."""
    if not table.in_action:
        return {}
    st = table.track.state
    stage = _value(st.stage)
    if int(st.round or 0) == 0 or stage == "idle":
        return {}
    rows: dict[str, dict[str, Any]] = {}
    if table.edition.time == "segments":
        seg = int(st.segment or 0)
        for cid, row in st.rows.items():
            r: dict[str, Any] = {
                "ap": int(row.round_ap),
                "counters": int(row.counters),
                "spent": int(row.spent),
                "status": _value(row.status),
            }
            if row.first_segment is not None and seg < row.first_segment <= 20:
                r["from"] = int(row.first_segment)
            rows[cid] = r
        return rows
    for cid, row in st.rows.items():
        r = {"status": _value(row.status)}
        if row.declared is not None:
            r["speed"] = _value(row.declared).title()
        if row.phase is not None and stage in ("resolved", "acting"):
            r["phase"] = roman(int(row.phase))
        rows[cid] = r
    return rows


def public_clock(table: TableView) -> tuple[str, dict[str, dict[str, Any]]]:
    """:func:`headline` and :func:`public_rows` together."""
    return headline(table), public_rows(table)
