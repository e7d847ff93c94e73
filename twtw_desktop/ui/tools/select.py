"""Select / Move: click a token to select it, drag it to move it, turn it with [ and ]
or Shift+wheel, double-click a door or window to open or close it.

Narrative time: the token follows the mouse hex by hex (one undo step per drag),
the distance is shown, nothing is charged. Action time: the drag shows the cheapest
legal path and its AP cost next to the cursor — saying when the counters do not cover
it yet, red where they never will this round — and on release one step (``when_able``)
moves the token and pays the AP as the segment's lone action, puts the move on the
segment's stack while others may still declare, or keeps it as the character's standing
declaration until the counters cover it (000 Action Timing; undo gives it back). Hold Shift while dropping to run (Run paces per AP; 000 Movement); hold Ctrl to
walk forgoing defence (AP v2: ½ AP a pace, 001 Movement Actions).
Dragging a mounted rider drags its mount, which carries the rider.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent

from ...errors import RulesError
from ...hexgrid import Hex, facing_turn, rotate_facing
from ..core.commands import ChangeValueCommand, MoveTokenCommand, RotateTokenCommand
from ..core.document import EncounterDocument
from ..scene import style
from ..scene.map_items import FeatureItem
from .base import Tool
from .labels import Bubble, PathItem

if TYPE_CHECKING:
    from ...play.movement import MovePlan

_drag_ids = itertools.count(1)


class SelectTool(Tool):
    name = "select"
    title = "Select/Move"
    shortcut = "S"
    tooltip = (
        "Select and move tokens (Shift: run; Ctrl: forgo defence); [ ] turn; "
        "double-click a door or window to open it"
    )
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        self._drag_token: str | None = None
        self._drag_origin: Hex | None = None
        self._drag_id = 0
        self._drag_hex: Hex | None = None
        self._plan: MovePlan | None = None
        self._path_item: PathItem | None = None
        self._bubble: Bubble | None = None

    # -- drawing -----------------------------------------------------------------------

    def clear(self) -> None:
        for it in (self._path_item, self._bubble):
            if it is not None and it.scene() is not None:
                it.scene().removeItem(it)
        self._path_item = None
        self._bubble = None

    def document_changed(self) -> None:
        self.clear()
        self._drag_token = None

    def _show(self, points: list[QPointF], at: QPointF, text: str, ok: bool) -> None:
        sc = self.scene
        colour = style.ALLOWED if ok else style.REFUSED
        if self._path_item is None or self._path_item.scene() is not sc:
            self._path_item = PathItem(colour, sc.frame.unit * 0.12)
            sc.addItem(self._path_item)
        if self._bubble is None or self._bubble.scene() is not sc:
            self._bubble = Bubble()
            sc.addItem(self._bubble)
        self._path_item.set_points(points, colour)
        self._bubble.setPos(at)
        self._bubble.set_text(text, colour)

    # -- mouse ---------------------------------------------------------------------------

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        doc = self.document
        tok = doc.encounter.token_at(h)
        doc.select(tok.id if tok is not None else None)
        if tok is None:
            return True
        # lazy: start-up (a drag's rules: the engagement and hand-to-hand rules with
        # them; the first frame has no drag to plan)
        from ...play.movement import mount_of

        mount = mount_of(doc.table, tok)  # a rider goes where its mount goes
        self._drag_token = mount.id if mount is not None else tok.id
        self._drag_origin = h
        self._drag_hex = h
        self._drag_id = next(_drag_ids)
        self._plan = None
        return True

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._drag_token is None or self._drag_origin is None:
            return False
        if h == self._drag_hex:
            if self._bubble is not None:
                self._bubble.setPos(pos)
            return True
        self._drag_hex = h
        doc = self.document
        fr = self.scene.frame
        origin = self._drag_origin
        if not doc.in_action:
            if not fr.contains(h):
                return True
            other = doc.encounter.token_at(h)
            if other is not None and other.id != self._drag_token:
                return True
            try:
                doc.push(MoveTokenCommand(doc, self._drag_token, h, drag_id=self._drag_id))
            except RulesError:
                return True
            d = origin.distance(h)
            self._show(
                [fr.center(origin), fr.center(h)], pos, f"{d} pace{'s' if d != 1 else ''}", True
            )
            return True
        from ...play.movement import plan_move

        run, forgo = _drop_keys(ev)
        plan = plan_move(doc, self._drag_token, h, run=run, forgo=forgo)
        self._plan = plan
        pts = [fr.center(x) for x in (plan.path or [origin, h])]
        self._show(pts, pos, plan.label(), plan.allowed)
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if (
            self._drag_token is None
            or self._drag_origin is None
            or ev.button() != Qt.MouseButton.LeftButton
        ):
            return False
        doc = self.document
        tid = self._drag_token
        self._drag_token = None
        self.clear()
        if not doc.in_action:
            d = self._drag_origin.distance(doc.token(tid).at)
            if d:
                self.say(f"Moved {d} paces (narrative time: nothing charged).")
            return True
        if h == self._drag_origin:
            return True
        from ...play.movement import plan_move

        run, forgo = _drop_keys(ev)
        plan = plan_move(doc, tid, h, run=run, forgo=forgo)
        if not plan.allowed:
            self.say(plan.reason or "That move is not possible.")
            return True
        try:
            text = push_move(doc, tid, plan, forgo=forgo)
        except (RulesError, ValueError) as e:
            self.say(str(e))
            return True
        self.say(text or plan.summary())
        return True

    def mouse_double_click(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        for it in self.scene.items(pos):
            if isinstance(it, FeatureItem) and it.feature.kind in ("door", "window"):
                f = it.feature
                verb = "Close" if f.is_open else "Open"
                what = f.name or f.kind
                self.document.push(
                    ChangeValueCommand(
                        self.document,
                        f,
                        "is_open",
                        not f.is_open,
                        "map",
                        text=f"{verb} {what}",
                        merge=False,
                    )
                )
                self.say(f"{verb}ed the {what}." if verb == "Open" else f"Closed the {what}.")
                return True
        return False

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape and self._drag_token is not None:
            self._drag_token = None
            self.clear()
            return True
        return False

    def wheel(self, ev: QWheelEvent) -> bool:
        if not ev.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return False
        doc = self.document
        if doc.selected_token_id is None:
            return False
        # Shift turns a vertical wheel into a horizontal one on some platforms
        delta = ev.angleDelta().y() or ev.angleDelta().x()
        if not delta:
            return True
        try:
            self.say(turn_token(doc, doc.selected_token_id, 1 if delta > 0 else -1))
        except (RulesError, ValueError) as e:
            self.say(str(e))
        return True


def _drop_keys(ev: QMouseEvent) -> tuple[bool, bool]:
    """(run, forgo defence) from the keys held while dragging: Shift runs, Ctrl
    walks forgoing defence (001 Movement Actions)."""
    mods = ev.modifiers()
    return (
        bool(mods & Qt.KeyboardModifier.ShiftModifier),
        bool(mods & Qt.KeyboardModifier.ControlModifier),
    )


def push_move(doc: EncounterDocument, token_id: str, plan: MovePlan, *, forgo: bool = False) -> str:
    """Push the move of a planned path as the table's ``move`` (or ``run``) action,
    forgoing defence with ``forgo`` (001 Movement Actions), one undo step. AP v2 with a round running: through ``when_able`` — carried out
    now as the segment's lone action, put on the segment's stack while others act or
    may still declare, or kept as a standing declaration until the counters cover it
    (000 Action Timing)."""
    from ...play.actions import Move, Run, ref_of  # lazy: start-up (the table's actions)
    from ...play.declarations import WhenAble, segments

    end = plan.path[-1]
    cls = Run if plan.run else Move
    move = cls(who=token_id, to=ref_of(doc.table, end), facing=plan.facing, forgo_defence=forgo)
    if segments(doc.table):
        ev = doc.apply(WhenAble(who=token_id, then=move.journal_form()))
        mode = (ev.record or {}).get("mode") if ev is not None else None
        return ev.text if mode in ("stack", "standing") else plan.summary()
    doc.apply(move)
    return plan.summary()


def turn_token(doc: EncounterDocument, token_id: str, steps: int) -> str:
    """Turn a token ``steps`` hexsides (positive = left/counter-clockwise).

    In AP v2 action time a turn in place costs 1 AP for 60° and 2 AP for more (000
    Movement AP Cost); in narrative time and in the Phases edition it is free here.
    Turns pressed one after another in the same segment are one facing change: the
    previous turn is taken back and the whole turn is paid once, so three presses
    (180°) cost 2 AP, not 3.
    """
    tok = doc.token(token_id)
    ch = doc.character(tok.character_id)
    if not doc.in_action or doc.edition.time != "segments":
        # narrative time, or the Phases edition (facing is part of a declared action)
        new = rotate_facing(tok.facing, steps)
        doc.push(RotateTokenCommand(doc, token_id, new, text=f"Turn {ch.name}"))
        return f"{ch.name} now faces {_facing_word(doc, new)}."
    stack = doc.undo_stack
    current = tok.facing
    start = current
    top = stack.command(stack.index() - 1) if stack.index() > 0 else None
    merged = False
    if (
        isinstance(top, RotateTokenCommand)
        and top.token_id == token_id
        and top.paid
        and top.segment == doc.table.now()
    ):
        start = top.start_facing if top.start_facing is not None else current
        stack.undo()
        merged = True
    new = rotate_facing(current, steps)
    turn = facing_turn(start, new)
    if turn == 0:
        return f"{ch.name} faces {_facing_word(doc, new)} again (the turn is taken back)."
    cmd = RotateTokenCommand(doc, token_id, new)
    cmd.start_facing = start
    cmd.segment = doc.table.now()
    cmd.paid = True
    try:
        doc.push(cmd)
    except RulesError:
        if merged:
            stack.redo()  # put the earlier turn back as it was
        raise
    ap = 1 if turn == 1 else 2
    cmd.setText(f"Turn {ch.name} {60 * turn}° ({ap} AP)")
    return f"{ch.name} turned {60 * turn}° for {ap} AP."


def _facing_word(doc: EncounterDocument, facing: int) -> str:
    from ..scene.frame import MapFrame

    ang = MapFrame(doc.map).layout.facing_angle(facing)
    words = {
        0: "east",
        30: "north-east",
        60: "north-east",
        90: "north",
        120: "north-west",
        150: "north-west",
        180: "west",
        210: "south-west",
        240: "south-west",
        270: "south",
        300: "south-east",
        330: "south-east",
    }
    return words.get(round(ang / 30) * 30 % 360, f"{ang:.0f}°")
