"""The players' screen's time strip: the round and segment (or phase) in large type,
and the public part of the action track.

What counts as public (house decision; the pages keep the track on each player's
sheet and the Judge's behind the screen):

* AP v2 (000 Action Time): the round and the segment being counted; the posse's
  counters in front of them now and their state (stunned, surprised, out); every
  action declared on this segment's initiative stack by a character the players can
  see (declarations are spoken aloud), with its place once the stack is resolved.
  The hombres' counters, AP, pool and initiative numbers stay hidden (they would
  tell their Reflex and wounds).
* Phases (004): the round and the phase (or "declaring" / "card flipped"); who acts
  in this phase among the characters the players can see, and whether each has acted
  or delays; the posse's declared speed and chosen phase. The hombres' Reflex results
  and phases stay hidden until they act.

:func:`public_track` is plain Python over the document (testable without drawing);
:class:`TrackStrip` paints it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...play.public_clock import headline, roman
from ..scene import style
from ..scene.token_item import POSSE_SIDE

#: counters drawn as dots up to this many, then as "●×n"
MAX_DOTS = 6
#: the strip's text is this fraction of the window height (and at least MIN_TEXT_PX)
TEXT_FRACTION = 1 / 24
MIN_TEXT_PX = 22
#: the round/segment headline is this much larger than the entries
HEADLINE_SCALE = 1.35
#: the characters wrap over at most this many rows
MAX_ROWS = 3
#: the headline takes its own line when it needs more than this share of the width
STACK_BELOW = 0.45
STATUS_WORDS = {"stunned": "stunned", "surprised": "surprised", "out": "out"}


@dataclass(frozen=True, slots=True)
class StripEntry:
    """One character on the strip."""

    name: str
    text: str
    side: str
    #: acting now (on this segment's stack, or next to act in this phase)
    now: bool = False


@dataclass(frozen=True, slots=True)
class PublicTrack:
    headline: str
    entries: tuple[StripEntry, ...] = ()

    def text(self) -> str:
        """Everything on the strip as plain text (tests, accessibility)."""
        parts = [self.headline] + [f"{e.name}: {e.text}" for e in self.entries]
        return "\n".join(parts)


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _value(v) -> str:
    """An engine enum's value (or the thing itself as text)."""
    return getattr(v, "value", str(v))


def _action_word(spec) -> str:
    kind = _value(spec.kind)
    return kind.replace("_", " ")


def _dots(n: int) -> str:
    if n <= 0:
        return "no counters"
    return "●" * n if n <= MAX_DOTS else f"●×{n}"


def public_track(document, shown: Collection[str]) -> PublicTrack:
    """The strip's content. ``shown``: ids of the characters the players can see
    (their tokens are on the players' screen now). The headline is the clock's
    public words (:func:`~twtw_desktop.play.public_clock.headline`, which the
    players' devices show too)."""
    head = headline(document)
    if not document.in_action:
        return PublicTrack(head)
    chars = {c.id: c for c in document.encounter.characters}
    track = document.track
    stage = _value(track.state.stage)
    if int(track.state.round or 0) == 0 or stage == "idle":
        return PublicTrack(head)
    if document.edition.time == "segments":
        return _segments(track, head, chars, shown)
    return _phases(track, stage, head, chars, shown)


def _posse_entries(
    st, chars, shown, listed: set[str], describe: Callable[[object], str]
) -> list[StripEntry]:
    """One entry for each posse member the players see and the strip has not listed
    yet: a status word from :data:`STATUS_WORDS`, else ``describe(row)``."""
    entries: list[StripEntry] = []
    for cid, row in st.rows.items():
        c = chars.get(cid)
        if c is None or c.side != POSSE_SIDE or cid not in shown or cid in listed:
            continue
        status = _value(row.status)
        text = STATUS_WORDS[status] if status in STATUS_WORDS else describe(row)
        entries.append(StripEntry(c.name, text, c.side))
    return entries


