"""Measure: click and drag from one hex to another for the range in paces and the
range TN of the selected token's weapon (000 Range: Standard 5, +1 per increment)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent

from ...errors import RulesError
from ...hexgrid import Hex
from ..core.document import EncounterDocument
from .base import Tool
from .labels import Bubble, PathItem

MEASURE_COLOUR = QColor(20, 70, 160)


@dataclass
class RangeReading:
    paces: int
    weapon: str | None = None
    tn: int | None = None
    lines: tuple[str, ...] = ()

    def text(self) -> str:
        head = f"{self.paces} pace{'s' if self.paces != 1 else ''}"
        if self.tn is not None:
            head += f" · range TN {self.tn} ({self.weapon})"
        return "\n".join([head, *self.lines])


def range_reading(doc: EncounterDocument, a: Hex, b: Hex, token_id: str | None) -> RangeReading:
    """Range in paces and, for the token's weapon, the range part of the TN as the
    rules give it to an attack at that distance (:func:`.rules.combat.ranged.range_tn`)."""
    # lazy: start-up (the attack's rules, not needed by the map's first frame)
    from ...play.catalogue import weapon_in_hand
    from ...rules.combat.ranged import range_tn
    from ...rules.combat.thrown import is_throwable

    d = a.distance(b)
    reading = RangeReading(paces=d)
    if token_id is None:
        return reading
    w = weapon_in_hand(doc, token_id)
    if w is None:
        return reading
    if w.is_ranged and w.range_increment:
        thrown, what = False, "increment"
    elif is_throwable(w):
        thrown, what = True, "throwing increment"
    else:
        return reading
    ch = doc.character(doc.token(token_id).character_id)
    try:
        rt = range_tn(ch, w, doc.edition, d, thrown=thrown)
    except RulesError as e:
        reading.lines = (str(e),)
        return reading
    reading.weapon = w.name
    reading.tn = rt.tn
    lines = [f"Standard {rt.base} + {rt.steps} for {d} paces ({what} {rt.increment}; {rt.source})"]
    if rt.max_range is not None and d > rt.max_range:
        lines.append(f"beyond {ch.name}'s throwing range of {rt.max_range} paces")
    reading.lines = tuple(lines)
    return reading


class MeasureTool(Tool):
    name = "measure"
    title = "Measure"
    shortcut = "M"
    tooltip = "Drag from hex to hex: range in paces and the range TN of the selected token's weapon"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        self._from: Hex | None = None
        self._line: PathItem | None = None
        self._bubble: Bubble | None = None
        self.last: RangeReading | None = None

    def clear(self) -> None:
        for it in (self._line, self._bubble):
            if it is not None and it.scene() is not None:
                it.scene().removeItem(it)
        self._line = self._bubble = None
        self._from = None

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        self.clear()
        self._from = h
        sc = self.scene
        self._line = PathItem(MEASURE_COLOUR, sc.frame.unit * 0.1, dots=False, dashed=True)
        self._bubble = Bubble(colour=MEASURE_COLOUR)
        sc.addItem(self._line)
        sc.addItem(self._bubble)
        self._update(h, h)
        return True

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._from is None or not ev.buttons() & Qt.MouseButton.LeftButton:
            return False
        self._update(self._from, h)
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._from is None:
            return False
        self._update(self._from, h)
        self._from = None  # the line stays until the next measure
        if self.last is not None:
            self.say(self.last.text().replace("\n", " — "))
        return True

    def _update(self, start: Hex, h: Hex) -> RangeReading:
        """Measure from ``start`` to ``h`` and show it on the line and its bubble."""
        doc = self.document
        fr = self.scene.frame
        reading = self.last = range_reading(doc, start, h, doc.selected_token_id)
        if self._line is not None:
            self._line.set_points([fr.center(start), fr.center(h)])
        if self._bubble is not None:
            self._bubble.setPos(fr.center(h))
            self._bubble.set_text(reading.text())
        return reading

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.clear()
            return True
        return False

    def measure(self, a: Hex, b: Hex) -> RangeReading:
        """Measure programmatically (tests, other panels) and show it on the map."""
        self.clear()
        sc = self.scene
        self._from = a
        self._line = PathItem(MEASURE_COLOUR, sc.frame.unit * 0.1, dots=False, dashed=True)
        self._bubble = Bubble(colour=MEASURE_COLOUR)
        sc.addItem(self._line)
        sc.addItem(self._bubble)
        reading = self._update(a, b)
        self._from = None
        return reading
