"""The planner: one NPC's plan for the round, as table actions with their reasons.

For each NPC (:func:`plan_round`) it reads only what that NPC sees
(:mod:`.view`), lists candidate plans — stay or walk to a hex within reach, then
shots (snap, normal, aimed; drawing and cocking as the shot needs) or blows at a
foe it sees with each weapon worth a look (:mod:`.arms`), repeated while the AP
last, a reload when the gun is empty — and
scores them with the rules' own numbers: the AP of the move from the table's move
plan, the TN of each shot from the table's attack plan, the odds of reaching it
counted off the deck's composition (:mod:`.odds`), the cover AV between each known
foe and the hex from the map's cover line. A temperament (:mod:`.temperament`)
weighs them. Every action of the chosen plan is asked ``why_not`` of a scratch table
in the place and with the AP it will have when carried out (the token where the
move leaves it, the counters it will have: ``ActionTrack.supposing``); an action
refused is never planned.

AP v2: the plan is the ordinary standing declarations (``when_able``), declared on
the first segment the counters cover each. Phases: the speed to declare when the
round's speeds are declared, and the phase's actions (a move, a shot) when the NPC
acts (:mod:`.phases`). Same encounter, state and seed give the same plans:
candidates are walked in a fixed order (by hex, by the encounter's order), ties
broken by a seeded :class:`random.Random`, never by a dict's or set's order, a hash
or the clock.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..errors import RulesError
from ..geometry.movement import reachable
from ..geometry.sight import cover_line, visible
from ..geometry.walls import hex_centres
from ..hexgrid import Hex, facing_toward
from ..play.actions import Action, Move
from ..play.declarations import (
    ClearStanding,
    WhenAble,
    cost_of,
    target_gone,
    why_not_declaring,
)
from ..play.movement import occupied_hexes
from ..play.table import Table
from ..rules.character import Character
from ..rules.track_models import RowStatus
from .odds import DeckOdds
from .phases import Phases
from .plans import Plan, _Attack
from .temperament import Weights, weights_of, withdrawing
from .threat import Foe, Threats, foe_of, shares
from .view import Sight, npc_sight, scratch_of, seeing_only
from .ways import path_refs, seen_ways, sees_the_way

#: destinations scored in full per NPC (besides staying put)
FINALISTS = 10
#: hexes of the reach area pre-scored per NPC at most (a stride over a bigger one)
PRESCORED = 500
#: destinations scored with their attacks (the best by cover and distance)
SCORED = 2
#: foes a plan considers shooting at (the nearest seen)
TARGETS = 2
#: what a line of fire kept for the next round is worth, in expected hits (half a
#: shot: the foe may move, or fire first)
NEXT_ROUND = 0.5
#: what a cartridge fired costs, in expected hits: a round spent is a reload later
#: (AP not spent on shots), so a shot with a worse chance than this is not fired
CARTRIDGE = 0.1


def npc_ids(table: Table) -> list[str]:
    """Every character outside the posse with a token on the map who can act, in the
    encounter's order."""
    out = []
    for c in table.encounter.characters:
        if c.side == "posse" or c.out_of_action:
            continue
        if table.token_for(c.id) is not None:
            out.append(c.id)
    return out


def plan_round(
    table: Table,
    who: Sequence[str] | None = None,
    seed: int = 0,
    planner: type[Planner] | None = None,
) -> list[Plan]:
    """A plan for each NPC named (default: every NPC on the map), on a scratch copy
    of the table, by ``planner`` (default :class:`Planner`; the bench's naive
    opponent is another). Raises :class:`RulesError` naming an unknown id."""
    return plan_on(scratch_of(table, share_walls=True), who, seed, planner)


