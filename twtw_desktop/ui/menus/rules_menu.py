"""The token's (and its track row's) menu entries for table steps a script could take
and the window could not: putting a weapon away, giving up a skill paid in part, a
Phases action done at once with the other hand, a Phases maneuver of a mount or
vehicle, carrying a fight after bumps spent on dominance, a target token dropped on
another's move. Each entry only builds the table action; the table says whether it
may be taken (a refused entry is greyed, its tooltip saying why) and does it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMenu

from ...hexgrid import Hex
from ...play.actions import Draw, Holster, ref_of
from ...play.combat_actions import SnapShot
from ...play.melee_actions import DominanceMove
from ...play.speed_actions import direction_name
from ...play.target_actions import TargetToken
from ...play.track_actions import AbandonProgress, AtOnce, Maneuver


def table_entry(
    menu: QMenu | None, document: Any, text: str, action: Any, parent: Any = None
) -> QAction:
    """An entry applying a table action (added to ``menu`` when given); disabled,
    saying why, when the table refuses it."""
    act = QAction(text, menu if menu is not None else parent)
    if menu is not None:
        menu.addAction(act)
    why = document.table.why_not(action)
    if why:
        act.setEnabled(False)
        act.setToolTip(why)
        act.setStatusTip(why)
    act.triggered.connect(lambda: document.apply(action))
    return act


def _menu(parent: Any, title: str, name: str) -> QMenu:
    menu = QMenu(title, parent)
    menu.setObjectName(name)
    menu.setToolTipsVisible(True)
    return menu


def put_away_menu(parent: Any, document: Any, who: str) -> QMenu | None:
    """ "Put away" (holster): each weapon in hand (house: the cost of drawing it)."""
    table = document.table
    c, _tok = table.actor(who)
    slots = [(i, cw) for i, cw in enumerate(c.weapons) if cw.readied]
    if not slots:
        return None
    menu = _menu(parent, "Put away", "menu_put_away")
    for i, cw in slots:
        w = table.gear.weapons.get(cw.weapon_id)
        name = w.name if w is not None else cw.weapon_id
        table_entry(menu, document, f"The {name}", Holster(who=c.id, weapon=cw.weapon_id, slot=i))
    return menu


def abandon_action(parent: Any, document: Any, who: str) -> QAction | None:
    """AP v2: "Give up <the skill> paid in part" for a character paying toward a
    multi-round skill (000 Skills During Action Time: the AP paid are lost)."""
    table = document.table
    if table.time is None or table.time.kind != "segments":
        return None
    c, _tok = table.actor(who)
    row = table.track.state.rows.get(c.id)
    if row is None or row.progress is None:
        return None
    what = row.progress.action.describe()
    act = table_entry(
        None,
        document,
        f"Give up {what} ({row.progress.paid} AP paid are lost)",
        AbandonProgress(who=c.id),
        parent,
    )
    act.setObjectName("act_abandon")
    return act


def at_once_menu(parent: Any, document: Any, who: str) -> QMenu | None:
    """Phases: "At once, with the other hand" — a draw, or a snap shot with a gun in
    hand, done at the same time as the character's last action (004 Simultaneous Actions: the two count as one action of
    the slower speed when combining)."""
    table = document.table
    if table.time is None or table.time.kind != "phases":
        return None
    c, tok = table.actor(who)
    menu = _menu(parent, "At once, with the other hand (004)", "menu_at_once")
    others = [t for t in document.encounter.tokens if t.id != (tok.id if tok else None)]
    for i, cw in enumerate(c.weapons):
        w = table.gear.weapons.get(cw.weapon_id)
        if w is None:
            continue
        if not cw.readied:
            then = Draw(who=c.id, weapon=cw.weapon_id, slot=i).journal_form()
            table_entry(menu, document, f"Draw the {w.name}", AtOnce(who=c.id, then=then))
        elif w.snap_ap is not None:
            # "draw a knife and fire a pistol" (004): a snap shot with the gun in hand
            sub = menu.addMenu(f"Snap shot with the {w.name} at")
            sub.setToolTipsVisible(True)
            for t in others:
                shot = SnapShot(who=c.id, target=t.id, weapon=cw.weapon_id, slot=i)
                name = table.character_of(t.id).name
                table_entry(sub, document, name, AtOnce(who=c.id, then=shot.journal_form()))
    if not menu.actions():
        menu.addAction("Nothing else to take in hand").setEnabled(False)
    return menu


def maneuver_menu(parent: Any, document: Any, who: str) -> QMenu | None:
    """Phases: "Maneuver <mover>" for a continuous mover's rider (or the mover
    itself): steer toward a hexside, or change its speed (002 Mounted and Vehicular
    Movement)."""
    table = document.table
    if table.time is None or table.time.kind != "phases":
        return None
    c, tok = table.actor(who)
    movers = {m.mover_id: m for m in table.track.state.movers}
    ids = [c.id]
    if tok is not None and tok.riding is not None:
        ids.insert(0, table.character_of(tok.riding).id)
    found = next((movers[i] for i in ids if i in movers), None)
    if found is None:
        return None
    menu = _menu(parent, f"Maneuver {found.name} (002)", "menu_maneuver")
    for facing in range(6):
        act = Maneuver(who=c.id, mover=found.mover_id, facing=facing)
        table_entry(menu, document, f"Steer toward {direction_name(table, facing)}", act)
    speed = menu.addAction(f"Change speed (now {found.paces} paces a round)…")
    speed.setObjectName("act_maneuver_speed")
    speed.triggered.connect(lambda: _ask_speed(parent, document, c.id, found.mover_id, found.paces))
    return menu


def carry_menu(parent: Any, document: Any, who: str) -> QMenu | None:
    """ "Carry the fight" after a blow whose bumps went on dominance: the foe to each
    hex up to the paces bought, in the six directions (000 Asserting Dominance)."""
    table = document.table
    c, tok = table.actor(who)
    if tok is None or not tok.dominance_paces:
        return None
    menu = _menu(parent, f"Carry the fight (up to {tok.dominance_paces} paces)", "menu_carry")
    for foe_id in tok.engaged_with:
        foe = table.token(foe_id)
        name = table.character_of(foe_id).name
        for direction in range(6):
            h = foe.at
            for paces in range(1, tok.dominance_paces + 1):
                h = h.neighbor(direction)
                if not table.map.contains(h):
                    break
                act = DominanceMove(who=c.id, target=foe_id, to=ref_of(table, h))
                text = f"{name} to {table.hex_label(h)} ({paces} pace{'s' if paces > 1 else ''})"
                table_entry(menu, document, text, act)
    return menu


def target_token_menu(parent: Any, document: Any, who: str) -> QMenu | None:
    """Phases: "Drop the target token on" each hex another figure's moves passed this
    round (001 Declare Target)."""
    table = document.table
    if table.time is None or table.time.kind != "phases":
        return None
    c, tok = table.actor(who)
    movers = [t for t in document.encounter.tokens if t.trail and (tok is None or t.id != tok.id)]
    if tok is None or not movers:
        return None
    menu = _menu(parent, "Drop the target token on (001)", "menu_target_token")
    for t in movers:
        sub = menu.addMenu(table.character_of(t.id).name)
        sub.setToolTipsVisible(True)
        for q, r in t.trail:
            h = Hex(q, r)
            act = TargetToken(who=c.id, target=t.id, at=ref_of(table, h))
            table_entry(sub, document, table.hex_label(h), act)
    return menu


def _ask_speed(parent: Any, document: Any, who: str, mover: str, now: int) -> None:
    paces, ok = QInputDialog.getInt(
        parent, "Change speed", "Paces a round (an Easy (3) check, 002):", now, 0, 1000
    )
    if ok:
        document.apply(Maneuver(who=who, mover=mover, paces=paces))


def rules_menu_actions(parent: Any, document: Any, who: str) -> list:
    """The entries this module adds to a token's (or track row's) menu."""
    out: list = []
    for menu in (
        put_away_menu(parent, document, who),
        at_once_menu(parent, document, who),
        maneuver_menu(parent, document, who),
        carry_menu(parent, document, who),
        target_token_menu(parent, document, who),
    ):
        if menu is not None:
            act = menu.menuAction()
            act.sub_menu = menu  # type: ignore[attr-defined]  # alive with its entry
            out.append(act)
    abandon = abandon_action(parent, document, who)
    if abandon is not None:
        out.append(abandon)
    return out


__all__ = ["rules_menu_actions"]
