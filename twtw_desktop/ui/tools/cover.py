"""Cover line: from a shooter to a target, what stands between them.

Drag from the shooter's hex to the target's hex (or, with a token selected, click
the target). The map shows the line of fire, the seven sight lines to the target
hex (green clear, red blocked), each wall, door or window crossed with its material
and AV, and a box listing the hit locations covered and whether the target is
visible, partly visible or not visible — the answer and the reasons come from
:func:`twtw_desktop.geometry.sight.cover_line`.

The tool's "Show players" action (and the P key while the tool is active) pushes
the last line to the players' screen, which draws it with :class:`CoverLineItem` in
its public form: crossings of Judge-only features get no mark and no text there.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPen,
)
from PySide6.QtWidgets import QGraphicsItem

from ...hexgrid import Hex
from ...rules.character import Posture
from ..core.document import EncounterDocument
from ..scene.map_items import MATERIAL_WORD, Z_TOOL
from .base import Tool
from .labels import Bubble

LINE_COLOUR = QColor(120, 20, 120)
#: the callout keeps this many hex radii from the target's centre (token and name plate)
BUBBLE_CLEAR = 1.35
VISIBILITY_WORDS = {"visible": "visible", "partly": "partly visible", "not_visible": "not visible"}
HIT_ORDER = ("head", "chest", "belly", "vitals", "left_arm", "right_arm", "left_leg", "right_leg")


def compute_cover_line(doc: EncounterDocument, shooter: Hex, target: Hex):
    """The geometry's cover line between two hexes, with the postures and facing of
    the tokens standing there."""
    from ...geometry.sight import cover_line

    t_tok = doc.encounter.token_at(target)
    s_tok = doc.encounter.token_at(shooter)
    return cover_line(
        doc.map,
        doc.walls(),
        shooter,
        target,
        t_tok.posture if t_tok else Posture.STANDING,
        doc.edition,
        s_tok.posture if s_tok else Posture.STANDING,
        target_facing=t_tok.facing if t_tok else None,
    )


def describe_cover_line(doc: EncounterDocument, cl) -> list[str]:
    """Lines for the Judge: visibility, range, each crossing and what it covers."""
    lines = [f"{VISIBILITY_WORDS.get(cl.visibility, cl.visibility)} · {cl.range_paces} paces"]
    for c in cl.crossings:
        cr = c.crossing
        kind = cr.kind
        mat = MATERIAL_WORD.get(cr.material, str(cr.material))
        covers = _locs(c.covers) if c.covers else "nothing"
        lines.append(f"{kind} of {mat}, AV {cr.av}: covers {covers}")
    covered = cl.covered_locations
    if covered:
        lines.append(f"covered: {_locs(covered)}")
    elif not cl.crossings:
        lines.append("nothing in the way")
    return lines


def public_cover_caption(cl) -> str:
    """The players' screen's caption of a cover line: how visible, how far, and the
    hit locations covered (no Judge-only feature is named)."""
    head = VISIBILITY_WORDS.get(cl.visibility, cl.visibility)
    lines = [f"{head[:1].upper()}{head[1:]} · {cl.range_paces} paces"]
    covered = cl.covered_locations
    lines.append(f"Covered: {_locs(covered)}" if covered else "No cover")
    return "\n".join(lines)


def _feature_public(doc: EncounterDocument, fid: str) -> bool:
    from ..scene.map_scene import is_public

    try:
        return is_public(doc.map.feature(fid))
    except KeyError:
        return False


def _locs(locs) -> str:
    vals = {getattr(x, "value", str(x)) for x in locs}
    return ", ".join(v.replace("_", " ") for v in HIT_ORDER if v in vals) or "nothing"


class CoverLineItem(QGraphicsItem):
    """The drawn result of one cover line. ``public`` (the players' screen) leaves
    out the marks of crossings with Judge-only features and draws lines thicker."""

    def __init__(self, doc: EncounterDocument, frame, cl, *, public: bool = False) -> None:
        super().__init__()
        self.public = public
        self.setZValue(Z_TOOL)
        self.frame = frame
        self.cl = cl
        u = frame.unit
        self._a = frame.center(cl.shooter)
        self._b = frame.center(cl.target)
        self._samples = [(frame.to_scene(s.point), s.clear) for s in cl.samples]
        self._marks = [
            (frame.to_scene(c.crossing.point), c)
            for c in cl.crossings
            if not public or _feature_public(doc, c.feature_id)
        ]
        xs = [self._a.x(), self._b.x()] + [p.x() for p, _ in self._samples]
        ys = [self._a.y(), self._b.y()] + [p.y() for p, _ in self._samples]
        self._rect = QRectF(
            min(xs) - 2 * u, min(ys) - 2 * u, max(xs) - min(xs) + 4 * u, max(ys) - min(ys) + 4 * u
        )
        self._font = QFont()
        self._font.setPixelSize(max(1, int(0.28 * u)))
        self._font.setBold(True)
        self.labels = self._layout_labels(u)
        for r, _text, _covering in self.labels:
            self._rect = self._rect.united(r.adjusted(-2, -2, 2, 2))

    def _layout_labels(self, u: float) -> list[tuple[QRectF, str, bool]]:
        """One label per material and AV at a spot (two walls crossed at the same place
        say "×2" once instead of two labels on top of each other), each sized to its
        text and moved down until it overlaps no other label."""
        fm = QFontMetricsF(self._font)
        merged: list[list] = []  # [point, text, covering, count]
        for p, c in self._marks:
            text = f"{MATERIAL_WORD.get(c.crossing.material, '')} AV{c.crossing.av}".strip()
            for m in merged:
                if m[1] == text and QLineF(m[0], p).length() < 0.6 * u:
                    m[2] = m[2] or bool(c.covers)
                    m[3] += 1
                    break
            else:
                merged.append([p, text, bool(c.covers), 1])
        out: list[tuple[QRectF, str, bool]] = []
        for p, text, covering, n in merged:
            if n > 1:
                text += f" ×{n}"
            r = QRectF(
                p.x() + 0.2 * u,
                p.y() - 0.55 * u,
                fm.horizontalAdvance(text) + 0.14 * u,
                fm.height(),
            )
            while any(r.intersects(o) for o, _t, _c in out):
                r.translate(0, fm.height() + 1)
            out.append((r, text, covering))
        return out

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for p, clear in self._samples:
            col = QColor(40, 160, 60, 120) if clear else QColor(200, 40, 40, 130)
            painter.setPen(QPen(col, 0.03 * u))
            painter.drawLine(self._a, p)
        w = 0.16 if self.public else 0.09
        painter.setPen(QPen(LINE_COLOUR, w * u, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(self._a, self._b)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(self._a, 0.85 * u, 0.85 * u)
        painter.setPen(QPen(LINE_COLOUR, 0.06 * u, Qt.PenStyle.DashLine))
        painter.drawEllipse(self._b, 0.9 * u, 0.9 * u)
        painter.setFont(self._font)
        for p, c in self._marks:
            painter.setPen(QPen(QColor(255, 255, 255), 0.04 * u))
            painter.setBrush(QColor(200, 30, 30) if c.covers else QColor(120, 120, 120))
            painter.drawEllipse(p, 0.17 * u, 0.17 * u)
        for r, text, covering in self.labels:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 210))
            painter.drawRoundedRect(r, 3, 3)
            painter.setPen(QColor(120, 10, 10) if covering else QColor(60, 60, 60))
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, text)


class CoverLineTool(Tool):
    name = "cover"
    title = "Cover line"
    shortcut = "C"
    tooltip = "Drag from shooter to target: crossings with material and AV, covered hit locations, visibility"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        self._from: Hex | None = None
        self._item: CoverLineItem | None = None
        self._bubble: Bubble | None = None
        self.last = None  # the last CoverLine
        self.last_lines: list[str] = []
        #: pushes the last line to the players' screen (the players' screen add-on
        #: puts it in its menu and toolbar)
        self.show_players_action = QAction("Show cover line to players", self)
        self.show_players_action.setObjectName("act_players_cover_line")
        self.show_players_action.setShortcut("Ctrl+Shift+L")
        tip = "Show the last cover line on the players' screen (P while the cover tool is on)"
        self.show_players_action.setToolTip(f"{tip} (Ctrl+Shift+L)")
        self.show_players_action.setStatusTip(tip)
        self.show_players_action.setEnabled(False)
        self.show_players_action.triggered.connect(self.show_to_players)
        view.viewportChanged.connect(self._place_bubble)

    def _place_bubble(self, *_args) -> None:
        """Keep the callout inside the view and off the target's token and name."""
        b = self._bubble
        if b is None or b.scene() is None or self.scene is None:
            return
        b.keep_in_view(self.view, BUBBLE_CLEAR * self.scene.frame.unit * self.view.zoom)

    def show_to_players(self) -> bool:
        """Push the last cover line to the players' screen; False when there is none."""
        cl = self.last
        if cl is None or self.document is None:
            self.say("Draw a cover line first, then show it to the players.")
            return False
        self.document.show_players("cover_line", (cl.shooter, cl.target))
        self.say("Cover line shown on the players' screen.")
        return True

    def document_changed(self) -> None:
        super().document_changed()
        self.last = None
        self.last_lines = []
        self.show_players_action.setEnabled(False)

    def clear(self) -> None:
        for it in (self._item, self._bubble):
            if it is not None and it.scene() is not None:
                it.scene().removeItem(it)
        self._item = self._bubble = None

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        self._from = h
        return True

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._from is None or not ev.buttons() & Qt.MouseButton.LeftButton:
            return False
        if h != self._from:
            self.show_line(self._from, h)
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._from is None:
            return False
        start, self._from = self._from, None
        sel = self.document.selected_token()
        if h == start:
            if sel is None or sel.at == h:
                self.say(
                    "Drag from the shooter to the target (or select the shooter and click the target)."
                )
                return True
            start = sel.at
        self.show_line(start, h)
        self.say(" — ".join(self.last_lines))
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.clear()
            return True
        if ev.key() == Qt.Key.Key_P and not ev.modifiers():
            self.show_to_players()
            return True
        return False

    def show_line(self, shooter: Hex, target: Hex):
        """Compute and draw the cover line (also used by tests and the attack panel)."""
        doc = self.document
        fr = self.scene.frame
        self.clear()
        if not (fr.contains(shooter) and fr.contains(target)) or shooter == target:
            return None
        cl = compute_cover_line(doc, shooter, target)
        self.last = cl
        self.last_lines = describe_cover_line(doc, cl)
        self.show_players_action.setEnabled(True)
        self._item = CoverLineItem(doc, fr, cl)
        self.scene.addItem(self._item)
        self._bubble = Bubble("\n".join(self.last_lines), LINE_COLOUR)
        self._bubble.setPos(fr.center(target))
        self.scene.addItem(self._bubble)
        self._place_bubble()
        tok = doc.encounter.token_at(target)
        if tok is not None:
            self.view.overlays.set_target(tok.id)
        return cl
