"""What the planner hands out: a plan (the table actions and the reasons), and the
attacks it weighs from one hex on the way to one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..play.actions import Action


@dataclass(frozen=True)
class Plan:
    """One NPC's plan: the table actions (in their journal form when asked), the
    reasons, the hexes of its path and its target, for the map's ghost."""

    who: str
    actions: tuple[Action, ...]
    reasons: tuple[str, ...]
    path: tuple[tuple[int, int], ...] = ()
    target: str | None = None
    score: float = 0.0

    def journal(self) -> list[dict[str, Any]]:
        return [a.journal_form() for a in self.actions]

    def as_json(self) -> dict[str, Any]:
        return {"who": self.who, "actions": self.journal(), "reasons": list(self.reasons)}


@dataclass
class _Attack:
    """The attacks of a plan from one hex: the actions, their AP, expected hits."""

    actions: list[Action] = field(default_factory=list)
    ap: int = 0
    hits: float = 0.0
    words: str = ""
    target: str | None = None
    #: the words of the first attack alone
    first: str = ""
    #: the carried slot the attacks are made with (None: the default weapon)
    slot: int | None = None


__all__ = ["Plan", "_Attack"]
