"""The result of the draw, the card itself and the Judge's spends of its bumps."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid as shiboken_valid

from ....play.attack import (
    Preview,
    Spends,
    bumps_left,
    checked_shots,
    display_name,
    fan_secondary_choices,
    named_summary,
)
from ....play.bonus_actions import SPENDS
from ....play.throw import blast_lines
from ...widgets.card_view import CardDialog, CardView
from .._common import USER_ERRORS, error_text
from .controls import (
    _button,
    _combo,
    _spin,
)
from .host import AttackHost


class CardSpendsBox(QWidget):
    """The result of the draw, the card itself and the Judge's spends of its bumps."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        # the result, the card it read, then the spends of its bumps: after a draw the
        # panel shows the result and the card together (the spends scroll into view)
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.result_label.setTextFormat(Qt.TextFormat.RichText)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.result_label)

        self.card_view = CardView()
        self.card_view.setMinimumSize(180, 300)
        self.card_view.setMaximumHeight(440)
        self.card_view.clicked.connect(panel._open_card)
        self.card_view.setToolTip("Click for a larger card")
        lay.addWidget(self.card_view)

        self.spend_box = QWidget()
        sp = QGridLayout(self.spend_box)
        sp.setContentsMargins(0, 0, 0, 0)
        sp.setVerticalSpacing(2)
        sp.setHorizontalSpacing(3)
        self._build_bump_rows(panel, sp)
        self._build_other_rows(panel, sp)
        lay.addWidget(self.spend_box)

    def _build_other_rows(self, panel: AttackHost, sp: QGridLayout) -> None:
        """The stray shots' figures, a fan's secondary target and a held bonus counter."""
        sp.addWidget(QLabel("Stray shot"), 5, 0)
        stray = QHBoxLayout()
        self.stray_buttons: list[QToolButton] = []
        for i in range(3):
            b = QToolButton()
            b.setToolTip(f"Figure {i + 1}: left click −1, right click +1 (one bump each)")
            b.clicked.connect(lambda _=False, k=i: panel.stray_spend(k, -1))
            b.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            b.customContextMenuRequested.connect(lambda _p, k=i: panel.stray_spend(k, 1))
            self.stray_buttons.append(b)
            stray.addWidget(b)
        self.stray_reset = QToolButton()
        self.stray_reset.setText("reset")
        self.stray_reset.clicked.connect(panel._reset_stray)
        stray.addWidget(self.stray_reset)
        stray.addStretch(1)
        sp.addLayout(stray, 5, 1, 1, 3)
        self.secondary_label = QLabel("2nd target")
        self.secondary_combo = _combo(
            6,
            "003 Secondary Targets: with a second success in the pool, a bump lets one "
            "of the fan's hits strike someone within a pace of the target or the line of fire",
        )
        self.secondary_combo.activated.connect(lambda _i: panel._secondary_chosen())
        sp.addWidget(self.secondary_label, 6, 0)
        sp.addWidget(self.secondary_combo, 6, 1, 1, 3)
        self.secondary_label.hide()
        self.secondary_combo.hide()
        self.counter_label = QLabel("Bonus counter")
        self.counter_combo = _combo(
            8,
            "002 Spending the Counter: the attacker's bonus counter on this result; it goes "
            "back to the pool on Apply",
        )
        self.counter_combo.addItem("keep it", None)
        for key, (name, value, where) in SPENDS.items():
            self.counter_combo.addItem(f"{name} +{value} ({where})", key)
        self.counter_combo.activated.connect(lambda _i: panel._counter_chosen())
        sp.addWidget(self.counter_label, 7, 0)
        sp.addWidget(self.counter_combo, 7, 1, 1, 3)
        self.counter_label.hide()
        self.counter_combo.hide()

    def _build_bump_rows(self, panel: AttackHost, sp: QGridLayout) -> None:
        """The bumps left, the hit location and the bumps spent on each effect."""
        self.bumps_label = QLabel()
        self.bumps_label.setWordWrap(True)
        self.shot_spin = _spin(
            1, 1, prefix="shot ", tip="The shot of the series whose bumps you are spending"
        )
        self.shot_spin.valueChanged.connect(panel._shot_chosen)
        self.shot_spin.hide()
        sp.addWidget(self.bumps_label, 0, 0, 1, 3)
        sp.addWidget(self.shot_spin, 0, 3)
        sp.addWidget(QLabel("Hit location"), 1, 0)
        self.loc_up = _button("▲ up", "Spend bumps to move the hit up the stack")
        self.loc_down = _button("▼ down", "Spend bumps to move the hit down the stack")
        for b in (self.loc_up, self.loc_down):
            b.setMinimumWidth(52)  # below the style's 80 px push-button minimum: a 300 px dock
        self.loc_up.clicked.connect(lambda: panel.move_location(-1))
        self.loc_down.clicked.connect(lambda: panel.move_location(1))
        sp.addWidget(self.loc_up, 1, 1)
        sp.addWidget(self.loc_down, 1, 2)
        self.loc_label = QLabel()
        sp.addWidget(self.loc_label, 1, 3)
        self.spin_rows: dict[str, tuple[QPushButton, QPushButton, QLabel]] = {}
        for r, (key, text) in enumerate(
            (("penetration", "Penetration"), ("damage", "Damage"), ("extra_hits", "Extra hits")), 2
        ):
            widgets = self._spend_row(panel, sp, key, text, r)
            if key == "extra_hits":
                self.extra_hits_widgets = widgets
                for w in widgets:
                    w.setToolTip("003 Fan Firing: a bump buys one more hit, up to the shots fired")
                    w.hide()
        # a burst's (or fan's) extra-hit bumps: damage by default, penetration by choice
        self.burst_pen_widgets = self._spend_row(panel, sp, "burst_pen", "Burst → Pen", 9)
        for w in self.burst_pen_widgets:
            w.setToolTip(
                "002 Bump Types: a burst bump (an extra hit of a burst or a fan) is a damage "
                "or a penetration bump, the player's choice: here, how many go to penetration"
            )
            w.hide()
        # hand to hand: bumps toward dominance (000 Asserting Dominance)
        self.dominance_widgets = self._spend_row(panel, sp, "dominance", "Dominance", 8)
        for w in self.dominance_widgets:
            w.setToolTip(
                "000 Asserting Dominance: each bump one level of hold on the defender "
                "(or cancels one level of theirs); kept on the tokens"
            )
            w.hide()

    def _spend_row(
        self, panel: AttackHost, sp: QGridLayout, key: str, text: str, row: int
    ) -> list[QWidget]:
        """One spend's row of the grid: its name, − and + (a bump each way) and the
        count, kept in :attr:`spin_rows` under ``key``; returns the four widgets."""
        minus, plus = _button("−"), _button("+")
        minus.setFixedWidth(28)
        plus.setFixedWidth(28)
        val = QLabel("0")
        minus.clicked.connect(lambda _=False: panel.change_spend(key, -1))
        plus.clicked.connect(lambda _=False: panel.change_spend(key, 1))
        self.spin_rows[key] = (minus, plus, val)
        widgets: list[QWidget] = [QLabel(text), minus, plus, val]
        for c, w in enumerate(widgets):
            sp.addWidget(w, row, c)
        return widgets


