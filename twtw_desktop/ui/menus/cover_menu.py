"""Covering fire and the Bravery check under fire, as menu entries for one figure.

The same entries fill Encounter ▸ Covering fire (for the selected figure) and a
token's right-click menu: cover an area (click hexes on the map, Enter to finish) or
a target (click its token), place the next target marker, declare it again for the
round, stop it, the Bravery check of a figure under fire, and the reaction shot a
failed check opens. Each builds the table's action (:mod:`twtw_desktop.play.cover_actions`)
and applies it as one undo step; a refusal is shown and nothing changes.

With the risk rule on, the menu also has the player's declaration that their Hero
risks death (001 Risk, :mod:`twtw_desktop.play.risk_actions`).

The map's hex picking is handed over at run time (``map_view.pick_hexes``, set by
:mod:`.cover_overlay`): this module is imported by the token menu, which the scene
imports, so it imports neither the scene nor the tools.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ...play.actions import ref_of
from ...play.cover_actions import (
    SRC_COVER,
    SRC_TACTICAL,
    BraveryCheck,
    CoveringFire,
    CoverMarker,
    ReactionShot,
    StopCoveringFire,
    cover_state,
    covered_hexes,
    ended_why,
    pending_reactions,
    threat_for,
)
from ...play.risk_actions import SRC_RISK, RiskDeath


def _apply(document: Any, action: Any, parent: QWidget | None = None) -> bool:
    """Apply as one undo step; a refusal goes to a message box (nothing changes)."""
    try:
        document.apply(action)
    except (RulesError, ValueError) as e:
        text = str(e).splitlines()[0] if str(e) else "Not allowed."
        QMessageBox.information(parent, "Not allowed", text)
        return False
    return True


def pick_area(document: Any, who: str, make: Any, parent: QWidget | None = None) -> bool:
    """Let the Judge click hexes on the map, then apply ``make(who, hexes)``."""
    view = document.map_view
    picker = getattr(view, "pick_hexes", None)
    if picker is None:
        return False

    def done(hexes: list | None) -> None:
        if hexes:
            refs = [ref_of(document.table, h) for h in hexes]
            _apply(document, make(who, refs), parent)

    picker(done)
    return True


def pick_target(document: Any, who: str, make: Any, parent: QWidget | None = None) -> bool:
    """Let the Judge click the target's token, then apply ``make(who, token_id)``."""

    def done(token_id: str | None) -> None:
        if token_id is not None:
            _apply(document, make(who, token_id), parent)

    return document.pick_target(done)


