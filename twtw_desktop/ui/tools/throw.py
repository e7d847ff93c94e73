"""Throw: the selected token throws its throwing weapon (dynamite, a knife…) at a hex.

Click the target hex: the TN is worked out (000 Throwing Things: increment 10, the
edition's maximum range), a card is drawn and read for the thrower's pool. On a miss
the card's clock and step send the throw astray (000 Missed Throws): the scatter
clock appears on the map centred on the target, turned so 6 points back at the
thrower, and the landing hex is marked — short of the first wall in the way. An
explosive then goes off where it lands: everyone within its blast radius takes the
blast, with the cover between them and the blast protecting them as it would from a
shot (:mod:`twtw_desktop.rules.combat.blast`). The draw, the AP (in action time),
the landing, the wounds and the log lines are one undoable step.

After a throw a small **Show the players** button appears at the top of the map
(shortcut P while the tool is active): it sends the scatter to the players' screen.

:func:`blast_exposures` and :func:`explode` are shared with the attack panel's
thrown attacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QToolButton

from ...errors import RulesError
from ...hexgrid import Hex
from ...rules.card import Card
from ...rules.character import Character
from ..commands import SnapshotCommand
from ..document import EncounterDocument
from .base import Tool


@dataclass
class ThrowOutcome:
    hit: bool
    landing: Hex
    detail: dict
    text: str
    thrower: Hex | None = None
    target: Hex | None = None
    #: the explosion's result (explosives only)
    blast: object = None
    lines: list[str] = field(default_factory=list)


# =============================================================================
# Blasts on the map (shared with the attack panel)
# =============================================================================


def blast_exposures(
    doc: EncounterDocument,
    centre: Hex,
    radius: int,
    *,
    exclude: Iterable[str] = (),
    characters: dict[str, Character] | None = None,
):
    """Everyone on the map within ``radius`` paces of ``centre``, with the cover on
    the line from the blast to them (the geometry's cover line, 000 Cover
    Penetration), nearest first. ``exclude`` holds token ids left out (the one a
    throw hit directly); ``characters`` overrides sheets already changed in the same
    resolution."""
    from ...geometry.sight import cover_line
    from ...rules.character import Posture
    from ...rules.combat.blast import BlastExposure, in_blast

    characters = characters or {}
    skip = set(exclude)
    index = doc.walls()
    out = []
    for tok in doc.encounter.tokens:
        if tok.id in skip:
            continue
        d = centre.distance(tok.at)
        if not in_blast(d, radius):
            continue
        try:
            ch = characters.get(tok.character_id) or doc.character(tok.character_id)
        except KeyError:
            continue
        covers: tuple = ()
        if d:
            line = cover_line(
                doc.map,
                index,
                centre,
                tok.at,
                tok.posture,
                doc.edition,
                Posture.STANDING,
                target_facing=tok.facing,
            )
            covers = tuple(line.to_covers())
        out.append(BlastExposure(character=ch, distance=d, covers=covers, token_id=tok.id))
    out.sort(key=lambda e: (e.distance, e.character.id))
    return out


def explode(
    doc: EncounterDocument,
    weapon,
    centre: Hex,
    draw: Callable[[], Card],
    more: Callable[[], Card] | None,
    *,
    exclude: Iterable[str] = (),
    characters: dict[str, Character] | None = None,
):
    """Resolve ``weapon``'s blast at ``centre`` on the map (no document change):
    returns the :class:`~twtw_desktop.rules.combat.records.BlastResult` and the
    damaged characters by id."""
    from ...rules.combat.blast import resolve_blast

    exposures = blast_exposures(
        doc, centre, weapon.blast_radius or 0, exclude=exclude, characters=characters
    )
    return resolve_blast(
        weapon,
        doc.edition,
        exposures,
        draw,
        more=more,
        options=doc.encounter.options,
        centre=(centre.q, centre.r),
    )


def blast_lines(doc: EncounterDocument, blast) -> list[str]:
    """One line per person caught in a blast, for the log and the panel."""
    lines = []
    for v in blast.victims:
        try:
            name = doc.character(v.character_id).name
        except KeyError:
            name = v.character_id
        if v.deflected:
            what = "shielded by cover"
        elif v.damage is None:
            what = "unhurt"
        else:
            d = v.damage
            what = f"{d.wounds_added} wound(s) to the {d.location.value}, {d.conc_dealt} Conc"
            if d.killed:
                what += ", killed"
            elif d.unconscious:
                what += ", unconscious"
        lines.append(f"{name} ({v.distance} p): {what}")
    return lines


def write_blast(doc: EncounterDocument, blast, characters: dict[str, Character]) -> list[str]:
    """Write a resolved blast into the document (inside a command): the sheets, the
    covers it ablated; returns notes for the log."""
    from ..panels.attack_flow import ablate_covers, assign_character

    for cid, ch in characters.items():
        try:
            assign_character(doc.character(cid), ch)
        except KeyError:
            continue
    notes: list[str] = []
    if doc.edition.ablation_lowers_av:
        ablate_covers(doc, blast.ablated_covers, notes)
    return notes


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
        in_play_before = {c.number for c in doc.deck.in_play}
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
        blast = None
        lines: list[str] = []
        if w.kind == "explosive":
            more = None if doc.deck.physical else doc.deck.draw
            blast, hurt = explode(doc, w, landing, more or (lambda: card), more)
            lines = blast_lines(doc, blast)
            notes = write_blast(doc, blast, hurt)
            detail["blast"] = blast.model_dump(mode="json")
            if notes:
                detail["effects"] = notes
            text += " It goes off: " + ("; ".join(lines) if lines else "no one is near") + "."
            for c in list(doc.deck.in_play):
                if c.number not in in_play_before:
                    doc.deck.discard(c)
        gone = _consume_thrown(doc, ch, w)
        if gone:
            detail.setdefault("effects", []).append(gone)
        doc.log(text, "throw", detail)
        out.update(
            hit=check.success, landing=landing, detail=detail, text=text, blast=blast, lines=lines
        )

    doc.push(
        SnapshotCommand(
            doc, f"Throw {w.name}", mutate, {"deck", "track", "log", "characters", "tokens"}
        )
    )
    return ThrowOutcome(
        out["hit"],
        out["landing"],
        out["detail"],
        out["text"],
        thrower=origin,
        target=target,
        blast=out["blast"],
        lines=out["lines"],
    )


def _consume_thrown(doc: EncounterDocument, ch: Character, w) -> str | None:
    """Take the thrown thing out of the thrower's inventory (house: a thrown stick or
    knife has left the hand, as the attack panel's throw does; one carried entry
    each, a readied one first). Inside the throw's command, so undo gives it back."""
    entries = [i for i, cw in enumerate(ch.weapons) if cw.weapon_id == w.id]
    if not entries:
        return None
    readied = [i for i in entries if ch.weapons[i].readied]
    idx = (readied or entries)[0]
    weapons = [cw.model_copy() for cw in ch.weapons]
    weapons.pop(idx)
    ch.weapons = weapons
    tok = doc.token_for(ch.id)
    if (
        tok is not None
        and tok.weapon_in_hand == w.id
        and not any(cw.weapon_id == w.id for cw in weapons)
    ):
        tok.weapon_in_hand = None
    return f"the {w.name} has left {ch.name}'s hand"


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
        try:
            outcome = throw_at(doc, tid, h)
        except (RulesError, KeyError) as e:
            self.say(str(e.args[0] if isinstance(e, KeyError) else e))
            return True
        self.last = outcome
        self._offer_show()
        self.say(outcome.text)
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.view.overlays.dismiss_throw()
            self.show_button.hide()
            return True
        if ev.key() == Qt.Key.Key_P and self.last is not None:
            return self.show_players()
        return False
