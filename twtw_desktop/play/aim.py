"""Aims taken ahead of a shot, read off the table's log (000 / 001 / 003 Aim and Snap
Shots; 003 Advanced Rule: Fields of Fire).

An ``aim`` action is paid when it is taken and logged with where the firer and the
target stood. The next shot by that firer with that gun at that target counts the
aims; any firing action by the firer ends them (000/001/003: aim does not persist
from shot to shot). Which shots count them, how many count, and whether they
outlast the round are the edition's (``Edition.aim``):

* AP v2 (000): a normal or aimed shot counts them; a snap shot is its own, quicker
  shot and throws them away. Aims count within the round (house, see the edition's
  house values).
* Phases (001/003): every shot counts them, since a shot with no aim before it *is*
  the snap shot; the first aim only removes the snap penalty, and an aim may be
  finished by a shot in the next round (003).

With the fields-of-fire rule on (Rules dialog), the target's hex when the shot comes
is tested against the line from the firer to the hex it was first aimed at (003's
test: more than half the range sideways leaves a 60° field, more than the range a
120° one); a target that left the field makes the shot a snap shot, and an aim taken
after that starts afresh. Both are said in the shot's situation and TN breakdown and
in the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..geometry import left_field_of_fire
from ..hexgrid import Hex, facing_toward

if TYPE_CHECKING:
    from ..geometry.fields import FieldExit
    from ..model.encounter import Token
    from ..rules.gear import Weapon
    from .table import Table

#: the log entry kind of an aim action
AIM_KIND = "aim"


@dataclass(frozen=True, slots=True)
class AimsAhead:
    """The aims a firer has taken at one target with one gun since their last shot."""

    count: int = 0
    #: where the firer stood and where the target stood at the first of them
    shooter_at: Hex | None = None
    target_at: Hex | None = None
    #: the round of the first of them (an aim held over rounds, 003 Procedure)
    first_round: int | None = None
    #: one of them was declared held as a continuous action (003 Procedure)
    held: bool = False


def aim_detail(
    character_id: str, target_token: str, weapon_id: str, shooter: Hex, target: Hex
) -> dict[str, Any]:
    """The log detail of an aim action (what :func:`aims_ahead` reads back)."""
    return {
        "aim": [character_id, target_token, weapon_id],
        "from": [shooter.q, shooter.r],
        "at": [target.q, target.r],
    }


def aims_ahead(table: Table, character_id: str, target_token: str, weapon_id: str) -> AimsAhead:
    """Aims the character took at that target with that gun since their last firing
    action (and this round, where the edition's aims do not outlast it), read off the
    log so undo takes them back. An aim logged as a fresh start (the target had left
    the field of fire) counts, the ones before it do not."""
    rule = table.edition.aim
    rnd, _ = table.now()
    n = 0
    first: dict[str, Any] | None = None
    first_round: int | None = None
    held = False
    centre: dict[str, Any] | None = None  # the latest re-centring of a held aim
    for entry in reversed(table.encounter.log):
        if table.in_action and entry.round != rnd and not rule.across_rounds:
            break
        detail = entry.detail or {}
        if entry.kind == "attack" and (detail.get("record") or {}).get("attacker_id") == (
            character_id
        ):
            break
        if entry.kind == AIM_KIND and detail.get("aim") == [character_id, target_token, weapon_id]:
            if detail.get("recentre"):
                centre = centre or detail
                continue
            n += 1
            first = detail
            first_round = entry.round
            held = held or bool(detail.get("hold"))
            if detail.get("fresh"):
                break
    if first is None:
        return AimsAhead()
    if centre is not None and held:
        first = centre
    frm, at = first.get("from"), first.get("at")
    return AimsAhead(
        n,
        Hex(*frm) if frm else None,
        Hex(*at) if at else None,
        first_round if table.in_action else None,
        held,
    )


def field_exit(table: Table, ahead: AimsAhead, target: Token, weapon: Weapon) -> FieldExit | None:
    """Has the target left the field of fire since the first aim? None when the
    fields-of-fire rule is off or the aims carry no positions (logged before they
    were kept)."""
    if not table.encounter.options.fields_of_fire or not ahead.count:
        return None
    if ahead.shooter_at is None or ahead.target_at is None or ahead.shooter_at == ahead.target_at:
        return None
    return left_field_of_fire(
        ahead.shooter_at,
        ahead.target_at,
        target.at,
        weapon.field_of_fire,
        orientation=table.map.orientation,
    )


def counts_aims(table: Table, shot_kind: str) -> bool:
    """Does a shot of this kind use the aims taken ahead? (000: a normal or aimed
    shot; 001/003: any shot, a shot without aim being the snap shot.)"""
    if shot_kind in ("normal", "aimed"):
        return True
    return shot_kind == "snap" and table.edition.aim.unaimed_is_snap


def aim_effect(table: Table, n: int, weapon: Weapon) -> str:
    """What the ``n``-th aim at a target does under the edition's rule, in words."""
    rule = table.edition.aim
    if n <= rule.penalty_aims:
        return f"removes the snap penalty ({weapon.snap_penalty:+d})"
    parts = [f"+{rule.bonus_each}"]
    if weapon.accurate and n == rule.accurate_from:
        parts.append(f"Accurate({weapon.accurate}) now counts")
    return ", ".join(parts)


def aim_request(
    table: Table,
    character_id: str,
    target: Token,
    weapon: Weapon,
    shot_kind: str,
    own_aims: int,
) -> dict[str, Any]:
    """The attack request's aim fields for a shot after aims taken ahead: an aimed shot
    with those aims already paid, or — the target having left the field of fire — a
    snap shot (the notes say which and why)."""
    if not counts_aims(table, shot_kind):
        return {}
    rule = table.edition.aim
    ahead = aims_ahead(table, character_id, target.id, weapon.id)
    if not ahead.count:
        return {}
    name = table.character_of(target.id).name
    notes = [f"{ahead.count} aim(s) taken ahead at {name} with the {weapon.name} ({rule.source})"]
    out: dict[str, Any] = {
        "shot_kind": "aimed",
        "aims": min(rule.max, ahead.count + own_aims),
        "prepaid_aims": ahead.count,
    }
    exit_ = field_exit(table, ahead, target, weapon)
    if exit_ is not None:
        notes += exit_.reasons
        if exit_.left:
            out["target_left_field_of_fire"] = True
    held = held_rounds(table, ahead)
    if held and weapon.accurate and not out.get("target_left_field_of_fire"):
        out["aim_held_rounds"] = held
    out["aim_notes"] = tuple(notes)
    return out


def held_aims(table: Table) -> list[tuple[str, str, str]]:
    """(character, target token, weapon) of every aim declared held and not yet
    ended by a shot of its firer (003 Procedure), oldest first."""
    keys: list[tuple[str, str, str]] = []
    for entry in table.encounter.log:
        detail = entry.detail or {}
        if entry.kind == AIM_KIND and detail.get("hold") and not detail.get("recentre"):
            aim: list[Any] = list(detail.get("aim") or [])
            if len(aim) == 3:
                key = (str(aim[0]), str(aim[1]), str(aim[2]))
                if key not in keys:
                    keys.append(key)
    out = []
    for cid, target, weapon in keys:
        ahead = aims_ahead(table, cid, target, weapon)
        if ahead.count and ahead.held:
            out.append((cid, target, weapon))
    return out


def held_aim_tokens(table: Table) -> set[str]:
    """The firers' tokens a declaration phase may turn (:func:`recentre_held_aims`)."""
    out: set[str] = set()
    for cid, _target, _weapon in held_aims(table):
        out |= {t.id for t in table.encounter.tokens if t.character_id == cid}
    return out


def recentre_held_aims(table: Table) -> list[str]:
    """003 Procedure: "The center of the field is automatically adjusted each
    declaration phase (in other words, the facing of the firer is adjusted to the
    center of the target)." At each round's start every held aim whose target is
    still in the field is re-centred on the target where it now stands, the firer
    turned to face it (logged, so undo takes it back); a target that has left the
    field is said so and the aim is not re-centred (the shot will be a snap shot).
    Inside a table step; returns the lines logged."""
    if not table.edition.aim.across_rounds:
        return []
    lines: list[str] = []
    for cid, target_id, weapon_id in held_aims(table):
        tok = next((t for t in table.encounter.tokens if t.character_id == cid), None)
        try:
            target = table.encounter.token(target_id)
        except KeyError:
            continue
        if tok is None:
            continue
        ahead = aims_ahead(table, cid, target_id, weapon_id)
        name = table.character(cid).name
        tname = table.character_of(target_id).name
        weapon = table.gear.weapons.get(weapon_id)
        exit_ = field_exit(table, ahead, target, weapon) if weapon is not None else None
        if exit_ is not None and exit_.left:
            line = (
                f"{name}'s held aim is not re-centred: {tname} has left the field of fire "
                "(003 Procedure)"
            )
            table.log(line, "round")
            lines.append(line)
            continue
        if target.at != tok.at:
            tok.facing = facing_toward(tok.at, target.at)
        detail = aim_detail(cid, target_id, weapon_id, tok.at, target.at) | {
            "hold": True,
            "recentre": True,
        }
        line = (
            f"{name}'s held aim follows {tname}: the field is re-centred on "
            f"{table.hex_label(target.at)} and {name} faces it (003 Procedure)"
        )
        table.log(line, AIM_KIND, detail)
        lines.append(line)
    return lines


def held_rounds(table: Table, ahead: AimsAhead) -> int:
    """Rounds after the first an aim has been held (003 Procedure: an aim held as a
    continuous action adds the Accurate bonus for each round after the first); 0
    where the edition's aims do not outlast the round, or when no aim was declared
    held (an aim carried into the next round as an ordinary action adds nothing)."""
    if not table.edition.aim.across_rounds or ahead.first_round is None or not ahead.held:
        return 0
    return max(table.now()[0] - ahead.first_round, 0)


__all__ = [
    "AIM_KIND",
    "AimsAhead",
    "aim_detail",
    "aim_effect",
    "aim_request",
    "aims_ahead",
    "counts_aims",
    "field_exit",
    "held_aim_tokens",
    "held_aims",
    "held_rounds",
    "recentre_held_aims",
]
