"""The attack flow behind the attack panel: plan, preview, apply.

* :func:`plan_attack` — the shot before any card: the situation read off the map
  (range, cover line, visibility, relative speed, firer movement, unintended-target
  candidates), the TN with every modifier, the AP cost and the action it declares.
* :func:`preview` — draw the card on a *copy* of the deck and resolve with the
  Judge's bump spends. Nothing in the document changes, so the Judge can try spends
  freely; the real deck will deal the same cards because it is in the same state.
* :func:`apply_attack` — one :class:`SnapshotCommand`: draw for real, resolve, write
  wounds / Conc / stun to the target's sheet, fire the shooter's weapon, lower an
  ablated cover's AV on the map, spend the AP on the track (action time) and log the
  one-line summary with the whole record as its detail. Undo puts the card back.

Decisions (the pages leave these to the table):

* The default target is the nearest token of another side the shooter can see, so a
  routine shot needs no target click at all; the Judge can pick another on the map.
* Unintended-target candidates are the other tokens within one pace of the line of
  fire (000 Ancillary Effects: "within one meter of the firing path"), nearest to the
  shooter first, until the map geometry offers a corridor function.
* A shot already declared on the track this segment (through the track panel) is
  used instead of paying again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from ...errors import RulesError
from ...hexgrid.hex import hex_line
from ...model.encounter import Token
from ...rules.actions import SHOT_KINDS, ActionKind, ActionSpec, CostItem
from ...rules.base import DIE_TYPES, EFFECT_ROWS, Pool, Speed
from ...rules.card import Card
from ...rules.character import CarriedWeapon, Character, Posture
from ...rules.combat.bumps import BumpSpends, StraySpend
from ...rules.combat.records import ApBreakdown, AttackRecord, TnBreakdown
from ...rules.combat.situation import ShotSituation
from ...rules.deck import Deck, read_pool
from ...rules.gear import Weapon

Mode = Literal["ranged", "thrown", "melee"]
ShotKind = Literal["snap", "normal", "aimed"]

#: 000 Ancillary Effects: unintended targets are within one pace of the firing path.
CORRIDOR_PACES = 1


# =============================================================================
# Geometry (cached wall index per document)
# =============================================================================


class Geometry:
    """The map's wall index for cover lines, rebuilt when the map changes."""

    def __init__(self, document) -> None:
        self.document = document
        self._index = None
        document.changed.connect(self._on_changed)
        document.featureChanged.connect(self._on_feature)

    def _on_changed(self, area: str) -> None:
        if area in ("map", "all", "file"):
            self._index = None

    def _on_feature(self, _fid: str) -> None:
        self._index = None

    def index(self):
        from ...geometry.walls import WallIndex

        if self._index is None or self._index.map is not self.document.map:
            self._index = WallIndex(self.document.map, self.document.edition.cover_av)
        return self._index

    def cover_line(
        self, shooter: Token, target: Token, target_posture: Posture, shooter_posture: Posture
    ):
        from ...geometry.sight import cover_line

        return cover_line(
            self.document.map,
            self.index(),
            shooter.at,
            target.at,
            target_posture,
            self.document.edition,
            shooter_posture,
            target_facing=target.facing,
        )


def corridor(
    document, shooter: Token, target: Token
) -> tuple[tuple[str, ...], bool | None, list[str]]:
    """Unintended-target candidates (token ids, nearest the shooter first), whether
    someone stands in melee with the target, and the reasons — from the map
    geometry's corridor (000/001 Unintended Targets) when it is there."""
    try:
        from ...geometry.corridor import unintended_targets
    except ImportError:
        return corridor_candidates(document, shooter, target), None, []
    res = unintended_targets(
        document.map,
        shooter.at,
        target.at,
        document.encounter.tokens,
        exclude_ids=(shooter.id, target.id),
    )
    return res.ids, res.target_in_melee, list(res.reasons)


def corridor_candidates(document, shooter: Token, target: Token) -> tuple[str, ...]:
    """Token ids within one pace of the line of fire, nearest first (a fallback
    for :func:`corridor`)."""
    line = hex_line(shooter.at, target.at)
    out: list[tuple[int, str]] = []
    for t in document.encounter.tokens:
        if t.id in (shooter.id, target.id):
            continue
        d_line = min(t.at.distance(h) for h in line)
        if d_line <= CORRIDOR_PACES:
            # beyond the target counts too (a miss flies on), but only near the line
            out.append((shooter.at.distance(t.at), t.id))
    out.sort()
    return tuple(tid for _, tid in out)