def _reset_spends(panel: AttackHost) -> None:
    panel.series_spends = [Spends()]
    panel.shot_index = 0


def _holds_counter(panel: AttackHost) -> bool:
    """The attacker holds a bonus counter and the attack can take it (shots, throws)."""
    if panel._shooter is None or panel.mode() == "melee":
        return False
    try:
        return bool(panel.document.character_of(panel._shooter).bonus_counter)
    except KeyError:
        return False


def _counter_chosen(panel: AttackHost) -> None:
    """Spend (or keep) the attacker's bonus counter on the card on show."""
    panel._counter = panel.counter_combo.currentData()
    if panel.current is None:
        return
    old = panel.spends.copy()
    panel.plan = panel._plan()
    if panel.plan is None or not panel._respend(old):
        panel._counter = None
        panel.counter_combo.setCurrentIndex(0)


def _shown_record(panel: AttackHost):
    if panel.current is None:
        return None
    recs = panel.current.records
    return recs[min(panel.shot_index, len(recs) - 1)]


def _shot_chosen(panel: AttackHost, value: int) -> None:
    """Spend the bumps of another shot of the series."""
    if panel.current is None:
        return
    panel.shot_index = max(0, min(value - 1, len(panel.series_spends) - 1))
    panel._respend(panel.spends.copy())
    if not panel._strays_hit_shown:
        panel._flag_candidates(panel.plan)  # the rings of the shot on show


