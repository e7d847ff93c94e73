"""The Phases edition's acting steps (004 "Taking Actions"): acting on one's phase,
actions taken together (003 "Move and Fire"), free actions, delaying, and preempting
another character with a Reflex contest (004 "Delaying an Action").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import RulesError
from .actions import (
    COMBAT_KINDS,
    ActionKind,
    ActionSpec,
    speed_name,
    speed_rank,
)
from .base import Speed
from .card import Card
from .checks import check_pool, wins_outright
from .phase_base import PhaseBase
from .phase_models import (
    MOVE_KINDS,
    PREEMPT_PENALTY,
    SOURCE_DELAY,
    SOURCE_FREE,
    SOURCE_MOVE_FIRE,
    SOURCE_MOVE_ORDER,
    SOURCE_SIMULTANEOUS,
    SOURCE_TACTICAL,
    PhaseEvent,
    PhaseRow,
    PhaseStage,
    PhaseState,
    ReflexContest,
    further_action,
    roman,
)
from .timecommon import (
    RowStatus,
)

#: 004 Freestyle Action Speeds, read as the declaration reads it (flagged, not refused)
SOURCE_NONCOMBAT = (
    "a non-combat skill with combat actions this round: 'In general, non-combat skill use "
    "may not be combined with combat actions' (004) — the Judge's call"
)
_COMBAT_KIND_NAMES = frozenset(k.value for k in COMBAT_KINDS)


def mixes_noncombat(kinds: tuple[str, ...]) -> bool:
    """Whether a round's actions (their kinds) combine a skill with combat (004)."""
    return ActionKind.SKILL.value in kinds and any(k in _COMBAT_KIND_NAMES for k in kinds)


