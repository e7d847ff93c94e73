"""The naive opponent the quality benchmark plays the autopilot against.

It sees what the autopilot's NPC would see (the same :mod:`.view`), and it plays
the way a hurried hand does: it walks straight at the nearest foe it sees (as far
as the AP leave room for an attack), attacks that foe with normal shots (or blows)
while the AP last, and never looks for cover; in a Phases phase it fires a normal
shot (or a blow) at the nearest foe it sees, whatever the odds, or else walks
straight at it. Its actions pass the same table
checks as the autopilot's (:meth:`Planner._checked`), so a fight never meets a
refusal from either side.
"""

from __future__ import annotations

from typing import Any

from ..hexgrid import Hex
from ..play.actions import Move
from .planner import Planner
from .plans import _Attack
from .view import Sight


class NaivePlanner(Planner):
    """Straight at the nearest foe, shoot the nearest, no cover (module docstring)."""

    #: it fires whatever the odds
    cartridge = 0.0
    #: it fights with the first loaded gun it carries (else its blade), and reloads
    #: only that one
    choosing = False

    def _best(
        self, sight: Sight, budget: int, phases: bool = False
    ) -> tuple[float, Hex, Move | None, _Attack, str] | None:
        tok = self.tok
        assert tok is not None
        start = tok.at
        foes = [self.t.token(t) for t in sight.seen]
        foes = [f for f in foes if not self.t.character(f.character_id).out_of_action]
        if not foes:
            return None
        nearest = min(foes, key=lambda f: (start.distance(f.at), f.id))
        keep = 0 if self._blade() else self._attack_ap(nearest, budget)
        dest, move_ap = self._toward(nearest.at, budget - keep, phases)
        move = self._move(dest, [nearest]) if dest != start else None
        if move is not None and not self._legal(move, move_ap, first=True):
            dest, move, move_ap = start, None, 0
        with self._placed(dest, move):
            kind = "normal" if self._gun() else "blow"
            attack = self._series(nearest, kind, budget - move_ap, phases)
            attack = self._checked(attack, budget - move_ap, first=move is None)
        name = self.t.character(nearest.character_id).name
        where = "stays put" if move is None else f"straight at {name}"
        words = where + (f"; then {attack.words}" if attack.words else "")
        return 0.0, dest, move, attack, words

    def _phase_attack(self, foes: list[Any], retreat: bool) -> _Attack:
        """Phases: a normal shot (or a blow) at the nearest foe it sees, as its speed
        allows, whatever the odds — not the autopilot's choice of target and kind."""
        tok = self.tok
        assert tok is not None
        if not foes:
            return _Attack()
        nearest = min(foes, key=lambda f: (tok.at.distance(f.at), f.id))
        kind = "normal" if self._gun() else "blow"
        got = self._allowed(self._series(nearest, kind, 99, True), 99, not self._declaring)
        if got.actions:
            got.hits = max(got.hits, 1.0)  # it fires whatever the odds
        return got

    def _gun(self) -> bool:
        return not self._blade()

    def _attack_ap(self, foe: Any, budget: int) -> int:
        got = self._series(foe, "normal" if self._gun() else "blow", budget, phases=True)
        return got.ap

    def _toward(self, target: Hex, ap: int, phases: bool) -> tuple[Hex, int]:
        """The hex within ``ap`` nearest the target (the cheapest among equals)."""
        tok = self.tok
        assert tok is not None
        start = tok.at
        best = (start.distance(target), 0, start.q, start.r)
        if self.c.move <= 0 or ap <= 0:
            return start, 0
        reach = self._reach(start, min(ap, 6) if not phases else self._phase_ap())
        if reach is None:
            return start, 0
        hexes, cost = reach
        for h, c in zip(hexes, cost.tolist(), strict=True):
            if c <= ap and h.distance(target) >= 1:
                best = min(best, (h.distance(target), int(c), h.q, h.r))
        return Hex(best[2], best[3]), best[1]