def _show_preview(panel: AttackHost, p: Preview) -> None:
    v = panel.card_view
    v.set_card(p.card)
    v.highlight_cause_cells(p.cause_cells, p.chosen)
    v.highlight_effect_cell(*(p.effect_cell or (None, None)))
    v.highlight_hit_location(p.hit_index)
    v.highlight_sections(p.sections)
    v.highlight_burst(p.burst)
    rec = panel._shown_record()
    fan3 = panel.plan is not None and panel.plan.fan is not None and rec.burst is not None
    for w in getattr(panel, "extra_hits_widgets", []):
        w.setVisible(bool(fan3))
    sp = rec.spends
    total, left = bumps_left(rec)
    panel.bumps_label.setText(
        f"{total} standard bump(s), {left} left"
        + (
            " · conditional: " + ", ".join(f"{v} {k}" for k, v in sp.conditional_available.items())
            if sp is not None and sp.conditional_available
            else ""
        )
    )
    loc = rec.location
    if loc is not None:
        panel.loc_label.setText(loc.location.value.replace("_", " "))
    else:
        panel.loc_label.setText("—")
    for key in ("penetration", "damage", "extra_hits", "dominance", "burst_pen"):
        panel.spin_rows[key][2].setText(str(getattr(panel.spends, key)))
    for widget in panel.dominance_widgets:
        widget.setVisible(panel.mode() == "melee")
    has_burst = bool(sp is not None and sp.conditional_available.get("burst"))
    for widget in panel.burst_pen_widgets:
        widget.setVisible(has_burst or panel.spends.burst_pen > 0)
    figs = list(p.card.figures)
    for i, d in panel.spends.stray:
        figs[i] += d
    for i, b in enumerate(panel.stray_buttons):
        b.setText(str(figs[i]))
    panel._fill_secondary(rec)
    records = p.records
    parts = []
    spread = panel.plan is not None and bool(panel.plan.burst_others)
    shots = checked_shots(panel.plan, len(records)) if panel.plan is not None else len(records)
    for i, r in enumerate(records):
        head = f"<u>Shot {i + 1} of {shots}</u><br>" if shots > 1 and i < shots else ""
        if spread and len(records) > 1:
            head = "<u>The burst</u><br>" if i == 0 else "<u>Sent on</u><br>"
        if r.stray_of is not None:
            head = "<u>A stray shot</u><br>"
        parts.append(head + panel._result_html(r))
    if p.outcome.card_needed and panel.document.deck.physical:
        parts.insert(
            0,
            "<span style='color:#b00020'>Provisional — waiting for the card drawn for "
            f"{html.escape(p.outcome.card_needed)}</span>",
        )
    panel.result_label.setText("<br>".join(parts))


# ------------------------------------------------- 003 fan: secondary targets
def _secondary_choices(panel: AttackHost) -> list[tuple[str, list[str]]]:
    return fan_secondary_choices(panel.plan) if panel.plan is not None else []


