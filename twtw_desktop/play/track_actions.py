"""The action track's and the Phases round's own steps as table actions.

Declaring an action on the AP v2 track (its AP paid, resolved later on the initiative
stack), joining a stack, rushing, Quick Draw and the stack's bonuses, surprise checks,
continuous movers, resolving the stack or flipping the Phases card, choosing a phase,
acting, delaying and interrupting. Each asks the engine itself why not (the step is
built, never committed), and applies as one table step whose log lines are the
engine's events, with what the action does to the sheet (a gun drawn, a posture).

A declared action is given as its catalogue entry (``spec``: the rules' ActionSpec,
as ``play --actions`` and the journal write it) or, in a script, by ``action`` (its
kind: ``snap_shot``, ``draw``…) and ``weapon``; :func:`spec_for` builds it the way
the Declare menu does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator

from ..errors import RulesError
from ..rules import actions as A
from ..rules.base import Speed
from ..rules.card import Card
from ..rules.timecommon import RowStatus
from .actions import (
    Action,
    Cost,
    Who,
    parse_action,
    register,
)
from .catalogue import apply_action_effects, apply_bleeding, catalogue
from .clock_actions import NOTHING_ON_THE_MAP, moved_tokens, new_round_tokens
from .movement import riders
from .speed_actions import direction_name, velocity_toward
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table


def spec_for(table: Table, who: str, kind: str, weapon: str | None = None) -> A.ActionSpec:
    """The catalogue's action of ``kind`` (with ``weapon``) for a character."""
    c, _ = table.actor(who)
    wanted = A.ActionKind(kind)
    why = ""
    for entry in catalogue(table, c):
        spec = entry.spec
        if spec is None:
            why = why or entry.why
            continue
        if spec.kind is wanted and (weapon is None or spec.weapon_id == weapon):
            return spec
    extra = f" with {weapon!r}" if weapon else ""
    raise RulesError(
        f"{c.name} cannot declare {kind.replace('_', ' ')}{extra} now"
        + (f": {why}" if why else " (not in the action catalogue, 000)")
    )


class _EngineAction(Action):
    """An action that is one step of the edition's engine."""

    #: which editions the step exists in ("segments", "phases")
    editions: ClassVar[tuple[str, ...]] = ("segments", "phases")
    log_kind: ClassVar[str] = "track"

    def kind_of_log(self, table: Table) -> str:
        return self.log_kind

    undo_areas: ClassVar[frozenset[str]] = frozenset(
        {"track", "deck", "log", "characters", "tokens"}
    )
    # sheets and tokens changed are announced by id
    shown_areas: ClassVar[frozenset[str]] = frozenset({"track", "deck", "log"})

    def call(self, table: Table) -> Callable[[], Any]:
        raise NotImplementedError

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        """The actor's sheet and tokens (a declared action readies a gun or changes a
        posture); the track's other steps touch no sheet at all."""
        who = getattr(self, "who", None)
        if not isinstance(who, str):
            return dict(NOTHING_ON_THE_MAP)
        c, _ = table.actor(who)
        toks = {t.id for t in table.encounter.tokens if t.character_id == c.id}
        return {"characters": {c.id}, "tokens": toks, "map": set()}

    def spec_of(self, table: Table) -> A.ActionSpec | None:
        """The declared action whose effects apply to the sheet (None: none)."""
        return None

    def why_not(self, table: Table) -> str | None:
        if not table.in_action or table.time is None:
            return "Not in action time: declare action time first (Ctrl+T)."
        if table.time.kind not in self.editions:
            where = "the AP v2 action track" if "segments" in self.editions else "Phases"
            return f"'{self.do}' belongs to {where} ({self.page})."
        if self.needs_actor:
            c, _ = self.actor(table)
            if c.out_of_action:
                return f"{c.name} is out of action and cannot act (000 Wound Effects)."
        table.time.update_characters(table.encounter.characters)
        return table.track.refusal(self.call(table))

    def apply(self, table: Table) -> TableEvent:
        assert table.time is not None
        table.time.update_characters(table.encounter.characters)
        result = self.call(table)()
        events = [e for e in (result if isinstance(result, list | tuple) else [result]) if e]
        spec = self.spec_of(table)
        notes: list[str] = []
        if spec is not None and self.needs_actor:
            c, _ = self.actor(table)
            notes = apply_action_effects(table, c.id, spec)
        texts: list[str] = []
        cards: list[int] = []
        for i, ev in enumerate(events):
            detail = {
                k: v
                for k, v in ev.model_dump(mode="json", exclude={"bleeding"}).items()
                if v not in (None, [], (), {}, "") and k not in ("summary", "step")
            }
            if i == len(events) - 1 and notes:
                detail["details"] = [*detail.get("details", []), *notes]
            table.log(ev.summary, self.kind_of_log(table), detail or None)
            apply_bleeding(table, ev)
            texts.append(" · ".join([ev.summary, *(getattr(ev, "details", ()) or ())]))
            cards += list(getattr(ev, "cards", ()) or ())
        if notes:
            texts.append("; ".join(notes))
        return TableEvent(" · ".join(texts), {"events": len(events)}, tuple(cards), tuple(events))


