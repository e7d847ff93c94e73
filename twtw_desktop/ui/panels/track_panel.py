"""The action track (AP v2, 000 "Action Time") and the Phases round (004).

AP v2: segments 1–20 as columns and a row per character — the AP of the round, the
counters in front of them, the IN marker (their first counter's segment), the
counters placed (● on the track, · already paid), the actions declared (a letter,
with the stack position once resolved) and the spent box. Buttons: Start round (the
initiative step), Next segment, Declare (the action catalogue with its costs;
entries the counters cannot pay are shown disabled with the reason), Resolve stack,
End round.

Phases: the speed each character declares, the initiative card's bar, everyone's
Reflex result and the phases it reaches (the chosen one marked), with Start round,
Flip card, Next phase, Act and Delay.

Every button is one :class:`SnapshotCommand` (the track, the deck, the sheets and the
log together), so undo takes a step back exactly. Hovering a row lights the token up
on the map; hovering a token on the map (or selecting it) marks its row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ...rules import actions as A
from ...rules.base import Speed
from ...rules.character import Character, Posture
from ..commands import SnapshotCommand
from ._common import USER_ERRORS, MessageLabel, attempt, error_text, find_map_view

#: 000 Action Time: a round has 20 segments.
SEGMENTS = 20
_PHASES = ("I", "II", "III", "IV")

_CUR = QColor("#fff2b3")
_IN = QColor("#cfe3f7")
_OUT = QColor("#e6e6e6")
_HOVER = QColor("#ffd9a0")
_SEL = QColor("#f2c48d")

#: One-letter codes of declared actions on the track.
_CODES = {
    A.ActionKind.DRAW: "D",
    A.ActionKind.READY: "D",
    A.ActionKind.COCK: "C",
    A.ActionKind.SNAP_SHOT: "S",
    A.ActionKind.NORMAL_SHOT: "N",
    A.ActionKind.AIMED_SHOT: "A",
    A.ActionKind.FAN_FIRE: "F",
    A.ActionKind.RELOAD: "L",
    A.ActionKind.MOVE: "M",
    A.ActionKind.RUN: "R",
    A.ActionKind.DROP_PRONE: "P",
    A.ActionKind.STAND_UP: "U",
    A.ActionKind.DUCK: "d",
    A.ActionKind.EMERGE: "e",
    A.ActionKind.FACE: "f",
    A.ActionKind.TURN_IN_MOVE: "f",
    A.ActionKind.SWITCH_TARGET: "T",
    A.ActionKind.SKILL: "K",
    A.ActionKind.MELEE_ATTACK: "H",
    A.ActionKind.BLOCK: "B",
    A.ActionKind.DODGE: "G",
    A.ActionKind.RECOVER: "V",
    A.ActionKind.DISENGAGE: "E",
    A.ActionKind.OTHER: "O",
}


# =============================================================================
# The action catalogue for one character
# =============================================================================


class CatalogueEntry:
    """One line of the Declare menu: a group, a label and the action (or why not)."""

    def __init__(self, group: str, label: str, spec: A.ActionSpec | None, why: str = "") -> None:
        self.group = group
        self.label = label
        self.spec = spec
        self.why = why


def catalogue(document, c: Character) -> list[CatalogueEntry]:
    """Every action the character could declare now, with its cost (000)."""
    out: list[CatalogueEntry] = []

    def add(group: str, label: str, make: Callable[[], A.ActionSpec]) -> None:
        try:
            out.append(CatalogueEntry(group, label, make()))
        except RulesError as e:
            out.append(CatalogueEntry(group, label, None, str(e)))

    gear = document.gear.weapons
    for cw in c.weapons:
        w = gear.get(cw.weapon_id)
        if w is None:
            continue
        g = w.name
        if not cw.readied:
            add(g, f"Draw / ready the {w.name}", lambda w=w: A.draw_action(w, c.quick_draw))
            continue
        if w.cock_ap is not None and not cw.cocked:
            add(g, f"Cock the {w.name}", lambda w=w: A.cock_action(w))
        if w.is_ranged:
            if w.snap_ap is not None:
                add(g, "Snap shot", lambda w=w: A.snap_shot(w))
            add(g, "Normal shot", lambda w=w: A.normal_shot(w))
            if w.aim_ap is not None:
                add(g, "Aimed shot (1 aim)", lambda w=w: A.aimed_shot(w, 1))
                add(g, "Aimed shot (2 aims)", lambda w=w: A.aimed_shot(w, 2))
            if w.capacity and cw.loaded < w.capacity:
                add(g, "Reload", lambda w=w: A.reload_action(w))
        if w.is_melee:
            from ...rules.combat.melee import ATTACK_TYPES

            for t in ("quick", "standard", "heavy"):
                at = ATTACK_TYPES[t]
                add(g, at.name, lambda at=at, w=w: A.melee_attack(at.ap, weapon=w, attack=at.name))
    add("Movement", f"Move ({c.move} paces)", lambda: A.move_action(c, max(c.move, 1)))
    add("Movement", f"Run ({c.run} paces)", lambda: A.run_action(c, max(c.run, 1)))
    if c.posture is Posture.PRONE:
        add("Movement", "Stand up", A.stand_up)
    else:
        add("Movement", "Drop prone", A.drop_prone)
    if c.posture is Posture.DUCKED:
        add("Movement", "Emerge from cover", A.emerge)
    else:
        add("Movement", "Duck behind cover", A.duck)
    add("Movement", "Turn 60° in place", lambda: A.change_facing(1))
    add("Movement", "Turn more than 60° in place", lambda: A.change_facing(2))
    from ...rules.combat.melee import ATTACK_TYPES

    for t in ("quick", "standard", "heavy", "shove"):
        at = ATTACK_TYPES[t]
        add(
            "Hand to hand",
            f"{at.name} (unarmed)",
            lambda at=at: A.melee_attack(at.ap, attack=at.name),
        )
    add("Hand to hand", "Block", A.block)
    add("Hand to hand", "Dodge", A.dodge)
    add("Hand to hand", "Careful disengage", A.careful_disengage)
    add("Other", "Skill (simple, 4 AP)", lambda: A.skill_action("skill", A.SKILL_AP))
    add(
        "Other",
        "Skill (full attention, 8 AP)",
        lambda: A.skill_action("skill", A.SKILL_FULL_ATTENTION_AP),
    )
    if c.stunned:
        add("Other", "Recover (all AP)", A.recover)
    return out


def apply_action_effects(document, cid: str, spec: A.ActionSpec) -> list[str]:
    """What a declared action does to the sheet and the token (ready, cock, reload,
    posture); returns the lines for the log."""
    c = document.character(cid)
    tok = document.token_for(cid)
    notes: list[str] = []
    kind = spec.kind
    if kind in (A.ActionKind.DRAW, A.ActionKind.READY, A.ActionKind.COCK, A.ActionKind.RELOAD):
        weapons = [w.model_copy() for w in c.weapons]
        for cw in weapons:
            if cw.weapon_id != spec.weapon_id:
                continue
            w = document.gear.weapons.get(cw.weapon_id)
            if kind in (A.ActionKind.DRAW, A.ActionKind.READY) and not cw.readied:
                cw.readied = True
                notes.append(f"{c.name}'s {w.name if w else cw.weapon_id} is ready")
                break
            if kind is A.ActionKind.COCK and not cw.cocked:
                cw.cocked = True
                notes.append(f"{c.name}'s {w.name if w else cw.weapon_id} is cocked")
                break
            if kind is A.ActionKind.RELOAD and w is not None and cw.loaded < w.capacity:
                cw.loaded = w.capacity if w.reload_unit == "full" else cw.loaded + 1
                notes.append(f"{c.name}'s {w.name}: {cw.loaded}/{w.capacity} loaded")
                break
        c.weapons = weapons
    posture = {
        A.ActionKind.DROP_PRONE: Posture.PRONE,
        A.ActionKind.STAND_UP: Posture.STANDING,
        A.ActionKind.DUCK: Posture.DUCKED,
        A.ActionKind.EMERGE: Posture.STANDING,
    }.get(kind)
    if posture is not None:
        c.posture = posture
        if kind in (A.ActionKind.DUCK, A.ActionKind.EMERGE):
            c.behind_cover = kind is A.ActionKind.DUCK
        if tok is not None:
            tok.posture = posture
        notes.append(f"{c.name} is now {posture.value}")
    return notes


# =============================================================================
# Hover between rows and tokens
# =============================================================================


class _RowHover(QObject):
    """Tells the panel which row the mouse is over (None when it leaves)."""

    def __init__(self, table: QTableWidget, callback: Callable[[int | None], None]) -> None:
        super().__init__(table)
        self.table = table
        self.cb = callback
        table.setMouseTracking(True)
        table.viewport().setMouseTracking(True)
        table.viewport().installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.MouseMove:
            row = self.table.rowAt(int(ev.position().y()))  # type: ignore[attr-defined]
            self.cb(row if row >= 0 else None)
        elif ev.type() == QEvent.Type.Leave:
            self.cb(None)
        return False


class _InfoLabel(QLabel):
    """Two lines at most under the track (the whole text is in the tooltip), so the
    dock stays short on a laptop screen."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet("color: #333;")
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text.replace(" · ", "\n"))


