"""What an AP row's cells are drawn from, and which of them changed (000 Action Time)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
)

from ....play.declarations import RunOn
from ....play.track_actions import (
    skip_reason,
)
from ....rules.character import Character
from .fit import note_name
from .host import TrackHost
from .widgets import (
    _CODES,
    _IN,
    _OUT,
    SEGMENTS,
    _OnResize,
    _TrackTable,
)


def _entries_by_character(st: Any) -> dict[str, list[Any]]:
    """The track's declared entries of each character, in order."""
    out: dict[str, list[Any]] = {}
    for e in st.entries if st is not None else ():
        out.setdefault(e.character_id, []).append(e)
    return out


def _same_colour(a: QColor | None, b: QColor | None) -> bool:
    """Two cell colours are the same (the track's colours are module constants: most
    comparisons are an identity)."""
    return a is b or (a is not None and b is not None and a == b)


def _row_marks(c: Character, row: Any, mine: list[Any]) -> tuple:
    """What a row's segment cells are drawn from, but the current segment: the IN
    marker, whether the character is out, the counters placed (segments ``lo`` to
    ``hi``, paid before ``paid_to``) and the actions declared by segment."""
    first = row.first_segment if row is not None else None
    marker = first if first is not None else (c.initiative if row is None else None)
    placed = row.placed if row is not None else 0
    if row is not None and first is not None and placed:
        lo, hi = first, first + placed
        paid_to = lo + placed - row.counters
    else:
        lo = hi = paid_to = 0
    out = row is not None and row.status.value in ("out", "stunned", "surprised")
    by_seg: dict[int, list[Any]] = {}
    for e in mine:
        by_seg.setdefault(e.segment, []).append(e)
    return (marker, out, lo, hi, paid_to, by_seg)


def _changed_segments(old: tuple, new: tuple) -> set[int]:
    """The segments whose cells differ between two :func:`_row_marks`."""
    if old[:2] != new[:2]:
        return set(range(1, SEGMENTS + 1))
    out = set()
    _m, _o, lo0, hi0, paid0, seg0 = old
    _m, _o, lo1, hi1, paid1, seg1 = new
    if (lo0, hi0, paid0) != (lo1, hi1, paid1):
        for s in range(max(1, min(lo0 or lo1, lo1 or lo0)), min(SEGMENTS, max(hi0, hi1)) + 1):
            a = 0 if not lo0 <= s < hi0 else 1 if s >= paid0 else 2
            b = 0 if not lo1 <= s < hi1 else 1 if s >= paid1 else 2
            if a != b:
                out.add(s)
    if seg0 != seg1:
        out.update(s for s in seg0.keys() | seg1.keys() if seg0.get(s) != seg1.get(s))
    return {s for s in out if 1 <= s <= SEGMENTS}


def _refresh_ap(panel: TrackHost, t) -> None:
    st = t.state if t is not None else None
    stage = st.stage.value if st is not None else "narrative"
    seg = st.segment if st is not None else 0
    running = _show_status(panel, t, st, stage, seg)
    table = panel.ap_table
    chars = panel._chars()
    panel._row_ids = [c.id for c in chars]
    if table.rowCount() != len(chars):
        table.setRowCount(len(chars))
        cells = panel._cells.get(id(table), {})
        for key in [k for k in cells if k[0] >= len(chars)]:
            del cells[key]
        marks = panel._marks.get(id(table), {})
        for r in [r for r in marks if r >= len(chars)]:
            del marks[r]
    now_seg = seg if running else None
    last_seg = panel._shown_seg if panel._shown_running else None
    _show_header(panel, table, now_seg, last_seg)
    by_char = _entries_by_character(st)
    shown = panel._visible_rows(len(chars))
    if shown is None:  # not on screen: every row now
        rows: Iterable[int] = range(len(chars))
        panel._stale_rows.clear()
    else:  # on screen: the rows in view now, the others when they scroll into it
        rows = shown
        panel._stale_rows = set(range(len(chars))).difference(shown)
    panel._draw_ap_rows(rows, chars, st, by_char)
    for r in list(panel._row_sigs):
        if r >= len(chars):
            del panel._row_sigs[r]
    panel._shown_seg, panel._shown_running = seg, running
    if running:  # the stack, or the order of declaring
        _show_stack_line(panel, t, st, seg)