class _SpecAction(_EngineAction):
    """A step that takes a declared action: ``spec`` or ``action`` (+ ``weapon``)."""

    who: Who
    #: the catalogue's action exactly (what the window and the journal write) …
    declared: A.ActionSpec | None = None
    #: … or its kind and weapon (what a script may write instead)
    action: str | None = None
    weapon: Annotated[str, Field(max_length=64)] | None = None

    @model_validator(mode="after")
    def _one_way(self) -> _SpecAction:
        if (self.declared is None) == (self.action is None):
            raise ValueError('give the action as "declared" (its spec) or "action" (+ "weapon")')
        return self

    def spec_of(self, table: Table) -> A.ActionSpec:
        if self.declared is not None:
            return self.declared
        assert self.action is not None
        return spec_for(table, self.who, self.action, self.weapon)

    def journal_form(self) -> dict[str, Any]:
        # the journal keeps what was declared exactly, whichever way it was typed
        return super().journal_form()

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        return f"{c.name}: {self.spec_of(table).describe()}"

    def cost(self, table: Table) -> Any:
        spec = self.spec_of(table)
        return Cost(
            ap=None if spec.all_ap else spec.ap,
            speed=spec.speed.value,
            breakdown=tuple(f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown),
            source=spec.source,
        )


@register
class DeclareAction(_SpecAction):
    """Declare an action and pay its AP on the track (AP v2; in Phases, act it)."""

    do: Literal["declare_action"] = "declare_action"
    page: ClassVar[str] = "000 Action Time (declaring actions)"
    summary: ClassVar[str] = "declare an action from the catalogue and pay its AP"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        spec = self.spec_of(table)
        t = table.track
        if table.time is not None and table.time.kind == "phases":
            return lambda: t.act(c.id, spec)
        return lambda: t.declare(c.id, spec)


@register
class JoinStack(_SpecAction):
    do: Literal["join"] = "join"
    editions: ClassVar[tuple[str, ...]] = ("segments",)
    page: ClassVar[str] = "000 Simultaneous Actions"
    summary: ClassVar[str] = "put an action on another's stack this segment (+1 AP)"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        spec = self.spec_of(table)
        return lambda: table.track.join_stack(c.id, spec)


@register
class Rush(_SpecAction):
    do: Literal["rush"] = "rush"
    editions: ClassVar[tuple[str, ...]] = ("segments",)
    page: ClassVar[str] = "000 Rushing Actions (optional)"
    summary: ClassVar[str] = "rush an action with every counter present"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        spec = self.spec_of(table)
        return lambda: table.track.rush(c.id, spec)


def _cards(raw: dict[str, Card] | None) -> dict[str, Card] | None:
    return dict(raw) if raw else None


