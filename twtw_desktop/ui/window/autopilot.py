"""The NPC autopilot in the window: plan the round for the NPCs, show it, accept it.

Encounter ▸ Autopilot: plan the NPCs' round (Ctrl+Shift+P; a track row's menu
offers it for that row's NPC) plans for the selected NPC, or every NPC when no NPC
is selected: the table is copied on the GUI thread and the planner
(:mod:`twtw_desktop.tactics`) runs on a worker of the thread pool. Each plan is
drawn on the map — a ghost path to where it walks and a line to its target, with
its one line of why beside the NPC — and said in the status bar. Accept the plans
(Ctrl+Shift+Return) gives each NPC its plan as the ordinary table actions
(``when_able`` declarations, then its standing bid and standing pass), one undo step
for them all. A plan whose NPC the
Judge has dealt with since (moved it, declared for it) is left out and its drawing
taken away; the others stay. The window decides no rule: every action is asked
``why_not`` of the table first, and an NPC's plan ends at the first one refused.

On the autopilot for the fight (Ctrl+Alt+P, a check mark on the menu entry and the
track rows' menus; accepting plans turns it on): the next round's plans, and a fresh
plan for an NPC whose declaration was dropped, are proposed by themselves as the
table moves on — planned on the worker and drawn as above — and the Judge still
accepts them with Ctrl+Shift+Return. It is the table step ``autopilot_fight``, kept
with the fight (undone like any step).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPointF, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItemGroup, QGraphicsPathItem, QGraphicsSimpleTextItem

from ..scene.map_items import Z_OVERLAY

if TYPE_CHECKING:
    from ...tactics.planner import Plan

GHOST = QColor(40, 90, 200, 190)
AIM = QColor(200, 40, 40, 200)


class _Relay(QObject):
    done = Signal(object, object)


class _Task(QRunnable):
    """Plans on a scratch copy of the table (made on the GUI thread)."""

    def __init__(self, scratch: Any, ids: list[str], seed: int, relay: _Relay, ticket: int) -> None:
        super().__init__()
        self.scratch, self.ids, self.seed, self.relay, self.ticket = (
            scratch,
            ids,
            seed,
            relay,
            ticket,
        )
        self.setAutoDelete(True)

    def run(self) -> None:
        from ...tactics.autopilot import plans_on  # imported by plan(), on the GUI thread

        result: object
        try:
            result = plans_on(self.scratch, self.ids, self.seed)
        except Exception as e:  # reported on the GUI thread, never kills the pool
            result = e
        with contextlib.suppress(RuntimeError):
            self.relay.done.emit(self.ticket, result)


class AutopilotUi(QObject):
    """The window's autopilot (module docstring)."""

    planned = Signal()

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.plans: list[Plan] = []
        self._marks: dict[str, tuple[Any, ...]] = {}
        self._items: dict[str, QGraphicsItemGroup] = {}
        self._ticket = 0
        self._relay = _Relay(self)
        self._relay.done.connect(self._done, Qt.ConnectionType.QueuedConnection)
        self.act_plan = QAction("Autopilot: plan the NPCs' round", win)
        self.act_plan.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.act_plan.setToolTip(
            "Plan the round for the selected NPC, or every NPC (a house design: see Help ▸ "
            "Rules reference); the plans are shown, not given"
        )
        self.act_plan.triggered.connect(lambda: self.plan())
        self.act_accept = QAction("Autopilot: accept the plans shown", win)
        self.act_accept.setShortcut(QKeySequence("Ctrl+Shift+Return"))
        self.act_accept.triggered.connect(self.accept)
        self.act_fight = QAction("Autopilot: the NPCs run themselves this fight", win)
        self.act_fight.setCheckable(True)
        self.act_fight.setShortcut(QKeySequence("Ctrl+Alt+P"))
        self.act_fight.setToolTip(
            "While checked, each round's plans and a fresh plan for an NPC whose declaration "
            "was dropped are proposed by themselves; Ctrl+Shift+Return still accepts them"
        )
        self.act_fight.triggered.connect(self.set_fight)
        for a in (self.act_plan, self.act_accept, self.act_fight):
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            win.addAction(a)
        menu = getattr(win, "encounter_menu", None)
        if menu is not None:
            menu.addSeparator()
            menu.addAction(self.act_plan)
            menu.addAction(self.act_accept)
            menu.addAction(self.act_fight)
        #: the table position and NPCs of the last plan proposed by itself
        self._proposed: tuple[Any, ...] | None = None
        self._watched: Any = None
        win.documentReplaced.connect(self._replaced)
        # a window shown before it is complete: the check mark and the plans due once
        # it is (reading the table's autopilot imports the action families, which the
        # first frame does not need)
        win.completed.connect(self._table_moved)
        self._replaced(self.doc)

    # -- the autopilot for the fight ------------------------------------------------

    def _replaced(self, doc: Any) -> None:
        self.clear()
        if self._watched is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._watched.changed.disconnect(self._table_moved)
        self._watched = doc
        if doc is not None:
            doc.changed.connect(self._table_moved)
        self._table_moved()

    def set_fight(self, on: bool) -> None:
        """Put the NPCs on the autopilot for this fight, or off (one undo step)."""
        doc = self.doc
        if doc is None:
            return
        from ...play.standing_actions import AutopilotFight

        act = AutopilotFight(on=bool(on))
        why = doc.table.why_not(act)
        if why is None:
            doc.apply(act)
            self.win.statusBar().showMessage(f"Autopilot: {act.label(doc.table)}.")
        else:
            self.win.statusBar().showMessage(f"Autopilot: {why}")
        self._table_moved()

    def _table_moved(self, _what: str = "") -> None:  # every table step
        """The check mark as the table has it, and the plans due proposed by
        themselves (once per table position)."""
        if self.win.incomplete:  # after the first frame (the window's completed signal)
            return
        from ...play.standing_actions import on_autopilot  # lazy: start-up (the families)

        doc = self.doc
        on = doc is not None and on_autopilot(doc.table)
        if self.act_fight.isChecked() != on:
            self.act_fight.setChecked(on)
        if not on:
            return
        from ...tactics.autopilot import due_for_a_plan  # lazy: start-up (the planner)

        shown = {p.who for p in self.plans}
        due = [c for c in due_for_a_plan(doc.table) if c not in shown]
        key = (doc.table.position, tuple(due))
        if due and key != self._proposed:
            self._proposed = key
            self.plan(due)

    # -- planning ----------------------------------------------------------------------

    @property
    def doc(self) -> Any:
        return self.win.document

    def _ids(self) -> list[str]:
        """Whom a plan is for: the NPCs a run stopped for (newly able with nothing
        declared, a declaration dropped), else the selected NPC, else every NPC."""
        from ...tactics.planner import npc_ids  # lazy: start-up (the planner)

        doc = self.doc
        track = doc.table.track if doc.table.in_action else None
        pending = getattr(track, "pending_declarers", None)
        if callable(pending) and doc.table.time.kind == "segments":
            stopped = [c for c in pending() if doc.character(c).side != "posse"]
            if stopped:
                return stopped
        tid = doc.selected_token_id
        if tid is not None:
            c = doc.character_of(tid)
            if c.side != "posse" and not c.out_of_action:
                return [c.id]
        return npc_ids(doc.table)

    def plan(self, ids: list[str] | None = None) -> None:
        """Start planning (on a worker); the plans are shown when it is done."""
        # lazy: start-up (the planner, imported here on the GUI thread for the worker)
        from ...tactics import autopilot  # noqa: F401
        from ...tactics.view import scratch_of

        doc = self.doc
        if doc is None:
            return
        who = ids if ids is not None else self._ids()
        if not who:
            self.win.statusBar().showMessage("Autopilot: no NPC on the map to plan for.")
            return
        self._ticket += 1
        self._position = doc.table.position
        scratch = scratch_of(doc.table)
        self.win.statusBar().showMessage(f"Autopilot: planning for {len(who)} NPC(s)…")
        QThreadPool.globalInstance().start(_Task(scratch, who, 0, self._relay, self._ticket))

    def _done(self, ticket: int, result: object) -> None:
        if ticket != self._ticket or self.doc is None:
            return
        if isinstance(result, Exception):
            self.win.statusBar().showMessage(f"Autopilot: {result}")
            return
        if self.doc.table.position != self._position:
            self.win.statusBar().showMessage(
                "Autopilot: the table moved on while planning; plan again."
            )
            self._table_moved()  # on the autopilot: what is due now, proposed again
            return
        assert isinstance(result, list)
        mine = {p.who for p in result}
        self.plans = [p for p in self.plans if p.who not in mine] + list(result)
        for p in result:
            self._marks[p.who] = self._mark(p.who)
            self._draw(p)
        shown = sum(1 for p in result if p.actions)
        self.win.statusBar().showMessage(
            f"Autopilot: {shown} plan(s) shown — Ctrl+Shift+Return accepts them. "
            + " · ".join(
                f"{self.doc.character(p.who).name}: {p.reasons[0]}" for p in result if p.reasons
            )
        )
        self._show_on_track()
        self.planned.emit()

    def _show_on_track(self) -> None:
        """The track's rows again: each planned NPC's row shows its plan's why."""
        from ..panels.track_panel import TrackPanel  # lazy: start-up (the track panel)

        panel = self.win.findChild(TrackPanel)
        if panel is not None and self.doc is not None:
            panel.refresh()

    def _mark(self, cid: str) -> tuple[Any, ...]:
        """What the Judge changes when dealing with an NPC by hand: its token, its
        standing declarations."""
        doc = self.doc
        tok = doc.token_for(cid)
        standing = ()
        track = doc.table.track
        state = getattr(track, "state", None)
        if state is not None and hasattr(state, "standing"):
            standing = tuple(s.model_dump_json() for s in state.standing.get(cid, ()))
        return (tok.hex if tok else None, tok.facing if tok else None, standing)

    # -- accepting ---------------------------------------------------------------------

    def accept(self) -> None:
        """Give each NPC its plan (one undo step); plans the Judge overrode are left."""
        doc = self.doc
        if doc is None or not self.plans:
            self.win.statusBar().showMessage("Autopilot: no plan shown (Ctrl+Shift+P plans).")
            return
        given = 0
        doc.undo_stack.beginMacro("Accept the autopilot's plans")
        try:
            for plan in self.plans:
                if self._marks.get(plan.who) != self._mark(plan.who):
                    continue  # the Judge dealt with this NPC since: theirs stands
                for act in plan.actions:
                    if doc.table.why_not(act) is not None:
                        break
                    doc.apply(act)
                    given += 1
            # planned and accepted in this fight: the next plans come by themselves
            from ...play.standing_actions import AutopilotFight

            fight = AutopilotFight(on=True)
            if given and doc.table.why_not(fight) is None:
                doc.apply(fight)
        finally:
            doc.undo_stack.endMacro()
        self.clear()
        self.win.statusBar().showMessage(f"Autopilot: {given} declaration(s) given.")

    # -- drawing -----------------------------------------------------------------------

    def clear(self) -> None:
        had_plans = bool(self.plans)
        self.plans = []
        self._marks = {}
        for group in self._items.values():
            scene = group.scene()
            if scene is not None:
                scene.removeItem(group)
        self._items = {}
        if had_plans:  # the rows marked a plan (none at start-up: no track panel yet)
            self._show_on_track()

    def _draw(self, plan: Plan) -> None:
        view = self.win.map_view
        scene = view.map_scene
        old = self._items.pop(plan.who, None)
        if old is not None and old.scene() is not None:
            old.scene().removeItem(old)
        tok = self.doc.token_for(plan.who)
        if scene is None or tok is None:
            return
        centre = scene.frame.center
        group = QGraphicsItemGroup()
        group.setZValue(Z_OVERLAY + 1)
        end = centre(tok.at)
        if plan.path:
            path = QPainterPath(end)
            for col, row in plan.path:
                end = centre(self.doc.map.hex_at(col - 1, row - 1))
                path.lineTo(end)
            ghost = QGraphicsPathItem(path)
            ghost.setPen(_pen(GHOST))
            group.addToGroup(ghost)
        target = self.doc.token_for(plan.target) if plan.target else None
        if target is not None:
            line = QPainterPath(end)
            line.lineTo(centre(target.at))
            aim = QGraphicsPathItem(line)
            aim.setPen(_pen(AIM))
            group.addToGroup(aim)
        if plan.reasons:
            text = QGraphicsSimpleTextItem(plan.reasons[0])
            text.setBrush(GHOST.darker(150))
            text.setPos(centre(tok.at) + QPointF(12, -24))
            group.addToGroup(text)
        group.setToolTip("\n".join(plan.reasons))
        scene.addItem(group)
        self._items[plan.who] = group