def _speed(v: tuple[float, float]) -> float:
    return math.hypot(v[0], v[1])


# =============================================================================
# Planning
# =============================================================================


@dataclass
class AttackRequest:
    """What the Judge chose in the panel."""

    shooter_token: str
    target_token: str
    mode: Mode = "ranged"
    #: index into the shooter's ``weapons`` (None: bare hands, hand to hand only)
    weapon_index: int | None = None
    shot_kind: ShotKind = "snap"
    aims: int = 1
    cock_first: bool = False
    melee_attack: str = "standard"
    careful: bool = False
    kick: bool = False
    point_blank: bool = False
    appearing: bool = False
    called_shot: str | None = None
    secondary_index: int = 0
    two_weapons: bool = False
    off_hand: bool = False
    #: None: decided from the map (another figure next to the target)
    target_in_melee: bool | None = None
    charge_ap: bool = True


@dataclass
class AttackPlan:
    """Everything known before the card is drawn."""

    request: AttackRequest
    shooter: Character
    target: Character
    shooter_token: Token
    target_token: Token
    weapon: Weapon | None
    carried: CarriedWeapon | None
    pool: Pool
    tn: TnBreakdown
    ap: ApBreakdown
    spec: ActionSpec
    distance: int
    situation: ShotSituation | None = None
    shot: Any = None
    cover: Any = None
    geometry: list[str] = field(default_factory=list)

    @property
    def mode(self) -> Mode:
        return self.request.mode


def usable_weapons(document, shooter: Character, mode: Mode) -> list[tuple[int, Weapon]]:
    """The shooter's carried weapons that fit the mode, as (carried index, weapon)."""
    from ...rules.combat.thrown import is_throwable

    out = []
    for i, cw in enumerate(shooter.weapons):
        w = document.gear.weapons.get(cw.weapon_id)
        if w is None:
            continue
        if (
            (mode == "ranged" and w.is_ranged)
            or (mode == "thrown" and is_throwable(w))
            or (mode == "melee" and (w.is_melee or "improvised" in w.attributes))
        ):
            out.append((i, w))
    return out


def default_weapon_index(
    document, shooter: Character, token: Token | None, mode: Mode
) -> int | None:
    """The weapon in hand if it fits, else a readied, loaded and cocked one, else the first."""
    usable = usable_weapons(document, shooter, mode)
    if not usable:
        return None
    if token is not None and token.weapon_in_hand:
        for i, w in usable:
            if w.id == token.weapon_in_hand:
                return i

    def score(item: tuple[int, Weapon]) -> tuple[int, int, int, int]:
        i, w = item
        cw = shooter.weapons[i]
        ready = cw.readied
        loaded = cw.loaded > 0 or not w.is_ranged
        cocked = cw.cocked or not w.needs_cocking
        return (-int(ready), -int(loaded), -int(cocked), i)

    return sorted(usable, key=score)[0][0]


def nearest_enemy(document, shooter_token: Token, geometry: Geometry | None = None) -> str | None:
    """The closest token of another side, preferring ones the shooter can see."""
    try:
        me = document.character(shooter_token.character_id)
    except KeyError:
        return None
    best: list[tuple[int, int, str]] = []
    for t in document.encounter.tokens:
        if t.id == shooter_token.id:
            continue
        try:
            c = document.character(t.character_id)
        except KeyError:
            continue
        if c.side == me.side or c.dead:
            continue
        hidden = 0
        if geometry is not None:
            try:
                cl = geometry.cover_line(shooter_token, t, t.posture, shooter_token.posture)
                hidden = 1 if cl.visibility == "not_visible" else 0
            except Exception:  # geometry is advisory here
                hidden = 0
        best.append((hidden, shooter_token.at.distance(t.at), t.id))
    best.sort()
    return best[0][2] if best else None


def _shot_spec(plan_req: AttackRequest, weapon: Weapon, thrown: bool):
    from ...rules.combat.ranged import ShotSpec

    kind = plan_req.shot_kind
    aims = plan_req.aims if kind == "aimed" else 0
    return ShotSpec(kind=kind, aims=aims, cock_first=plan_req.cock_first, thrown=thrown)