@register
class Resolve(_EngineAction):
    """Resolve this segment's initiative stack (AP v2) or flip the Phases card."""

    do: Literal["resolve"] = "resolve"
    #: cards typed in from a printed deck, by character id
    cards: dict[str, Card] | None = None
    page: ClassVar[str] = "000 Initiative Stack / 004 Initiative"
    summary: ClassVar[str] = "resolve the stack (AP v2) or flip the initiative card (Phases)"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        if table.time is not None and table.time.kind == "phases":
            return "Flip the initiative card"
        return "Resolve the initiative stack"

    def kind_of_log(self, table: Table) -> str:
        return "round" if table.time is not None and table.time.kind == "phases" else "track"

    def why_not(self, table: Table) -> str | None:
        why = super().why_not(table)
        if why or table.time is None or table.time.kind != "segments":
            return why
        t = table.track
        pending = t.pending_declarers()
        if pending:
            names = ", ".join(t.row(c).name for c in pending)
            return (
                f"{names} may still declare on segment {t.state.segment}: declare for them or "
                'pass before the cards are flipped (000 Action Timing: "After all players '
                "eligible to place a counter have done so, players may declare actions for "
                'their character").'
            )
        return None

    def call(self, table: Table) -> Callable[[], Any]:
        t = table.track
        cards = _cards(self.cards)
        if table.time is not None and table.time.kind == "phases":
            return lambda: t.resolve(cards)
        return lambda: t.resolve_stack(cards=cards)


@register
class StartRoundWithCards(_EngineAction):
    """Start a round with the cards typed in from a printed deck (by character)."""

    do: Literal["start_round_cards"] = "start_round_cards"
    cards: dict[str, Card]
    page: ClassVar[str] = "000 Action Time / 004 Initiative"
    summary: ClassVar[str] = "start the round with printed cards typed in, by character"
    needs_actor: ClassVar[bool] = False
    log_kind: ClassVar[str] = "round"

    def label(self, table: Table) -> str:
        return "Start round"

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        return {**NOTHING_ON_THE_MAP, "tokens": moved_tokens(table)}

    def call(self, table: Table) -> Callable[[], Any]:
        def go() -> Any:
            new_round_tokens(table)
            return table.track.start_round(dict(self.cards))

        return go


@register
class QuickDraw(_EngineAction):
    do: Literal["quick_draw"] = "quick_draw"
    who: Who
    card: Card | None = None
    editions: ClassVar[tuple[str, ...]] = ("segments",)
    page: ClassVar[str] = "000 Determine Bonus (Quick Draw)"
    summary: ClassVar[str] = "the Quick Draw check for the stack bonus"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: Quick Draw check"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.quick_draw_check(c.id, self.card)


@register
class StackBonus(_EngineAction):
    do: Literal["stack_bonus"] = "stack_bonus"
    who: Who
    ap: Annotated[int, Field(ge=1, le=40)]
    editions: ClassVar[tuple[str, ...]] = ("segments",)
    page: ClassVar[str] = "000 Determine Bonus"
    summary: ClassVar[str] = "spend AP from the pool for a bonus on the stack"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: {self.ap} AP for the stack"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.buy_stack_bonus(c.id, self.ap)


@register
class StackModifiers(_EngineAction):
    do: Literal["stack_modifiers"] = "stack_modifiers"
    who: Who
    gear: Annotated[int, Field(ge=-10, le=10)] = 0
    environment: Annotated[int, Field(ge=-10, le=10)] = 0
    note: Annotated[str, Field(max_length=200)] = ""
    editions: ClassVar[tuple[str, ...]] = ("segments",)
    page: ClassVar[str] = "000 Determine Bonus"
    summary: ClassVar[str] = "the Judge's gear and environment modifiers on the stack"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: stack modifiers"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.set_stack_modifiers(c.id, self.gear, self.environment, self.note)


@register
class AbandonProgress(_EngineAction):
    do: Literal["abandon"] = "abandon"
    who: Who
    editions: ClassVar[tuple[str, ...]] = ("segments",)
    page: ClassVar[str] = "000 Skills During Action Time"
    summary: ClassVar[str] = "give up a multi-round skill paid in part"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.abandon_progress(c.id)


