"""The Phases round's steps (004): flip, next phase, act, delay, interrupt, keep or stop waiting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QInputDialog,
)

from ....play.actions import EndSegment
from ....play.track_actions import (
    Act,
    ChoosePhase,
    Delay,
    FreeAction,
    Interrupt,
    KeepWaiting,
    Resolve,
    StopWaiting,
)
from ....rules import actions as A
from ....rules.base import Speed
from .host import TrackHost


def flip_card(panel: TrackHost) -> bool:
    t = panel.track
    keys: list[tuple[str, str]] = []
    if t is not None and panel.document.deck.physical:
        per = panel.document.encounter.options.phases_card_per
        active = [r for r in t.state.rows.values() if r.status.value == "active"]
        if per == "all":
            keys = [("all", "everyone")]
        elif per == "side":
            keys = [(side, f"the {side}") for side in dict.fromkeys(r.side for r in active)]
        else:
            keys = [(r.character_id, r.name) for r in active]
    cards = panel._typed_cards(keys)
    if cards is None:
        return False
    return panel._do(Resolve(cards=cards or None))


def choose_phase(panel: TrackHost, cid: str, phase: int) -> bool:
    return panel._do(ChoosePhase(who=cid, phase=phase))


def next_phase(panel: TrackHost) -> bool:
    """Close the phase and open the next, past every phase nobody acts in (each
    skipped with a line saying so: 004 Taking Actions)."""
    return panel._do(EndSegment(skip_empty=True))


def act(
    panel: TrackHost, cid: str | None = None, action: Speed | A.ActionSpec | None = None
) -> bool:
    t = panel.track
    cid = cid or panel.selected_character() or (t.next_to_act() if t is not None else None)
    if cid is None:
        panel.message.error("Select who acts.")
        return False
    if isinstance(action, A.ActionSpec):
        return panel._do(Act(who=cid, declared=action))
    return panel._do(Act(who=cid, speed=action))


def delay(
    panel: TrackHost, cid: str | None = None, circumstance: str | None = None, ask: bool = False
) -> bool:
    """``cid`` holds their action (004 Delaying an Action): for a circumstance
    (which may be waited for into the next round) or, left blank, to act later.
    ``ask``: the button asks the Judge for the circumstance first."""
    cid = cid or panel.selected_character()
    if cid is None:
        panel.message.error("Select who delays.")
        return False
    name = panel.document.character(cid).name
    if ask:
        text, ok = QInputDialog.getText(
            panel.widget, "Delay", f"{name} waits for (leave blank to act at any later moment):"
        )
        if not ok:
            return False
        circumstance = text.strip() or None
    return panel._do(Delay(who=cid, circumstance=circumstance))


def _delay_asking(panel: TrackHost) -> bool:
    """The Delay button: the selected character delays, the Judge typing the
    circumstance."""
    return panel.delay(ask=True)


def _waiting_character(panel: TrackHost) -> str | None:
    """The selected character, else the only one still waiting from last round."""
    cid = panel.selected_character()
    t = panel.track
    if cid is None and t is not None and hasattr(t, "keep_waiting"):
        waiting = [r.character_id for r in t.state.rows.values() if r.waiting_for]
        cid = waiting[0] if len(waiting) == 1 else None
    return cid


def _waiting_step(panel: TrackHost, cid: str | None, what: str, make: Callable[[str], Any]) -> bool:
    """The action ``make(cid)`` for ``cid`` or else :meth:`_waiting_character`."""
    cid = cid or panel._waiting_character()
    if cid is None:
        panel.message.error(f"Select who {what}.")
        return False
    return panel._do(make(cid))


def keep_waiting(panel: TrackHost, cid: str | None = None) -> bool:
    """``cid`` goes on waiting for last round's circumstance (004 Delaying an
    Action): one undoable step; a refusal shows the engine's reason."""
    return panel._waiting_step(cid, "keeps waiting", lambda k: KeepWaiting(who=k))


def stop_waiting(panel: TrackHost, cid: str | None = None) -> bool:
    """``cid`` drops last round's circumstance and declares afresh (004 Delaying
    an Action): one undoable step; a refusal shows the engine's reason."""
    return panel._waiting_step(cid, "stops waiting", lambda k: StopWaiting(who=k))


def interrupt(panel: TrackHost, cid: str | None = None, against: str | None = None) -> bool:
    """``cid`` (delaying) tries to act before ``against`` (default: the next to
    act): the Reflex contest of 004 Delaying an Action, one undoable step."""
    cid = cid or panel.selected_character()
    if cid is None:
        panel.message.error("Select who interrupts.")
        return False
    name = panel.document.character(cid).name
    cards = panel._typed_cards([(cid, f"{name}'s interruption (one card for both)")])
    if cards is None:
        return False
    return panel._do(Interrupt(who=cid, against=against, card=cards.get(cid)))


def _phase_cell_clicked(panel: TrackHost, r: int, c: int) -> None:
    if not 4 <= c <= 7 or r >= len(panel._row_ids):
        return
    t = panel.track
    if t is None or t.state.stage.value != "resolved":
        return
    cid = panel._row_ids[r]
    if (c - 3) in t.row(cid).qualifying:
        panel.choose_phase(cid, c - 3)


def free_action(panel: TrackHost, cid: str, what: str | None = None) -> bool:
    """004 Free Actions: talking, a hand signal, dropping an item — one a round on top
    of the declaration, any further one a Quick action (the track counts them)."""
    if what is None:
        name = panel.document.character(cid).name
        text, ok = QInputDialog.getText(
            panel.widget, "Free action", f"What does {name} do (talk, signal, drop…)?"
        )
        if not ok:
            return False
        what = text.strip()[:200]
    return panel._do(FreeAction(who=cid, what=what))