def _action_spec(
    kind: ActionKind,
    ap: ApBreakdown,
    speed: Speed,
    weapon: Weapon | None,
    target_cid: str,
    aims: int = 0,
) -> ActionSpec:
    return ActionSpec(
        kind=kind,
        ap=ap.total,
        weapon_id=weapon.id if weapon else None,
        target_ids=(target_cid,),
        aims=aims,
        speed=speed,
        breakdown=tuple(CostItem(label=m.label, ap=m.value, source=m.source) for m in ap.items),
        source=ap.items[0].source if ap.items else "",
    )


def plan_attack(document, req: AttackRequest, geometry: Geometry | None = None) -> AttackPlan:
    """The attack before the draw: TN itemised, AP itemised, situation from the map.

    Raises :class:`RulesError` with the reason when the rules refuse the attack."""
    enc = document.encounter
    try:
        stok = enc.token(req.shooter_token)
        ttok = enc.token(req.target_token)
    except KeyError as e:
        raise RulesError(str(e.args[0]) if e.args else "Choose a shooter and a target.") from None
    if stok.id == ttok.id:
        raise RulesError("A character cannot attack themselves.")
    shooter = document.character(stok.character_id)
    target = document.character(ttok.character_id)
    distance = stok.at.distance(ttok.at)
    options = enc.options
    ed = document.edition
    weapon = carried = None
    if req.weapon_index is not None:
        try:
            carried = shooter.weapons[req.weapon_index]
        except IndexError:
            raise RulesError(f"{shooter.name} does not carry that weapon any more.") from None
        weapon = document.gear.weapon(carried.weapon_id)
    geo_lines: list[str] = []

    if req.mode == "melee":
        from ...rules.combat.melee import check_engaged, melee_ap_cost, melee_profile, melee_tn

        check_engaged(distance)
        defender_weapon = None
        for cw in target.weapons:
            w = document.gear.weapons.get(cw.weapon_id)
            if w is not None and cw.readied and w.is_melee:
                defender_weapon = w
                break
        tn = melee_tn(
            shooter,
            target,
            ed,
            attack=req.melee_attack,
            attacker_weapon=weapon,
            defender_weapon=defender_weapon,
            careful=req.careful,
        )
        ap = melee_ap_cost(req.melee_attack, careful=req.careful)
        profile = melee_profile(shooter, ed, attack=req.melee_attack, weapon=weapon, kick=req.kick)
        speed = weapon.speed if weapon is not None else Speed.NORMAL
        spec = _action_spec(ActionKind.MELEE_ATTACK, ap, speed, weapon, target.id)
        geo_lines.append(f"{distance} pace(s) apart: engaged (000 Hand to Hand Combat)")
        return AttackPlan(
            request=req,
            shooter=shooter,
            target=target,
            shooter_token=stok,
            target_token=ttok,
            weapon=weapon,
            carried=carried,
            pool=profile.pool,
            tn=tn,
            ap=ap,
            spec=spec,
            distance=distance,
            geometry=geo_lines,
        )

    if weapon is None or carried is None:
        raise RulesError(f"{shooter.name} carries no weapon for this attack.")
    from ...rules.combat.ranged import attack_pool, ranged_tn, shot_ap_cost

    thrown = req.mode == "thrown"
    shot = _shot_spec(req, weapon, thrown)
    geometry = geometry or Geometry(document)
    cover = None
    try:
        cover = geometry.cover_line(stok, ttok, ttok.posture, stok.posture)
    except ImportError:
        cover = None
    visibility = "visible"
    covers: tuple = ()
    rng: float = distance
    if cover is not None:
        visibility = cover.visibility
        covers = tuple(cover.to_covers())
        rng = cover.range_paces
        geo_lines += list(cover.reasons)
    fv, tv = stok.velocity, ttok.velocity
    rel = math.hypot(tv[0] - fv[0], tv[1] - fv[1])
    if rel or _speed(fv) or _speed(tv):
        try:
            from ...geometry.speed import token_target_speed

            geo_lines += list(token_target_speed(stok, ttok, edition=ed, options=options).reasons)
        except ImportError:
            geo_lines.append(f"relative speed {rel:.0f} paces/round (000 Target Speed)")
    movement = "running" if stok.running else ("walking" if stok.moved > 0 else "still")
    if movement != "still":
        geo_lines.append(f"firer moved {stok.moved} pace(s) this round: {movement}")
    candidates: tuple[str, ...] = ()
    near_melee: bool | None = None
    if not thrown:
        candidates, near_melee, _why = corridor(document, stok, ttok)
    in_melee = req.target_in_melee
    if in_melee is None:
        in_melee = near_melee
    if in_melee is None:
        in_melee = any(
            t.id not in (stok.id, ttok.id) and t.at.distance(ttok.at) <= 1 for t in enc.tokens
        )
    if in_melee:
        geo_lines.append("someone stands beside the target: it counts as in a melee")
    if candidates:
        names = ", ".join(_token_name(document, t) for t in candidates)
        geo_lines.append(f"possible unintended targets near the line of fire: {names}")
    situation = ShotSituation(
        range_paces=rng,
        point_blank=req.point_blank,
        visibility=visibility,
        covers=covers,
        target_prone=ttok.posture is Posture.PRONE or target.posture is Posture.PRONE,
        target_relative_speed=rel,
        firer_speed=_speed(fv),
        target_speed=_speed(tv),
        firer_movement=movement,
        firer_mounted=stok.mounted,
        appearing_disappearing=req.appearing,
        secondary_target_index=req.secondary_index,
        two_weapons=req.two_weapons,
        off_hand=req.off_hand and req.two_weapons,
        called_shot=req.called_shot,
        unintended_candidates=candidates,
        target_in_melee=in_melee,
    )
    tn = ranged_tn(
        shooter, weapon, ed, situation, shot, target=target, options=options, carried=carried
    )
    ap = shot_ap_cost(weapon, shot, ed, two_weapons_aimed=req.two_weapons and shot.aims > 0)
    pool, _ = attack_pool(shooter, weapon, use_acuity=shot.use_acuity)
    kind = {
        "snap": ActionKind.SNAP_SHOT,
        "normal": ActionKind.NORMAL_SHOT,
        "aimed": ActionKind.AIMED_SHOT,
    }[shot.kind]
    if thrown:
        kind = ActionKind.OTHER
    speed = weapon.speed
    if shot.kind == "aimed":
        from ...rules.actions import aimed_shot_speed

        speed = aimed_shot_speed(weapon, shot.aims)
    spec = _action_spec(kind, ap, speed, weapon, target.id, shot.aims)
    return AttackPlan(
        request=req,
        shooter=shooter,
        target=target,
        shooter_token=stok,
        target_token=ttok,
        weapon=weapon,
        carried=carried,
        pool=pool,
        tn=tn,
        ap=ap,
        spec=spec,
        distance=distance,
        situation=situation,
        shot=shot,
        cover=cover,
        geometry=geo_lines,
    )