def _fill_secondary(panel: AttackHost, rec) -> None:
    choices = panel._secondary_choices() if panel.shot_index == 0 else []
    show = bool(choices) and len(choices) > 1 and rec is not None and rec.hit.success
    c = panel.secondary_combo
    c.blockSignals(True)
    c.clear()
    if show:
        for text, ids in choices:
            c.addItem(text, ",".join(ids))
        c.setCurrentIndex(max(c.findData(",".join(panel.spends.secondary)), 0))
    c.blockSignals(False)
    c.setVisible(show)
    panel.secondary_label.setVisible(show)


def set_fan_secondary(panel: AttackHost, token_ids: list[str]) -> bool:
    """Buy secondary targets for the previewed Phases fan (one bump each, 003)."""
    if panel.current is None:
        return False
    panel.shot_index = 0
    old = panel.spends.copy()
    panel.spends.secondary = list(token_ids)
    return panel._respend(old)


def _secondary_chosen(panel: AttackHost) -> None:
    data = panel.secondary_combo.currentData() or ""
    if not panel.set_fan_secondary([t for t in data.split(",") if t]):
        c = panel.secondary_combo
        c.setCurrentIndex(max(c.findData(",".join(panel.spends.secondary)), 0))


def _result_html(panel: AttackHost, rec) -> str:
    doc = panel.document
    head = html.escape(named_summary(doc.table, rec))
    lines = [f"<b>{head}</b>"]
    h = rec.hit
    lines.append(
        ("CF — calamity" if h.cf else ("Hit" if h.success else "Miss"))
        + f": result {h.result} vs TN {h.tn}"
    )
    for c in rec.covers:
        lines.append(
            f"Cover {html.escape(c.material.replace('_', ' '))}: PV {c.pv} vs AV {c.av} → {c.outcome}"
        )
    if rec.damage is not None:
        d = rec.damage
        lines.append(
            f"{d.wounds_added} wound(s) to the {d.location.value.replace('_', ' ')}, "
            f"{d.conc_dealt} Conc; wound level {d.wound_level} ({html.escape(d.wound_level_name)})"
        )
        if d.killed:
            lines.append("<span style='color:#b00020'><b>Killed</b></span>")
        elif d.unconscious:
            lines.append("<b>Unconscious</b>")
    if rec.stun is not None:
        lines.append("Stunned" if getattr(rec.stun, "stunned", False) else "Not stunned")
    if rec.equipment_failure is not None and rec.equipment_failure.failed:
        lines.append("<span style='color:#b00020'>Equipment failure</span>")
    if rec.strays is not None and rec.strays.stray_shots:
        hit = ", ".join(html.escape(panel._name(c)) for c in rec.strays.candidates_hit) or "no one"
        lines.append(f"{rec.strays.stray_shots} stray shot(s): hits {hit}")
    if rec.scatter is not None:
        s = rec.scatter
        lines.append(f"Scatters {s.distance} paces toward {s.clock_hour} o'clock")
    if rec.block_outcome is not None:
        what = {
            "failed": "the block fails",
            "to_arm": "the block ties: the blow lands on the arm",
            "blocked": "blocked",
        }[rec.block_outcome]
        lines.append(f"{html.escape(panel._name(rec.target_id))}: {what}")
    if rec.blast is not None:
        blast = blast_lines(doc.table, rec.blast) or ["no one else within it"]
        lines.append(
            f"<b>Blast ({rec.blast.radius} p)</b>: " + "; ".join(html.escape(x) for x in blast)
        )
    for d in rec.discharges:
        if not d.discharged:
            continue
        w = doc.gear.weapons.get(d.weapon_id or "")
        what = f"{w.name if w else 'a stowed gun'} goes off in its holster"
        if d.damage is not None:
            what += (
                f": {d.damage.wounds_added} wound(s) to the "
                f"{d.damage.location.value.replace('_', ' ')}, {d.damage.conc_dealt} Conc"
            )
        else:
            what += ": the round misses"
        lines.append(f"<span style='color:#b00020'>{html.escape(what)}</span>")
    return "<br>".join(lines)