def plan_on(
    scratch: Table,
    who: Sequence[str] | None = None,
    seed: int = 0,
    planner: type[Planner] | None = None,
) -> list[Plan]:
    """:func:`plan_round` on a scratch copy made already (:func:`.view.scratch_of`):
    the window copies the table on its own thread and plans on a worker."""
    ids = []
    for w in who if who is not None else npc_ids(scratch):
        c, _tok = scratch.actor(w)  # RulesError naming an unknown id
        ids.append(c.id)
    odds = DeckOdds(scratch.deck.cards)
    rng = random.Random(seed)
    claimed: set[Hex] = set()
    out = []
    for cid in ids:
        plan = (planner or Planner)(scratch, cid, odds, rng, claimed).plan()
        out.append(plan)
    return out


def _segments(table: Table) -> bool:
    return table.in_action and table.time is not None and table.time.kind == "segments"


def _name(table: Table, token_id: str) -> str:
    return table.character_of(token_id).name


class Planner(Phases):
    """The plan of one NPC (see the module docstring)."""

    #: what a cartridge fired costs it (:data:`CARTRIDGE`)
    cartridge = CARTRIDGE

    def __init__(
        self,
        scratch: Table,
        cid: str,
        odds: DeckOdds,
        rng: random.Random,
        claimed: set[Hex],
    ) -> None:
        self.t = scratch
        self.cid = cid
        self.odds = odds
        self.rng = rng
        self.claimed = claimed
        c, tok = scratch.actor(cid)
        self.c: Character = c
        self.tok = tok
        self.w: Weights = weights_of(c)
        #: the token and the guns as they stand (what a declaration is asked with)
        self._origin = (tok.hex, tok.facing, tok.moved) if tok is not None else ((0, 0), 0, 0)
        self._origin_weapons = [w.model_copy() for w in c.weapons]
        #: Phases, while the round's speeds are declared (see :meth:`_plan_phases`)
        self._declaring = False
        #: whether it has a weapon to fight with now (:meth:`.Arms.armed`)
        self._armed = True
        #: the last reach area searched (the ghost path is read from it)
        self._area: Any = None
        #: for each threat of the plan being scored: the foe and what it carries
        self._foes: list[Foe] = []
        #: what those foes threaten (set for each plan scored)
        self._threat = Threats(scratch, c, odds, 0, False)
        #: the known foes' places, and how many of its side each sees (:func:`.shares`)
        self._shares_memo: tuple[tuple[Hex, ...], list[int]] | None = None

    # -- the plan ------------------------------------------------------------------

    def plan(self) -> Plan:
        c, tok = self.c, self.tok
        if tok is None:
            return Plan(c.id, (), (f"{c.name} has no token on the map.",))
        if c.out_of_action or c.stunned:
            return Plan(c.id, (), (f"{c.name} is {'stunned' if c.stunned else 'down'}.",))
        if not self.t.in_action or self.t.time is None:
            return Plan(c.id, (), ("Not in action time: the autopilot plans rounds.",))
        sight = npc_sight(self.t, c.id)
        with seeing_only(self.t, c.id, sight):
            if _segments(self.t):
                return self._plan_segments(sight)
            return self._plan_phases(sight)

    def _budget(self) -> int:
        row = self.t.track.row(self.cid)
        return int(row.counters + row.pool)

    def _left(self, budget: int, ap: int) -> int:
        """The AP left for the rest of the plan once a first action of ``ap`` is
        declared (AP v2): declared now with more counters in front than it costs, the
        excess is lost (000 Action Timing: "they still must remove all of their
        counters"), leaving the pool; waited for, it takes exactly its AP."""
        if ap <= 0 or not _segments(self.t):
            return budget - ap
        row = self.t.track.row(self.cid)
        return int(row.pool) if ap <= row.counters else budget - ap

    def _plan_segments(self, sight: Sight) -> Plan:
        c = self.c
        if not self.t.time.round_running():  # type: ignore[union-attr]
            return Plan(c.id, (), ("No round is running: start one first.",))
        row = self.t.track.row(self.cid)
        if row.status != RowStatus.ACTIVE:
            return Plan(c.id, (), (f"{c.name} cannot act this round.",))
        budget = self._budget()
        if budget <= 0:
            return Plan(c.id, (), (f"{c.name} has no AP left this round.",))
        prefix: list[Action] = []
        if self.t.track.state.standing.get(self.cid):
            prefix.append(ClearStanding(who=c.id))
        best = self._best(sight, budget)
        if best is None:
            return Plan(c.id, tuple(prefix), ("Nothing worth doing: it keeps its counters.",))
        score, dest, move, attack, words = best
        acts: list[Action] = [*prefix]
        if move is not None:
            acts.append(WhenAble(who=c.id, then=move.journal_form()))
            self.claimed.add(dest)
        acts += [WhenAble(who=c.id, then=a.journal_form()) for a in attack.actions]
        path = path_refs(self.t, self._area, move)
        return Plan(c.id, tuple(acts), (words,), path, attack.target, round(score, 6))

    def _phase_attack(self, foes: list[Any], retreat: bool) -> _Attack:
        """Phases: the attack from where it stands, this phase (the naive opponent
        has its own)."""
        return self._attacks(foes, 99, retreat, True)

    # -- scoring -------------------------------------------------------------------

    def _best(
        self, sight: Sight, budget: int, phases: bool = False
    ) -> tuple[float, Hex, Move | None, _Attack, str] | None:
        """The best plan whose actions the table allows where and with the AP each
        will have: the destinations pre-scored on cover and distance, the best few
        scored with their attacks, then checked in order of score."""
        tok = self.tok
        assert tok is not None
        start = tok.at
        foes = [self.t.token(t) for t in sight.seen]
        foes = [f for f in foes if not self.t.character(f.character_id).out_of_action]
        threats = [f.at for f in foes] + [h for _id, h in sight.remembered]
        # what they carry: a gun or a blade is in plain view (house)
        self._foes = [foe_of(self.t, f.character_id) for f in foes] + [
            foe_of(self.t, cid, seen=False) for cid, _h in sight.remembered
        ]
        self._threat = Threats(self.t, self.c, self.odds, budget, phases)
        retreat = withdrawing(self.c, self.w, sight.allies) if threats else None
        if not threats:
            return self._search(start, budget, phases)
        self._armed = self.armed()
        costs = self._destinations(start, budget, foes, threats, retreat is not None, phases)
        costs = seen_ways(self.t, start, self._area, costs, self._blade())
        staged = []
        for rank, (dest, move_ap) in enumerate(costs):
            exposure, fire, cover_words = self._exposure(dest, threats)
            if retreat is not None:
                fire = 0.0
            # exposure costs the shots it gives the foes that can shoot; the hex's
            # worth to its own gun is its shots this round, or else the line of fire
            # it keeps for the next (half a shot: the foe may move meanwhile)
            base = (
                -self.w.safety * exposure
                + self._closing(dest, threats, retreat is not None)
                - 0.01 * move_ap
            )
            staged.append((base, rank, dest, move_ap, cover_words, NEXT_ROUND * fire))
        # the best by cover, distance and line of fire, and the first by the quick
        # score (where a blade reaches a foe, where a gun has its range)
        staged.sort(key=lambda x: (-(x[0] + self.w.attack * x[5]), x[1]))
        chosen = staged[:SCORED] + sorted(staged[SCORED:], key=lambda x: x[1])[:SCORED]
        scored = []
        for base, _rank, dest, move_ap, cover_words, later in chosen:
            move = self._move(dest, foes) if dest != start else None
            if dest != start and move is None:
                continue
            with self._placed(dest, move):
                attack = self._attacks(
                    foes, self._left(budget, move_ap), retreat is not None, phases
                )
            worth = max(attack.hits, later)
            if later > attack.hits and not attack.actions:
                kept = "closing in" if self._blade() else "a line of fire kept"
                cover_words = ", ".join(x for x in (cover_words, kept) if x)
            score = base + self.w.attack * worth + self.rng.random() * 1e-6
            scored.append((score, dest.q, dest.r, dest, move, move_ap, attack, cover_words))
        scored.sort(key=lambda x: (-x[0], x[1], x[2]))
        for score, _q, _r, dest, move, move_ap, attack, cover_words in scored:
            if move is not None and not sees_the_way(self.t, start, self._area, dest):
                continue
            if move is not None and not self._legal(move, move_ap, first=True):
                continue
            with self._placed(dest, move):
                attack = self._checked(attack, self._left(budget, move_ap), first=move is None)
            words = self._words(dest, move, attack, cover_words, retreat)
            return score, dest, move, attack, words
        return None

    def _search(
        self, start: Hex, budget: int, phases: bool
    ) -> tuple[float, Hex, Move | None, _Attack, str] | None:
        """Nobody seen or remembered: a reckless or steady NPC walks toward the middle
        of the map (a house design: it looks for the fight; it knows nothing of where
        the foes are), a cautious or cowardly one holds."""
        if self.w.attack < 1.0 or self.c.move <= 0:
            return None
        middle = self.t.map.hex_at(self.t.map.cols // 2, self.t.map.rows // 2)
        ap = min(budget, 3) if not phases else self._phase_ap()
        reach = self._reach(start, ap)
        if reach is None:
            return None
        hexes, cost = reach
        best = (start.distance(middle), 0, start.q, start.r)
        for h, c in zip(hexes, cost.tolist(), strict=True):
            best = min(best, (h.distance(middle), int(c), h.q, h.r))
        dest = Hex(best[2], best[3])
        if dest == start:
            return None
        move = self._move(dest, [])
        if move is None or not self._legal(move, best[1], first=True):
            return None
        words = f"sees nobody: walks toward the middle of the map, to {self.t.hex_label(dest)}"
        return 0.0, dest, move, _Attack(), words

    def _destinations(
        self,
        start: Hex,
        budget: int,
        foes: list[Any],
        threats: list[Hex],
        retreat: bool,
        phases: bool,
    ) -> list[tuple[Hex, int]]:
        """Staying put and the best hexes within reach by a quick score (distance to
        the nearest known foe, lines of sight blocked), with their AP, in a fixed
        order."""
        tok = self.tok
        assert tok is not None
        if self.c.move <= 0 or not threats:
            return [(start, 0)]
        ap = min(budget, 6) if not phases else self._phase_ap()
        reach = self._reach(start, ap)
        if reach is None:
            return [(start, 0)]
        hexes, cost = reach
        order = list(range(len(hexes)))  # the reach area's own order: ascending cells
        if len(order) > PRESCORED:
            order = order[:: -(-len(order) // PRESCORED)]
        blade = self._blade()
        want = 1 if blade and not retreat else self.w.distance
        index = self.t.walls()
        armed = [f.gun is not None for f in self._foes] or [True] * len(threats)
        near_foes = sorted(
            zip(threats, armed, strict=True), key=lambda x: (start.distance(x[0]), x[0].q, x[0].r)
        )[:4]
        cand = [hexes[i] for i in order]
        xy = hex_centres(index.layout, cand)
        # lines of sight blocked from the foes with a gun (cover), and whether any of
        # the near foes is in sight at all (a line of fire for a gun)
        blocked_by = np.zeros(len(cand), dtype=np.int64)
        unseen = np.zeros(len(cand), dtype=np.int64)
        for x, shoots in near_foes:
            blocks = index.blocks_sight_many(np.asarray(index.centre(x)), xy).astype(np.int64)
            unseen += blocks
            if shoots:
                blocked_by += blocks
        no_fire = (unseen >= len(near_foes)) if not blade else np.zeros(len(cand), dtype=bool)
        q = np.fromiter((h.q for h in cand), dtype=np.int64, count=len(cand))
        r = np.fromiter((h.r for h in cand), dtype=np.int64, count=len(cand))
        nearest = np.full(len(cand), 1 << 30, dtype=np.int64)
        for x in threats:  # axial distance, every candidate at once
            dq, dr = q - x.q, r - x.r
            nearest = np.minimum(nearest, (abs(dq) + abs(dr) + abs(dq + dr)) // 2)
        scored: list[tuple[float, int, int, Hex, int, bool]] = []
        for j, i in enumerate(order):
            h = hexes[i]
            if h == start:
                continue
            near = int(nearest[j])
            if blade and not retreat and near == 1:
                scored.append((-100.0 + int(cost[i]), h.q, h.r, h, int(cost[i]), False))
                continue
            blocked = int(blocked_by[j])
            if retreat:
                key = -near - 3.0 * blocked
            elif want is None:
                key = near - 0.5 * blocked
            else:
                key = abs(near - want) - 2.0 * blocked * self.w.safety
            scored.append((key, h.q, h.r, h, int(cost[i]), bool(no_fire[j])))
        scored.sort(key=lambda x: (x[0], x[1], x[2]))
        del foes
        # the best by the quick score, and for a gun the best that keep a line of
        # fire to a known foe (the quick score favours hiding from every one)
        best = scored[:FINALISTS]
        if not blade and not retreat:
            fire = [s for s in scored if not s[5]]
            best += [s for s in fire if s not in best][: FINALISTS // 2]
        return [(start, 0), *[(s[3], s[4]) for s in best]]

    def _phase_ap(self) -> int:
        """Phases: how far a move may go, in walking AP (the Run value)."""
        return max(1, -(-self.c.run // max(self.c.move, 1)))

    def _reach(self, start: Hex, ap: int) -> tuple[list[Hex], Any] | None:
        """Every hex the NPC can walk to for ``ap`` AP, and the AP of each (None: the
        search refuses)."""
        tok = self.tok
        assert tok is not None
        claimed = sorted(self.claimed, key=lambda h: (h.q, h.r))
        try:
            area = reachable(
                self.t.map,
                self.t.walls(),
                start,
                tok.facing,
                ap,
                ap,
                self.c.move,
                [*occupied_hexes(self.t, tok.id), *claimed],
            )
        except RulesError:
            return None
        self._area = area
        return area.costs()

    def _move(self, dest: Hex, foes: list[Any]) -> Move | None:
        col, row = self.t.map.offset(dest)
        facing = None
        if foes:
            nearest = min(foes, key=lambda f: (dest.distance(f.at), f.id))
            facing = facing_toward(dest, nearest.at)
        try:
            return Move(who=self.cid, to=(col + 1, row + 1), facing=facing)
        except ValueError:
            return None

    def _ap(self, action: Action) -> int:
        if not _segments(self.t):
            return 0
        try:
            return cost_of(self.t, action)
        except RulesError:
            return 10_000

    def _legal(self, action: Action, ap: int, first: bool) -> bool:
        """Whether the table allows ``action`` both when it is declared now (as the
        first of the plan, or queued behind the others: ``when_able`` asks it of the
        table as it stands) and when it is carried out — where the plan's move leaves
        the token, with the AP it will have then."""
        if self._declaring:
            return True  # Phases, speeds still being declared: the turn is not come
        try:
            if target_gone(self.t, action):
                return False
            if not self._declarable(action, first):
                return False
            if first or not _segments(self.t):
                # the first is declared where it stands: when_able asked it already
                # with the counters it will have (why_not_when_paid)
                return True
            with self.t.track.supposing(self.cid, ap):
                return why_not_declaring(self.t, action) is None
        except (RulesError, ValueError):
            return False

    def _declarable(self, action: Action, first: bool) -> bool:
        """Whether the table takes the action's declaration now (the token and the
        sheet as they stand, not as the plan will leave them)."""
        tok = self.tok
        assert tok is not None
        placed = (tok.hex, tok.facing, tok.moved)
        weapons = self.c.weapons
        tok.hex, tok.facing, tok.moved = self._origin
        self.c.weapons = [w.model_copy() for w in self._origin_weapons]
        try:
            if not _segments(self.t):
                return self.t.why_not(action) is None
            if first:
                return self.t.why_not(WhenAble(who=self.cid, then=action.journal_form())) is None
            ap = cost_of(self.t, action)
            row = self.t.track.row(self.cid)
            if row.counters + row.pool < ap:
                return False
            with self.t.track.supposing(self.cid, ap):
                return why_not_declaring(self.t, action) is None
        finally:
            tok.hex, tok.facing, tok.moved = placed
            self.c.weapons = weapons

    @contextmanager
    def _placed(self, dest: Hex, move: Move | None) -> Iterator[None]:
        """Inside: the NPC's token where the move leaves it, having walked (and its
        guns as they are now: the attacks change them and they are put back)."""
        tok = self.tok
        assert tok is not None
        before = (tok.hex, tok.facing, tok.moved)
        weapons = [w.model_copy() for w in self.c.weapons]
        if move is not None:
            tok.hex = (dest.q, dest.r)
            if move.facing is not None:
                tok.facing = move.facing
            tok.moved = tok.moved + tok.at.distance(Hex(*before[0]))
        try:
            yield
        finally:
            tok.hex, tok.facing, tok.moved = before
            self.c.weapons = weapons

    def _attacks(self, foes: list[Any], ap: int, retreat: bool, phases: bool) -> _Attack:
        """The best run of attacks from here with ``ap`` left (one in Phases), with
        the best of its weapons (:meth:`.Arms.arms`); a reload when there is none."""
        tok = self.tok
        assert tok is not None
        # what each seen foe may land on it here (its gun, its blade next to it)
        danger = {f.character_id: self._danger(f, tok.at) for f in foes}
        best, best_worth = _Attack(), 0.0
        for slot in self.arms():
            with self.arming(slot):
                got, worth = self._attacks_with(foes, ap, phases, danger)
            if worth > best_worth + 1e-9:
                best, best_worth = got, worth
        if retreat and best.hits < 0.5:
            best = _Attack()
        if not best.actions:
            reload = self._reload(ap)
            if reload is not None:
                return reload
        return best

    def _attacks_with(
        self, foes: list[Any], ap: int, phases: bool, danger: dict[str, float]
    ) -> tuple[_Attack, float]:
        """The best run with the weapon in hand: the target by the first kind of
        shot, then the kind for that target; and its worth (hits weighed by the
        target's danger)."""
        tok = self.tok
        assert tok is not None
        here = tok.at
        kinds = self._kinds()
        best = _Attack()
        if any(d > 0 for d in danger.values()):
            # a foe can reach it: an aimed shot declared for later may be lost once it
            # is attacked — a Bravery check when shot at, a harder one when struck, no
            # aim at all once hit by a blow (000/001 Tactical Aiming)
            kinds = [k for k in kinds if k != "aimed"] or kinds
        # in its phase only a shot the speed it declared allows counts (004: an action
        # as fast as the one declared, or faster); before its turn every kind does
        allowed = phases and not self._declaring
        # the nearest foes, and the one that threatens it most from where it stands
        # (fire on the foe that hurts most: a hit there is worth more)
        near = sorted(foes, key=lambda f: (here.distance(f.at), f.id))[:TARGETS]
        worst = max(
            foes, key=lambda f: (danger[f.character_id], -here.distance(f.at)), default=None
        )
        if worst is not None and worst not in near and danger[worst.character_id] > 0:
            near.append(worst)
        best_worth = 0.0
        for foe in near:
            for kind in kinds if allowed else kinds[:1]:
                got = self._allowed(self._series(foe, kind, ap, phases), ap, allowed)
                worth = got.hits * (1.0 + danger[foe.character_id])
                if worth > best_worth + 1e-9:
                    best, best_worth = got, worth
        target = best.target
        if target is not None and not allowed:
            foe = self.t.token_for(target)
            for kind in kinds[1:]:
                got = self._series(foe, kind, ap, phases)
                if got.hits > best.hits + 1e-9:
                    best = got
            best_worth = best.hits * (1.0 + danger[target])
        return best, best_worth

    def _danger(self, foe: Any, here: Hex) -> float:
        """The hits a seen foe may land on ``here`` in a round, cover aside: its gun's
        and its blade's (a brawler next to it is the foe to fire at first)."""
        known = self._foe(foe.character_id)
        blade = self._threat.by_blade(known, here.distance(foe.at))
        if known.gun is None:
            return blade
        return self._threat.by_gun(known, float(here.distance(foe.at)), 1.0) + blade

    def _foe(self, cid: str) -> Foe:
        for f in self._foes:
            if f.cid == cid:
                return f
        return foe_of(self.t, cid)

    def _allowed(self, attack: _Attack, ap: int, check: bool) -> _Attack:
        """``attack`` as the table allows it now (``check``), the sheet left as it was."""
        if not check:
            return attack
        weapons = [w.model_copy() for w in self.c.weapons]
        try:
            got = self._checked(attack, ap, True)
        finally:
            self.c.weapons = weapons
        got.hits = attack.hits if len(got.actions) == len(attack.actions) else 0.0
        return got

    def _checked(self, attack: _Attack, ap: int, first: bool) -> _Attack:
        """The attacks the table allows in turn, each with the AP it will have (the
        first refused ends the run)."""
        out = _Attack(
            target=attack.target, words=attack.words, first=attack.first, slot=attack.slot
        )
        with self.arming(attack.slot):
            for act in attack.actions:
                need = self._ap(act)
                if out.ap + need > ap or not self._legal(act, need, first and not out.actions):
                    break
                out.actions.append(act)
                out.ap += need
                self._fired(act)
        # the expected hits of the attacks kept (each counted alike)
        if attack.actions:
            out.hits = attack.hits * len(out.actions) / len(attack.actions)
        if not out.actions:
            out.words = ""
            out.target = None
        elif len(out.actions) < len(attack.actions):
            out.words = attack.first + (
                f" ({len(out.actions)} times)" if len(out.actions) > 1 else ""
            )
        return out

    def _series(self, foe: Any, kind: str, ap: int, phases: bool) -> _Attack:
        """Shots (or blows) of one kind at one foe while the AP and the rounds last:
        the first and the second asked of the attack plan, the rest as the second."""
        out = _Attack(target=foe.character_id, slot=self.slot)
        weapons = [w.model_copy() for w in self.c.weapons]
        tn_words = ""
        used, drawn = 0, False
        try:
            last: tuple[Action, int, float] | None = None
            for n in range(6):
                if n < 2 or last is None:
                    act = self._shot(foe, kind, first=n == 0)
                    if act is None:
                        break
                    try:
                        plan = act.plan(self.t)  # type: ignore[attr-defined]
                    except RulesError:
                        break
                    spec = plan.spec
                    need = int(spec.ap) if spec is not None and not spec.all_ap else ap
                    tn = plan.tn
                    need_n = tn.tn - tn.result_modifier
                    p = self.odds.chance(plan.pool, need_n)
                    worth = self.odds.worth(plan.pool, need_n)
                    if n == 0:
                        tn_words = (
                            f"{_shot_name(kind)}{self._with()} at {_name(self.t, foe.id)}, "
                            f"{plan.distance} pace(s), TN {tn.tn}{_signed(tn.result_modifier)}, "
                            f"{round(100 * p)} % to hit"
                        )
                    last = (act, need, worth)
                else:
                    act = self._shot(foe, kind, first=False) or last[0]
                    need, worth = last[1], last[2]
                if used + need > ap or not self._rounds_left():
                    break
                spent = self.cartridge if kind != "blow" else 0.0
                if spent and worth <= spent:
                    break  # not worth the cartridge (see CARTRIDGE)
                used += need
                out.hits += worth - spent
                self._fired(act)
                if drawn:
                    continue  # priced, not declared (below)
                out.actions.append(act)
                out.ap += need
                # one shot in a phase; and a shot that draws the gun is the last the
                # table takes now: the next would be declared with the gun holstered.
                # The AP left still fire it this round — declared by the NPC's next
                # plan — so they count: without them a first draw weighed one shot,
                # and a rifle that takes the round to ready beat the revolver
                if phases:
                    break
                drawn = bool(getattr(act, "draw_first", False))
        finally:
            self.c.weapons = weapons
        n = len(out.actions)
        out.first = tn_words
        out.words = tn_words + (f" ({n} times)" if n > 1 else "")
        return out

    def _exposure(self, dest: Hex, threats: list[Hex]) -> tuple[float, float, str]:
        """The hits the foes it knows of may land on the hex in a round
        (:mod:`.threat`: a gun by its range and the cover, a blade by its reach), the
        line of fire it gives this NPC's gun to one of them next round (0 to 1), and
        the words for the best cover."""
        index = self.t.walls()
        total = 0.0
        fire = 0.0
        best_av = 0
        covered_from: list[str] = []
        names = self._threat_names(threats)
        gun = not self._blade()
        key = tuple(threats)
        if self._shares_memo is None or self._shares_memo[0] != key:
            self._shares_memo = (key, shares(self.t, self.cid, threats))
        shares_of = self._shares_memo[1]
        for x, name, foe, one_of in zip(threats, names, self._foes, shares_of, strict=True):
            total += self._threat.by_blade(foe, dest.distance(x))
            if not gun:
                # a blade's worth next round: the blows it may land then, fewer the
                # farther it has to walk (so it closes in, a hex at a time)
                fire = max(fire, self._threat.blows_later(dest.distance(x)))
            if not visible(self.t.map, index, x, dest):
                continue
            line = cover_line(self.t.map, index, x, dest, self.c.posture, self.t.edition)
            if gun:
                fire = max(fire, 1.0 if line.range_paces <= 20 else 0.5)
            if foe.gun is None:
                continue
            av = max((c.av for c in line.covering), default=0)
            share = len(line.covered_locations) / 8.0 * min(1.0, av / 4.0)
            if av:
                best_av = max(best_av, av)
                covered_from.append(name)
            total += self._threat.by_gun(foe, line.range_paces, 1.0 - min(1.0, share)) / one_of
        words = ""
        if covered_from:
            words = f"cover AV {best_av} against {_and(covered_from)}"
        return total, fire, words

    def _threat_names(self, threats: list[Hex]) -> list[str]:
        out = []
        for h in threats:
            tok = self.t.encounter.token_at(h)
            out.append(self.t.character(tok.character_id).name if tok else "a foe last seen there")
        return out

    def _closing(self, dest: Hex, threats: list[Hex], retreat: bool) -> float:
        if not threats:
            return 0.0
        near = min(dest.distance(x) for x in threats)
        if retreat:
            return 0.05 * near
        if not self._armed:
            return 0.0  # nothing to fight with: no reason to walk up (it reloads)
        # a blade fights next to its foe, whatever distance a gun keeps
        want = 1 if self._blade() else self.w.distance
        if want is None:
            return -self.w.closing * near
        if want > 1 and len(self._foes) == len(threats):
            # a gun keeps its distance from the foes that can shoot back; one that
            # only carries a blade it keeps off, never walks up to
            guns = [x for x, f in zip(threats, self._foes, strict=True) if f.gun is not None]
            gun = min((dest.distance(x) for x in guns), default=None)
            if gun is None:
                return -self.w.closing * max(0, want - near)
            return -self.w.closing * (abs(gun - want) + max(0, min(gun, want) - near))
        return -self.w.closing * abs(near - want)

    def _words(
        self, dest: Hex, move: Move | None, attack: _Attack, cover: str, retreat: str | None
    ) -> str:
        parts = []
        if retreat:
            parts.append(retreat)
        where = "stays put" if move is None else f"to {self.t.hex_label(dest)}"
        parts.append(f"{where}: {cover}" if cover else where)
        if attack.words:
            parts.append(f"then {attack.words}")
        return "; ".join(parts)


def _shot_name(kind: str) -> str:
    return {"snap": "snap shot", "normal": "shot", "aimed": "aimed shot", "blow": "blow"}[kind]


def _signed(n: int) -> str:
    return f", {n:+d} to the result" if n else ""


def _and(names: list[str]) -> str:
    uniq = list(dict.fromkeys(names))
    return uniq[0] if len(uniq) == 1 else ", ".join(uniq[:-1]) + " and " + uniq[-1]


__all__ = ["Plan", "Planner", "npc_ids", "plan_on", "plan_round"]
