"""The track's steps (AP v2 and both editions): each button or menu entry one table action, one undo step."""

from __future__ import annotations

from typing import Any

from ....play.actions import Declare, EndRound, EndSegment, StartRound
from ....play.declarations import (
    ClearStanding,
    PassTurn,
    RecoveryCheck,
    RunOn,
    WaitUntil,
    due_recovery,
)
from ....play.track_actions import (
    Continuous,
    DeclareAction,
    JoinStack,
    QuickDraw,
    Resolve,
    Rush,
    StackBonus,
    StackModifiers,
    StartRoundWithCards,
    Surprise,
)
from ....rules import actions as A
from ....rules.base import Speed
from .._common import USER_ERRORS, attempt, error_text
from . import speed_keys
from .dialogs import ContinuousDialog
from .host import TrackHost
from .menus import _short


# -- pushing steps ----------------------------------------------------------------
def _do(panel: TrackHost, action: Any) -> bool:
    """Apply one table action as one undoable step; show its event, or the
    table's reason for refusing it."""
    done: list[Any] = []
    ok = attempt(panel.message, lambda: done.append(panel.document.apply(action)))
    if ok and done and done[0] is not None:
        ev = done[0]
        panel.last_event = ev.raw[-1] if ev.raw else None
        panel.info.setText(ev.text)
    return ok


def _why(panel: TrackHost, action: Any) -> str:
    """Why the table refuses ``action`` now ("" when it would accept it); the table
    builds the step without keeping it, so menus show the engine's own reasons."""
    return _short(panel.document.table.why_not(action) or "")


def toggle_action_time(panel: TrackHost) -> bool:
    """Declare action time, or go back to narrative time (one undoable step)."""
    doc = panel.document
    try:
        if doc.in_action:
            doc.end_action_time()
        else:
            doc.start_action_time()
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return False
    finally:
        panel.action_button.setChecked(panel.track is not None)
    panel.message.clear()
    return True


def _typed_cards(panel: TrackHost, keys: list[tuple[str, str]]) -> dict | None:
    """With a printed deck, ask the Judge for each card the step reads
    (``keys``: (key, who it is for)); None when the Judge cancels. Without one, {}."""
    if not panel.document.deck.physical:
        return {}
    from ...widgets.card_entry import PhysicalCardDialog

    out = {}
    for key, who in keys:
        dlg = PhysicalCardDialog(panel.widget, title=f"Type the card drawn for {who}")
        if not dlg.exec() or dlg.card is None:
            return None
        out[key] = dlg.card
    return out


def start_round(panel: TrackHost) -> bool:
    if panel.track is None and not panel.toggle_action_time():
        return False
    chars = [c for c in panel.document.encounter.characters if not (c.out_of_action or c.stunned)]
    cards = panel._typed_cards([(c.id, c.name) for c in chars])
    if cards is None:
        return False
    panel.document.running_on = False
    # 000 Wound Effects: "Each round, stunned characters use their action (Recover,
    # all APs) to attempt a recovery check" — the round they spent is over: F5
    # draws each check due before the next round starts
    for cid in due_recovery(panel.document.table):
        card = None
        if panel.document.deck.physical:
            typed = panel._typed_cards([(cid, panel.document.character(cid).name)])
            if typed is None:
                return False
            card = typed.get(cid)
        if not panel._do(RecoveryCheck(who=cid, card=card)):
            return False
    if not panel._do(StartRoundWithCards(cards=cards) if cards else StartRound()):
        return False
    speed_keys.focus_first_to_declare(panel)  # Phases: the Judge types the speeds
    return True


# AP v2 ----------------------------------------------------------------------------
def next_segment(panel: TrackHost) -> bool:
    return panel._do(EndSegment())


def next_due(panel: TrackHost) -> bool:
    """Run on (F6): the table counts the segments until the Judge must decide
    (one undo step); those the last stop named as able to act with nothing
    declared pass first, in the same step."""
    t = panel.track
    passing = t.pending_declarers() if t is not None else []
    panel.document.running_on = True
    return panel._do(RunOn(passing=passing))


def pass_turn(panel: TrackHost, cids: list[str]) -> bool:
    return panel._do(PassTurn(who=cids))


def clear_standing(panel: TrackHost, cid: str) -> bool:
    return panel._do(ClearStanding(who=cid))


def wait_until(panel: TrackHost, cid: str, counters: int | None = None) -> bool:
    if counters is None:
        from PySide6.QtWidgets import QInputDialog

        name = panel.document.character(cid).name
        value, ok = QInputDialog.getInt(
            panel.widget, "Wait", f"{name} waits until this many counters are out:", 3, 1, 40
        )
        if not ok:
            return False
        counters = value
    return panel._do(WaitUntil(who=cid, counters=counters))


