"""Throw: the selected token throws its throwing weapon (dynamite, a knife…) at a hex.

Click the target hex: the tool builds the table's ``throw`` action
(:class:`~twtw_desktop.play.combat_actions.Throw`) and applies it as one undoable
step; the rules — the TN (000 Throwing Things), the scatter of a miss (000 Missed
Throws), the blast where an explosive lands — are :mod:`twtw_desktop.play.throw`'s.
The scatter clock appears on the map centred on the target, turned so 6 points back
at the thrower, and the landing hex is marked.

With a printed deck (the Deck panel's physical-card mode) the Judge is asked for the
throw's card, then for every further card the resolution reads — an exceptional cell
reading on, each blast victim's card, each stun check — one at a time, each question
naming what the card is for (the table's :class:`~twtw_desktop.play.attack.CardNeeded`).
A miss scatters by the throw's own card (000 Missed Throws reads the clock and step of
that card), so it asks for no card of its own. Cancelling any question leaves
everything as it was; a card already read in this throw (or held by the printed
deck's in-play or discard pile) is refused and asked for again.

After a throw a small **Show the players** button appears at the top of the map
(shortcut P while the tool is active): it sends the scatter to the players' screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QDialog, QToolButton

from ...errors import RulesError
from ...hexgrid import Hex
from ...rules.card import Card
from ..core.document import EncounterDocument
from .base import Tool

if TYPE_CHECKING:
    from ...play.combat_actions import Throw
    from ...play.throw import ThrowOutcome


def throw_action(
    doc: EncounterDocument,
    token_id: str,
    target: Hex,
    *,
    weapon_id: str | None = None,
    typed: Card | None = None,
    typed_more: Sequence[Card] = (),
) -> Throw:
    """The table's ``throw`` action for a click on ``target``."""
    # lazy: start-up (the table's actions, not needed by the map's first frame)
    from ...play.actions import ref_of
    from ...play.combat_actions import Throw, card_ref

    table = doc.table
    if not table.map.contains(target):
        raise RulesError("That hex is off the map.")
    return Throw(
        who=token_id,
        to=tuple(ref_of(table, target)),  # type: ignore[arg-type]
        weapon=weapon_id,
        card=card_ref(table, typed) if typed is not None else None,
        more_cards=tuple(card_ref(table, c) for c in typed_more),
    )


def throw_at(
    doc: EncounterDocument,
    token_id: str,
    target: Hex,
    *,
    weapon_id: str | None = None,
    typed: Card | None = None,
    typed_more: Sequence[Card] = (),
) -> ThrowOutcome:
    """Apply the throw as one undoable step; returns what happened.

    Raises :class:`RulesError` (and changes nothing) when the rules refuse the throw.
    With a printed deck, while a card is missing this raises
    :class:`~twtw_desktop.play.attack.CardNeeded` naming what it is for, and changes
    nothing."""
    action = throw_action(
        doc, token_id, target, weapon_id=weapon_id, typed=typed, typed_more=typed_more
    )
    action.check_cards(doc.table)
    event = doc.apply(action)
    return event.raw[0]


def ask_printed_card(parent, purpose: str, refusal: str = "") -> Card | None:
    """Ask the Judge for a card drawn from the printed deck for ``purpose`` (the
    Deck panel's physical-card entry form); None when cancelled. ``refusal`` says why
    the card typed before was not taken. Tests replace this hook."""
    # the form loads when first asked for (not with the map's tools at start-up)
    from ..widgets.card_entry import PhysicalCardDialog

    dlg = PhysicalCardDialog(parent, title=f"Type the card drawn for {purpose}")
    if refusal:
        dlg.message.setText(refusal)
        dlg.message.show()
    try:
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return dlg.card
    finally:
        dlg.deleteLater()


class ThrowTool(Tool):
    name = "throw"
    title = "Throw"
    shortcut = "T"
    tooltip = "The selected token throws (dynamite, a knife…) at the hex you click; a miss scatters"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        #: the last throw made with this tool (what "Show the players" sends)
        self.last: ThrowOutcome | None = None
        self.show_button = QToolButton(view.viewport())
        self.show_button.setText("Show the players the throw")
        self.show_button.setToolTip(
            "Send the scatter (thrower, target, landing) to the players' screen (P)"
        )
        self.show_button.setStyleSheet(
            "QToolButton { background: #fff7e0; border: 1px solid #b07020; padding: 3px 8px; }"
        )
        self.show_button.clicked.connect(self.show_players)
        self.show_button.hide()

    def activate(self) -> None:
        super().activate()
        sel = self.document.selected_token_id if self.document else None
        if sel is None:
            self.say("Select the thrower first, then click the target hex.")
        else:
            self.say("Click the target hex.")

    def clear(self) -> None:
        self.show_button.hide()

    def document_changed(self) -> None:
        self.last = None
        self.clear()

    def show_players(self) -> bool:
        """Send the last throw to the players' screen: ``("scatter", (thrower hex,
        target hex, landing hex))``. False when there is nothing to show."""
        t = self.last
        if t is None or t.thrower is None or t.target is None:
            return False
        self.document.show_players("scatter", (t.thrower, t.target, t.landing))
        self.say("The throw is on the players' screen.")
        return True

    def _offer_show(self) -> None:
        b = self.show_button
        b.adjustSize()
        vp = self.view.viewport()
        b.move(max(4, (vp.width() - b.width()) // 2), 8)
        b.show()
        b.raise_()

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        doc = self.document
        tid = doc.selected_token_id
        if tid is None:
            tok = doc.encounter.token_at(h)
            if tok is not None:
                doc.select(tok.id)
                self.say("Thrower selected: now click the target hex.")
            else:
                self.say("Click the thrower's token first.")
            return True
        self.throw(h)
        return True

    def throw(self, h: Hex) -> ThrowOutcome | None:
        """The selected token throws at ``h``; with a printed deck the Judge is asked
        for each card in turn. None when the rules refuse or the Judge cancels (then
        nothing has changed)."""
        doc = self.document
        tid = doc.selected_token_id
        if tid is None:
            self.say("Select the thrower first, then click the target hex.")
            return None
        try:
            outcome = self._throw_printed(tid, h) if doc.deck.physical else throw_at(doc, tid, h)
        except (RulesError, KeyError) as e:
            self.say(str(e.args[0] if isinstance(e, KeyError) else e))
            return None
        if outcome is None:
            self.say("Throw cancelled: nothing has changed.")
            return None
        self.last = outcome
        self._offer_show()
        self.say(outcome.text)
        return outcome

    def _throw_printed(self, tid: str, h: Hex) -> ThrowOutcome | None:
        """A throw with a printed deck: ask for the throw's card, then for each further
        card the resolution reads, one at a time, each question naming what the card
        is for (the attack flow's :class:`CardNeeded`). None when the Judge cancels."""
        from ...play.attack import CardNeeded
        from ...play.throw import typed_card_refusal

        doc = self.document
        cards: list[Card] = []
        while True:
            try:
                return throw_at(
                    doc, tid, h, typed=cards[0] if cards else None, typed_more=cards[1:]
                )
            except CardNeeded as need:
                purpose = need.purpose
            refusal = ""
            while True:
                self.say(f"Draw a card for {purpose} and type it in.")
                card = ask_printed_card(self.view, purpose, refusal)
                if card is None:
                    return None
                refusal = typed_card_refusal(doc.deck, cards, card) or ""
                if not refusal:
                    break
            cards.append(card)

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.view.overlays.dismiss_throw()
            self.show_button.hide()
            return True
        if ev.key() == Qt.Key.Key_P and self.last is not None:
            return self.show_players()
        return False
