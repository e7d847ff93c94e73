"""The TN before the draw: its headline and every modifier of the TN and the AP."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ....play.attack import (
    AttackPlan,
)
from .host import AttackHost


class TnBox(QWidget):
    """The TN before the draw: its headline and every modifier of the TN and the AP."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        # -- the TN before the draw ---------------------------------------------------------
        head = QHBoxLayout()
        self.tn_headline = QLabel()
        self.tn_headline.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.tn_headline.setWordWrap(True)
        head.addWidget(self.tn_headline, 1)
        self.tn_toggle = QToolButton()
        self.tn_toggle.setCheckable(True)
        self.tn_toggle.setChecked(True)
        self.tn_toggle.setAutoRaise(True)
        self.tn_toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.tn_toggle.setToolTip("Show or hide every modifier of the TN and the AP")
        self.tn_toggle.toggled.connect(panel._show_tn_items)
        head.addWidget(self.tn_toggle)
        lay.addLayout(head)
        self.tn_label = QLabel()
        self.tn_label.setWordWrap(True)
        self.tn_label.setTextFormat(Qt.TextFormat.RichText)
        self.tn_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tn_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        lay.addWidget(self.tn_label)


def _show_tn_items(panel: AttackHost, on: bool) -> None:
    panel.tn_label.setVisible(on)
    panel.tn_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)


def _show_plan(panel: AttackHost, plan: AttackPlan) -> None:
    tn = plan.tn
    ap = plan.ap
    res = f", result {tn.result_modifier:+d}" if tn.result_modifier else ""
    first = "shot 1: " if len(plan.series) > 1 else ""
    defender = ""
    if plan.defender_ap is not None:
        defender = f" (+{plan.defender_ap.total} {plan.target.name.split()[0]})"
    panel.tn_headline.setText(f"{first}TN {tn.tn}{res} · {ap.total} AP{defender} · {plan.pool}")

    def line(value: str, label: str, src: str = "") -> str:
        s = f" <span style='color:#888; font-size:small'>{html.escape(src)}</span>" if src else ""
        return f"<b>{value}</b> {html.escape(label)}{s}"

    rows = [line(f"TN {tn.base}", tn.base_label, tn.base_source)]
    rows += [line(f"TN {m.value:+d}", m.label, m.source) for m in tn.tn_items]
    rows += [line(f"{m.value:+d}", m.label, m.source) for m in tn.result_items]
    rows += [line(f"{m.value} AP", m.label, m.source) for m in ap.items]
    if plan.defender_ap is not None:
        rows += [line(f"{m.value} AP", m.label, m.source) for m in plan.defender_ap.items]
    text = "<br>".join(rows)
    misses = automatic_misses(plan)
    if misses:  # in view, not among the grey notes: these attacks cannot hit
        text += "<div style='color:#b00020; font-weight:bold'>"
        text += "<br>".join(html.escape(n) for n in misses) + "</div>"
    notes = [n for n in (*tn.notes, *plan.geometry) if n not in misses]
    if notes:
        text += "<div style='color:#555'>" + "<br>".join(html.escape(n) for n in notes) + "</div>"
    panel.tn_label.setText(text)


def tn_items(panel: AttackHost) -> list[str]:
    """The itemised TN lines as plain text (what the Judge sees before drawing)."""
    if panel.plan is None:
        return []
    out = panel.plan.tn.reasons() + panel.plan.ap.reasons()
    if panel.plan.defender_ap is not None:
        out += panel.plan.defender_ap.reasons()
    return out + automatic_misses(panel.plan)


def automatic_misses(plan: AttackPlan) -> list[str]:
    """The plan's lines for the attacks of a series beyond the attacker's skill level:
    they miss automatically, paying their AP (000 Multiple Attacks)."""
    return list(plan.automatic_misses)


def _missing_choice(panel: AttackHost) -> str | None:
    """Why there is nothing to draw for yet (no attacker, no target), or None."""
    if panel._shooter is None:
        return "Select the attacker's token on the map first."
    if panel.target_token() is None:
        return "Choose a target first (the list or Pick…)."
    return None