# =============================================================================
# Resolving (preview on a copy of the deck, then for real)
# =============================================================================


@dataclass
class Spends:
    """The Judge's bump spends, as clicked in the panel."""

    hit_index: int | None = None
    penetration: int = 0
    damage: int = 0
    stray: list[tuple[int, int]] = field(default_factory=list)

    def to_bump_spends(self) -> BumpSpends:
        return BumpSpends(
            hit_location_index=self.hit_index,
            penetration=self.penetration,
            damage=self.damage,
            stray=tuple(StraySpend(figure_index=i, delta=d) for i, d in self.stray),  # type: ignore[arg-type]
        )

    def empty(self) -> bool:
        return self.to_bump_spends().empty


def resolve(
    document, plan: AttackPlan, card: Card, spends: Spends, more, discard: list[Card]
) -> tuple[AttackRecord, Character]:
    """Resolve ``plan`` with ``card`` (no document change)."""
    ed = document.edition
    options = document.encounter.options
    if plan.mode == "melee":
        from ...rules.combat.melee import resolve_melee

        return resolve_melee(
            plan.shooter,
            plan.target,
            ed,
            plan.tn,
            card,
            attack=plan.request.melee_attack,
            weapon=plan.weapon,
            kick=plan.request.kick,
            options=options,
            spends=spends.to_bump_spends(),
            more=more,
            discard=discard,
            ap=plan.ap,
            distance_paces=plan.distance,
        )
    from ...rules.combat.resolve import resolve_attack

    assert plan.weapon is not None and plan.situation is not None
    return resolve_attack(
        plan.shooter,
        plan.target,
        plan.weapon,
        ed,
        plan.tn,
        card,
        situation=plan.situation,
        shot=plan.shot,
        options=options,
        spends=spends.to_bump_spends(),
        more=more,
        discard=discard,
        ap=plan.ap,
        carried=plan.carried,
    )


