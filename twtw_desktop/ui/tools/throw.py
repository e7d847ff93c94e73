"""Throw: the selected token throws its throwing weapon (dynamite, a knife…) at a hex.

Click the target hex: the TN is worked out (000 Throwing Things: increment 10, the
edition's maximum range), a card is drawn and read for the thrower's pool. On a miss
the card's clock and step send the throw astray (000 Missed Throws): the scatter
clock appears on the map centred on the target, turned so 6 points back at the
thrower, and the landing hex is marked — short of the first wall in the way. The
draw, the AP (in action time), the landing and the log line are one undoable step.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from ...errors import RulesError
from ...hexgrid import Hex
from ..commands import SnapshotCommand
from ..document import EncounterDocument
from .base import Tool


@dataclass
class ThrowOutcome:
    hit: bool
    landing: Hex
    detail: dict
    text: str


def throwing_weapon(doc: EncounterDocument, token_id: str):
    """The weapon the token would throw: the one in hand if it can be thrown, else the
    first carried explosive, else the first carried throwing weapon."""
    from ...rules.combat.thrown import is_throwable

    tok = doc.token(token_id)
    ch = doc.character(tok.character_id)
    cands = []
    if tok.weapon_in_hand:
        cands.append(tok.weapon_in_hand)
    cands += [
        w.weapon_id
        for w in ch.weapons
        if doc.gear.weapons.get(w.weapon_id) and doc.gear.weapons[w.weapon_id].kind == "explosive"
    ]
    cands += [w.weapon_id for w in ch.weapons]
    for wid in cands:
        w = doc.gear.weapons.get(wid)
        if w is not None and is_throwable(w):
            return w
    raise RulesError(f"{ch.name} carries nothing to throw.")


def throw_at(
    doc: EncounterDocument, token_id: str, target: Hex, *, weapon_id: str | None = None
) -> ThrowOutcome:
    """Resolve a throw as one undoable command; returns what happened.

    Raises :class:`RulesError` (and changes nothing) when the rules refuse the throw:
    the weapon is not readied, the target is beyond the throwing range, the track has
    too few counters…
    """
    from ...rules.actions import normal_shot
    from ...rules.checks import check_pool
    from ...rules.combat.ranged import ShotSpec, attack_pool, ranged_tn
    from ...rules.combat.situation import ShotSituation
    from ...rules.combat.thrown import scatter_throw

    tok = doc.token(token_id)
    ch = doc.character(tok.character_id)
    w = doc.gear.weapon(weapon_id) if weapon_id else throwing_weapon(doc, token_id)
    if not doc.map.contains(target):
        raise RulesError("That hex is off the map.")
    origin = tok.at
    d = origin.distance(target)
    if d == 0:
        raise RulesError(f"{ch.name} cannot throw at his own feet; pick another hex.")
    t_tok = doc.encounter.token_at(target)
    t_ch = doc.character(t_tok.character_id) if t_tok is not None else None
    situation = ShotSituation(range_paces=d)
    shot = ShotSpec(kind="normal", thrown=True)
    tn = ranged_tn(ch, w, doc.edition, situation, shot, target=t_ch, options=doc.encounter.options)
    pool, pool_why = attack_pool(ch, w)
    label = doc.map_view.map_scene.frame.label if doc.map_view else (lambda h: f"{h.q},{h.r}")
    out: dict = {}

    def mutate() -> None:
        if doc.in_action and doc.edition.time == "segments":
            doc.track.declare(ch.id, normal_shot(w, (t_tok.id,) if t_tok else ()))
        card = doc.deck.draw()
        check = check_pool(
            card,
            pool,
            tn.tn,
            None if doc.deck.physical else doc.deck.draw,
            [(m.label, m.value, m.source) for m in tn.result_items],
        )
        extra = check.read.cards_drawn if check.read is not None else ()
        doc.deck.discard(card)
        for n in extra:
            doc.deck.discard(n)
        detail = {
            "thrower": [origin.q, origin.r],
            "target": [target.q, target.r],
            "weapon": w.id,
            "card": card.number,
            "tn": tn.tn,
            "result": check.result,
            "calamity": check.calamity,
            "tn_reasons": tn.reasons(),
            "pool": str(pool),
            "check": list(check.reasons),
            "pool_reasons": pool_why,
        }
        if check.success:
            detail.update(hit=True, landing=[target.q, target.r])
            text = (
                f"{ch.name} throws the {w.name} at {label(target)}: card {card.number}, "
                f"{check.result} vs TN {tn.tn} — on target."
            )
            landing = target
        else:
            sc = scatter_throw(
                card,
                doc.edition,
                tn=tn.tn,
                result=check.result,
                cf=check.calamity,
                throw_distance=d,
            )
            landing, stopped_by, path = scatter_landing(
                doc, origin, target, sc.clock_hour, sc.distance, sc.from_thrower
            )
            detail.update(
                hit=False,
                hour=sc.clock_hour,
                distance=sc.distance,
                from_thrower=sc.from_thrower,
                landing=[landing.q, landing.r],
                stopped_by=stopped_by,
                path=[[h.q, h.r] for h in path],
                scatter_reasons=list(sc.reasons),
            )
            res = "CF" if check.calamity else str(check.result)
            text = (
                f"{ch.name} throws the {w.name} at {label(target)}: card {card.number}, {res} vs "
                f"TN {tn.tn} — misses; it scatters {sc.distance} paces toward {sc.clock_hour} o'clock "
                f"and lands at {label(landing)}"
                + (f", stopped by {stopped_by}" if stopped_by else "")
                + "."
            )
        doc.log(text, "throw", detail)
        out.update(hit=check.success, landing=landing, detail=detail, text=text)

    doc.push(SnapshotCommand(doc, f"Throw {w.name}", mutate, {"deck", "track", "log"}))
    return ThrowOutcome(out["hit"], out["landing"], out["detail"], out["text"])


def scatter_landing(
    doc: EncounterDocument, thrower: Hex, target: Hex, hour: int, distance: int, from_thrower: bool
) -> tuple[Hex, str | None, list[Hex]]:
    """Where a scattered throw lands: (hex, id of the wall that stopped it or None,
    the hexes it passed). The geometry does the work (000 Missed Throws)."""
    from ...geometry.scatter import scatter

    res = scatter(doc.map, doc.walls(), thrower, target, hour, distance, from_thrower=from_thrower)
    return res.landing, res.stopped_by, list(res.path[1:])


class ThrowTool(Tool):
    name = "throw"
    title = "Throw"
    shortcut = "T"
    tooltip = "The selected token throws (dynamite, a knife…) at the hex you click; a miss scatters"
    cursor = Qt.CursorShape.CrossCursor

    def activate(self) -> None:
        super().activate()
        sel = self.document.selected_token_id if self.document else None
        if sel is None:
            self.say("Select the thrower first, then click the target hex.")
        else:
            self.say("Click the target hex.")

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
        try:
            outcome = throw_at(doc, tid, h)
        except (RulesError, KeyError) as e:
            self.say(str(e.args[0] if isinstance(e, KeyError) else e))
            return True
        self.say(outcome.text)
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.view.overlays.dismiss_throw()
            return True
        return False