def _name(panel: AttackHost, key: str) -> str:
    """The name behind a character id or a token id."""
    return display_name(panel.table, key)


def clear_preview(panel: AttackHost) -> None:
    panel.tn_toggle.setChecked(True)
    panel.current = None
    panel._counter = None
    panel.counter_combo.setCurrentIndex(0)
    panel._typed = None
    panel._typed_block = None
    panel._typed_more = []
    panel._reset_spends()
    panel.shot_spin.hide()
    panel.secondary_combo.hide()
    panel.secondary_label.hide()
    panel.card_view.set_card(None)
    panel.result_label.setText("")
    panel.bumps_label.setText("")
    panel.loc_label.setText("")
    for b in panel.stray_buttons:
        b.setText("")
    panel._update_buttons()


def _show_result_and_card(panel: AttackHost) -> None:
    """After a draw: the scrolling part shows the result from its first line, and the
    card under it (as much of it as the panel's height leaves) — now, and again once
    the result's wrapped lines are laid out."""

    def scroll() -> None:
        if not shiboken_valid(panel.result_label):
            return  # the panel went (a new document) before the event loop came back
        body = panel.scroll.widget()
        top = panel.result_label.mapTo(body, panel.result_label.rect().topLeft()).y()
        panel.scroll.verticalScrollBar().setValue(max(0, top - 4))

    scroll()
    QTimer.singleShot(0, panel.result_label, scroll)


def _open_card(panel: AttackHost) -> None:
    if panel.card_view.card() is not None:
        CardDialog(panel.card_view.card(), panel.card_view.highlights(), parent=panel.widget).open()


# ======================================================================= spends
def _respend(panel: AttackHost, old: Spends) -> bool:
    """Resolve again with the new spends; a refused spend is undone with its reason."""
    assert panel.plan is not None
    try:
        panel.current = panel._resolve_now()
    except USER_ERRORS as e:
        panel.spends = old
        panel.message.error(error_text(e))
        return False
    panel._fit_series(panel.current)
    panel.message.clear()
    panel._show_preview(panel.current)
    panel._update_buttons()
    panel._ask_cards_if_needed()
    return True


def move_location(panel: AttackHost, step: int) -> bool:
    """Move the hit one entry up (−1) or down (+1) the stack, paying its bumps."""
    p = panel.current
    rec = panel._shown_record()
    if p is None or rec is None or rec.location is None or rec.location.stack_index is None:
        return False
    old = panel.spends.copy()
    cur = panel.spends.hit_index
    if cur is None:
        cur = rec.location.stack_index
    new = cur + step
    if not 0 <= new <= 3:
        panel.message.error("The hit location stack has no further entry that way.")
        return False
    panel.spends.hit_index = new
    ok = panel._respend(old)
    shown = panel._shown_record()
    if ok and shown is not None and shown.location is not None:
        cost = shown.location.bumps_spent
        panel.message.note(f"Hit location entry {new + 1}: {cost} bump(s).")
    return ok


def change_spend(panel: AttackHost, key: str, delta: int) -> bool:
    if panel.current is None:
        return False
    old = panel.spends.copy()
    value = getattr(panel.spends, key) + delta
    if value < 0:
        return False
    setattr(panel.spends, key, value)
    return panel._respend(old)


def stray_spend(panel: AttackHost, figure: int, delta: int) -> bool:
    if panel.current is None:
        return False
    old = panel.spends.copy()
    panel.spends.stray.append((figure, delta))
    return panel._respend(old)


def _reset_stray(panel: AttackHost) -> None:
    if panel.current is None or not panel.spends.stray:
        return
    panel.spends.stray = []
    panel._respend(panel.spends.copy())
