"""Several attacks from one pool (000 Multiple Attacks), declared before the card."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ....play.attack import (
    Preview,
    Spends,
    checked_shots,
)
from .controls import (
    _combo,
    _row,
)
from .host import AttackHost


class SeriesRow(QWidget):
    """Several attacks from one pool (000 Multiple Attacks), declared before the card."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        # several attacks from one pool (000 Multiple Attacks), declared before the card
        self.series_row, h = _row(3)
        self.series_combo = _combo(
            4,
            "000 Multiple Attacks: a further attack from the same pool, declared before the "
            "card; it reads the pool's next best result (1 AP per switch of target, −1 per "
            "target after the first; at most the skill level)",
        )
        self.series_kind = QComboBox()
        self.series_kind.addItem("snap", "snap")
        self.series_kind.addItem("normal", "normal")
        self.series_add = QToolButton()
        self.series_add.setText("+")
        self.series_add.setToolTip("Add this attack to the series")
        self.series_add.clicked.connect(panel._add_series_attack)
        self.series_clear = QToolButton()
        self.series_clear.setText("×")
        self.series_clear.setToolTip("No further attacks: a single shot")
        self.series_clear.clicked.connect(lambda: panel.set_series([]))
        h.addWidget(QLabel("then"))
        h.addWidget(self.series_combo, 1)
        h.addWidget(self.series_kind)
        h.addWidget(self.series_add)
        h.addWidget(self.series_clear)
        self.series_label = QLabel()
        self.series_label.setWordWrap(True)
        self.series_label.hide()
        lay.addWidget(self.series_row)
        lay.addWidget(self.series_label)


def _series_open(panel: AttackHost) -> bool:
    """A series from one pool: snap or normal shots with a single-shot gun."""
    return (
        panel.mode() == "ranged"
        and panel.shot_kind() in ("snap", "normal")
        and not panel._has_burst()
    )


def _sync_series_row(panel: AttackHost) -> None:
    show = panel._series_open()
    panel.series_row.setVisible(show)
    names = [f"{kind} at {panel._name(tid)}" for tid, kind in panel._series]
    panel.series_label.setText(("Then, from the same pool: " + "; ".join(names)) if names else "")
    panel.series_label.setVisible(show and bool(names))
    panel.series_clear.setEnabled(bool(panel._series))


def _add_series_attack(panel: AttackHost) -> None:
    tid = panel.series_combo.currentData()
    if tid is None:
        panel.message.error("Choose the target of the next attack first.")
        return
    panel.set_series([*panel._series, (tid, panel.series_kind.currentData())])


def set_series(panel: AttackHost, attacks: list[tuple[str, str]]) -> None:
    """Declare the further attacks of a series: (target token, "snap" | "normal")."""
    panel._series = list(attacks)
    panel._sync_series_row()
    panel._inputs_changed()


def _fit_series(panel: AttackHost, p: Preview) -> None:
    """One spends entry and one shot number per checked shot of the series (a
    Phases fan's secondary targets have no check, so no spends of their own)."""
    n = checked_shots(panel.plan, len(p.records)) if panel.plan is not None else len(p.records)
    while len(panel.series_spends) < n:
        panel.series_spends.append(Spends())
    panel.shot_spin.blockSignals(True)
    panel.shot_spin.setRange(1, n)
    panel.shot_spin.setValue(panel.shot_index + 1)
    panel.shot_spin.blockSignals(False)
    panel.shot_spin.setVisible(n > 1)
