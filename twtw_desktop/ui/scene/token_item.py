"""A character's token on the map: a view over ``Token`` + ``Character``.

Drawn as a disc in the side's colour (posse blue, hombres red) with a pale 60° wedge
showing the facing, the initials inside, the name underneath, and small badges for
posture (prone, ducked), states (stunned, concussed, running, mounted, engaged in hand
to hand, held at a level of dominance) and the wound
level. The item never changes the model; tools push commands and the item refreshes
when the document says the token or its character changed.

A :class:`TokenLook` says how much the item tells: the Judge's look shows everything
(stat tooltip, AP counters, the dashed edge of a hidden token, the selection ring);
the players' look (:data:`PLAYERS_LOOK`, taken automatically when the item lands in
a public scene) has no tooltip and no selection ring, and shows the character's
condition — the knocked-out / dead look, the wound level, stunned, concussed — AP
counters and the names of tokens outside the posse only as the Judge chooses: what
each look may show is decided by :func:`twtw_desktop.play.visibility.token_marks`,
the players' one rule.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsSimpleTextItem

from ...hexgrid import Hex
from ...model.encounter import Token
from ...play.visibility import POSSE_SIDE as POSSE_SIDE  # the players' side, re-exported
from ...play.visibility import Audience, TokenMarks, token_marks
from ...play.visibility import for_audience as _for
from ...rules.character import Character, Posture
from . import style
from .frame import MapFrame
from .map_items import Z_TOKEN

#: disc radius as a fraction of the hex radius
DISC = 0.70
#: the name plate is drawn from this on-screen hex radius up
NAME_MIN_HEX_PX = 12.0
#: a name longer than this many hex radii is cut short with "…" (the plates are laid
#: out not to collide, :mod:`.plates`, so whole names have room)
NAME_MAX_WIDTH = 5.0
#: a name plate is never drawn smaller than this on screen (pixels)...
READABLE_NAME_PX = 9.0
#: ...while it stays within this fraction of the hex radius (under the disc)
NAME_MAX_SIZE = 0.75

WOUND_WORDS = {1: "flesh wound", 2: "light", 3: "heavy", 4: "serious", 5: "critical"}

#: badges that tell the character's condition (hidden on the players' screen unless
#: the Judge shows conditions); posture, running and mounted are plain to see
CONDITION_BADGES = frozenset({"stunned", "concussed"})


@dataclass(frozen=True, slots=True)
class TokenLook:
    """How much a token item tells.

    ``conditions`` and ``ap_counters`` say whose wound badge and condition badges,
    and whose AP counters, are drawn: everyone's, the posse's only, or nobody's.
    ``names`` False leaves the initials and the name plate off tokens outside the
    posse. ``public`` drops the tooltip, the selection and hover rings.
    """

    public: bool = False
    conditions: Audience = "all"
    ap_counters: Audience = "all"
    names: bool = True
    #: name plate height as a fraction of the hex radius (larger for a projector)
    name_size: float = 0.3


JUDGE_LOOK = TokenLook()
#: the players' screen default: the posse's own wounds and counters, everyone's name
PLAYERS_LOOK = TokenLook(
    public=True, conditions="posse", ap_counters="posse", names=True, name_size=0.42
)


def name_px(look: TokenLook, unit: float, scale: float) -> float:
    """How tall a name plate's text is on screen at ``scale``: the look's size, made
    up to :data:`READABLE_NAME_PX` on a zoomed-out map while it fits under the disc."""
    return max(look.name_size * unit * scale, min(READABLE_NAME_PX, NAME_MAX_SIZE * unit * scale))


def readable_scale(look: TokenLook, unit: float) -> float:
    """The smallest zoom at which token names are :data:`READABLE_NAME_PX` tall."""
    return READABLE_NAME_PX / (max(look.name_size, NAME_MAX_SIZE) * unit)


@functools.lru_cache(maxsize=1024)
def initials(name: str) -> str:
    parts = [p for p in name.replace('"', " ").split() if p[:1].isalpha()]
    if not parts:
        return name[:2]
    if len(parts) == 1:
        return parts[0][:2]
    return (parts[0][0] + parts[-1][0]).upper()


def badges_for(token: Token, character: Character | None) -> list[tuple[str, str, str]]:
    """(letter, colour key, tooltip word) for each state badge shown on the token."""
    out: list[tuple[str, str, str]] = []
    posture = token.posture
    if posture is Posture.PRONE:
        out.append(("P", "prone", "prone"))
    elif posture is Posture.DUCKED:
        out.append(("D", "ducked", "ducked behind cover"))
    if character is not None:
        if character.stunned:
            out.append(("S", "stunned", "stunned"))
        if character.concussed or character.unconscious:
            out.append(("C", "concussed", "unconscious" if character.unconscious else "concussed"))
    if token.running:
        out.append(("R", "running", "running this round"))
    if token.mounted:
        out.append(("M", "mounted", "mounted"))
    if token.engaged_with:
        out.append(("E", "engaged", "engaged in hand to hand (000)"))
    if token.held_by and token.held_at:
        level = ("partial dominance", "dominance", "full dominance")[token.held_at - 1]
        out.append((str(token.held_at), "held", f"held at {level} (000 Position)"))
    return out


def _end_pan(viewport) -> None:
    """The map pans while the right button is down; the menu took the release, so
    hand the view one (it stops panning)."""
    if viewport is None:
        return
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtGui import QCursor, QMouseEvent

    gp = QCursor.pos()
    ev = QMouseEvent(
        QEvent.Type.MouseButtonRelease,
        viewport.mapFromGlobal(gp).toPointF(),
        gp.toPointF(),
        Qt.MouseButton.RightButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QCoreApplication.sendEvent(viewport, ev)


#: the smallest AP figure drawn, in screen pixels: zoomed out further (the whole of a
#: big map in view) the badge shows as a dark mark without its figure, which could
#: not be read and was half of a segment's repaint with 200 tokens in view
BADGE_MIN_PX = 5.0
#: the badge figure's size, in hexes (its font's pixel size over the hex's unit)
BADGE_FONT = 0.26


class _ApBadge(QGraphicsPathItem):
    """The AP counters out on the track, top right of the disc: a child item drawn by
    Qt itself, so a count that changes (every token's, each segment) repaints the
    badge alone while the token's body comes from its cache."""

    def __init__(self, token: TokenItem) -> None:
        super().__init__(token)
        u = token.frame.unit
        r, br = DISC * u, 0.2 * u
        c = QPointF(r * 0.95, -r * 0.6)
        self.box = QRectF(c.x() - br, c.y() - br * 0.9, 2.2 * br, 1.8 * br)
        path = QPainterPath()
        path.addRoundedRect(self.box, br * 0.5, br * 0.5)
        self.setPath(path)
        self.setPen(QPen(QColor(255, 255, 255), 0.04 * u))
        self.setBrush(QColor(30, 30, 30))
        self.label = QGraphicsSimpleTextItem(self)
        font = QFont()
        font.setPixelSize(max(1, int(BADGE_FONT * u)))
        font.setBold(True)
        self.label.setFont(font)
        self.label.setBrush(QBrush(QColor(255, 255, 255)))
        self.label.setPen(Qt.PenStyle.NoPen)
        for it in (self, self.label):  # clicks and menus are the token's
            it.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.text = ""
        self.on = False  # shown (setVisible costs a call into Qt even unchanged)
        #: the figure's own visibility (Qt's default: shown). Not label.isVisible(),
        #: which is False while the badge itself is hidden: read so, the figure was
        #: left shown with the badge and hidden later, which asked the view to paint
        #: again at every token whose count first changed
        self.figure_on = True
        self.setVisible(False)

    def show_text(self, text: str | None, readable: bool = True) -> None:
        """Show the count (none: hide the badge); not ``readable`` (the map zoomed out
        so far that the figure would be under :data:`BADGE_MIN_PX` on screen), the
        badge shows without its figure, which is then neither set nor drawn."""
        if not text:
            if self.on:
                self.on = False
                self.setVisible(False)
            return
        if readable and text != self.text:
            self.text = text
            self.label.setText(text)
            b = self.label.boundingRect()
            centre = self.box.center()
            self.label.setPos(centre.x() - b.width() / 2, centre.y() - b.height() / 2)
        if readable != self.figure_on:
            self.figure_on = readable
            self.label.setVisible(readable)
        if not self.on:
            self.on = True
            self.setVisible(True)


class TokenItem(QGraphicsItem):
    """One token. ``refresh`` re-reads the model; the view keeps one per token id."""

    def __init__(
        self,
        token: Token,
        character: Character | None,
        frame: MapFrame,
        look: TokenLook | None = None,
    ) -> None:
        super().__init__()
        self.token_id = token.id
        self.frame = frame
        self.look = look or JUDGE_LOOK
        self.selected = False
        self.highlighted = False
        self.ap_text: str | None = None  # counters out on the track, shown in action time
        #: the badge's figure is drawn (False when the zoom makes it too small to read)
        self.badge_readable = True
        #: the name plate's text when a layout shortened it (initials) or left it out
        #: (""); None draws the name (see :mod:`.plates`)
        self.plate_text: str | None = None
        #: plate texts and rectangles already measured, by name or text, size and zoom
        self._plate_texts: dict[tuple, str] = {}
        self._plate_rects: dict[tuple, QRectF] = {}
        self._plate_boxes: dict[tuple, tuple[float, float, float, float]] = {}
        self.setZValue(Z_TOKEN)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptHoverEvents(False)
        #: the AP badge's item, made the first time there is a count to show
        self.ap_badge: _ApBadge | None = None
        self.refresh(token, character)

    # -- model ---------------------------------------------------------------------

    def refresh(self, token: Token, character: Character | None) -> None:
        self.token = token
        self.character = character
        self.setPos(self.frame.center(Hex(*token.hex)))
        self.badges = badges_for(token, character)
        self.wound_level = character.wound_level if character is not None else 0
        name = character.name if character is not None else token.id
        self.name = name
        side = character.side if character is not None else "neutral"
        self.side = side
        self.colour = QColor(style.SIDE_COLOURS.get(side, style.SIDE_COLOURS["neutral"]))
        tip = [f"<b>{name}</b> ({side})", f"hex {self.frame.label(Hex(*token.hex))}"]
        if character is not None:
            tip.append(f"Conc {character.conc}/{character.conc_max}")
            if self.wound_level:
                tip.append(
                    f"wound level {self.wound_level} ({WOUND_WORDS.get(self.wound_level, '')})"
                )
            if character.dead:
                tip.append("dead")
        tip += [w for _, _, w in self.badges]
        if token.weapon_in_hand:
            tip.append(f"in hand: {token.weapon_in_hand}")
        if token.hidden:
            tip.append("hidden from the players")
        self.setToolTip("" if self.look.public else "<br>".join(tip))
        self._show_ap()
        self.update()

    def set_look(self, look: TokenLook) -> None:
        """Draw with another look (the players' screen's choices)."""
        if look == self.look:
            return
        self.look = look
        self.refresh(self.token, self.character)

    def itemChange(self, change, value):
        # An item added to a public scene (the players' screen, a players' print)
        # takes the players' look at once, so no stat tooltip can leak from it.
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            sc = self.scene()
            if sc is not None and getattr(sc, "public", False) and not self.look.public:
                self.set_look(getattr(sc, "token_look", None) or PLAYERS_LOOK)
        return super().itemChange(change, value)

    # what the look lets this token show

    def marks(self) -> TokenMarks:
        """What this look may tell of the character's condition (the one rule)."""
        return token_marks(self.character, self.look.conditions, self.look.names)

    def shows_conditions(self) -> bool:
        return _for(self.look.conditions, self.side)

    def shows_name(self) -> bool:
        return self.marks().named

    def visible_badges(self) -> list[tuple[str, str, str]]:
        marks = self.marks()
        told = {"stunned": marks.stunned, "concussed": marks.concussed}
        return [b for b in self.badges if b[1] not in CONDITION_BADGES or told[b[1]]]

    def set_selected(self, on: bool) -> None:
        if on != self.selected:
            self.selected = on
            self.update()

    def set_highlighted(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self.update()

    def set_ap_text(self, text: str | None) -> None:
        if text != self.ap_text:
            self.ap_text = text
            self._show_ap()  # the badge's own item: the body is not drawn again

    def _show_ap(self) -> None:
        text = self.ap_text if self.ap_text and _for(self.look.ap_counters, self.side) else None
        if text and self.ap_badge is None:
            self.ap_badge = _ApBadge(self)
        if self.ap_badge is not None:
            self.ap_badge.show_text(text, self.badge_readable)

    def set_badge_readable(self, readable: bool) -> None:
        """The view's zoom decides whether the AP badge's figure can be read."""
        if readable != self.badge_readable:
            self.badge_readable = readable
            self._show_ap()

    # -- the Judge's menu -------------------------------------------------------------

    def contextMenuEvent(self, ev) -> None:
        """Right-click on a token in the Judge's map: hide it from the players or
        reveal it (one undoable, logged step; the same as Ctrl+Shift+H), or the
        Judge's override."""
        sc = self.scene()
        if self.look.public or sc is None or getattr(sc, "public", False):
            ev.ignore()
            return
        from PySide6.QtWidgets import QMenu

        from ..menus.token_menu import token_menu_actions  # lazy: the menu's dialogs on first use

        menu = QMenu()
        doc = getattr(sc, "document", None)  # the map scene's (it imports this module)
        for act in token_menu_actions(menu, doc, self.token_id, self.token_id):
            menu.addAction(act)
        menu.exec(ev.screenPos())
        ev.accept()
        _end_pan(ev.widget())

    # -- painting --------------------------------------------------------------------

    def _name_font(self, scale: float | None = None) -> QFont:
        """The name plate's font in the item's units (at ``scale``, made up to a
        readable size on screen; without, the look's own size)."""
        u = self.frame.unit
        size = self.look.name_size * u
        if scale:
            size = name_px(self.look, u, scale) / scale
        f = QFont()
        f.setPixelSize(max(1, int(size)))
        return f

    def full_plate_text(self, scale: float | None = None) -> str:
        """The name as the plate shows it when nothing is in its way (elided past
        :data:`NAME_MAX_WIDTH` hex radii)."""
        key = (self.name, self.look.name_size, scale)
        got = self._plate_texts.get(key)
        if got is None:
            fm = QFontMetricsF(self._name_font(scale))
            got = fm.elidedText(
                self.name, Qt.TextElideMode.ElideRight, NAME_MAX_WIDTH * self.frame.unit
            )
            if len(self._plate_texts) > 64:  # many zoom steps went by: start afresh
                self._plate_texts.clear()
            self._plate_texts[key] = got
        return got

    def plate_label(self, scale: float | None = None) -> str:
        return self.full_plate_text(scale) if self.plate_text is None else self.plate_text

    def plate_rect(self, text: str, scale: float | None = None) -> QRectF:
        """The name plate for ``text``, in the item's coordinates (under the disc)."""
        key = (text, self.look.name_size, scale)
        got = self._plate_rects.get(key)
        if got is None:
            u = self.frame.unit
            fm = QFontMetricsF(self._name_font(scale))
            w = fm.horizontalAdvance(text) + 0.2 * u
            if len(self._plate_rects) > 64:  # many zoom steps went by: start afresh
                self._plate_rects.clear()
            got = self._plate_rects[key] = QRectF(-w / 2, DISC * u + 0.02 * u, w, fm.height())
        return QRectF(got)

    def plate_box(self, text: str, scale: float | None = None) -> tuple[float, float, float, float]:
        """:meth:`plate_rect` as (left, top, right, bottom) numbers, for the layout."""
        key = (text, self.look.name_size, scale)
        got = self._plate_boxes.get(key)
        if got is None:
            r = self.plate_rect(text, scale)
            if len(self._plate_boxes) > 64:  # many zoom steps went by: start afresh
                self._plate_boxes.clear()
            got = self._plate_boxes[key] = (r.left(), r.top(), r.right(), r.bottom())
        return got

    def set_plate_text(self, text: str | None) -> None:
        if text != self.plate_text:
            self.plate_text = text
            self.update()

    def boundingRect(self) -> QRectF:
        u = self.frame.unit
        # down to a name plate made up to a readable size (NAME_MAX_SIZE) under the
        # disc, as wide as the longest plate
        half = max(1.3, NAME_MAX_WIDTH / 2 + 0.1) * u
        return QRectF(-half, -1.05 * u, 2 * half, 2.75 * u)

    def shape(self):
        p = QPainterPath()
        r = DISC * self.frame.unit
        p.addEllipse(QPointF(0, 0), r, r)
        return p

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        r = DISC * u
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        base = QColor(self.colour)
        look = self.look
        marks = self.marks()
        if marks.out:  # only where the badge setting lets the players know
            base = QColor(140, 140, 140)
        # rings for selection (gold) and hover-from-the-track (white)
        if (self.selected or self.highlighted) and not look.public:
            ring = style.SELECTION if self.selected else style.HIGHLIGHT
            painter.setPen(QPen(ring, 0.16 * u))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), r + 0.12 * u, r + 0.12 * u)
        pen = QPen(base.darker(170), 0.06 * u)
        if self.token.hidden and not look.public:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(base)
        rect = QRectF(-r, -r, 2 * r, 2 * r)
        if self.token.posture is Posture.PRONE:
            painter.drawEllipse(QRectF(-r, -0.55 * r, 2 * r, 1.1 * r))
        else:
            painter.drawEllipse(rect)
        if self.token.posture is Posture.DUCKED:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 70))
            painter.drawChord(rect, 180 * 16, 180 * 16)
        # facing wedge (Qt angles are counter-clockwise degrees, as facing_angle)
        ang = self.frame.layout.facing_angle(self.token.facing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 215))
        wedge = QRectF(-0.96 * r, -0.96 * r, 1.92 * r, 1.92 * r)
        painter.drawPie(wedge, int((ang - 30) * 16), 60 * 16)
        tip_x, tip_y = self.frame.facing_vector(self.token.facing)
        painter.setBrush(base.darker(150))
        painter.drawEllipse(QPointF(tip_x * r * 0.98, tip_y * r * 0.98), 0.1 * u, 0.1 * u)
        # initials
        named = marks.named
        if named:
            font = QFont()
            font.setPixelSize(max(1, int(0.46 * u)))
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(
                QRectF(-r, -0.45 * r, 2 * r, 0.9 * r),
                Qt.AlignmentFlag.AlignCenter,
                initials(self.name),
            )
        if marks.out:
            painter.setPen(QPen(QColor(60, 0, 0), 0.1 * u))
            painter.drawLine(QPointF(-0.6 * r, -0.6 * r), QPointF(0.6 * r, 0.6 * r))
            painter.drawLine(QPointF(-0.6 * r, 0.6 * r), QPointF(0.6 * r, -0.6 * r))
        # badges along the top, wound badge bottom right
        br = 0.2 * u
        bfont = QFont()
        bfont.setPixelSize(max(1, int(0.26 * u)))
        bfont.setBold(True)
        painter.setFont(bfont)
        x = -r - 0.1 * u
        for letter, key, _ in self.visible_badges():
            c = QPointF(x + br, -r - 0.05 * u)
            painter.setPen(QPen(QColor(255, 255, 255), 0.04 * u))
            painter.setBrush(style.BADGE_COLOURS[key])
            painter.drawEllipse(c, br, br)
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(
                QRectF(c.x() - br, c.y() - br, 2 * br, 2 * br), Qt.AlignmentFlag.AlignCenter, letter
            )
            x += 2 * br + 0.02 * u
        if marks.wound_level:
            c = QPointF(r * 0.85, r * 0.7)
            painter.setPen(QPen(QColor(255, 255, 255), 0.04 * u))
            painter.setBrush(style.BADGE_COLOURS["wound"])
            painter.drawEllipse(c, br * 1.1, br * 1.1)
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(
                QRectF(c.x() - br, c.y() - br, 2 * br, 2 * br),
                Qt.AlignmentFlag.AlignCenter,
                str(self.wound_level),
            )
        text = self.plate_label(lod)
        if named and text and lod * u >= NAME_MIN_HEX_PX:
            nfont = self._name_font(lod)
            painter.setFont(nfont)
            plate = self.plate_rect(text, lod)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 210))
            painter.drawRoundedRect(plate, 0.1 * u, 0.1 * u)
            painter.setPen(QColor(20, 20, 20))
            painter.drawText(plate, Qt.AlignmentFlag.AlignCenter, text)
