"""The Phases round's table (004): speed, Reflex, the phases reached, the status."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
)

from ....rules.base import Speed
from .ap_rows import _row_note
from .host import TrackHost
from .speed_keys import SPEED_KEYS_TEXT, install_speed_keys
from .widgets import (
    _CUR,
    _IN,
    _PHASES,
)


def _refresh_phases(panel: TrackHost, t) -> None:
    st = t.state if t is not None else None
    stage = st.stage.value if st is not None else "narrative"
    _show_phase_status(panel, t, st, stage)
    table = panel.ph_table
    chars = panel._chars()
    panel._row_ids = [c.id for c in chars]
    table.setRowCount(0)  # drops the old speed combos at once
    panel._marks.pop(id(table), None)  # and the marked name cells
    table.setRowCount(len(chars))
    current = st.phase if st is not None and stage == "acting" else 0
    for k, ph in enumerate(_PHASES):
        item = table.horizontalHeaderItem(4 + k) or QTableWidgetItem()
        item.setText(f"▶{ph}" if current == k + 1 else ph)
        table.setHorizontalHeaderItem(4 + k, item)
    nxt = t.next_to_act() if t is not None and stage == "acting" else None
    for r, c in enumerate(chars):
        row = st.rows.get(c.id) if st is not None else None
        note = _row_note(panel, c.id)  # the autopilot's plan shown, with its why
        name = QTableWidgetItem(("▶ " if c.id == nxt else "") + c.name + (" »" if note else ""))
        tip = [*row.declared_reasons, *row.bar_reasons, *row.reflex_reasons] if row else []
        if note:
            tip.append(note)
        if tip:
            name.setToolTip("\n".join(tip))
        table.setItem(r, 0, name)
        reflex = c.traits.get("reflex")
        table.setItem(r, 1, QTableWidgetItem(str(reflex) if reflex else "—"))
        combo = _speed_combo(panel, c, row, stage)
        table.setCellWidget(r, 2, combo)
        res = ""
        if row is not None and row.card_number is not None:
            res = "CF" if row.reflex_cf else str(row.reflex_result)
        ri = QTableWidgetItem(res)
        ri.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        if row is not None and row.card_number is not None:
            ri.setToolTip(f"card {row.card_number}\n" + "\n".join(row.reflex_reasons))
        table.setItem(r, 3, ri)
        _put_phase_cells(table, r, row, current, stage)
        status = _status_text(row, stage)
        status_item = QTableWidgetItem(status)
        if row is not None and row.waiting_for:
            status_item.setToolTip(
                f"waiting for: {row.waiting_for} — Keep waiting (Alt+K) or Stop waiting "
                "(Alt+W) before the card is flipped (004 Delaying an Action)"
            )
        table.setItem(r, 8, status_item)
    waiting = _waiting_for(t, st, stage, nxt)
    if waiting:
        panel.info.setText(waiting)
    _follow_the_turn(panel, st, nxt)


def _waiting_for(t, st, stage: str, nxt: str | None) -> str:
    """The line under the track: what the round waits for now (the engine's state),
    "" where the last step's own words stay (the card's results)."""
    if t is None or st is None:
        return ""
    if stage == "declare":
        todo = [r.name for r in st.rows.values() if r.status.value == "waiting"]
        if not todo:
            return "Everyone has declared: F8 flips the initiative card (004 Resolution)."
        return f"Waiting for speeds (004 Declaration): {', '.join(todo)} — {SPEED_KEYS_TEXT}"
    if stage == "acting":
        order = [st.rows[i].name for i in t.acting_order()]
        head = f"Phase {_PHASES[st.phase - 1]}: " + (", ".join(order) or "nobody acts")
        if nxt is not None:
            return f"{head} — {st.rows[nxt].name}'s turn (004 Taking Actions)"
        return f"{head} — every turn in it is taken: F6 goes on (004 Taking Actions)"
    if stage == "ended":
        return f"Round {st.round} is over: F5 starts the next (004 Taking Actions)."
    return ""


def _follow_the_turn(panel: TrackHost, st: Any, nxt: str | None) -> None:
    """Preferences ▸ Action track: when a phase opens, and whenever a turn is taken,
    the character whose turn it is now (004 Taking Actions) is selected — once for
    each turn, so the Judge may select someone else meanwhile."""
    key = (st.round, st.phase, nxt) if st is not None and nxt is not None else None
    if key == panel._followed:
        return
    panel._followed = key
    doc = panel.document
    if key is None or not getattr(doc, "follow_track", False):
        return
    tok = doc.token_for(nxt)
    if tok is not None and tok.id != doc.selected_token_id:
        # after the step that changed the turn is done (the panel's own: dropped with it)
        QTimer.singleShot(
            0, panel.widget, lambda: doc.select(tok.id) if panel.track is not None else None
        )


def _show_phase_status(panel: TrackHost, t, st, stage: str) -> None:
    """The round, the card and the phase in the status line, and which buttons apply."""
    if t is None:
        panel.status.setText("Narrative time")
    elif stage == "idle":
        panel.status.setText("Action time — start the first round")
    elif stage == "declare":
        panel.status.setText(f"Round {st.round} · declare speeds")
    elif stage == "resolved":
        cards = ", ".join(str(n) for n in st.initiative_cards.values())
        panel.status.setText(f"Round {st.round} · card {cards} · choose phases")
    elif stage == "acting":
        panel.status.setText(f"Round {st.round} · phase {_PHASES[st.phase - 1]}")
    else:
        panel.status.setText(f"Round {st.round} over")
    panel.start_button.setEnabled(t is None or stage in ("idle", "ended"))
    panel.flip_button.setEnabled(stage == "declare")
    panel.phase_button.setEnabled(stage in ("resolved", "acting"))
    panel.act_button.setEnabled(stage == "acting")
    panel.end_button.setEnabled(stage == "acting")
    panel.delay_button.setEnabled(stage == "acting")
    panel.interrupt_button.setEnabled(stage == "acting")
    waiting = stage == "declare" and any(r.waiting_for for r in st.rows.values())
    panel.keep_button.setEnabled(waiting)
    panel.stop_button.setEnabled(waiting)


def _speed_combo(panel: TrackHost, c: Any, row: Any, stage: str) -> QComboBox:
    """The speed a character declares (004), open while speeds are declared."""
    combo = QComboBox()
    combo.addItem("—", None)
    for sp in (Speed.FAST, Speed.NORMAL, Speed.SLOW):
        combo.addItem(sp.value.title(), sp.value)
    if row is not None and row.declared is not None:
        combo.setCurrentIndex(combo.findData(row.declared.value))
    combo.setEnabled(
        stage == "declare"
        and row is not None
        and row.status.value not in ("out", "stunned", "surprised")
    )
    combo.activated.connect(
        lambda _i, cb=combo, k=c.id: (
            cb.currentData() and panel.declare_speed(k, Speed(cb.currentData()))
        )
    )
    return combo


def _put_phase_cells(table: QTableWidget, r: int, row: Any, current: int, stage: str) -> None:
    """A row's four phase cells: the TN of each on the bar, ✓ where the result reaches
    it, the chosen phase and the current one coloured."""
    for k in range(4):
        text = ""
        item = QTableWidgetItem()
        if row is not None and row.bar is not None:
            tn = row.bar[k]
            text = str(tn)
            if k + 1 in row.qualifying:
                text += " ✓"
            if row.phase == k + 1 and not row.hesitated:
                item.setBackground(QBrush(_IN))
                item.setFont(QFont("", -1, QFont.Weight.Bold))
            item.setToolTip(
                f"phase {_PHASES[k]}: TN {tn} on the {(row.bar_speed or row.declared or Speed.NORMAL).value} bar"
                + (
                    " — click to act in this phase"
                    if k + 1 in row.qualifying and stage == "resolved"
                    else ""
                )
            )
        if current == k + 1 and not item.background().color().isValid():
            item.setBackground(QBrush(_CUR))
        item.setText(text)
        item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        table.setItem(r, 4 + k, item)


def _status_text(row: Any, stage: str) -> str:
    """What the Status column says of a row (out, hesitates, acted, delaying…)."""
    status = ""
    if row is not None:
        if row.status.value != "active" and row.status.value != "waiting":
            status = row.status.value
        elif row.hesitated:
            status = "hesitates"
        elif row.acted:
            status = "acted"
        elif row.delayed:
            status = "delaying"
        elif row.waiting_for and stage == "declare":
            status = "still waiting?"
        elif row.passed:
            status = "passed"
        elif row.phase is not None:
            status = f"phase {_PHASES[row.phase - 1]}"
    return status


def _build_phase_table(panel: TrackHost) -> None:
    """The Phases round's table (004): a row per character, the phases as columns."""
    panel.ph_table = panel._make_table(4 + 4 + 1)
    panel.ph_table.setHorizontalHeaderLabels(
        ["Character", "Reflex", "Speed", "Result", *_PHASES, "Status"]
    )
    hh = panel.ph_table.horizontalHeader()
    for c in range(1, 9):
        hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
    head = panel.ph_table.horizontalHeaderItem(2)
    if head is not None:
        head.setToolTip(
            f"The speed each declares (004 Declaration). Keys on the row: {SPEED_KEYS_TEXT}"
        )
    install_speed_keys(panel)
    panel.ph_table.cellClicked.connect(panel._phase_cell_clicked)
    panel.stack.addWidget(panel.ph_table)
