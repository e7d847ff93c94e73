"""What a character could declare now, and what a declared action does to the table.

:func:`catalogue` lists every action of the 000 catalogue a character could declare
(the Declare menu, ``twtw-desktop play --actions``), each priced or with the reason it
cannot be built; :func:`apply_action_effects` is what a paid action does to the sheet
and the token (a gun drawn, cocked or reloaded, a posture taken);
:func:`apply_bleeding` writes the sheets a round's bleeding changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import RulesError
from ..rules import actions as A
from ..rules.character import Character, Posture
from ..rules.combat.melee import ATTACK_TYPES

if TYPE_CHECKING:
    from ..rules.gear import Weapon
    from .table import Table, TableView


class CatalogueEntry:
    """One line of the Declare menu: a group, a label and the action (or why not)."""

    def __init__(self, group: str, label: str, spec: A.ActionSpec | None, why: str = "") -> None:
        self.group = group
        self.label = label
        self.spec = spec
        self.why = why


def catalogue(table: TableView, c: Character) -> list[CatalogueEntry]:
    """Every action the character could declare now, with its cost (000)."""
    out: list[CatalogueEntry] = []

    def add(group: str, label: str, make: Callable[..., A.ActionSpec]) -> None:
        try:
            out.append(CatalogueEntry(group, label, make()))
        except RulesError as e:
            out.append(CatalogueEntry(group, label, None, str(e)))

    gear = table.gear.weapons
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


def apply_action_effects(
    table: Table, cid: str, spec: A.ActionSpec, slot: int | None = None
) -> list[str]:
    """What a declared action does to the sheet and the token (ready, cock, reload —
    the carried entry ``slot`` when given, else the first of the weapon it fits —,
    posture); returns the lines for the log. The one place a reload's rule lives
    (one cartridge, or the whole weapon when its gear reloads it whole)."""
    c = table.character(cid)
    notes: list[str] = []
    kind = spec.kind
    if kind in (A.ActionKind.DRAW, A.ActionKind.READY, A.ActionKind.COCK, A.ActionKind.RELOAD):
        weapons = [w.model_copy() for w in c.weapons]
        for i, cw in enumerate(weapons):
            if cw.weapon_id != spec.weapon_id or (slot is not None and i != slot):
                continue
            w = table.gear.weapons.get(cw.weapon_id)
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
        # the sheet and every token of the character together (commands.set_posture)
        notes += set_posture(table, cid, posture) or [f"{c.name} stays {posture.value}"]
    return notes


def apply_bleeding(table: Table, event: object) -> list[str]:
    """Apply the sheets an end-of-round event carries in ``bleeding`` (001 Optional
    Bleeding; both engines return the new sheets, they never change the encounter)
    and log one line per character. Call it inside the step's command, so undo puts
    the old sheets back with the round."""
    lines: list[str] = []
    for rec in getattr(event, "bleeding", ()) or ():
        try:
            target = table.character(rec.character_id)
        except KeyError:
            continue  # left the encounter since the engine last read the sheets
        before = target.conc
        target.assign_from(rec.character)
        text = f"{target.name} bleeds {rec.conc_lost} Conc: {before} → {target.conc}"
        if target.dead:
            text += ", and has bled to death"
        elif target.concussed:
            text += ", concussed"
        table.log(
            text + " (001 Optional Bleeding)",
            "damage",
            {"character_id": rec.character_id, "reasons": list(rec.reasons)},
        )
        lines.append(text)
    return lines


def set_posture(table: TableView, character_id: str, posture: Posture | str) -> list[str]:
    """Change a character's posture everywhere it is shown (a plain model change, for
    use inside a table step); returns the log lines.

    The sheet's ``Character.posture`` is the single truth (it exists for characters
    off the map, and the rules read it); every token standing for the character
    mirrors it, because the map, the cover line and the attack geometry read the
    token. Ducking goes behind cover and emerging or any other posture change out of
    ducked leaves it (000 Movement AP Cost: duck behind / emerge from cover).
    """
    new = Posture(posture)
    c = table.character(character_id)
    old = c.posture
    c.posture = new
    if new is Posture.DUCKED:
        c.behind_cover = True
    elif old is Posture.DUCKED:
        c.behind_cover = False
    for t in table.encounter.tokens:
        if t.character_id == character_id:
            t.posture = new
    if old is new:
        return []
    return [f"{c.name} is now {new.value}"]


def posture_mismatch(table: TableView, character_id: str) -> list[str]:
    """Ids of the character's tokens whose posture disagrees with the sheet (a file
    written before postures were kept in step)."""
    c = table.character(character_id)
    return [
        t.id
        for t in table.encounter.tokens
        if t.character_id == character_id and t.posture is not c.posture
    ]


def weapon_in_hand(table: TableView, token_id: str) -> Weapon | None:
    """The weapon the token holds: ``weapon_in_hand``, else the first readied weapon,
    else the first carried ranged weapon (None when it carries nothing known)."""
    tok = table.token(token_id)
    ch = table.character(tok.character_id)
    ids = []
    if tok.weapon_in_hand:
        ids.append(tok.weapon_in_hand)
    ids += [w.weapon_id for w in ch.weapons if w.readied]
    ids += [w.weapon_id for w in ch.weapons]
    for wid in ids:
        w = table.gear.weapons.get(wid)
        if w is not None and (w.is_ranged or w.throwable or w.kind in ("thrown", "explosive")):
            return w
    for wid in ids:
        w = table.gear.weapons.get(wid)
        if w is not None:
            return w
    return None