def _show_status(panel: TrackHost, t, st, stage: str, seg: int) -> bool:
    """The round and segment in the status line, and which buttons apply now; True
    while the round runs."""
    if t is None:
        panel.status.setText("Narrative time")
    elif stage == "idle":
        panel.status.setText("Action time — start the first round")
    elif stage == "ended":
        panel.status.setText(f"Round {st.round} over — start the next")
    else:
        label = f"segment {seg}" if seg <= SEGMENTS else f"after 20 ({seg})"
        auto = " · NPCs on the autopilot" if getattr(st, "autopilot", False) else ""
        panel.status.setText(
            (f"Round {st.round} · {label}" if seg else f"Round {st.round} · initiative done") + auto
        )
    running = stage in ("running", "overtime")
    panel.start_button.setEnabled(t is None or stage in ("idle", "ended"))
    panel.next_button.setEnabled(running)
    panel.due_button.setEnabled(running)
    panel.declare_button.setEnabled(running)
    pending = bool(running and [e for e in t.stack() if not e.resolved])
    panel.resolve_button.setEnabled(pending)
    panel.end_button.setEnabled(running)
    panel.join_button.setEnabled(running)
    panel.bonus_button.setEnabled(running)
    rushing = panel.document.encounter.options.rushing
    panel.rush_button.setEnabled(running and rushing)
    panel.rush_button.setToolTip(
        panel._rush_tip
        + ("" if rushing else "\nRushing is an optional rule, off for this encounter.")
    )
    return running


def _show_header(
    panel: TrackHost, table: _TrackTable, now_seg: int | None, last_seg: int | None
) -> None:
    """The current segment marked in the header and its column coloured."""
    shown = panel._shown_header
    if shown != now_seg:
        panel._shown_header = now_seg
        bold = QFont()
        bold.setBold(True)
        # the two heads that change (every one the first time): a head's font costs.
        # The model does not announce them: its headerDataChanged has the view lay the
        # whole table out again and paint it (3–4 ms a segment); the header alone
        # paints the heads again
        every = shown == -1
        model = table.model()
        model.blockSignals(not every)
        try:
            for col in range(3, 3 + SEGMENTS):
                s = col - 2
                if not every and s not in (shown, now_seg):
                    continue
                item = table.horizontalHeaderItem(col)
                if item is None:  # (the table is built with its heads)
                    item = QTableWidgetItem()
                    model.blockSignals(False)
                    table.setHorizontalHeaderItem(col, item)
                item.setText(f"▶{s}" if s == now_seg else str(s))
                item.setFont(bold if s == now_seg else QFont())
        finally:
            model.blockSignals(False)
        if not every:
            table.horizontalHeader().headerDataChanged(Qt.Orientation.Horizontal, 3, 2 + SEGMENTS)
    if last_seg != now_seg:  # the current segment's colour: a column's, not 200 cells'
        table.set_band(2 + now_seg if now_seg is not None and 1 <= now_seg <= SEGMENTS else None)


def _show_stack_line(panel: TrackHost, t, st, seg: int) -> None:
    """The line under the track: this segment's stack, else who declares in which
    order (slowest first)."""
    stack = t.stack()
    if stack:
        parts = []
        for e in stack:
            who = st.rows[e.character_id].name if e.character_id in st.rows else e.character_id
            pos = f"{e.position}. " if e.position else ""
            parts.append(f"{pos}{who}: {e.action.describe()}")
        panel.info.setText(f"Segment {seg} stack — " + "; ".join(parts))
    else:
        stop = _why_stopped(panel) if seg else None
        order = [st.rows[i].name for i in t.declaration_order()] if seg else []
        if stop:
            panel.info.setText(stop)
        else:
            panel.info.setText(
                ("Declaring (slowest first): " + ", ".join(order)) if order else panel.info.full
            )


def _why_stopped(panel: TrackHost) -> str | None:
    """Why the run stands where it does, in the table's words (what ``play`` prints
    for the same steps): why it cannot run on now, else the reason the last run
    stopped (F6 goes on). None before any run this round."""
    table = panel.document.table
    why = table.why_not(RunOn())
    if why:
        return f"Stopped: {why}"
    for e in reversed(table.encounter.log[-200:]):
        if e.kind == "round":  # the round's start (or end): no run since
            return None
        if isinstance(e.detail, dict) and e.detail.get("stop"):
            return f"Stopped: {e.detail['stop']} — F6 runs on"
    return None


#: hooks ``(document, character id) -> str | None``: a line a row's name shows in its
#: tooltip, marked » (the autopilot's plan and its why)
ROW_NOTES: list = []


def _row_note(panel: TrackHost, cid: str) -> str | None:
    notes = [n for hook in ROW_NOTES if (n := hook(panel.document, cid))]
    return "\n".join(notes) or None