@register
class Surprise(_EngineAction):
    """Surprise checks (001/003 Surprise) for one or more characters."""

    do: Literal["surprise"] = "surprise"
    who: list[Who] = Field(min_length=1, max_length=10_000)
    expecting_danger: bool = False
    #: printed cards by character id
    cards: dict[str, Card] | None = None
    page: ClassVar[str] = "001/003 Surprise"
    summary: ClassVar[str] = "surprise checks: who is surprised sits the round out"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return f"Surprise check: {len(self.who)} character(s)"

    def call(self, table: Table) -> Callable[[], Any]:
        t = table.track
        cards = self.cards or {}
        ids = [table.actor(w)[0].id for w in self.who]
        return lambda: [t.apply_surprise(cid, self.expecting_danger, cards.get(cid)) for cid in ids]


@register
class Continuous(_EngineAction):
    """Start, change or stop a continuous mover (000 / 002 continuous movement)."""

    do: Literal["continuous"] = "continuous"
    mover: Annotated[str, Field(min_length=1, max_length=64)]
    paces: Annotated[int, Field(ge=0, le=1000)] | None = None
    name: Annotated[str, Field(max_length=100)] | None = None
    automated: bool = False
    #: Phases only (002): the rider's or driver's skill and the mount's handling
    skill: Annotated[int, Field(ge=0, le=10)] = 0
    handling: Annotated[int, Field(ge=-10, le=10)] = 0
    page: ClassVar[str] = "000 / 002 Continuous Movement"
    summary: ClassVar[str] = "a mount, vehicle or runner moving every segment or phase"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return f"Continuous mover: {self.name or self.mover}"

    def call(self, table: Table) -> Callable[[], Any]:
        t = table.track
        kw: dict[str, Any] = {"name": self.name, "automated": self.automated}
        if table.time is not None and table.time.kind == "phases":
            kw.update(skill=self.skill, handling=self.handling)
        return lambda: t.set_continuous(self.mover, self.paces, **kw)


@register
class ChoosePhase(_EngineAction):
    do: Literal["choose_phase"] = "choose_phase"
    who: Who
    phase: Annotated[int, Field(ge=1, le=4)]
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Initiative"
    summary: ClassVar[str] = "Phases: the phase a character acts in (of those they reach)"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.choose_phase(c.id, self.phase)


@register
class Act(_EngineAction):
    """Phases: take the turn with an action of the declared speed or faster."""

    do: Literal["act"] = "act"
    who: Who
    speed: Speed | None = None
    declared: A.ActionSpec | None = None
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Taking Actions"
    summary: ClassVar[str] = "Phases: act now, with a speed or a catalogue action"

    def spec_of(self, table: Table) -> A.ActionSpec | None:
        return self.declared

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        what: Any = self.declared if self.declared is not None else self.speed
        if what is None:  # the speed declared (or still waited with), else a Quick one
            row = table.track.row(c.id)
            what = row.waiting_speed or row.declared or Speed.FAST
        return lambda: table.track.act(c.id, what)


@register
class Delay(_EngineAction):
    do: Literal["delay"] = "delay"
    who: Who
    circumstance: Annotated[str, Field(max_length=200)] | None = None
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Delaying an Action"
    summary: ClassVar[str] = "Phases: hold the action for a circumstance, or for later"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.delay(c.id, self.circumstance)


@register
class KeepWaiting(_EngineAction):
    do: Literal["keep_waiting"] = "keep_waiting"
    who: Who
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Delaying an Action"
    summary: ClassVar[str] = "Phases: keep waiting for last round's circumstance"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.keep_waiting(c.id)


@register
class StopWaiting(_EngineAction):
    do: Literal["stop_waiting"] = "stop_waiting"
    who: Who
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Delaying an Action"
    summary: ClassVar[str] = "Phases: stop waiting and declare anew"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.stop_waiting(c.id)