class BraveryDialog(QDialog):
    """The Bravery check of a figure under fire: the TN and why, the cover's AV."""

    def __init__(self, document: Any, who: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Bravery check under fire")
        self.setObjectName("bravery_dialog")
        self.document = document
        self.who = who
        self.event: Any = None
        lay = QVBoxLayout(self)
        c, _tok = document.table.actor(who)
        head = QLabel(
            f"<b>{c.name}</b> aims (or does something needing concentration) under fire "
            f"({SRC_TACTICAL})."
        )
        head.setWordWrap(True)
        lay.addWidget(head)
        form = QFormLayout()
        self.cover_av = QSpinBox()
        self.cover_av.setRange(0, 20)
        self.cover_av.setToolTip(
            "The AV of the cover the character stayed behind all turn (the lowest when "
            "moving between covers): added to the result (000/001 Aim and Cover)"
        )
        form.addRow("Cover AV all turn", self.cover_av)
        lay.addLayout(form)
        self.tn = QLabel()
        self.tn.setObjectName("bravery_tn")
        self.tn.setWordWrap(True)
        lay.addWidget(self.tn)
        self.message = QLabel()
        self.message.setObjectName("bravery_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000;")
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Draw")
        buttons.accepted.connect(self.check)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.cover_av.valueChanged.connect(self._show)
        self._show()

    def action(self) -> BraveryCheck:
        return BraveryCheck(who=self.who, cover_av=self.cover_av.value())

    def _show(self) -> None:
        p = self.document.table.preview(self.action())
        lines = list(p.get("threat", []))
        if "tn" in p:
            mod = p.get("result_modifier", 0)
            lines.append(
                f"Bravery {p.get('pool', '')} against TN {p['tn']}"
                + (f", result {mod:+d}" if mod else "")
            )
            lines += list(p.get("tn_items", []))
        self.tn.setText("\n".join(lines))
        self.message.setText(p.get("why_not") or "")

    def check(self) -> None:
        try:
            self.event = self.document.apply(self.action())
        except (RulesError, ValueError) as e:
            self.message.setText(str(e).splitlines()[0])
            return
        self.accept()


def open_bravery_dialog(document: Any, who: str, parent: QWidget | None = None) -> bool:
    return BraveryDialog(document, who, parent).exec() == QDialog.DialogCode.Accepted


def cover_menu_actions(parent: Any, document: Any, who: str) -> list[QAction]:
    """The covering-fire entries for one figure (a token or character id)."""
    table = document.table
    if not table.in_action:
        return []  # covering fire and the check under fire belong to action time
    try:
        c, tok = table.actor(who)
    except RulesError:
        return []
    out: list[QAction] = []

    def add(text: str, name: str, fn: Any, why: str | None = None, tip: str = "") -> QAction:
        act = QAction(text, parent)
        act.setObjectName(name)
        act.setStatusTip(tip or why or "")
        if why:
            act.setEnabled(False)
            act.setToolTip(why)
        act.triggered.connect(fn)
        out.append(act)
        return act

    st = cover_state(table, c.id)
    live = st is not None and ended_why(table, st) is None
    if tok is not None and not (live and st is not None and table.now()[0] <= st.round):

        def area(w: str, refs: list) -> CoveringFire:
            return CoveringFire(who=w, hexes=tuple(refs))

        def target(w: str, t: str) -> CoveringFire:
            return CoveringFire(who=w, target=t)

        probe = table.why_not(CoveringFire(who=c.id, target=c.id))
        why = probe if probe and "cannot cover themselves" not in probe else None
        if live:
            again = CoveringFire(who=c.id)
            add(
                "Covering fire: go on this round",
                "act_cover_again",
                lambda: _apply(document, again, parent),
                table.why_not(again),
                f"Declared again it goes on through this round ({SRC_COVER})",
            )
        add(
            "Covering fire on an area…",
            "act_cover_area",
            lambda: pick_area(document, c.id, area, parent),
            why,
            f"Click up to seven hexes, Enter to finish, Esc to cancel ({SRC_COVER})",
        )
        add(
            "Covering fire on a target…",
            "act_cover_target",
            lambda: pick_target(document, c.id, target, parent),
            why,
            f"Click the figure to cover ({SRC_COVER})",
        )
    if live and st is not None:
        marker = CoverMarker(who=c.id)
        add(
            "Place the next covering-fire marker",
            "act_cover_marker",
            lambda: _apply(document, marker, parent),
            table.why_not(marker),
            f"This continuous phase's target marker: a malfunction check and a round ({SRC_COVER})",
        )

        def moved(w: str, refs: list) -> CoverMarker:
            return CoverMarker(who=w, hexes=tuple(refs))

        add(
            "Place the next marker on another area…",
            "act_cover_marker_move",
            lambda: pick_area(document, c.id, moved, parent),
            table.why_not(marker),
        )
        shaded = covered_hexes(table, st)
        if shaded:
            payload = {
                "hexes": sorted([h.q, h.r] for h in shaded),
                "shooter": list(tok.hex) if tok is not None else None,
            }
            add(
                "Show the covered area to the players",
                "act_cover_show_players",
                lambda: document.show_players("covering", payload),
                None,
                "The players' screen shades the area (never the figures it hides)",
            )
        stop = StopCoveringFire(who=c.id)
        add("Stop covering fire", "act_cover_stop", lambda: _apply(document, stop, parent))
    for r in pending_reactions(table):
        if r.shooter != c.id:
            continue
        name = document.character(document.token(r.target_token).character_id).name
        shot = ReactionShot(who=c.id, target=r.target_token)
        label = (
            f"Reaction: automatic hit on {name}"
            if r.auto_hit_card is not None
            else f"Reaction shot at {name} (snap, no AP)"
        )
        add(
            label,
            "act_reaction_shot",
            lambda _c=False, s=shot: _apply(document, s, parent),
            None,
            SRC_COVER,
        )
    threat, _why = threat_for(table, c.id)
    if threat.any:
        add(
            "Bravery check under fire…",
            "act_bravery_check",
            lambda: open_bravery_dialog(document, c.id, parent),
            None,
            f"Before an aimed shot while targeted ({SRC_TACTICAL})",
        )
    return out


def risk_action(parent: Any, document: Any, who: str) -> QAction | None:
    """The "… risks death (001 Risk)" entry when the risk rule is on: the player's declaration
    that lifts the rule's protection for their Hero (one undo step)."""
    table = document.table
    if not table.encounter.options.risk:
        return None
    try:
        c, _tok = table.actor(who)
    except RulesError:
        return None
    act = QAction(f"{c.name} risks death ({SRC_RISK})", parent)
    act.setObjectName("act_risk_death")
    action = RiskDeath(who=c.id)
    why = table.why_not(action)
    act.setStatusTip(
        why or "A critical head or torso wound is no longer held at serious for this Hero"
    )
    act.setEnabled(why is None)
    act.triggered.connect(lambda: _apply(document, action, parent))
    return act