def _draw_ap_rows(
    panel: TrackHost,
    rows: Iterable[int],
    chars: list[Character],
    st: Any,
    by_char: dict[str, list[Any]],
) -> None:
    """Bring the AP table's ``rows`` up to date, touching only what changed since
    each was last drawn."""
    table = panel.ap_table
    cache = panel._cells.setdefault(id(table), {})

    def put(r: int, c: int, text: str, tip: str = "", bg=None, **kw) -> None:
        panel._put(table, r, c, text, tip, bg, cache=cache, **kw)

    every = range(1, SEGMENTS + 1)
    marks_shown = panel._marks.setdefault(id(table), {})
    t = panel.track
    pending = set(t.pending_declarers()) if t is not None and not panel.phases else set()
    for r in rows:
        c = chars[r]
        row = st.rows.get(c.id) if st is not None else None
        mine = by_char.get(c.id, [])
        # what each cell is drawn from: the four columns around the segments, and
        # the segments' own (see _row_marks); only what changed is drawn again
        note = _row_note(panel, c.id)
        if row is None:
            heads: tuple = ((c.name, c.initiative, c.ap, note), (None, c.ap), None, None)
        else:
            status = row.status
            heads = (
                (
                    c.name,
                    c.initiative,
                    c.ap,
                    row.initiative_reasons,
                    row.ap_reasons,
                    status,
                    row.status_reason,
                    tuple(q.label for q in st.standing.get(c.id, ())),
                    c.id in pending,
                    note,
                ),
                (row.round_ap, status, c.ap, row.pool, row.ap_reasons),
                row.counters,
                (row.spent, row.lost, row.borrowed),
            )
        marks = _row_marks(c, row, mine)
        old = panel._row_sigs.get(r)
        panel._row_sigs[r] = (c.id, heads, marks)
        if old is None or old[0] != c.id:
            dirty: Iterable[int] = every
            changed = (True, True, True, True)
            marks_shown.pop(r, None)  # its name cell may be new: mark it again
        else:
            dirty = () if old[2] == marks else _changed_segments(old[2], marks)
            changed = tuple(a != b for a, b in zip(old[1], heads, strict=True))
        for s in dirty:
            put(r, 2 + s, *_segment_cell(c, row, mine, s))
        _put_heads(panel, put, r, c, row, heads, changed)


def _put_heads(
    panel: TrackHost,
    put: Callable[..., None],
    r: int,
    c: Character,
    row: Any,
    heads: tuple,
    changed: tuple,
) -> None:
    """The four cells around the segments that changed: the name (with its status, a
    standing declaration ⋯ or ▶ may declare now), the AP, the counters and the spent box."""
    t = panel.track
    if changed[0]:
        name = c.name
        tip = [f"{c.name} — IN {c.initiative}, AP {c.ap}"]
        if row is not None:
            tip += list(row.initiative_reasons) + list(row.ap_reasons)
            if row.status.value != "active":
                name = f"{c.name} ({row.status.value})"
                tip.append(row.status_reason)
            standing = heads[0][7]
            if standing:
                name = f"{name} ⋯"
                tip.append("Declared, when the counters cover it: " + "; then ".join(standing))
            elif heads[0][8]:
                name = f"▶ {name}"
                tip.append(
                    "May declare now with nothing declared: act with them, or F6 passes "
                    "(000 Action Timing)"
                )
            skipped = skip_reason(panel.document.table, c.id) if t is not None else None
            if skipped:
                tip.append(f"Not chosen as due next: {skipped}")
        note = heads[0][-1]
        if note:
            name = f"{name} »"
            tip.append(note)
        put(r, 0, name, "\n".join(x for x in tip if x), center=False)
    if changed[1]:
        put(
            r,
            1,
            str(row.round_ap) if row is not None and row.status.value == "active" else str(c.ap),
            f"pool {row.pool} AP not yet on the track\n" + "\n".join(row.ap_reasons)
            if row is not None
            else "",
        )
    if changed[2]:
        put(
            r,
            2,
            str(row.counters) if row is not None else "",
            "counters in front of the character now",
            bold=True,
        )
    if changed[3]:
        put(
            r,
            3 + SEGMENTS,
            (f"{row.spent}" + (f" ({row.lost})" if row.lost else "")) if row is not None else "",
            f"spent {row.spent} AP, lost {row.lost}, borrowed {row.borrowed}"
            if row is not None
            else "",
        )


def _visible_rows(panel: TrackHost, n: int) -> range | None:
    """The AP table's rows on screen (one more either side), or None when the table
    is not shown (then it is drawn whole: it may be read without being seen)."""
    t = panel.ap_table
    if not t.isVisible():
        return None
    top = t.rowAt(0)
    bottom = t.rowAt(t.viewport().height() - 1)
    top = 0 if top < 0 else top
    bottom = n - 1 if bottom < 0 else bottom
    return range(max(0, top - 1), min(n, bottom + 2))


def _catch_up(panel: TrackHost) -> None:
    """Draw the rows that scrolled (or were resized) into view since the last
    refresh drew only the ones then in view."""
    if not panel._stale_rows or panel.phases:
        return
    chars = panel._chars()
    shown = panel._visible_rows(len(chars))
    rows = [
        r for r in (shown if shown is not None else range(len(chars))) if r in panel._stale_rows
    ]
    if not rows:
        return
    panel._stale_rows.difference_update(rows)
    t = panel.track
    st = t.state if t is not None else None
    panel._draw_ap_rows(rows, chars, st, _entries_by_character(st))
    panel._mark_rows()