@register
class Interrupt(_EngineAction):
    do: Literal["interrupt"] = "interrupt"
    who: Who
    against: Who | None = None
    card: Card | None = None
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Delaying an Action (interrupting)"
    summary: ClassVar[str] = "Phases: a delaying character's Reflex contest at −2 to act first"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.preempt(c.id, self.against, self.card)


@register
class FreeAction(_EngineAction):
    """Phases: a free action — talking, a hand signal, dropping an item (004 Free
    Actions): one a round on top of the declaration, any further one a Quick action."""

    do: Literal["free_action"] = "free_action"
    who: Who
    what: Annotated[str, Field(max_length=200)] = ""
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "004 Free Actions"
    summary: ClassVar[str] = "Phases: a free action (one a round; further ones are Quick)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: {self.what or 'a free action'}"

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.free_action(c.id, self.what)


@register
class Maneuver(_EngineAction):
    """Phases: a rider or driver maneuvers a controlled continuous mover (002 Mounted
    and Vehicular Movement): steer it to a new heading (``facing``, the hexside it
    goes on toward) and/or change its speed (``paces`` a round: an Easy (3) check of
    ``skill``, +2 with ``early`` to take effect before this phase's step). Free in a
    continuous step the rider's skill and the mover's handling allow; otherwise a
    Quick action of the rider's, and the mover stands still in this phase's step."""

    do: Literal["maneuver"] = "maneuver"
    who: Who
    #: the continuous mover (its id on the track: the mount's or vehicle's character)
    mover: Annotated[str, Field(min_length=1, max_length=64)]
    facing: Annotated[int, Field(ge=0, le=5)] | None = None
    paces: Annotated[int, Field(ge=0, le=1000)] | None = None
    early: bool = False
    skill: Annotated[str, Field(min_length=1, max_length=40)] = "riding"
    card: Card | None = None
    editions: ClassVar[tuple[str, ...]] = ("phases",)
    page: ClassVar[str] = "002 Mounted and Vehicular Movement (maneuvers)"
    summary: ClassVar[str] = "Phases: steer a mount or vehicle, or change its speed (002)"

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        return None  # the mover's token and its riders too: the whole areas

    def call(self, table: Table) -> Callable[[], Any]:
        c, _ = self.actor(table)
        return lambda: table.track.maneuver(
            self.mover, c.id, paces=self.paces, early=self.early, skill=self.skill, card=self.card
        )

    def apply(self, table: Table) -> TableEvent:
        ev = super().apply(table)
        if self.facing is None:
            return ev
        tok = next(
            (t for t in table.encounter.tokens if self.mover in (t.id, t.character_id)), None
        )
        if tok is None:
            return ev
        # steering: the mover heads for the new hexside; a speed keeps its size
        tok.facing = self.facing
        vx, vy = tok.velocity
        if vx or vy:
            angle = table.map.layout().facing_angle(self.facing)
            tok.velocity = velocity_toward(math.hypot(vx, vy), angle)
        for rider in riders(table, tok.id):
            rider.facing, rider.velocity = tok.facing, tok.velocity
        name = table.character(tok.character_id).name
        line = f"{name} is steered toward {direction_name(table, self.facing)} (002 maneuver)"
        table.log(line, "move")
        return TableEvent(" · ".join([ev.text, line]), ev.record, ev.cards, ev.raw)


@register
class AtOnce(Action):
    """Phases: ``then`` is done with the other hand at the same time as the
    character's last action (004 Simultaneous Actions): the two count as one action of
    the slower speed when combining. ``then`` is any table action of the same
    character (a snap shot, a draw…); its own rules, penalties included, still apply."""

    do: Literal["at_once"] = "at_once"
    who: Who
    then: dict[str, Any]
    page: ClassVar[str] = "004 Simultaneous Actions"
    summary: ClassVar[str] = "Phases: an action with the other hand at the same time as the last"

    @model_validator(mode="after")
    def _then_is_the_same_characters(self) -> AtOnce:
        inner = parse_action(self.then)  # ValueError naming what is wrong
        if getattr(inner, "who", None) != self.who:
            raise ValueError('"then" is an action of the same character ("who")')
        return self

    def inner(self) -> Action:
        return parse_action(self.then)

    def label(self, table: Table) -> str:
        return f"{self.inner().label(table)} (at once)"

    def capture(self) -> Iterable[str]:
        return self.inner().capture()

    def areas(self) -> Iterable[str]:
        return self.inner().areas()

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        return self.inner().touches(table)

    def cost(self, table: Table) -> Any:
        return self.inner().cost(table)

    def why_not(self, table: Table) -> str | None:
        if not table.in_action or table.time is None or table.time.kind != "phases":
            return f"'{self.do}' belongs to Phases action time ({self.page})."
        c, _ = self.actor(table)
        with table.track.at_once(c.id):
            return self.inner().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        with table.track.at_once(c.id):
            return self.inner().apply(table)


