"""Shared building blocks of the rules model: strict pydantic base, dice, pools."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator


class Strict(BaseModel):
    """Base of every rules/data model: unknown fields refused, no NaN/inf, frozen.

    Frozen models make state changes explicit (``model_copy(update=...)``), which is
    what lets the action track and the app's undo stack restore exact states.
    """

    model_config = ConfigDict(
        extra="forbid",
        # each model's validator is built when first used, not at import: start-up
        # builds only those the first window needs (the encounter's)
        defer_build=True,
        frozen=True,
        allow_inf_nan=False,
        validate_default=True,
        use_enum_values=False,
    )


class Mutable(BaseModel):
    """Strict but mutable (character sheets edited in place by the UI)."""

    model_config = ConfigDict(
        extra="forbid",
        defer_build=True,
        frozen=False,
        allow_inf_nan=False,
        validate_assignment=True,
        validate_default=True,
    )

    def assign_from(self, other: Mutable) -> None:
        """Become equal to ``other`` — an already validated instance of the same class —
        keeping this object's identity, so views holding it stay valid (the table's
        undo puts sheets and tokens back this way). Fields are set as a whole, after
        validation happened on ``other``, so no intermediate state is ever checked."""
        if type(other) is not type(self):
            raise TypeError(f"cannot assign a {type(other).__name__} to a {type(self).__name__}")
        fresh = other.model_copy(deep=True)
        for name in type(self).model_fields:
            object.__setattr__(self, name, getattr(fresh, name))
        object.__setattr__(self, "__pydantic_fields_set__", set(fresh.model_fields_set))

    def field_values(self) -> dict[str, object]:
        """Every field's value as it is now (no copy): what :meth:`assign_fields`
        takes back to restore this state."""
        return {name: getattr(self, name) for name in type(self).model_fields}

    def assign_fields(self, values: dict[str, object]) -> None:
        """Set several fields at once, as one change: the values come from a
        validated model of this class (a saved :meth:`field_values`, or a copy the
        rules built), so the fields are put back together without validating an
        in-between state field by field (a map resized and its ground with it)."""
        known = type(self).model_fields
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(f"{type(self).__name__} has no field {unknown[0]!r}")
        for name, value in values.items():
            object.__setattr__(self, name, value)


# -- bounded values of saved state (a file cannot make the engines hold absurd numbers) --

#: the largest count the game can mean (rounds, counters, AP spent, sequence numbers)
MAX_COUNT = 100_000
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
#: a signed modifier or result
SmallInt = Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT)]
#: an id (character, token, weapon)
Id = Annotated[str, Field(max_length=64)]
#: a name shown to the Judge
Name = Annotated[str, Field(max_length=200)]
#: a reason or a note in a log line
Text = Annotated[str, Field(max_length=2000)]
#: one of the 54 action cards, by number
CardNo = Annotated[int, Field(ge=1, le=54)]


#: The five die types, which are also the five columns of both card grids.
DieType = Literal[4, 6, 8, 10, 12]
DIE_TYPES: tuple[int, ...] = (4, 6, 8, 10, 12)

#: Cause grid rows (the most dice a pool can have) and effect grid rows.
CAUSE_ROWS = 5
EFFECT_ROWS = 7


class Speed(StrEnum):
    """Phases-edition action speeds (004 calls them Quick/Half/Full; the card's
    initiative bar says Fast/Normal/Slow)."""

    FAST = "fast"
    NORMAL = "normal"
    SLOW = "slow"


class HitLocation(StrEnum):
    """Where a hit lands, as printed on the card's hit location stack."""

    HEAD = "head"
    CHEST = "chest"
    BELLY = "belly"
    VITALS = "vitals"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"


class WoundLocation(StrEnum):
    """Where wounds are counted: chest, belly and vitals are all the torso (000)."""

    HEAD = "head"
    TORSO = "torso"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"


def wound_location(hit: HitLocation) -> WoundLocation:
    """Map a card hit location onto the location that keeps the wound count."""
    if hit in (HitLocation.CHEST, HitLocation.BELLY, HitLocation.VITALS):
        return WoundLocation.TORSO
    return WoundLocation(hit.value)


_POOL_RE = re.compile(r"^\s*(\d+)\s*d\s*(\d+)\s*$", re.IGNORECASE)
_EFFECT_RE = re.compile(r"^\s*\(\s*(\d+)\s*\)\s*d?\s*(\d+)\s*$", re.IGNORECASE)


class Pool(Strict):
    """A cause-grid dice pool ``XdY``: X rows (1–5) of column dY.

    Serialises to and parses from the compact text form ``"3d10"``.
    """

    count: Annotated[int, Field(ge=1, le=CAUSE_ROWS)]
    die: DieType

    @model_validator(mode="before")
    @classmethod
    def _parse_text(cls, data: object) -> object:
        if isinstance(data, str):
            m = _POOL_RE.match(data)
            if not m:
                raise ValueError(f"{data!r} is not a dice pool like '3d10'")
            return {"count": int(m.group(1)), "die": int(m.group(2))}
        return data

    @model_serializer(mode="plain")
    def _to_text(self) -> str:
        return f"{self.count}d{self.die}"

    def __str__(self) -> str:
        return f"{self.count}d{self.die}"


class Effect(Strict):
    """An effect-grid reference ``(n)Y``: row n (1–7) of column dY, e.g. ``(3)6``."""

    row: Annotated[int, Field(ge=1, le=EFFECT_ROWS)]
    die: DieType

    @model_validator(mode="before")
    @classmethod
    def _parse_text(cls, data: object) -> object:
        if isinstance(data, str):
            m = _EFFECT_RE.match(data)
            if not m:
                raise ValueError(f"{data!r} is not an effect like '(3)6'")
            return {"row": int(m.group(1)), "die": int(m.group(2))}
        return data

    @model_serializer(mode="plain")
    def _to_text(self) -> str:
        return f"({self.row}){self.die}"

    def __str__(self) -> str:
        return f"({self.row}){self.die}"


DIFFICULTIES: dict[str, int] = {
    "easy": 3,
    "standard": 5,
    "challenging": 7,
    "difficult": 9,
    "incredible": 11,
}