def _pen(color: QColor) -> QPen:
    pen = QPen(color, 3)
    pen.setStyle(Qt.PenStyle.DashLine)
    pen.setCosmetic(True)
    return pen


def _row_actions(document: Any, cid: str, parent: Any) -> list[QAction]:
    """A track row's menu: plan this NPC's round (the window's autopilot)."""
    ui = getattr(document.parent(), "autopilot", None)  # the window holds the document
    c = document.character(cid)
    if not isinstance(ui, AutopilotUi) or c.side == "posse" or c.out_of_action:
        return []
    act = QAction(f"Autopilot: plan {c.name}'s round", parent)
    act.triggered.connect(lambda: ui.plan([cid]))
    fight = QAction(ui.act_fight.text(), parent)
    fight.setCheckable(True)
    fight.setChecked(ui.act_fight.isChecked())
    fight.setShortcut(ui.act_fight.shortcut())
    fight.triggered.connect(ui.set_fight)
    return [act, fight]


def _row_note(document: Any, cid: str) -> str | None:
    """A track row's note: the plan shown for this NPC, with its why."""
    ui = getattr(document.parent(), "autopilot", None)
    if not isinstance(ui, AutopilotUi):
        return None
    for plan in ui.plans:
        if plan.who == cid and plan.reasons:
            return "Autopilot's plan (Ctrl+Shift+Return accepts): " + plan.reasons[0]
    return None


def install(win: Any) -> AutopilotUi:
    """The window's autopilot: its two actions in the Encounter menu (the track rows'
    entries come with the panels, :func:`hook_track_rows`)."""
    return AutopilotUi(win)


def hook_track_rows() -> None:
    """The autopilot's entry in the track rows' menus and its line on each planned
    NPC's row (installed with the window's add-ons, before the panels are built:
    importing the track panel's rows is no part of the first frame)."""
    from ..panels.track.ap_rows import ROW_NOTES
    from ..panels.track.menus import ROW_MENU_EXTRAS

    if _row_actions not in ROW_MENU_EXTRAS:
        ROW_MENU_EXTRAS.append(_row_actions)
    if _row_note not in ROW_NOTES:
        ROW_NOTES.append(_row_note)