__all__ = ["due_next", "is_due", "spec_for"]


def _cheapest_attack(table: Table, cid: str) -> int | None:
    """AP of the cheapest shot, blow or draw the character could declare with a
    weapon they carry (None: none)."""
    c = table.character(cid)
    if not c.weapons:
        return None
    costs = [
        e.spec.ap
        for e in catalogue(table, c)
        if e.spec is not None
        and not e.spec.all_ap
        and e.spec.weapon_id is not None
        and e.spec.kind
        in (
            A.ActionKind.SNAP_SHOT,
            A.ActionKind.NORMAL_SHOT,
            A.ActionKind.MELEE_ATTACK,
            A.ActionKind.DRAW,
            A.ActionKind.READY,
        )
    ]
    return min(costs) if costs else None


def is_due(table: Table, character_id: str) -> bool:
    """AP v2: the character may declare now — counters in front of them on a segment
    still open and nothing standing for them — or their counters cover their
    cheapest shot, blow or draw."""
    t = table.track if table.time is not None and table.time.kind == "segments" else None
    row = t.state.rows.get(character_id) if t is not None else None
    if row is None or t is None:
        return False
    if character_id in t.pending_declarers():
        return True
    need = _cheapest_attack(table, character_id)
    return need is not None and row.counters >= need and not t.state.standing.get(character_id)


def skip_reason(table: Table, character_id: str) -> str | None:
    """Why "due next" passes over a character now (None: it may choose them)."""
    t = table.track
    row = t.state.rows.get(character_id)
    if row is None:
        return "not on the track"
    if row.status != RowStatus.ACTIVE:
        return row.status_reason or row.status.value
    c = table.character(character_id)
    tok = table.token_for(character_id)
    if tok is None and _cheapest_attack(table, character_id) is None:  # (the token first:
        # the cheapest attack builds the character's whole action catalogue)
        return f"{c.name} carries no weapon and has no token to move"
    if t.state.standing.get(character_id):
        return "has a standing declaration: the run declares it"
    if row.counters + row.pool == 0:
        return "no AP left this round"
    return None


def due_next(table: Table) -> str | None:
    """AP v2: whom the Judge deals with next — first whoever may declare now with
    nothing declared (000 Action Timing: ascending Quickness), then whoever was offered
    AP from the pool for the segment's stack (000 Determine Bonus), else the character
    with nothing standing whose counters are fewest short of their cheapest shot,
    blow or draw (someone with no weapon is due only to move, when they may declare).
    None: no round is running, or nobody needs the Judge."""
    t = table.track
    if table.time is None or table.time.kind != "segments" or not table.time.round_running():
        return None
    for cid in t.pending_declarers():
        if skip_reason(table, cid) is None:
            return cid
    for cid, _ in t.bonus_bidders(offered=True):  # 000 Determine Bonus: AP for the stack
        return cid
    st = t.state
    best: tuple[int, tuple[int, int, str], str] | None = None
    for cid, r in st.rows.items():
        if r.status != RowStatus.ACTIVE or st.standing.get(cid):
            continue
        need = _cheapest_attack(table, cid)
        if need is None:
            continue
        missing = max(0, need - r.counters)
        if missing > r.pool:
            continue
        key = (missing, t._order_key(r), cid)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else None
