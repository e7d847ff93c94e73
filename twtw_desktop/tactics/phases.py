"""The Phases edition's plan: one action in the NPC's phase, and the speed it
declares for it (004 Declaring Actions, Taking Actions).

:class:`Phases` plans with the planner's scoring (its best move, its attacks,
the table's checks): an attack from where the NPC stands when it has one, else a
gun drawn or cocked when the shot cannot come with it in one declaration, else
the best move. While the round's speeds are declared the plan is
the speed that action needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..hexgrid import Hex
from ..play.actions import Action, Cock, Draw, Move, hex_of
from ..play.clock_actions import Declare
from ..play.table import Table
from ..rules.action_moves import phase_move_speed
from .arms import Arms
from .plans import Plan, _Attack
from .temperament import withdrawing
from .threat import Foe, Threats, foe_of
from .view import Sight
from .ways import path_refs

if TYPE_CHECKING:  # annotations only
    from contextlib import AbstractContextManager

    from .odds import DeckOdds
    from .temperament import Weights


class Phases(Arms):
    """The Phases half of the planner (module docstring); the scoring it calls is
    the planner's."""

    odds: DeckOdds
    w: Weights
    tok: Any
    claimed: set[Hex]
    _declaring: bool
    _area: Any
    _foes: list[Foe]
    _threat: Threats

    def _best(  # pragma: no cover - the planner's
        self, sight: Sight, budget: int, phases: bool = False
    ) -> tuple[float, Hex, Move | None, _Attack, str] | None:
        raise NotImplementedError

    def _checked(self, attack: _Attack, ap: int, first: bool) -> _Attack:  # pragma: no cover
        raise NotImplementedError

    def _attacks_with(  # pragma: no cover - the planner's
        self, foes: list[Any], ap: int, phases: bool, danger: dict[str, float]
    ) -> tuple[_Attack, float]:
        raise NotImplementedError

    def _danger(self, foe: Any, here: Hex) -> float:  # pragma: no cover
        raise NotImplementedError

    def _placed(
        self, dest: Hex, move: Move | None
    ) -> AbstractContextManager[None]:  # pragma: no cover
        raise NotImplementedError

    def _phase_attack(self, foes: list[Any], retreat: bool) -> _Attack:  # pragma: no cover
        raise NotImplementedError

    def _plan_phases(self, sight: Sight) -> Plan:
        """Phases: one action in the NPC's phase (004 Taking Actions) — an attack
        from where it stands when it has one, else the best move. While the round's
        speeds are declared (004 Declaring Actions) it declares the speed that action
        needs; its turn is not come, so the action is priced, not asked ``why_not``."""
        c = self.c
        declaring = _phase_declared(self.t, c.id) is None
        # before its turn (speeds being declared, or someone else next) what it will
        # do then is priced, not asked why_not: the turn is not come
        self._declaring = declaring or self.t.track.next_to_act() != c.id
        try:
            choice = self._phase_choice(sight)
        finally:
            self._declaring = False
        # 004 Declaring Actions: "they may perform any action they choose as long as
        # the action speed of the given action is equal to or faster than the speed
        # they declared" — with a gun, a Half action at the least keeps the shot open
        # (a snap shot is one) when the plan is only to wait, draw or cock: a Quick
        # one would rule out the very shot it readies for
        gun = not self._blade()
        if choice is None:
            if declaring:
                if gun:
                    return self._declare(
                        "normal", "nothing to reach: a Half action keeps a shot open"
                    )
                return self._declare("fast", "nothing to reach: a Quick action keeps it ready")
            return Plan(c.id, (), ("Nothing worth doing this phase.",))
        act, words, dest, path, target = choice
        if declaring:
            speed = self._speed_of(act)
            if gun and isinstance(act, Draw | Cock) and speed == "fast":
                speed, words = "normal", f"{words}; a Half action keeps a shot open"
            return self._declare(speed, words)
        if dest is not None:
            self.claimed.add(dest)
        return Plan(c.id, (act,), (words,), path, target)

    def _phase_choice(
        self, sight: Sight
    ) -> tuple[Action, str, Hex | None, tuple[tuple[int, int], ...], str | None] | None:
        tok = self.tok
        assert tok is not None
        foes = [self.t.token(t) for t in sight.seen]
        foes = [f for f in foes if not self.t.character(f.character_id).out_of_action]
        retreat = withdrawing(self.c, self.w, sight.allies) if foes else None
        self._foes = [foe_of(self.t, f.character_id) for f in foes]
        self._threat = Threats(self.t, self.c, self.odds, 1, True)
        with self._placed(tok.at, None):
            here = self._checked(self._phase_attack(foes, retreat is not None), 99, True)
        if here.actions and here.hits >= 0.05:
            return here.actions[0], f"stays put; then {here.words}", None, (), here.target
        ready = self._readying(foes) if foes and retreat is None else None
        if ready is not None:
            return ready[0], ready[1], None, (), None
        best = self._best(sight, 6, phases=True)
        if best is None or best[2] is None:
            return None
        _s, dest, move, _attack, words = best
        assert move is not None
        return move, words.split("; then ")[0], dest, path_refs(self.t, self._area, move), None

    def _readying(self, foes: list[Any]) -> tuple[Action, str] | None:
        """Phases: a gun drawn, or cocked, as this phase's action when the shot
        cannot come with it in one declaration (004: at most three Quick actions) —
        of its guns (:meth:`.Arms.arms`), the one whose shot, once ready, is worth
        most from here."""
        arms = self.arms()
        if len(arms) == 1:
            with self.arming(arms[0]):
                return self._ready_one()
        tok = self.tok
        assert tok is not None
        danger = {f.character_id: self._danger(f, tok.at) for f in foes}
        best: tuple[float, tuple[Action, str]] | None = None
        for slot in arms:
            with self.arming(slot):
                got = self._ready_one()
                if got is None:
                    continue
                worth = self._ready_worth(foes, danger)
            if best is None or worth > best[0] + 1e-9:
                best = (worth, got)
        return None if best is None else best[1]

    def _ready_one(self) -> tuple[Action, str] | None:
        slot = self._weapon()
        if slot is None or not slot[1].is_ranged:
            return None
        i, w = slot
        cw = self.c.weapons[i]
        named = self._naming(i, w)
        act: Action
        if not cw.readied:
            act, what = Draw(who=self.cid, **named), f"draws the {w.name}"
        elif w.cock_ap is not None and not cw.cocked:
            act, what = Cock(who=self.cid, **named), f"cocks the {w.name}"
        else:
            return None
        if not self._legal(act, 0, first=True):
            return None
        return act, f"stays put; {what} (the shot in a later phase)"

    def _ready_worth(self, foes: list[Any], danger: dict[str, float]) -> float:
        """The worth of the shot the weapon chosen would have here once drawn and
        cocked (priced, not asked: its phase is not come)."""
        slot = self._weapon()
        assert slot is not None
        cw = self.c.weapons[slot[0]]
        kept = (cw.readied, cw.cocked, self._declaring)
        cw.readied, cw.cocked, self._declaring = True, True, True
        try:
            return self._attacks_with(foes, 99, True, danger)[1]
        finally:
            cw.readied, cw.cocked, self._declaring = kept

    def _speed_of(self, act: Action) -> str:
        """The speed the action needs (the catalogue's, or a move's by its paces)."""
        if isinstance(act, Move):
            # the table's own reading of the move (its path pace by pace, terrain and
            # paid turns counted): the straight distance may call a Full move Half
            try:
                spec = act.plan(self.t).action
            except RulesError:
                spec = None
            if spec is not None:
                return spec.speed.value
            tok = self.tok
            assert tok is not None
            paces = max(1, tok.at.distance(hex_of(self.t, act.to)))
            try:
                return phase_move_speed(self.c, paces)[1].value
            except RulesError:
                return "slow"
        try:
            spec = act.spec(self.t)
        except RulesError:
            spec = None
        if spec is None:
            return "normal"
        if isinstance(act, Draw | Cock):
            return spec.speed.value
        # a shot may need a cock or a draw with it (one declaration, 004): a Half
        # action at the least, so the shot is not refused as too slow on its turn
        return spec.speed.value if spec.speed.value == "slow" else "normal"

    def _declare(self, speed: str, why: str) -> Plan:
        act = Declare(who=self.cid, speed=speed)  # type: ignore[arg-type]
        if self.t.why_not(act) is not None:
            return Plan(self.cid, (), (f"{self.c.name} cannot declare a speed now.",))
        return Plan(self.cid, (act,), (f"declares {speed}: {why}",))


def _phase_declared(table: Table, cid: str) -> str | None:
    """The speed the character declared this round (None: not yet)."""
    try:
        row = table.track.row(cid)
    except (KeyError, AttributeError, RulesError):
        return None
    speed = getattr(row, "declared", None)
    return None if speed is None else str(speed)