@dataclass
class Preview:
    """A resolution seen on a copy of the deck, with what to highlight on the card."""

    card: Card
    record: AttackRecord
    new_target: Character
    cause_cells: list[tuple[int, int]]
    chosen: tuple[int, int] | None
    effect_cell: tuple[int, int] | None
    hit_index: int | None
    sections: set[str]
    burst: int | None


def highlights_for(plan: AttackPlan, card: Card, record: AttackRecord) -> dict[str, Any]:
    """Which cells of the card the resolution read."""
    pool = plan.pool
    cells = [(r, pool.die) for r in range(1, pool.count + 1)]
    read = read_pool(card, pool)
    chosen = None
    if not read.is_cf and read.cells:
        rank = max(0, record.hit.rank - 1)
        if rank < len(read.cells):
            chosen = (read.cells[rank].row, pool.die)
    elif read.is_cf:
        cf_rows = [c.row for c in read.cells if c.total is None]
        chosen = (cf_rows[0], pool.die) if cf_rows else None
    effect_cell = None
    if record.effect is not None and record.effect.source in ("DMG", "RD"):
        txt = record.effect.effect
        try:
            n_s, die_s = txt.strip("(").split(")")
            row = int(n_s) + record.effect.row_bumps
            die = int(die_s)
            if die in DIE_TYPES:
                effect_cell = (max(1, min(EFFECT_ROWS, row)), die)
        except ValueError:
            effect_cell = None
    sections: set[str] = set()
    if record.covers:
        sections.add("shield")
    if record.strays is not None and record.strays.stray_shots:
        sections.add("figures")
    if record.equipment_failure is not None and record.equipment_failure.wrench is not None:
        sections.add("wrench")
    if record.scatter is not None:
        sections |= {"clock", "step"}
    if record.damage is not None and record.damage.toggle_read is not None:
        sections.add("toggle")
    return {
        "cause_cells": cells,
        "chosen": chosen,
        "effect_cell": effect_cell,
        "hit_index": record.location.stack_index if record.location is not None else None,
        "sections": sections,
        "burst": record.burst if record.burst else None,
    }


def scratch_deck(deck) -> Deck:
    """A copy of the deck in its current state (drawing from it changes nothing)."""
    return Deck(deck.cards, state=deck.snapshot(), name=deck.name)


def preview(document, plan: AttackPlan, spends: Spends, typed: Card | None = None) -> Preview:
    """Draw on a copy of the deck (or read a typed-in card) and resolve."""
    deck = document.deck
    discard = deck.discard_pile()
    if typed is not None or deck.physical:
        if typed is None:
            raise RulesError("The deck is in physical-card mode: type in the card drawn.")
        card, more = typed, None
    else:
        scratch = scratch_deck(deck)
        card = scratch.draw()
        more = scratch.draw
    record, new_target = resolve(document, plan, card, spends, more, discard)
    hl = highlights_for(plan, card, record)
    return Preview(card=card, record=record, new_target=new_target, **hl)


def named_summary(document, record: AttackRecord) -> str:
    """The record's one-line summary with names instead of ids."""
    text = record.summary()
    names = {c.id: c.name for c in document.encounter.characters}
    for t in document.encounter.tokens:
        if t.character_id in names:
            names[t.id] = names[t.character_id]
    for key in sorted(names, key=len, reverse=True):  # "token-x" before "x"
        if key in text:
            text = text.replace(key, names[key])
    if record.weapon_id:
        w = document.gear.weapons.get(record.weapon_id)
        if w is not None:
            text = text.replace(f"({record.weapon_id})", f"({w.name})")
    return text


def _token_name(document, token_or_character_id: str) -> str:
    """A name for a token id (or a character id)."""
    try:
        return document.character_of(token_or_character_id).name
    except KeyError:
        return _name(document, token_or_character_id)


def _name(document, cid: str) -> str:
    try:
        return document.character(cid).name
    except KeyError:
        return cid


def _assign(target: Character, new: Character) -> None:
    """Make ``target`` equal to ``new`` in place (views keep their reference)."""
    fresh = new.model_copy(deep=True)
    for name in type(target).model_fields:
        object.__setattr__(target, name, getattr(fresh, name))