class PhaseActing(PhaseBase):
    """Acting in the Phases edition's round (a base of
    :class:`~twtw_desktop.rules.phases.PhaseRound`)."""

    def act_refusal(self, character_id: str, action: Speed | ActionSpec) -> str | None:
        """Why :meth:`act` would refuse ``action`` now (None: the character may act)."""
        return self._refusal(lambda: self._act(character_id, action))

    def act(self, character_id: str, action: Speed | ActionSpec) -> PhaseEvent:
        """The character takes their turn with an action of the declared speed or
        faster (004 Taking Actions). Refused outside their phase, out of turn, or for
        an action slower than the declaration."""
        return self._run(lambda: self._act(character_id, action))

    def _act(
        self, character_id: str, action: Speed | ActionSpec
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        row = self._acting_row(character_id, again=True)
        spec = action if isinstance(action, ActionSpec) else None
        kind = spec.kind.value if spec is not None else "speed"
        is_move = kind in MOVE_KINDS
        details: list[str] = []
        if is_move:
            details += self._move_refusal(row)
        else:
            blocker = None if row.acted_other else self._turn_blocker(row)
            if blocker is not None:
                raise RulesError(
                    f"{blocker.name} acts before {row.name} in phase {roman(st.phase)} (Reflex "
                    f"{blocker.reflex} against {row.reflex}); they act or delay first."
                )
        speed = action.speed if isinstance(action, ActionSpec) else Speed(action)
        allowed = row.waiting_speed or row.declared
        assert allowed is not None
        if speed_rank(speed) > speed_rank(allowed):
            raise RulesError(
                f"{row.name} declared a {speed_name(allowed)} action; a {speed_name(speed)} "
                "action is too slow."
            )
        if row.acted and row.acted_phase not in (None, st.phase) and not row.delayed:
            raise RulesError(
                f"{row.name} has already acted this round, in phase {roman(row.acted_phase)}; "
                "the actions of one declaration are taken together (004)."
            )
        # a Step rides along with a Quick action (004 Maneuver); a second one is a move
        is_step = bool(spec is not None and spec.step and not row.step_taken)
        speeds = row.acted_speeds if is_step else (*row.acted_speeds, speed)
        if character_id in self._together:
            if not row.acted_speeds:
                raise RulesError(
                    f"{row.name} has taken no action this round to do this one at the same "
                    f"time as ({SOURCE_SIMULTANEOUS})."
                )
            last = row.acted_speeds[-1]
            merged = max(last, speed, key=speed_rank)
            is_step = False
            speeds = (*row.acted_speeds[:-1], merged)
            details.append(
                f"with the other hand at the same time as the last action: one "
                f"{speed_name(merged)} action for combining, the slower of the two "
                f"({SOURCE_SIMULTANEOUS})"
            )
        step_taken = row.step_taken or is_step
        kinds = (*row.acted_kinds, kind)
        tactical = row.shots_tactical + ((spec.tactical,) if spec and spec.tactical else ())
        combo = self._combined(row, speeds, step_taken, kinds, tactical, allowed)
        if combo:
            details.append(combo)
        mixed = mixes_noncombat(kinds)
        if mixed and not row.mixed_noncombat:
            details.append(SOURCE_NONCOMBAT)
        rows = dict(st.rows)
        update: dict[str, object] = {
            "acted": True,
            "acted_speed": speed,
            "acted_speeds": speeds,
            "acted_kinds": kinds,
            "step_taken": step_taken,
            "shots_tactical": tactical,
            "mixed_noncombat": row.mixed_noncombat or mixed,
            "acted_phase": row.acted_phase if row.acted else st.phase,
            "delayed": False,
            "preempting": False,
        }
        if is_move:
            update["moved_phase"] = st.phase
        if spec is not None and spec.is_shot and not spec.firer_moving:
            update["still_shot"] = True
        rows[character_id] = row.model_copy(update=update)
        what = spec.describe() if spec is not None else f"a {speed_name(speed)} action"
        if is_move and spec is not None:
            what = " ".join(i.label for i in spec.breakdown) or what
        if row.delayed:
            details.append(
                f"acting on a delay{f' (waiting for {row.waiting_for})' if row.waiting_for else ''}"
            )
        begun = st.actions_begun or (not is_move and not row.delayed and not row.preempting)
        event = self._event(
            "act",
            character_id=character_id,
            summary=f"{row.name} acts in phase {roman(st.phase)}: {what}",
            details=tuple(details),
        )
        return st.model_copy(update={"rows": rows, "actions_begun": begun}), event, False

    def _move_refusal(self, row: PhaseRow) -> list[str]:
        """Raise when ``row`` may not move now; the log lines when it may.

        003 Move and Fire: "A character who did not take the movement penalty on a
        shot may not move after the attempt." 001 Movement Actions: "All movement
        happens before all other actions."; 001 Order of Actions: "start with the last
        character and do movement in reverse order". House (001 against 003/004, which
        let a character move before, during or after the attack in their own phase):
        each phase opens with its moves, the slowest of those acting in it first; once
        someone in the phase takes another action its moves are over. A delaying
        character acting on their delay moves when they act (004 Delaying an Action)."""
        st = self._state
        if row.still_shot:
            raise RulesError(
                f"{row.name} took a shot without the firer-movement penalty and may not move "
                f'after it ({SOURCE_MOVE_FIRE}: "A character who did not take the movement '
                'penalty on a shot may not move after the attempt").'
            )
        if row.delayed or row.preempting:
            return [f"moves on a delay ({SOURCE_DELAY})"]
        if st.actions_begun:
            raise RulesError(
                f"The moves of phase {roman(st.phase)} are over: someone has already taken "
                f'another action in it ({SOURCE_MOVE_ORDER}: "All movement happens before all '
                'other actions."). Move at the start of the phase, or delay and move later.'
            )
        order = self._order_for(st, st.phase)
        mine = order.index(row.character_id) if row.character_id in order else len(order)
        faster_moved = [st.rows[c].name for c in order[:mine] if st.rows[c].moved_phase == st.phase]
        if faster_moved:
            raise RulesError(
                f"{', '.join(faster_moved)} (acting before {row.name}) has already moved in "
                f"phase {roman(st.phase)}: the moves go from the last to act to the first "
                f'({SOURCE_MOVE_ORDER}: "start with the last character and do movement in '
                'reverse order").'
            )
        return [f"the phase's moves come first, the slowest first ({SOURCE_MOVE_ORDER})"]

    @staticmethod
    def _combined(
        row: PhaseRow,
        speeds: tuple[Speed, ...],
        step: bool,
        kinds: tuple[str, ...],
        tactical: tuple[str, ...],
        declared: Speed,
    ) -> str:
        """Check the round's actions so far against the declaration (004 Freestyle
        Action Speeds; a Step counts as a Quick action unless it rides along with one,
        004 Maneuver; a move with a shot is a tactical move, 004 Tactical Move). The
        line for the log ("" for a single action); RulesError when they do not fit."""
        eff = [*speeds, *([Speed.FAST] if step and Speed.FAST not in speeds else [])]
        moving = any(k in MOVE_KINDS for k in kinds)
        if moving and "slow" in tactical:
            raise RulesError(
                f"{row.name} cannot shoot Slow gear in a round they move: "
                f'"Tactical actions cannot be performed with gear that has the Slow attribute" '
                f"({SOURCE_TACTICAL})."
            )
        if len(eff) < 2:
            return ""
        done, last = eff[:-1], eff[-1]
        combo = further_action(row.name, done, last, declared)
        line = combo.reasons[-1]
        if step:
            line += "; the Step rides along with a Quick action (004 Maneuver)"
        if moving and "full" in tactical and combo.speed != Speed.SLOW:
            if declared != Speed.SLOW:
                raise RulesError(
                    f"{row.name} has already acted this round: a move with this shot is a Full "
                    'tactical move ("The only tactical moves that can be performed with a Half '
                    "action are snap shots (without aim), with single or double action "
                    f'pistols"; {SOURCE_TACTICAL}), slower than the {speed_name(declared)} '
                    "declared."
                )
            line += f"; a tactical move with this shot is a Full action ({SOURCE_TACTICAL})"
        return line

    #: characters whose next action is done at the same time as their last (see
    #: :meth:`at_once`); not state: set only inside one table step
    _together: frozenset[str] = frozenset()

    @contextmanager
    def at_once(self, character_id: str) -> Iterator[None]:
        """Inside the block the character's next action is done at the same time as
        their last, one with each hand: the two count as one action of the slower
        speed for combining (004 Simultaneous Actions: "count them as a single action
        for combination purposes, with a speed equal to the slowest")."""
        old = self._together
        self._together = old | {character_id}
        try:
            yield
        finally:
            self._together = old

    def free_action(self, character_id: str, what: str = "") -> PhaseEvent:
        """A free action (talking, a hand signal, dropping an item). 004 Free Actions:
        "Each character may do one free action per round in addition to any other
        actions. Any further free actions count as a fast action and must be combined"
        — the first of the round is taken whenever the character takes part in the
        round (house: a shout is not tied to the phase), any further one is a Quick
        action of their phase, combined with the rest of the declaration."""
        return self._run(lambda: self._free(character_id, what))

    def _free(self, character_id: str, what: str) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        row = self.row(character_id)
        text = what.strip() or "a free action"
        if row.free_used:
            new, event, touched = self._act(character_id, Speed.FAST)
            riding = (
                [
                    "the round's Free action is the riding (002 Mounted and Vehicular Movement: "
                    "'the speed of the continuous actions is Free')"
                ]
                if row.free_by_riding
                else []
            )
            event = event.model_copy(
                update={
                    "summary": f"{row.name}: {text}, a further free action: a Quick action",
                    "details": (
                        *event.details,
                        *riding,
                        f"one free action a round; further ones count as Quick ({SOURCE_FREE})",
                    ),
                }
            )
            rows = dict(new.rows)
            rows[character_id] = rows[character_id].model_copy(update={"free_used": True})
            return new.model_copy(update={"rows": rows}), event, touched
        if st.stage not in (PhaseStage.RESOLVED, PhaseStage.ACTING):
            raise RulesError("Free actions are taken during the round, once the card is flipped.")
        if row.status != RowStatus.ACTIVE or row.hesitated:
            why = row.status_reason or ("hesitates" if row.hesitated else "takes no part")
            raise RulesError(f"{row.name} cannot act this round ({why}).")
        return self._row_step(
            character_id,
            {"free_used": True},
            "free_action",
            summary=f"{row.name}: {text} (the round's free action, {SOURCE_FREE})",
        )

    def delay(self, character_id: str, circumstance: str | None = None) -> PhaseEvent:
        """Hold the action when the character's turn comes: for a named circumstance
        (act the moment it happens) or to act at any later time (004 Delaying)."""
        return self._run(lambda: self._delay(character_id, circumstance))

    def _delay(
        self, character_id: str, circumstance: str | None
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        # a character who has only moved may still hold the rest of the action
        row = self._acting_row(character_id, again=True)
        if row.acted_other:
            raise RulesError(f"{row.name} has already acted this round.")
        if row.delayed:
            raise RulesError(f"{row.name} is already delaying.")
        blocker = self._turn_blocker(row)
        if blocker is not None:
            raise RulesError(
                f"{blocker.name} acts before {row.name}; {row.name} delays on their own turn."
            )
        rows = dict(st.rows)
        text = (circumstance or "").strip() or None
        rows[character_id] = row.model_copy(update={"delayed": True, "waiting_for": text})
        event = self._event(
            "delay",
            character_id=character_id,
            summary=f"{row.name} delays" + (f", waiting for {text}" if text else ", to act later"),
        )
        return st.model_copy(update={"rows": rows}), event, False

    def check_preempt(self, character_id: str, against: str | None = None) -> str:
        """Whom ``character_id`` would try to interrupt (``against``, or the next to
        act); RulesError, with the reason, when :meth:`preempt` would be refused. Draws
        nothing and changes nothing."""
        st = self._state
        row = self._acting_row(character_id)
        if not row.delayed:
            raise RulesError(
                f"Only a delaying character can interrupt, and {row.name} is not delaying."
            )
        target_id = against or self.next_to_act()
        if target_id is None:
            raise RulesError("Nobody is about to act, so there is nothing to interrupt.")
        if target_id == character_id:
            raise RulesError(f"{row.name} cannot interrupt their own action.")
        target = self.row(target_id)
        if (
            target.acted
            or target.status != RowStatus.ACTIVE
            or target.hesitated
            or target.passed
            or (target.phase != st.phase and not target.delayed)
        ):
            raise RulesError(f"{target.name} is not about to act.")
        return target_id

    def preempt_targets(self, character_id: str) -> list[str]:
        """Everyone ``character_id`` could try to interrupt now: the next to act
        first, then the phase's acting order, then other delaying characters."""
        nxt = self.next_to_act()
        ids = dict.fromkeys([*([nxt] if nxt else []), *self.acting_order(), *self._state.rows])
        out = []
        for cid in ids:
            try:
                self.check_preempt(character_id, cid)
            except RulesError:
                continue
            out.append(cid)
        return out

    def preempt(
        self, character_id: str, against: str | None = None, card: Card | None = None
    ) -> PhaseEvent:
        """A delaying character tries to act before ``against`` (default: the next to
        act): a Reflex contest on one card, the interrupter at −2 (004 Delaying). The
        winner of a tie is the character already acting."""
        return self._run(lambda: self._preempt(character_id, against, card))

    def _preempt(
        self, character_id: str, against: str | None, card: Card | None
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        row = self._acting_row(character_id)
        target_id = self.check_preempt(character_id, against)
        target = self.row(target_id)
        drawn, from_deck = self._take(card)
        more = self._more()
        mine = check_pool(
            drawn,
            self._sheet(character_id).trait_pool("reflex"),
            0,
            more,
            [("interrupting", PREEMPT_PENALTY, SOURCE_DELAY)],
        )
        theirs = check_pool(drawn, self._sheet(target_id).trait_pool("reflex"), 0, more)
        extra = [n for c in (mine, theirs) if c.read is not None for n in c.read.cards_drawn]
        self._discard(drawn, from_deck, extra)
        wins = wins_outright(mine, theirs)
        if mine.calamity:
            why = f"{row.name} rolls a CF"
        elif theirs.calamity:
            why = f"{target.name} rolls a CF"
        else:
            why = f"{mine.result} against {theirs.result}" + (
                " (a tie stays with the acting character)" if mine.result == theirs.result else ""
            )
        contest = ReflexContest(
            interrupter_id=character_id,
            target_id=target_id,
            card_number=drawn.number,
            interrupter_result=mine.result,
            target_result=theirs.result,
            interrupter_wins=wins,
            reasons=(*mine.reasons, *theirs.reasons, why),
        )
        rows = dict(st.rows)
        if wins:
            rows[character_id] = row.model_copy(update={"preempting": True})
        outcome = (
            f"{row.name} goes first" if wins else f"{row.name} goes after {target.name}'s action"
        )
        event = self._event(
            "preempt",
            character_id=character_id,
            summary=f"{row.name} tries to interrupt {target.name}: {outcome}",
            details=(why,),
            cards=((drawn.number,) if from_deck else ()) + tuple(extra),
            contest=contest,
        )
        return st.model_copy(update={"rows": rows}), event, True