# =============================================================================
# The panel
# =============================================================================


class TrackPanel(QWidget):
    """The action track or the Phases round, whichever the encounter's edition uses.

    ``hoverCharacter`` (character id or None) is emitted while a row is hovered, for
    any other view that wants to follow (the map view is lit up directly).
    """

    hoverCharacter = Signal(object)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("TrackPanel")
        self._row_ids: list[str] = []
        self._hover_row: int | None = None
        self._map_hover_cid: str | None = None
        self._hooked_view: Any = None
        self.last_event: Any = None

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(3)
        top = QHBoxLayout()
        top.setSpacing(3)
        self.status = QLabel()
        self.status.setStyleSheet("font-size: 14px; font-weight: bold;")
        top.addWidget(self.status)
        top.addStretch(1)
        self.action_button = QPushButton("Start action time")
        self.action_button.clicked.connect(self.toggle_action_time)
        top.addWidget(self.action_button)
        self.start_button = QPushButton("Start round")
        self.start_button.setToolTip("The initiative step: everyone draws for the round")
        self.start_button.clicked.connect(self.start_round)
        top.addWidget(self.start_button)
        # AP v2
        self.next_button = QPushButton("Next segment")
        self.next_button.setToolTip("Count the next segment: counters are placed (000)")
        self.next_button.clicked.connect(self.next_segment)
        top.addWidget(self.next_button)
        self.declare_button = QToolButton()
        self.declare_button.setText("Declare…")
        self.declare_button.setToolTip("Declare an action for the selected row's character")
        self.declare_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.declare_menu = QMenu(self.declare_button)
        self.declare_menu.setToolTipsVisible(True)
        self.declare_menu.aboutToShow.connect(self._build_declare_menu)
        self.declare_button.setMenu(self.declare_menu)
        top.addWidget(self.declare_button)
        self.resolve_button = QPushButton("Resolve stack")
        self.resolve_button.setToolTip(
            "Flip a card per action on this segment; order by fragment + bonus"
        )
        self.resolve_button.clicked.connect(self.resolve_stack)
        top.addWidget(self.resolve_button)
        self.end_button = QPushButton("End round")
        self.end_button.clicked.connect(self.end_round)
        top.addWidget(self.end_button)
        # Phases
        self.flip_button = QPushButton("Flip card")
        self.flip_button.setToolTip("Flip the initiative card and read everyone's Reflex (004)")
        self.flip_button.clicked.connect(self.flip_card)
        top.addWidget(self.flip_button)
        self.phase_button = QPushButton("Next phase")
        self.phase_button.clicked.connect(self.next_phase)
        top.addWidget(self.phase_button)
        self.act_button = QPushButton("Act")
        self.act_button.setToolTip("The selected character acts now with their declared speed")
        self.act_button.clicked.connect(lambda: self.act())
        top.addWidget(self.act_button)
        self.delay_button = QPushButton("Delay")
        self.delay_button.clicked.connect(lambda: self.delay())
        top.addWidget(self.delay_button)
        lay.addLayout(top)

        self.stack = QStackedWidget()
        self.ap_table = self._make_table(3 + SEGMENTS + 1)
        self.ap_table.setHorizontalHeaderLabels(
            ["Character", "AP", "●", *[str(s) for s in range(1, SEGMENTS + 1)], "Spent"]
        )
        hh = self.ap_table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        hh.setMinimumSectionSize(20)
        for c in range(1, 3 + SEGMENTS + 1):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            self.ap_table.setColumnWidth(c, 24)
        self.ap_table.setColumnWidth(1, 30)
        self.ap_table.setColumnWidth(3 + SEGMENTS, 58)
        self.ap_table.horizontalHeaderItem(3 + SEGMENTS).setToolTip("AP spent (AP lost)")
        self.stack.addWidget(self.ap_table)

        self.ph_table = self._make_table(4 + 4 + 1)
        self.ph_table.setHorizontalHeaderLabels(
            ["Character", "Reflex", "Speed", "Result", *_PHASES, "Status"]
        )
        hh = self.ph_table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, 9):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.ph_table.cellClicked.connect(self._phase_cell_clicked)
        self.stack.addWidget(self.ph_table)
        lay.addWidget(self.stack, 1)

        self.info = _InfoLabel()
        lay.addWidget(self.info)
        self.message = MessageLabel()
        lay.addWidget(self.message)

        self._hover_filters = [
            _RowHover(self.ap_table, self._row_hovered),
            _RowHover(self.ph_table, self._row_hovered),
        ]
        document.changed.connect(self._on_changed)
        document.characterChanged.connect(lambda _c: self.refresh())
        document.selectionChanged.connect(lambda _t: self._mark_rows())
        self.refresh()

    def sizeHint(self) -> QSize:
        # short by default: the map keeps most of a laptop screen (rows scroll)
        return QSize(900, 190)

    def _make_table(self, cols: int) -> QTableWidget:
        t = QTableWidget(0, cols)
        t.verticalHeader().hide()
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.verticalHeader().setDefaultSectionSize(22)
        t.itemSelectionChanged.connect(self._row_selected)
        return t

    # -- state -----------------------------------------------------------------------
    @property
    def track(self):
        return self.document.track if getattr(self.document, "in_action", False) else None

    @property
    def phases(self) -> bool:
        return self.document.edition.time == "phases"

    def selected_character(self) -> str | None:
        """The character of the selected row, else of the selected token."""
        t = self.stack.currentWidget()
        rows = {i.row() for i in t.selectedIndexes()}  # type: ignore[union-attr]
        if rows:
            r = min(rows)
            if r < len(self._row_ids):
                return self._row_ids[r]
        tok = self.document.selected_token()
        return tok.character_id if tok is not None else None

    # -- pushing steps ----------------------------------------------------------------
    def _step(self, text: str, step: Callable[[], Any], kind: str = "track") -> bool:
        """Run one engine step as one undoable command and log its event."""
        doc = self.document

        def go() -> None:
            ev = step()
            self.last_event = ev
            if ev is None:
                return
            for rec in getattr(ev, "bleeding", ()) or ():
                try:
                    target = doc.character(rec.character_id)
                except KeyError:
                    continue
                fresh = rec.character.model_copy(deep=True)
                for name in type(target).model_fields:
                    object.__setattr__(target, name, getattr(fresh, name))
            detail = {
                k: v
                for k, v in ev.model_dump(mode="json", exclude={"bleeding"}).items()
                if v not in (None, [], (), {}, "") and k not in ("summary", "step")
            }
            doc.log(ev.summary, kind, detail or None)

        ok = attempt(
            self.message,
            lambda: doc.push(
                SnapshotCommand(doc, text, go, {"track", "deck", "log", "characters"})
            ),
        )
        if ok and self.last_event is not None:
            details = list(getattr(self.last_event, "details", ()) or ())
            summary = getattr(self.last_event, "summary", "")
            self.info.setText(" · ".join([summary, *details]) if details else summary)
        return ok

    def toggle_action_time(self) -> bool:
        doc = self.document
        try:
            if doc.in_action:
                doc.end_action_time()
            else:
                doc.start_action_time()
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return False
        self.message.clear()
        return True

    def _require_track(self):
        t = self.track
        if t is None:
            raise RulesError("Declare action time first (Start action time).")
        return t

    def _typed_cards(self, keys: list[tuple[str, str]]) -> dict | None:
        """With a printed deck, ask the Judge for each card the step reads
        (``keys``: (key, who it is for)); None when the Judge cancels. Without one, {}."""
        if not self.document.deck.physical:
            return {}
        from ..widgets.card_entry import PhysicalCardDialog

        out = {}
        for key, who in keys:
            dlg = PhysicalCardDialog(self, title=f"Type the card drawn for {who}")
            if not dlg.exec() or dlg.card is None:
                return None
            out[key] = dlg.card
        return out

    def start_round(self) -> bool:
        if self.track is None and not self.toggle_action_time():
            return False
        chars = [
            c for c in self.document.encounter.characters if not (c.out_of_action or c.stunned)
        ]
        cards = self._typed_cards([(c.id, c.name) for c in chars])
        if cards is None:
            return False

        def go():
            t = self._require_track()
            t.update_characters(self.document.encounter.characters)
            return t.start_round(cards or None)

        return self._step("Start round", go, "round")

    # AP v2 ----------------------------------------------------------------------------
    def next_segment(self) -> bool:
        return self._step("Next segment", lambda: self._require_track().advance_segment())

    def declare(self, cid: str, spec: A.ActionSpec) -> bool:
        """Declare ``spec`` for ``cid`` on the track (pays the counters), with its
        effect on the sheet (ready, cock, reload, posture)."""
        doc = self.document

        def go():
            t = self._require_track()
            # AP v2 pays on the track; a Phases round takes it as the character's act
            ev = t.declare(cid, spec) if hasattr(t, "declare") else t.act(cid, spec)
            notes = apply_action_effects(doc, cid, spec)
            if notes:
                ev = ev.model_copy(update={"details": (*ev.details, *notes)})
            return ev

        name = doc.character(cid).name if cid else "?"
        return self._step(f"{name}: {spec.describe()}", go)

    def resolve_stack(self) -> bool:
        t = self.track
        waiting = [e for e in t.stack() if not e.resolved] if t is not None else []
        cards = self._typed_cards(
            [(e.character_id, self.document.character(e.character_id).name) for e in waiting]
        )
        if cards is None:
            return False
        return self._step(
            "Resolve the initiative stack",
            lambda: self._require_track().resolve_stack(cards or None),
        )

    def end_round(self) -> bool:
        return self._step("End round", lambda: self._require_track().end_round(), "round")

    def _build_declare_menu(self) -> None:
        m = self.declare_menu
        m.clear()
        cid = self.selected_character()
        t = self.track
        if cid is None:
            a = m.addAction("Select a character's row or token first")
            a.setEnabled(False)
            return
        c = self.document.character(cid)
        counters = None
        row = None
        if t is not None and hasattr(t, "row"):
            try:
                row = t.row(cid)
                counters = getattr(row, "counters", None)
            except RulesError:
                row = None
        head = f"{c.name}: {counters} counter(s) on the track" if counters is not None else c.name
        m.addSection(head)
        groups: dict[str, QMenu] = {}
        for entry in catalogue(self.document, c):
            sub = groups.get(entry.group)
            if sub is None:
                sub = m.addMenu(entry.group)
                sub.setToolTipsVisible(True)
                groups[entry.group] = sub
            if entry.spec is None:
                act = sub.addAction(f"{entry.label} — {entry.why}")
                act.setEnabled(False)
                continue
            spec = entry.spec
            cost = "all AP" if spec.all_ap else f"{spec.ap} AP"
            why = self._unpayable(row, spec)
            act = sub.addAction(f"{entry.label} — {cost}" + (f"  ({why})" if why else ""))
            act.setToolTip("\n".join(f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown))
            act.setEnabled(not why)
            act.triggered.connect(lambda _=False, s=spec, k=cid: self.declare(k, s))
        other = m.addAction("Other action (the Judge's cost)…")
        other.triggered.connect(lambda: self._declare_other(cid))

    def _unpayable(self, row, spec: A.ActionSpec) -> str:
        """Why the counters cannot pay for ``spec`` now ("" when they can)."""
        t = self.track
        if t is None:
            return "not in action time"
        if self.phases:
            return ""
        if row is None:
            return "not on the track"
        if row.status.value != "active":
            return row.status_reason or row.status.value
        if t.state.stage.value not in ("running", "overtime"):
            return "no round running"
        if t.current_segment == 0:
            return "count segment 1 first"
        if spec.all_ap:
            return ""
        if spec.multi_round and row.counters > 0:
            return ""
        if row.counters < spec.ap:
            return f"needs {spec.ap}, {row.counters} counter(s) on the track"
        return ""

    def _declare_other(self, cid: str) -> None:
        label, ok = QInputDialog.getText(self, "Other action", "What does the character do?")
        if not ok or not label.strip():
            return
        ap, ok = QInputDialog.getInt(self, "Other action", "AP it costs:", 1, 0, 40)
        if ok:
            self.declare(cid, A.other_action(label.strip(), ap))

    # Phases ----------------------------------------------------------------------------
    def declare_speed(self, cid: str, speed: Speed) -> bool:
        name = self.document.character(cid).name
        return self._step(
            f"{name} declares {speed.value}",
            lambda: self._require_track().declare_speed(cid, speed),
        )

    def flip_card(self) -> bool:
        t = self.track
        keys: list[tuple[str, str]] = []
        if t is not None and self.document.deck.physical:
            per = self.document.encounter.options.phases_card_per
            active = [r for r in t.state.rows.values() if r.status.value == "active"]
            if per == "all":
                keys = [("all", "everyone")]
            elif per == "side":
                keys = [(side, f"the {side}") for side in dict.fromkeys(r.side for r in active)]
            else:
                keys = [(r.character_id, r.name) for r in active]
        cards = self._typed_cards(keys)
        if cards is None:
            return False
        return self._step(
            "Flip the initiative card",
            lambda: self._require_track().resolve(cards or None),
            "round",
        )

    def choose_phase(self, cid: str, phase: int) -> bool:
        return self._step(
            f"Phase {_PHASES[phase - 1]} for {cid}",
            lambda: self._require_track().choose_phase(cid, phase),
        )

    def next_phase(self) -> bool:
        return self._step("Next phase", lambda: self._require_track().advance_phase(), "round")

    def act(self, cid: str | None = None, action: Speed | A.ActionSpec | None = None) -> bool:
        t = self.track
        cid = cid or self.selected_character() or (t.next_to_act() if t is not None else None)
        if cid is None:
            self.message.error("Select who acts.")
            return False

        def go():
            tr = self._require_track()
            what = action
            if what is None:
                row = tr.row(cid)
                what = row.waiting_speed or row.declared or Speed.FAST
            return tr.act(cid, what)

        return self._step(f"{self.document.character(cid).name} acts", go)

    def delay(self, cid: str | None = None) -> bool:
        cid = cid or self.selected_character()
        if cid is None:
            self.message.error("Select who delays.")
            return False
        return self._step(
            f"{self.document.character(cid).name} delays", lambda: self._require_track().delay(cid)
        )

    def _phase_cell_clicked(self, r: int, c: int) -> None:
        if not 4 <= c <= 7 or r >= len(self._row_ids):
            return
        t = self.track
        if t is None or t.state.stage.value != "resolved":
            return
        cid = self._row_ids[r]
        if (c - 3) in t.row(cid).qualifying:
            self.choose_phase(cid, c - 3)

    # -- view ------------------------------------------------------------------------------
    def _on_changed(self, area: str) -> None:
        if area in ("track", "mode", "characters", "all", "file"):
            self.refresh()

    def refresh(self) -> None:
        self.stack.setCurrentWidget(self.ph_table if self.phases else self.ap_table)
        t = self.track
        in_action = t is not None
        self.action_button.setText("End action time" if in_action else "Start action time")
        ap = not self.phases
        for b in (self.next_button, self.declare_button, self.resolve_button, self.end_button):
            b.setVisible(ap)
        for b in (self.flip_button, self.phase_button, self.act_button, self.delay_button):
            b.setVisible(not ap)
        if ap:
            self._refresh_ap(t)
        else:
            self._refresh_phases(t)
        self._mark_rows()
        self._hook_map()

    def _chars(self) -> list[Character]:
        return list(self.document.encounter.characters)

    def _refresh_ap(self, t) -> None:
        st = t.state if t is not None else None
        stage = st.stage.value if st is not None else "narrative"
        seg = st.segment if st is not None else 0
        if t is None:
            self.status.setText("Narrative time")
        elif stage == "idle":
            self.status.setText("Action time — start the first round")
        elif stage == "ended":
            self.status.setText(f"Round {st.round} over — start the next")
        else:
            label = f"segment {seg}" if seg <= SEGMENTS else f"after 20 ({seg})"
            self.status.setText(
                f"Round {st.round} · {label}" if seg else f"Round {st.round} · initiative done"
            )
        running = stage in ("running", "overtime")
        self.start_button.setEnabled(t is None or stage in ("idle", "ended"))
        self.next_button.setEnabled(running)
        self.declare_button.setEnabled(running)
        pending = bool(running and [e for e in t.stack() if not e.resolved])
        self.resolve_button.setEnabled(pending)
        self.end_button.setEnabled(running)
        table = self.ap_table
        chars = self._chars()
        self._row_ids = [c.id for c in chars]
        table.setRowCount(len(chars))
        bold = QFont()
        bold.setBold(True)
        for col in range(3, 3 + SEGMENTS):
            item = table.horizontalHeaderItem(col) or QTableWidgetItem()
            s = col - 2
            item.setText(f"▶{s}" if s == seg and running else str(s))
            item.setFont(bold if s == seg and running else QFont())
            table.setHorizontalHeaderItem(col, item)
        entries = list(st.entries) if st is not None else []
        for r, c in enumerate(chars):
            row = st.rows.get(c.id) if st is not None else None
            name = QTableWidgetItem(c.name)
            tip = [f"{c.name} — IN {c.initiative}, AP {c.ap}"]
            out = False
            if row is not None:
                tip += list(row.initiative_reasons) + list(row.ap_reasons)
                if row.status.value != "active":
                    name.setText(f"{c.name} ({row.status.value})")
                    tip.append(row.status_reason)
                    out = row.status.value in ("out", "stunned", "surprised")
            name.setToolTip("\n".join(x for x in tip if x))
            table.setItem(r, 0, name)
            ap_item = QTableWidgetItem(
                str(row.round_ap) if row is not None and row.status.value == "active" else str(c.ap)
            )
            ap_item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if row is not None:
                ap_item.setToolTip(
                    f"pool {row.pool} AP not yet on the track\n" + "\n".join(row.ap_reasons)
                )
            table.setItem(r, 1, ap_item)
            ctr = QTableWidgetItem(str(row.counters) if row is not None else "")
            ctr.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            ctr.setFont(bold)
            ctr.setToolTip("counters in front of the character now")
            table.setItem(r, 2, ctr)
            first = row.first_segment if row is not None else None
            marker = first if first is not None else (c.initiative if row is None else None)
            placed_from = first or 0
            placed = row.placed if row is not None else 0
            on_track_from = placed_from + placed - (row.counters if row is not None else 0)
            mine = [e for e in entries if e.character_id == c.id]
            for s in range(1, SEGMENTS + 1):
                text = ""
                tips = []
                if row is not None and first is not None and placed and first <= s < first + placed:
                    if s >= on_track_from:
                        text = "●"
                        tips.append("a counter on the track")
                    else:
                        text = "·"
                        tips.append("a counter already paid")
                for e in mine:
                    if e.segment == s:
                        code = _CODES.get(e.action.kind, "?")
                        if e.position is not None:
                            code += str(e.position)
                        text = code if not text else f"{code}"
                        tips.append(
                            e.action.describe()
                            + (f" — stack place {e.position}" if e.position else "")
                        )
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if s == marker:
                    item.setBackground(QBrush(_IN))
                    tips.insert(0, f"IN: first counter on segment {s}")
                elif s == seg and running:
                    item.setBackground(QBrush(_CUR))
                elif out:
                    item.setBackground(QBrush(_OUT))
                if tips:
                    item.setToolTip("\n".join(tips))
                table.setItem(r, 2 + s, item)
            spent = QTableWidgetItem(
                (f"{row.spent}" + (f" ({row.lost})" if row.lost else "")) if row is not None else ""
            )
            spent.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if row is not None:
                spent.setToolTip(f"spent {row.spent} AP, lost {row.lost}, borrowed {row.borrowed}")
            table.setItem(r, 3 + SEGMENTS, spent)
        # stack / order line
        if running:
            stack = t.stack()
            if stack:
                parts = []
                for e in stack:
                    who = (
                        st.rows[e.character_id].name
                        if e.character_id in st.rows
                        else e.character_id
                    )
                    pos = f"{e.position}. " if e.position else ""
                    parts.append(f"{pos}{who}: {e.action.describe()}")
                self.info.setText(f"Segment {seg} stack — " + "; ".join(parts))
            else:
                order = [st.rows[i].name for i in t.declaration_order()] if seg else []
                self.info.setText(
                    ("Declaring (slowest first): " + ", ".join(order))
                    if order
                    else self.info.text()
                )

    def _refresh_phases(self, t) -> None:
        st = t.state if t is not None else None
        stage = st.stage.value if st is not None else "narrative"
        if t is None:
            self.status.setText("Narrative time")
        elif stage == "idle":
            self.status.setText("Action time — start the first round")
        elif stage == "declare":
            self.status.setText(f"Round {st.round} · declare speeds")
        elif stage == "resolved":
            cards = ", ".join(str(n) for n in st.initiative_cards.values())
            self.status.setText(f"Round {st.round} · card {cards} · choose phases")
        elif stage == "acting":
            self.status.setText(f"Round {st.round} · phase {_PHASES[st.phase - 1]}")
        else:
            self.status.setText(f"Round {st.round} over")
        self.start_button.setEnabled(t is None or stage in ("idle", "ended"))
        self.flip_button.setEnabled(stage == "declare")
        self.phase_button.setEnabled(stage in ("resolved", "acting"))
        self.act_button.setEnabled(stage == "acting")
        self.delay_button.setEnabled(stage == "acting")
        table = self.ph_table
        chars = self._chars()
        self._row_ids = [c.id for c in chars]
        table.setRowCount(0)  # drops the old speed combos at once
        table.setRowCount(len(chars))
        current = st.phase if st is not None and stage == "acting" else 0
        for k, ph in enumerate(_PHASES):
            item = table.horizontalHeaderItem(4 + k) or QTableWidgetItem()
            item.setText(f"▶{ph}" if current == k + 1 else ph)
            table.setHorizontalHeaderItem(4 + k, item)
        nxt = t.next_to_act() if t is not None and stage == "acting" else None
        for r, c in enumerate(chars):
            row = st.rows.get(c.id) if st is not None else None
            name = QTableWidgetItem(("▶ " if c.id == nxt else "") + c.name)
            if row is not None:
                name.setToolTip(
                    "\n".join([*row.declared_reasons, *row.bar_reasons, *row.reflex_reasons])
                )
            table.setItem(r, 0, name)
            reflex = c.traits.get("reflex")
            table.setItem(r, 1, QTableWidgetItem(str(reflex) if reflex else "—"))
            combo = QComboBox()
            combo.addItem("—", None)
            for sp in (Speed.FAST, Speed.NORMAL, Speed.SLOW):
                combo.addItem(sp.value.title(), sp.value)
            if row is not None and row.declared is not None:
                combo.setCurrentIndex(combo.findData(row.declared.value))
            combo.setEnabled(
                stage == "declare"
                and row is not None
                and row.status.value not in ("out", "stunned", "surprised")
            )
            combo.activated.connect(
                lambda _i, cb=combo, k=c.id: (
                    cb.currentData() and self.declare_speed(k, Speed(cb.currentData()))
                )
            )
            table.setCellWidget(r, 2, combo)
            res = ""
            if row is not None and row.card_number is not None:
                res = "CF" if row.reflex_cf else str(row.reflex_result)
            ri = QTableWidgetItem(res)
            ri.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if row is not None and row.card_number is not None:
                ri.setToolTip(f"card {row.card_number}\n" + "\n".join(row.reflex_reasons))
            table.setItem(r, 3, ri)
            for k in range(4):
                text = ""
                item = QTableWidgetItem()
                if row is not None and row.bar is not None:
                    tn = row.bar[k]
                    text = str(tn)
                    if k + 1 in row.qualifying:
                        text += " ✓"
                    if row.phase == k + 1 and not row.hesitated:
                        item.setBackground(QBrush(_IN))
                        item.setFont(QFont("", -1, QFont.Weight.Bold))
                    item.setToolTip(
                        f"phase {_PHASES[k]}: TN {tn} on the {(row.bar_speed or row.declared or Speed.NORMAL).value} bar"
                        + (
                            " — click to act in this phase"
                            if k + 1 in row.qualifying and stage == "resolved"
                            else ""
                        )
                    )
                if current == k + 1 and not item.background().color().isValid():
                    item.setBackground(QBrush(_CUR))
                item.setText(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                table.setItem(r, 4 + k, item)
            status = ""
            if row is not None:
                if row.status.value != "active" and row.status.value != "waiting":
                    status = row.status.value
                elif row.hesitated:
                    status = "hesitates"
                elif row.acted:
                    status = "acted"
                elif row.delayed:
                    status = "delaying"
                elif row.passed:
                    status = "passed"
                elif row.phase is not None:
                    status = f"phase {_PHASES[row.phase - 1]}"
            table.setItem(r, 8, QTableWidgetItem(status))
        if t is not None and stage == "acting":
            order = [st.rows[i].name for i in t.acting_order()]
            self.info.setText(
                f"Phase {_PHASES[st.phase - 1]}: " + (", ".join(order) or "nobody acts")
            )

    # -- hover and selection --------------------------------------------------------------
    def _row_hovered(self, r: int | None) -> None:
        if r == self._hover_row:
            return
        self._hover_row = r
        cid = self._row_ids[r] if r is not None and r < len(self._row_ids) else None
        self.hoverCharacter.emit(cid)
        view = find_map_view(self.document)
        if view is not None and hasattr(view, "highlight_token"):
            tok = self.document.token_for(cid) if cid else None
            view.highlight_token(tok.id if tok is not None else None, tok is not None)

    def _row_selected(self) -> None:
        cid = self.selected_character()
        t = self.stack.currentWidget()
        if cid is None or not t.selectedIndexes():  # type: ignore[union-attr]
            return
        tok = self.document.token_for(cid)
        if tok is not None and self.document.selected_token_id != tok.id:
            self.document.select(tok.id)

    def _hook_map(self) -> None:
        view = find_map_view(self.document)
        if view is None or view is self._hooked_view:
            return
        self._hooked_view = view
        sig = getattr(view, "hexHovered", None)
        if sig is not None:
            sig.connect(self._map_hovered)

    def _map_hovered(self, h) -> None:
        cid = None
        if h is not None:
            tok = self.document.encounter.token_at(h)
            cid = tok.character_id if tok is not None else None
        if cid != self._map_hover_cid:
            self._map_hover_cid = cid
            self._mark_rows()

    def set_map_hover(self, cid: str | None) -> None:
        """Mark ``cid``'s row as hovered on the map (what the map view's hover does)."""
        self._map_hover_cid = cid
        self._mark_rows()

    def _mark_rows(self) -> None:
        """Colour the name cell of the selected token's row and the map-hovered row."""
        tok = self.document.selected_token()
        sel = tok.character_id if tok is not None else None
        table = self.stack.currentWidget()
        for r, cid in enumerate(self._row_ids):
            item = table.item(r, 0)  # type: ignore[union-attr]
            if item is None:
                continue
            if cid == self._map_hover_cid:
                item.setBackground(QBrush(_HOVER))
            elif cid == sel:
                item.setBackground(QBrush(_SEL))
            else:
                item.setBackground(QBrush())

    def row_marked(self, cid: str) -> bool:
        """Whether ``cid``'s row is marked (selected or hovered on the map)."""
        if cid not in self._row_ids:
            return False
        item = self.stack.currentWidget().item(self._row_ids.index(cid), 0)  # type: ignore[union-attr]
        return item is not None and item.background().style() != Qt.BrushStyle.NoBrush


__all__ = ["TrackPanel", "catalogue"]