def _segments(track, head: str, chars, shown) -> PublicTrack:
    st = track.state
    seg = int(st.segment or 0)
    entries: list[StripEntry] = []
    listed: set[str] = set()
    for e in track.stack():
        cid = e.character_id
        if cid not in shown:
            continue
        c = chars.get(cid)
        word = _action_word(e.action)
        if e.position is not None:
            word += f" ({_ordinal(e.position)})"
        entries.append(StripEntry(c.name if c else cid, word, c.side if c else "neutral", now=True))
        listed.add(cid)

    def counters(row) -> str:
        if row.first_segment is not None and seg < row.first_segment <= 20:
            return f"from segment {row.first_segment}"
        return _dots(row.counters)

    entries += _posse_entries(st, chars, shown, listed, counters)
    return PublicTrack(head, tuple(entries))


def _phases(track, stage: str, head: str, chars, shown) -> PublicTrack:
    st = track.state
    entries: list[StripEntry] = []
    listed: set[str] = set()
    if stage == "acting":
        nxt = track.next_to_act()
        for cid in track.acting_order():
            if cid not in shown:
                continue
            c = chars.get(cid)
            row = st.rows[cid]
            if row.acted:
                text = "acted"
            elif row.delayed:
                text = "delays"
            elif row.passed:
                text = "passed"
            else:
                text = "acts now" if cid == nxt else "to act"
            entries.append(
                StripEntry(c.name if c else cid, text, c.side if c else "neutral", now=cid == nxt)
            )
            listed.add(cid)

    def speed_and_phase(row) -> str:
        bits = []
        if row.declared is not None:
            bits.append(_value(row.declared).title())
        if row.hesitated:
            bits.append("hesitates")
        elif row.phase is not None and stage in ("resolved", "acting"):
            bits.append(f"phase {roman(row.phase)}")
        if row.delayed:
            bits.append("delays")
        return " · ".join(bits) or "—"

    entries += _posse_entries(st, chars, shown, listed, speed_and_phase)
    return PublicTrack(head, tuple(entries))


def short_names(entries: tuple[StripEntry, ...]) -> list[str]:
    """First names, or the full name where two entries share a first name."""
    firsts = [e.name.split()[0] if e.name.split() else e.name for e in entries]
    return [f if firsts.count(f) == 1 else e.name for f, e in zip(firsts, entries, strict=True)]


