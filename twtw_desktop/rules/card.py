"""The action card schema (RULES.md "The action card").

The pages describe the card's sections but never print one; this schema is what a
transcribed printed deck or the bundled generated deck must fit. Reading pools from
a card lives in :mod:`twtw_desktop.rules.deck`.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from .base import CAUSE_ROWS, DIE_TYPES, EFFECT_ROWS, HitLocation, SmallInt, Speed, Strict

#: One cause cell: a die face 1..N, or "CF" (critical failure / calamity).
CauseFace = int | Literal["CF"]

#: Index of the standard hit location in the 4-entry stack, counted from the top
#: (000: "second from the bottom" == "third from the top").
STANDARD_HIT_INDEX = 2


class EffectCell(Strict):
    """One effect cell: the sum of n dice of the column's type, and whether it
    shows *increased effect* (draw another card, add its ``(1)Y`` cell)."""

    value: Annotated[int, Field(ge=1)]
    increased: bool = False


class HitLocationEntry(Strict):
    """One rectangle of the hit location stack.

    ``triangles`` is the bump cost to move to this entry from the standard one
    (0 only on the standard entry). ``prone`` marks 003's prone attribute.
    """

    location: HitLocation
    triangles: Annotated[int, Field(ge=0, le=2)] = 0
    prone: bool = False


class InitiativeBar(Strict):
    """TNs to act in phases I–IV for each declared speed (004)."""

    fast: tuple[SmallInt, SmallInt, SmallInt, SmallInt]
    normal: tuple[SmallInt, SmallInt, SmallInt, SmallInt]
    slow: tuple[SmallInt, SmallInt, SmallInt, SmallInt]

    def tns(self, speed: Speed) -> tuple[int, int, int, int]:
        return getattr(self, speed.value)

    @model_validator(mode="after")
    def _descending(self) -> InitiativeBar:
        for name in ("fast", "normal", "slow"):
            row = getattr(self, name)
            if any(a < b for a, b in pairwise(row)):
                raise ValueError(f"initiative bar {name} TNs must not rise from phase I to IV")
        return self


class Card(Strict):
    """One of the 54 action cards."""

    number: Annotated[int, Field(ge=1, le=54)]
    #: column ("4","6","8","10","12") -> rows 1..5
    cause: dict[Literal["4", "6", "8", "10", "12"], list[CauseFace]]
    #: column -> rows 1..7
    effect: dict[Literal["4", "6", "8", "10", "12"], list[EffectCell]]
    #: four entries, top to bottom; the standard one is index 2
    hit_locations: list[HitLocationEntry]
    shield: Annotated[int, Field(ge=-2, le=2)]
    #: burst value (3, 5, 10) -> hits
    burst: dict[Literal["3", "5", "10"], Annotated[int, Field(ge=0)]]
    #: unintended-target figure numbers
    figures: tuple[
        Annotated[int, Field(ge=1, le=6)],
        Annotated[int, Field(ge=1, le=6)],
        Annotated[int, Field(ge=1, le=6)],
    ]
    #: blank (None) or a failure number 1–13
    wrench: Annotated[int, Field(ge=1, le=13)] | None = None
    clock: Annotated[int, Field(ge=1, le=12)]
    step: Annotated[int, Field(ge=0, le=6)]
    toggle: bool
    fragment: Annotated[int, Field(ge=0, le=9)]
    initiative: InitiativeBar

    # -- validation of the grids -------------------------------------------------

    @field_validator("cause")
    @classmethod
    def _cause_grid(cls, v: dict[str, list[CauseFace]]) -> dict[str, list[CauseFace]]:
        if sorted(v, key=int) != [str(d) for d in DIE_TYPES]:
            raise ValueError("cause grid needs exactly the columns 4, 6, 8, 10, 12")
        for col, cells in v.items():
            if len(cells) != CAUSE_ROWS:
                raise ValueError(f"cause column d{col} needs {CAUSE_ROWS} rows, has {len(cells)}")
            for i, c in enumerate(cells, 1):
                if c != "CF" and not (1 <= c <= int(col)):
                    raise ValueError(f"cause cell {i}-{col} is {c}, not a d{col} face or CF")
        return v

    @field_validator("effect")
    @classmethod
    def _effect_grid(cls, v: dict[str, list[EffectCell]]) -> dict[str, list[EffectCell]]:
        if sorted(v, key=int) != [str(d) for d in DIE_TYPES]:
            raise ValueError("effect grid needs exactly the columns 4, 6, 8, 10, 12")
        for col, cells in v.items():
            if len(cells) != EFFECT_ROWS:
                raise ValueError(f"effect column d{col} needs {EFFECT_ROWS} rows, has {len(cells)}")
            for n, c in enumerate(cells, 1):
                if not (n <= c.value <= n * int(col)):
                    raise ValueError(
                        f"effect cell ({n}){col} is {c.value}, outside {n}..{n * int(col)}"
                    )
        return v

    @field_validator("hit_locations")
    @classmethod
    def _stack(cls, v: list[HitLocationEntry]) -> list[HitLocationEntry]:
        if len(v) != 4:
            raise ValueError(f"hit location stack needs 4 entries, has {len(v)}")
        for i, e in enumerate(v):
            if i == STANDARD_HIT_INDEX and e.triangles != 0:
                raise ValueError("the standard hit location (third from the top) has no triangles")
            if i != STANDARD_HIT_INDEX and e.triangles == 0:
                raise ValueError(f"hit location entry {i + 1} needs 1 or 2 triangles")
        return v

    @field_validator("burst")
    @classmethod
    def _burst(cls, v: dict[str, int]) -> dict[str, int]:
        if sorted(v, key=int) != ["3", "5", "10"]:
            raise ValueError("burst needs the values 3, 5 and 10")
        for b, hits in v.items():
            if hits > int(b):
                raise ValueError(f"burst {b} cannot score {hits} hits")
        return v

    # -- convenient accessors ----------------------------------------------------

    def cause_cell(self, row: int, die: int) -> CauseFace:
        """Cause cell at row 1..5 of column d``die``."""
        return self.cause[str(die)][row - 1]  # type: ignore[index]

    def effect_cell(self, row: int, die: int) -> EffectCell:
        """Effect cell ``(row)die``, row 1..7."""
        return self.effect[str(die)][row - 1]  # type: ignore[index]

    @property
    def standard_hit(self) -> HitLocationEntry:
        return self.hit_locations[STANDARD_HIT_INDEX]

    def burst_hits(self, burst: int) -> int:
        return self.burst[str(burst)]  # type: ignore[index]