def _segment_cell(
    c: Character, row: Any, mine: list[Any], s: int
) -> tuple[str, str, QColor | None]:
    """(text, tooltip, background) of segment ``s`` in a character's row; the
    current segment's colour is the column's (:class:`_TrackTable`'s band)."""
    first = row.first_segment if row is not None else None
    marker = first if first is not None else (c.initiative if row is None else None)
    placed = row.placed if row is not None else 0
    on_track_from = (first or 0) + placed - (row.counters if row is not None else 0)
    out = row is not None and row.status.value in ("out", "stunned", "surprised")
    text = ""
    tips: list[str] = []
    if row is not None and first is not None and placed and first <= s < first + placed:
        if s >= on_track_from:
            text = "●"
            tips.append("a counter on the track")
        else:
            text = "·"
            tips.append("a counter already paid")
    for e in mine:
        if e.segment == s:
            code = _CODES.get(e.action.kind, "?")
            if e.position is not None:
                code += str(e.position)
            text = code
            tips.append(
                e.action.describe() + (f" — stack place {e.position}" if e.position else "")
            )
    bg = None
    if s == marker:
        bg = _IN
        tips.insert(0, f"IN: first counter on segment {s}")
    elif out:
        bg = _OUT
    return text, "\n".join(tips), bg


def _put(
    panel: TrackHost,
    table: QTableWidget,
    r: int,
    c: int,
    text: str,
    tip: str = "",
    bg: QColor | None = None,
    *,
    center: bool = True,
    bold: bool = False,
    cache: dict[tuple[int, int], tuple] | None = None,
) -> None:
    """Show a cell, touching the table only where what it shows changed (a segment
    counted changes a few cells of the 24 × rows, and of those mostly one property:
    a counter's mark, or the current segment's colour). The name column's colour is
    :meth:`_mark_rows`'s. ``cache``: the table's entry of ``_cells``."""
    if cache is None:
        cache = panel._cells.setdefault(id(table), {})
    old = cache.get((r, c))
    if (
        old is not None
        and old[0] == text
        and old[1] == tip
        and _same_colour(old[2], bg)
        and old[3] == center
        and old[4] == bold
    ):
        return
    cache[(r, c)] = (text, tip, bg, center, bold)
    item = table.item(r, c)
    if item is None or old is None:
        if item is None:
            item = QTableWidgetItem()
            table.setItem(r, c, item)
        old = (None, None, False, None, None)
    if text != old[0]:
        item.setText(text)
        if c == 0:
            note_name(panel, table, r, text)
    if tip != old[1]:
        item.setToolTip(tip)
    if center != old[3] and center:
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    if bold != old[4] and bold:
        font = item.font()
        font.setBold(True)
        item.setFont(font)
    if c != 0 and (old[2] is False or not _same_colour(old[2], bg)):
        item.setBackground(QBrush(bg) if bg is not None else QBrush())


#: the last column: "4 (1)" is 4 AP spent this round, 1 lost
SPENT = "Spent (lost)"
SPENT_TIP = (
    "AP spent this round; in brackets the AP lost — counters removed beyond an "
    "action's cost, and AP left unused when the round ends (000 Action Time)"
)


def _build_ap_table(panel: TrackHost) -> None:
    """The action track's table (000 Action Time): a row per character, the 20 segments as columns."""
    panel.ap_table = panel._make_table(3 + SEGMENTS + 1)
    panel.ap_table.setHorizontalHeaderLabels(
        ["Character", "AP", "●", *[str(s) for s in range(1, SEGMENTS + 1)], SPENT]
    )
    hh = panel.ap_table.horizontalHeader()
    hh.setMinimumSectionSize(20)
    for c in range(1, 3 + SEGMENTS + 1):
        hh.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
        panel.ap_table.setColumnWidth(c, 24)
    panel.ap_table.setColumnWidth(1, 30)
    spent = hh.fontMetrics().horizontalAdvance(SPENT) + 12
    panel.ap_table.setColumnWidth(3 + SEGMENTS, max(58, spent))
    head = panel.ap_table.horizontalHeaderItem(3 + SEGMENTS)
    assert head is not None  # the labels above made it
    head.setToolTip(SPENT_TIP)
    #: AP rows out of view at the last refresh, drawn when they come into view
    panel._stale_rows = set()
    panel.ap_table.verticalScrollBar().valueChanged.connect(lambda _v: panel._catch_up())
    panel._catch_up_filter = _OnResize(panel.ap_table.viewport(), panel._catch_up)
