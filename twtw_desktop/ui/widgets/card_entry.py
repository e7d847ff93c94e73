"""The physical-card entry form: the Judge types what a printed card shows.

Every section of the card has a field (RULES.md "The action card"). The values are
checked against the card schema with :func:`twtw_desktop.rules.deck.parse_card`; a
wrong value is refused with a message naming the field (``cause.10.3`` is row 3 of
the d10 column) and the offending box turns red.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...rules.base import CAUSE_ROWS, DIE_TYPES, EFFECT_ROWS, HitLocation, Speed
from ...rules.card import STANDARD_HIT_INDEX, Card
from ...rules.deck import parse_card

_BAD = "background: #f8c8c8;"
_PHASES = ("I", "II", "III", "IV")


def _cell_value(text: str) -> Any:
    """What a typed cell means: a whole number, "CF", or the raw text (which the
    schema then refuses, naming the field)."""
    t = text.strip()
    if t.upper() == "CF":
        return "CF"
    try:
        return int(t)
    except ValueError:
        return t


def _effect_value(text: str) -> dict[str, Any]:
    """An effect cell typed as ``13`` or ``13+`` (``+`` = increased effect)."""
    t = text.strip()
    inc = t.endswith("+")
    if inc:
        t = t[:-1].strip()
    try:
        v: Any = int(t)
    except ValueError:
        v = t
    return {"value": v, "increased": inc}


class CardEntryForm(QWidget):
    """All the fields of one card; :meth:`card_data` gives the raw dict."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.fields: dict[str, QWidget] = {}

        head = QHBoxLayout()
        head.addWidget(QLabel("Card number"))
        self.number = QSpinBox()
        self.number.setRange(1, 54)
        self.fields["number"] = self.number
        head.addWidget(self.number)
        head.addSpacing(12)
        head.addWidget(QLabel("Fragment"))
        self.fragment = QSpinBox()
        self.fragment.setRange(0, 9)
        self.fields["fragment"] = self.fragment
        head.addWidget(self.fragment)
        head.addStretch(1)
        lay.addLayout(head)

        # cause grid
        box = QGroupBox("Cause grid (a face, or CF)")
        g = QGridLayout(box)
        g.setSpacing(2)
        self.cause: dict[tuple[int, int], QLineEdit] = {}
        for c, die in enumerate(DIE_TYPES):
            g.addWidget(QLabel(f"d{die}"), 0, c + 1, Qt.AlignmentFlag.AlignCenter)
        for row in range(1, CAUSE_ROWS + 1):
            g.addWidget(QLabel(str(row)), row, 0)
            for c, die in enumerate(DIE_TYPES):
                e = QLineEdit()
                e.setMaximumWidth(48)
                e.setAlignment(Qt.AlignmentFlag.AlignCenter)
                e.setPlaceholderText("?")
                e.setToolTip(f"cause row {row}, d{die}: 1–{die} or CF")
                self.cause[(row, die)] = e
                self.fields[f"cause.{die}.{row}"] = e
                g.addWidget(e, row, c + 1)
        lay.addWidget(box)

        # effect grid
        box = QGroupBox("Effect grid (type 13+ for increased effect)")
        g = QGridLayout(box)
        g.setSpacing(2)
        self.effect: dict[tuple[int, int], QLineEdit] = {}
        for c, die in enumerate(DIE_TYPES):
            g.addWidget(QLabel(f"d{die}"), 0, c + 1, Qt.AlignmentFlag.AlignCenter)
        for row in range(1, EFFECT_ROWS + 1):
            g.addWidget(QLabel(f"({row})"), row, 0)
            for c, die in enumerate(DIE_TYPES):
                e = QLineEdit()
                e.setMaximumWidth(48)
                e.setAlignment(Qt.AlignmentFlag.AlignCenter)
                e.setPlaceholderText("?")
                e.setToolTip(f"effect ({row}){die}: {row}–{row * die}, + for increased effect")
                self.effect[(row, die)] = e
                self.fields[f"effect.{die}.{row}"] = e
                self.fields[f"effect.{die}.{row}.value"] = e
                g.addWidget(e, row, c + 1)
        lay.addWidget(box)

        # hit locations
        box = QGroupBox("Hit location stack (top to bottom; the third is the standard one)")
        g = QGridLayout(box)
        g.setSpacing(2)
        g.addWidget(QLabel("location"), 0, 1)
        g.addWidget(QLabel("triangles"), 0, 2)
        g.addWidget(QLabel("prone"), 0, 3)
        self.hit_loc: list[QComboBox] = []
        self.hit_tri: list[QSpinBox] = []
        self.hit_prone: list[QCheckBox] = []
        for i in range(4):
            g.addWidget(
                QLabel(f"{i + 1}" + (" (standard)" if i == STANDARD_HIT_INDEX else "")), i + 1, 0
            )
            combo = QComboBox()
            for loc in HitLocation:
                combo.addItem(loc.value.replace("_", " "), loc.value)
            tri = QSpinBox()
            tri.setRange(0, 2)
            tri.setValue((2, 1, 0, 1)[i])
            prone = QCheckBox()
            self.hit_loc.append(combo)
            self.hit_tri.append(tri)
            self.hit_prone.append(prone)
            self.fields[f"hit_locations.{i + 1}"] = combo
            self.fields[f"hit_locations.{i + 1}.location"] = combo
            self.fields[f"hit_locations.{i + 1}.triangles"] = tri
            g.addWidget(combo, i + 1, 1)
            g.addWidget(tri, i + 1, 2)
            g.addWidget(prone, i + 1, 3)
        lay.addWidget(box)

        # the small sections
        box = QGroupBox("Shield, burst, figures, wrench, clock, step, toggle")
        g = QGridLayout(box)
        self.shield = QSpinBox()
        self.shield.setRange(-9, 9)
        self.fields["shield"] = self.shield
        g.addWidget(QLabel("Shield"), 0, 0)
        g.addWidget(self.shield, 0, 1)
        self.burst: dict[int, QSpinBox] = {}
        g.addWidget(QLabel("Burst 3 / 5 / 10 hits"), 1, 0)
        bl = QHBoxLayout()
        for b in (3, 5, 10):
            s = QSpinBox()
            s.setRange(0, 99)
            self.burst[b] = s
            self.fields[f"burst.{b}"] = s
            bl.addWidget(s)
        g.addLayout(bl, 1, 1)
        g.addWidget(QLabel("Unintended figures"), 2, 0)
        fl = QHBoxLayout()
        self.figures: list[QSpinBox] = []
        for i in range(3):
            s = QSpinBox()
            s.setRange(0, 9)
            s.setValue(6)
            self.figures.append(s)
            self.fields[f"figures.{i + 1}"] = s
            fl.addWidget(s)
        g.addLayout(fl, 2, 1)
        g.addWidget(QLabel("Wrench"), 3, 0)
        self.wrench = QSpinBox()
        self.wrench.setRange(0, 99)
        self.wrench.setSpecialValueText("blank")
        self.fields["wrench"] = self.wrench
        g.addWidget(self.wrench, 3, 1)
        g.addWidget(QLabel("Clock hour / step"), 4, 0)
        cl = QHBoxLayout()
        self.clock = QSpinBox()
        self.clock.setRange(0, 99)
        self.clock.setValue(12)
        self.step = QSpinBox()
        self.step.setRange(0, 99)
        self.fields["clock"] = self.clock
        self.fields["step"] = self.step
        cl.addWidget(self.clock)
        cl.addWidget(self.step)
        g.addLayout(cl, 4, 1)
        g.addWidget(QLabel("Toggle"), 5, 0)
        self.toggle = QComboBox()
        self.toggle.addItem("YES", True)
        self.toggle.addItem("NO", False)
        self.fields["toggle"] = self.toggle
        g.addWidget(self.toggle, 5, 1)
        lay.addWidget(box)

        # initiative bar
        box = QGroupBox("Initiative bar (TN per phase)")
        g = QGridLayout(box)
        g.setSpacing(2)
        for k, ph in enumerate(_PHASES):
            g.addWidget(QLabel(ph), 0, k + 1, Qt.AlignmentFlag.AlignCenter)
        self.initiative: dict[tuple[Speed, int], QSpinBox] = {}
        for j, speed in enumerate((Speed.FAST, Speed.NORMAL, Speed.SLOW)):
            g.addWidget(QLabel(speed.value.title()), j + 1, 0)
            for k in range(4):
                s = QSpinBox()
                s.setRange(0, 30)
                self.initiative[(speed, k)] = s
                self.fields[f"initiative.{speed.value}.{k + 1}"] = s
                g.addWidget(s, j + 1, k + 1)
            self.fields[f"initiative.{speed.value}"] = self.initiative[(speed, 0)]
        self.fields["initiative"] = self.initiative[(Speed.FAST, 0)]
        lay.addWidget(box)

    # -- values ---------------------------------------------------------------------
    def set_card(self, card: Card) -> None:
        """Fill every field from ``card`` (a starting point for transcribing)."""
        self.number.setValue(card.number)
        self.fragment.setValue(card.fragment)
        for (row, die), e in self.cause.items():
            e.setText(str(card.cause_cell(row, die)))
        for (row, die), e in self.effect.items():
            cell = card.effect_cell(row, die)
            e.setText(f"{cell.value}{'+' if cell.increased else ''}")
        for i, entry in enumerate(card.hit_locations):
            self.hit_loc[i].setCurrentIndex(self.hit_loc[i].findData(entry.location.value))
            self.hit_tri[i].setValue(entry.triangles)
            self.hit_prone[i].setChecked(entry.prone)
        self.shield.setValue(card.shield)
        for b, s in self.burst.items():
            s.setValue(card.burst_hits(b))
        for i, s in enumerate(self.figures):
            s.setValue(card.figures[i])
        self.wrench.setValue(card.wrench or 0)
        self.clock.setValue(card.clock)
        self.step.setValue(card.step)
        self.toggle.setCurrentIndex(0 if card.toggle else 1)
        for (speed, k), s in self.initiative.items():
            s.setValue(card.initiative.tns(speed)[k])

    def card_data(self) -> dict[str, Any]:
        """The typed values as plain card data (not yet validated)."""
        return {
            "number": self.number.value(),
            "cause": {
                str(die): [
                    _cell_value(self.cause[(r, die)].text()) for r in range(1, CAUSE_ROWS + 1)
                ]
                for die in DIE_TYPES
            },
            "effect": {
                str(die): [
                    _effect_value(self.effect[(r, die)].text()) for r in range(1, EFFECT_ROWS + 1)
                ]
                for die in DIE_TYPES
            },
            "hit_locations": [
                {
                    "location": self.hit_loc[i].currentData(),
                    "triangles": self.hit_tri[i].value(),
                    "prone": self.hit_prone[i].isChecked(),
                }
                for i in range(4)
            ],
            "shield": self.shield.value(),
            "burst": {str(b): s.value() for b, s in self.burst.items()},
            "figures": [s.value() for s in self.figures],
            "wrench": self.wrench.value() or None,
            "clock": self.clock.value(),
            "step": self.step.value(),
            "toggle": bool(self.toggle.currentData()),
            "fragment": self.fragment.value(),
            "initiative": {
                sp.value: [self.initiative[(sp, k)].value() for k in range(4)]
                for sp in (Speed.FAST, Speed.NORMAL, Speed.SLOW)
            },
        }

    def clear_marks(self) -> None:
        for w in self.fields.values():
            w.setStyleSheet("")

    def mark(self, where: str) -> QWidget | None:
        """Turn the field named in a validation message red; returns it."""
        field = where.split("field ", 1)[-1].strip()
        parts = field.split(".")
        while parts:
            w = self.fields.get(".".join(parts))
            if w is not None:
                w.setStyleSheet(_BAD)
                w.setFocus()
                return w
            parts.pop()
        return None

    def validate(self) -> tuple[Card | None, str]:
        """The card, or None and the message naming the wrong field."""
        self.clear_marks()
        try:
            return parse_card(self.card_data(), "card"), ""
        except ValueError as e:
            where = getattr(e, "where", "")
            reason = getattr(e, "reason", str(e))
            self.mark(where)
            field = where.split("field ", 1)[-1] if "field " in where else where
            return None, f"Field {field}: {reason}"


class PhysicalCardDialog(QDialog):
    """Type in a card drawn from a printed deck. ``card`` holds the result on accept."""

    def __init__(
        self, parent: QWidget | None = None, start: Card | None = None, title: str = ""
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title or "Enter a physical card")
        self.card: Card | None = None
        lay = QVBoxLayout(self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        self.form = CardEntryForm()
        scroll.setWidget(self.form)
        lay.addWidget(scroll, 1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020; font-weight: bold;")
        self.message.hide()
        lay.addWidget(self.message)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.try_accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        if start is not None:
            self.form.set_card(start)
        self.resize(460, 640)

    def try_accept(self) -> bool:
        """Validate; accept when the card is good, else show the field and stay open."""
        card, msg = self.form.validate()
        if card is None:
            self.message.setText(msg)
            self.message.show()
            return False
        self.card = card
        self.message.hide()
        self.accept()
        return True

    def error_text(self) -> str:
        return "" if self.message.isHidden() else self.message.text()