class TrackStrip(QWidget):
    """The strip along the bottom of the players' screen, in type large enough to
    read from across the table (it grows with the window). The headline sits on the
    left; the characters flow to its right over as many rows as they need (at most
    :data:`MAX_ROWS`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("players_track_strip")
        self.content = PublicTrack("")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self._text_px = MIN_TEXT_PX
        self._rows = 1
        self._stack = False
        self.setFixedHeight(self._height())

    def set_content(self, content: PublicTrack) -> None:
        if content != self.content:
            self.content = content
            self._relayout()
            self.update()

    def set_text_px(self, px: int) -> None:
        px = max(MIN_TEXT_PX, int(px))
        if px != self._text_px:
            self._text_px = px
            self._relayout()
            self.update()

    @property
    def text_px(self) -> int:
        return self._text_px

    def _fonts(self) -> tuple[QFont, QFont]:
        head = QFont()
        head.setPixelSize(round(self._text_px * HEADLINE_SCALE))
        head.setBold(True)
        body = QFont()
        body.setPixelSize(self._text_px)
        return head, body

    def _pad(self) -> float:
        return self._text_px * 0.6

    def _row_h(self) -> float:
        _, body = self._fonts()
        return QFontMetricsF(body).height() * 1.25

    def _head_band(self) -> float:
        head, _ = self._fonts()
        return QFontMetricsF(head).height() * 1.3

    def stacked(self, width: float) -> bool:
        """On a narrow window the headline gets a line of its own above the
        characters (rather than squeezing them off the right edge)."""
        head, _ = self._fonts()
        hw = QFontMetricsF(head).horizontalAdvance(self.content.headline)
        return hw + 3 * self._pad() > width * STACK_BELOW

    def _height(self) -> int:
        head, _ = self._fonts()
        more = (self._rows - 1) * (self._row_h() + self._pad() / 2)
        if self._stack:
            return round(self._head_band() + self._row_h() + more + self._pad())
        one = QFontMetricsF(head).height() * 1.6
        return round(one + more)

    def layout_boxes(self, width: float) -> tuple[float, list[tuple[QRectF, str, StripEntry]]]:
        """(headline width, [(box, label, entry)]) for a strip ``width`` wide; boxes
        that do not fit in :data:`MAX_ROWS` rows are left out, and a label too long
        for the strip is cut with an ellipsis."""
        head, body = self._fonts()
        pad = self._pad()
        hw = QFontMetricsF(head).horizontalAdvance(self.content.headline)
        bfm = QFontMetricsF(body)
        h = self._row_h()
        stacked = self.stacked(width)
        x0 = pad if stacked else pad + hw + 2 * pad
        y0 = self._head_band() if stacked else pad / 2
        room = max(h, width - x0 - pad)
        x, row = x0, 0
        out = []
        names = short_names(self.content.entries)
        for e, name in zip(self.content.entries, names, strict=True):
            label = f"{name}  {e.text}"
            if bfm.horizontalAdvance(label) + pad > room:
                label = bfm.elidedText(label, Qt.TextElideMode.ElideRight, room - pad)
            w = bfm.horizontalAdvance(label) + pad
            if x + w > width - pad / 2 and x > x0:
                row += 1
                x = x0
            if row >= MAX_ROWS:
                break
            out.append((QRectF(x, y0 + row * (h + pad / 2), w, h), label, e))
            x += w + pad / 2
        return hw, out

    def _relayout(self) -> None:
        width = max(200, self.width())
        self._stack = self.stacked(width)
        _, boxes = self.layout_boxes(width)
        rows = len({round(b.top()) for b, _, _ in boxes}) or 1
        self._rows = max(1, min(MAX_ROWS, rows))
        self.setFixedHeight(self._height())

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        old = self._rows
        self._relayout()
        if old != self._rows:
            self.update()

    def sizeHint(self) -> QSize:
        return QSize(800, self._height())

    def paintEvent(self, _ev: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        r = QRectF(self.rect())
        p.fillRect(r, QColor(28, 24, 20))
        head, body = self._fonts()
        pad = self._pad()
        hw, boxes = self.layout_boxes(r.width())
        stacked = self.stacked(r.width())
        p.setFont(head)
        p.setPen(QColor(250, 236, 200))
        head_box = (
            QRectF(pad, 0, r.width() - 2 * pad, self._head_band())
            if stacked
            else QRectF(pad, 0, hw + pad, r.height())
        )
        p.drawText(
            head_box,
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            self.content.headline,
        )
        p.setFont(body)
        # centre the rows vertically in the strip (below the headline when stacked)
        if stacked:
            dy = 0.0
        elif boxes:
            top = min(b.top() for b, _, _ in boxes)
            bottom = max(b.bottom() for b, _, _ in boxes)
            dy = (r.height() - (bottom - top)) / 2 - top
        else:
            dy = 0.0
        for box, label, e in boxes:
            box = box.translated(0, dy)
            h = box.height()
            side = QColor(style.SIDE_COLOURS.get(e.side, style.SIDE_COLOURS["neutral"]))
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(side if e.now else side.darker(150))
            p.drawRoundedRect(box, h * 0.25, h * 0.25)
            if e.now:
                p.setPen(QPen(QColor(255, 210, 60), max(2.0, h * 0.08)))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(box.adjusted(1, 1, -1, -1), h * 0.25, h * 0.25)
            p.setPen(QColor(255, 255, 255))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
        if len(boxes) < len(self.content.entries):
            p.setPen(QColor(250, 236, 200))
            p.drawText(
                QRectF(r.width() - 2 * pad, 0, 2 * pad, r.height()),
                Qt.AlignmentFlag.AlignCenter,
                "…",
            )
        p.end()