def declare(panel: TrackHost, cid: str, spec: A.ActionSpec) -> bool:
    """Declare ``spec`` for ``cid`` on the track (pays the counters), with its
    effect on the sheet (ready, cock, reload, posture)."""
    return panel._do(DeclareAction(who=cid, declared=spec))


def resolve_stack(panel: TrackHost) -> bool:
    t = panel.track
    waiting = [e for e in t.stack() if not e.resolved] if t is not None else []
    cards = panel._typed_cards(
        [(e.character_id, panel.document.character(e.character_id).name) for e in waiting]
    )
    if cards is None:
        return False
    return panel._do(Resolve(cards=cards or None))


def end_round(panel: TrackHost) -> bool:
    return panel._do(EndRound())


def join_stack(panel: TrackHost, cid: str, spec: A.ActionSpec) -> bool:
    """Put ``spec`` on this segment's stack beside another character's action
    (000 Simultaneous Actions), with its effect on the sheet; one undoable step."""
    return panel._do(JoinStack(who=cid, declared=spec))


def rush(panel: TrackHost, cid: str, spec: A.ActionSpec) -> bool:
    """Rush ``spec`` (optional rule, 000 Rushing Actions): counters plus pool AP;
    the rush tax is paid when the stack resolves. One undoable step."""
    return panel._do(Rush(who=cid, declared=spec))


def stack_entry(panel: TrackHost, cid: str):
    """``cid``'s action waiting on the current segment's stack (None if none)."""
    t = panel.track
    if t is None or not hasattr(t, "stack"):
        return None
    mine = [e for e in t.stack() if e.character_id == cid and not e.resolved]
    return mine[-1] if mine else None


def quick_draw(panel: TrackHost, cid: str) -> bool:
    """The TN 5 Quick Draw check for ``cid``'s action on the stack; one undoable step."""
    name = panel.document.character(cid).name
    cards = panel._typed_cards([(cid, f"{name}'s Quick Draw check")])
    if cards is None:
        return False
    return panel._do(QuickDraw(who=cid, card=cards.get(cid)))


def buy_stack_bonus(panel: TrackHost, cid: str, ap: int) -> bool:
    """Spend ``ap`` AP from the pool for +1 each on the stack; one undoable step."""
    return panel._do(StackBonus(who=cid, ap=ap))


def set_stack_modifiers(
    panel: TrackHost, cid: str, gear: int = 0, environment: int = 0, note: str = ""
) -> bool:
    """The Judge's gear and wound/environment modifiers for ``cid``'s action on the
    stack; one undoable step."""
    return panel._do(StackModifiers(who=cid, gear=gear, environment=environment, note=note))


def surprise(panel: TrackHost, cids: list[str] | str, expecting_danger: bool) -> bool:
    """Surprise checks for ``cids`` (one card each) as one undoable step; in
    narrative time action time is declared first (001/003 Surprise)."""
    ids = [cids] if isinstance(cids, str) else list(cids)
    if not ids:
        return False
    if panel.track is None and not panel.toggle_action_time():
        return False
    doc = panel.document
    names = [doc.character(i).name for i in ids]
    cards = panel._typed_cards(
        [(i, f"{n}'s surprise check") for i, n in zip(ids, names, strict=True)]
    )
    if cards is None:
        return False
    return panel._do(Surprise(who=ids, expecting_danger=expecting_danger, cards=cards or None))


def edit_mover(panel: TrackHost, mover_id: str | None = None) -> bool:
    """Ask for a continuous mover's paces (and, in the Phases edition, the rider's
    skill and the mount's handling), then set it."""
    t = panel.track
    if t is None:
        panel.message.error("Declare action time first (Start action time).")
        return False
    dlg = ContinuousDialog(panel.widget, panel.document, t, mover_id)
    if not dlg.exec():
        return False
    v = dlg.values()
    return panel.set_continuous(
        v["mover_id"],
        v["paces"],
        name=v["name"],
        automated=v["automated"],
        skill=v["skill"],
        handling=v["handling"],
    )


def set_continuous(
    panel: TrackHost,
    mover_id: str,
    paces: int | None,
    *,
    name: str | None = None,
    automated: bool = False,
    skill: int = 0,
    handling: int = 0,
) -> bool:
    """Start, change or (``paces`` None/0) stop a continuous mover; one undoable
    step. ``skill``/``handling`` count in the Phases edition only (002)."""
    return panel._do(
        Continuous(
            mover=mover_id,
            paces=paces,
            name=name,
            automated=automated,
            skill=skill,
            handling=handling,
        )
    )


def declare_speed(panel: TrackHost, cid: str, speed: Speed) -> bool:
    return panel._do(Declare(who=cid, speed=speed))
