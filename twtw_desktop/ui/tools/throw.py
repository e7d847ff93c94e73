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

With a printed deck (the Deck panel's physical-card mode) the Judge is asked for the
throw's card, then for every further card the resolution reads — an exceptional cell
reading on, each blast victim's card, each stun check — one at a time, each question
naming what the card is for (the attack panel's :class:`CardNeeded` and
:class:`TypedCards`). A miss scatters by the throw's own card (000 Missed Throws reads
the clock and step of that card), so it asks for no card of its own. Cancelling any
question leaves everything as it was; a card already read in this throw (or held by
the printed deck's in-play or discard pile) is refused and asked for again. The
typed cards go in play and to the discard pile inside the throw's undo step.

After a throw a small **Show the players** button appears at the top of the map
(shortcut P while the tool is active): it sends the scatter to the players' screen.

:func:`blast_exposures` and :func:`explode` are shared with the attack panel's
thrown attacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QDialog, QToolButton

from ...errors import RulesError
from ...hexgrid import Hex
from ...rules.card import Card
from ...rules.character import Character
from ..commands import SnapshotCommand
from ..document import EncounterDocument
from ..widgets.card_entry import PhysicalCardDialog
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


def throw_purpose(ch: Character, w) -> str:
    """What the throw's own card is for, as the printed-card dialog names it: the
    check, and on a miss the scatter, which reads the same card's clock and step
    (000 Missed Throws)."""
    return f"{ch.name}'s throw of the {w.name} (a miss scatters by its clock and step)"


def typed_card_refusal(deck, cards: Sequence[Card], card: Card) -> str | None:
    """Why ``card``, typed in next for a throw that already read ``cards`` from the
    printed deck, cannot be used — a number already part of this throw, or a printed
    card the deck holds in play or discarded — or None when it can."""
    from ..panels.attack_flow import scratch_deck

    if any(c.number == card.number for c in cards):
        return f"Card {card.number} is already part of this throw; type the card drawn next."
    scratch = scratch_deck(deck)
    try:
        for c in (*cards, card):
            scratch.enter_physical(c)
    except RulesError as e:
        return str(e)
    return None


@dataclass
class _Resolved:
    """A throw read off its cards, before anything is written."""

    hit: bool
    landing: Hex
    detail: dict
    text: str
    blast: object = None
    hurt: dict = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def _resolve_throw(doc, ch, w, pool, tn, origin, target, label, card, more) -> _Resolved:
    """Read the throw on ``card`` (``more`` deals every further card: an exceptional
    cell, the blast victims' cards, their stun checks). Changes nothing."""
    from ...rules.checks import check_pool
    from ...rules.combat.thrown import scatter_throw

    check = check_pool(
        card, pool, tn.tn, more, [(m.label, m.value, m.source) for m in tn.result_items]
    )
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
            throw_distance=origin.distance(target),
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
    out = _Resolved(check.success, landing, detail, text)
    if w.kind == "explosive":
        out.blast, out.hurt = explode(doc, w, landing, more, more)
        out.lines = blast_lines(doc, out.blast)
        detail["blast"] = out.blast.model_dump(mode="json")
        out.text += (
            " It goes off: " + ("; ".join(out.lines) if out.lines else "no one is near") + "."
        )
    return out


def throw_at(
    doc: EncounterDocument,
    token_id: str,
    target: Hex,
    *,
    weapon_id: str | None = None,
    typed: Card | None = None,
    typed_more: Sequence[Card] = (),
) -> ThrowOutcome:
    """Resolve a throw as one undoable command; returns what happened.

    Raises :class:`RulesError` (and changes nothing) when the rules refuse the throw:
    the weapon is not readied, the target is beyond the throwing range, the track has
    too few counters…

    With a printed deck (physical-card mode) ``typed`` is the card typed in for the
    throw and ``typed_more`` the further cards typed in, in the order drawn (an
    exceptional cell reading on, each blast victim's card, each stun check). While a
    card is missing this raises the attack flow's
    :class:`~twtw_desktop.ui.panels.attack_flow.CardNeeded` naming what it is for,
    and changes nothing; undo puts every typed card back.
    """
    from ...rules.actions import normal_shot
    from ...rules.combat.ranged import ShotSpec, attack_pool, ranged_tn
    from ...rules.combat.situation import ShotSituation
    from ..panels.attack_flow import CardNeeded, TypedCards, scratch_deck

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
    printed = typed is not None or doc.deck.physical
    if printed:
        if typed is None:
            raise CardNeeded(throw_purpose(ch, w), 0)
        numbers = [typed.number]
        for c in typed_more:
            if c.number in numbers:
                raise RulesError(f"Card {c.number} was typed in twice for one throw.")
            numbers.append(c.number)
        # a trial read on a copy of the deck: a missing card or a printed card the
        # deck already holds is found before anything changes
        scratch = scratch_deck(doc.deck)
        _resolve_throw(
            doc,
            ch,
            w,
            pool,
            tn,
            origin,
            target,
            label,
            scratch.enter_physical(typed),
            TypedCards(typed_more, enter=scratch.enter_physical),
        )
    out: dict = {}

    def mutate() -> None:
        deck = doc.deck
        in_play_before = {c.number for c in deck.in_play}
        if doc.in_action and doc.edition.time == "segments":
            doc.track.declare(ch.id, normal_shot(w, (t_tok.id,) if t_tok else ()))
        if printed:
            card = deck.enter_physical(typed)
            more = TypedCards(typed_more, enter=deck.enter_physical)
        else:
            card = deck.draw()
            more = deck.draw
        try:
            r = _resolve_throw(doc, ch, w, pool, tn, origin, target, label, card, more)
        except CardNeeded as need:  # the trial read found every card; kept as a guard
            raise RulesError(f"Type in the card drawn for {need.purpose} first.") from None
        r.detail["pool_reasons"] = pool_why
        if r.blast is not None:
            notes = write_blast(doc, r.blast, r.hurt)
            if notes:
                r.detail["effects"] = notes
        new = [c for c in deck.in_play if c.number not in in_play_before]
        r.detail["cards"] = [c.number for c in new]
        for c in new:
            deck.discard(c)
        gone = _consume_thrown(doc, ch, w)
        if gone:
            r.detail.setdefault("effects", []).append(gone)
        doc.log(r.text, "throw", r.detail)
        out.update(
            hit=r.hit, landing=r.landing, detail=r.detail, text=r.text, blast=r.blast, lines=r.lines
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


def ask_printed_card(parent, purpose: str, refusal: str = "") -> Card | None:
    """Ask the Judge for a card drawn from the printed deck for ``purpose`` (the
    Deck panel's physical-card entry form); None when cancelled. ``refusal`` says why
    the card typed before was not taken. Tests replace this hook."""
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
        from ..panels.attack_flow import CardNeeded

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