def _charge_track(document, plan: AttackPlan, consumed: set[tuple[int, int, int]]) -> str:
    """Spend the attack's AP on the track (action time); returns a note for the log."""
    track = document.track
    if track is None or not getattr(document, "in_action", False):
        return "narrative time: no AP charged"
    if not plan.request.charge_ap:
        return "AP not charged (the Judge's choice)"
    cid = plan.shooter.id
    if hasattr(track, "declare"):  # AP v2 action track
        for e in track.stack():
            key = (track.round, e.segment, e.seq)
            if e.character_id != cid or key in consumed:
                continue
            same = e.action.kind in SHOT_KINDS | {ActionKind.MELEE_ATTACK, ActionKind.OTHER}
            if same and (e.action.weapon_id in (None, plan.spec.weapon_id)):
                consumed.add(key)
                return f"already declared on segment {e.segment}: {e.action.describe()}"
        ev = track.declare(cid, plan.spec)
        return ev.summary
    if hasattr(track, "act"):  # Phases round
        ev = track.act(cid, plan.spec)
        return ev.summary
    return "the action-time engine takes no declarations"


def apply_attack(
    document,
    plan: AttackPlan,
    spends: Spends,
    expected_card: int | None,
    typed: Card | None = None,
    consumed: set[tuple[int, int, int]] | None = None,
) -> AttackRecord:
    """Resolve for real as one undoable step (see the module docstring)."""
    from ..commands import SnapshotCommand

    consumed = consumed if consumed is not None else set()
    out: list[AttackRecord] = []

    def mutate() -> None:
        deck = document.deck
        discard = deck.discard_pile()
        if typed is not None or deck.physical:
            if typed is None:
                raise RulesError("The deck is in physical-card mode: type in the card drawn.")
            card = deck.enter_physical(typed)
            more = None
        else:
            card = deck.draw()
            more = deck.draw
        if expected_card is not None and card.number != expected_card:
            raise RulesError(
                f"The deck has changed since the draw (card {card.number}, not "
                f"{expected_card}); draw again."
            )
        track_note = _charge_track(document, plan, consumed)
        record, new_target = resolve(document, plan, card, spends, more, discard)
        target = document.character(plan.target.id)
        _assign(target, new_target)
        if plan.mode == "ranged" and plan.weapon is not None:
            from ...rules.combat.resolve import after_shot

            shooter = document.character(plan.shooter.id)
            rounds = max(1, record.burst or 1) if record.burst else 1
            fired = after_shot(
                shooter,
                plan.weapon,
                rounds=min(rounds, plan.carried.loaded if plan.carried else 1),
                carried_index=plan.request.weapon_index,
            )
            _assign(shooter, fired)
        notes = []
        if plan.mode == "thrown" and plan.request.weapon_index is not None:
            # the thrown thing leaves the thrower's hand (house: one carried entry each)
            shooter = document.character(plan.shooter.id)
            weapons = [w.model_copy() for w in shooter.weapons]
            if 0 <= plan.request.weapon_index < len(weapons):
                gone = weapons.pop(plan.request.weapon_index)
                shooter.weapons = weapons
                w = document.gear.weapons.get(gone.weapon_id)
                notes.append(
                    f"the {w.name if w else gone.weapon_id} has left {shooter.name}'s hand"
                )
        if document.edition.ablation_lowers_av:
            for fid, new_av in record.ablated_covers or (
                (record.ablated_cover,) if record.ablated_cover else ()
            ):
                try:
                    f = document.map.feature(fid)
                except KeyError:
                    continue
                f.ablation = min(f.ablation + 1, 10)
                notes.append(f"{f.name or fid}: AV now {new_av}")
        in_play = {c.number for c in deck.in_play}
        for n in dict.fromkeys((card.number, *record.cards)):
            if n in in_play:
                deck.discard(n)
                in_play.discard(n)
        detail: dict[str, Any] = {"record": record.model_dump(mode="json")}
        detail["situation"] = list(plan.geometry)
        detail["track"] = track_note
        if notes:
            detail["effects"] = notes
        if record.strays is not None and record.strays.candidates_hit:
            detail["stray_candidates_hit"] = list(record.strays.candidates_hit)
        document.log(named_summary(document, record), "attack", detail)
        out.append(record)

    who = plan.shooter.name
    text = f"{who} attacks {plan.target.name}"
    areas = {"characters", "deck", "log", "track"}
    document.push(SnapshotCommand(document, text, mutate, areas))
    return out[0]
