"""Plain inputs to combat resolution: what the map and the Judge know about a shot.

The map geometry engineer fills the geometric fields (range, covers, candidates for
unintended targets, field-of-fire tests) from the tactical map; the UI fills the
rest. Nothing here reads the map itself, so the rules stay testable without Qt.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..base import HitLocation, Strict

Visibility = Literal["visible", "partly", "not_visible"]
"""How much of the target the firer can see. ``partly`` changes nothing by itself
(000 Hit Location and Cover: cover is handled after the hit location);
``not_visible`` takes the edition's penalty."""

Movement = Literal["still", "walking", "running"]

#: Called-shot keys (001 Called Shots table) and the hit locations each may name.
CALLED_SHOT_LOCATIONS: dict[str, frozenset[HitLocation]] = {
    "torso": frozenset({HitLocation.CHEST, HitLocation.BELLY, HitLocation.VITALS}),
    "limb": frozenset(
        {
            HitLocation.LEFT_ARM,
            HitLocation.RIGHT_ARM,
            HitLocation.LEFT_LEG,
            HitLocation.RIGHT_LEG,
        }
    ),
    # hands and feet land on the arm / leg wound locations
    "head_hand_foot": frozenset(
        {
            HitLocation.HEAD,
            HitLocation.LEFT_ARM,
            HitLocation.RIGHT_ARM,
            HitLocation.LEFT_LEG,
            HitLocation.RIGHT_LEG,
        }
    ),
    "eye_heart": frozenset({HitLocation.HEAD, HitLocation.VITALS}),
}

#: The location a called shot names when the Judge gives none (house: the obvious one).
CALLED_SHOT_DEFAULT: dict[str, HitLocation] = {
    "torso": HitLocation.CHEST,
    "head_hand_foot": HitLocation.HEAD,
    "eye_heart": HitLocation.VITALS,
}


class Cover(Strict):
    """One piece of cover between firer and target (000 Hit Location and Cover).

    ``covers`` lists the hit locations it hides; a hit there strikes the cover first.
    ``av`` is the current armor value, which may already be lowered by ablation.
    """

    feature_id: Annotated[str, Field(min_length=1)]
    material: str
    av: Annotated[int, Field(ge=0)]
    covers: frozenset[HitLocation]


class ShotSituation(Strict):
    """Everything about one ranged (or thrown) attack that is not the card.

    Speeds are paces per round. ``target_relative_speed`` is the relative speed
    (000 Target Speed); ``firer_speed`` and ``target_speed`` are only read under
    the optional total-speed rule. ``range_band`` (1 = the first band) feeds the
    scatter weapons' stray shots; None derives it from the range increments.
    ``covers`` are listed from the firer outward; ``unintended_candidates`` are ids
    of possible unintended targets, closest to the line of fire first.
    """

    range_paces: Annotated[float, Field(ge=0)] = 0
    point_blank: bool = False
    #: 003 Point Blank: aiming at the lower part of the target bumps down instead of up
    point_blank_low: bool = False
    visibility: Visibility = "visible"
    covers: tuple[Cover, ...] = ()
    #: None = the target character's Size
    target_size: Annotated[int, Field(ge=0)] | None = None
    target_prone: bool = False
    target_relative_speed: Annotated[float, Field(ge=0)] = 0
    firer_speed: Annotated[float, Field(ge=0)] = 0
    target_speed: Annotated[float, Field(ge=0)] = 0
    firer_movement: Movement = "still"
    firer_mounted: bool = False
    #: how fast the firer's mount moves; a galloping mount counts as running (001)
    mount_movement: Movement = "still"
    appearing_disappearing: bool = False
    #: 0 for the first target of the action, 1 for the second, … (000 Modifiers)
    secondary_target_index: Annotated[int, Field(ge=0)] = 0
    two_weapons: bool = False
    off_hand: bool = False
    two_handed_in_one_hand: bool = False
    called_shot: Literal["torso", "limb", "head_hand_foot", "eye_heart"] | None = None
    called_location: HitLocation | None = None
    unintended_candidates: tuple[str, ...] = ()
    target_in_melee: bool = False
    range_band: Annotated[int, Field(ge=1)] | None = None
    #: the target left the field of fire while the firer aimed (003 Fields of Fire)
    target_left_field_of_fire: bool = False
    #: the target moves as a continuous action and so forgoes its defence (002)
    target_forgoes_defense: bool = False
    #: the target moved forgoing its defence this round (001 Movement Actions: "divide
    #: the range by 2 before determining the TN to hit them")
    target_forgoes_defense_moving: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> ShotSituation:
        if self.off_hand and not self.two_weapons:
            raise ValueError("an off-hand shot needs two_weapons set")
        if self.called_location is not None and self.called_shot is None:
            raise ValueError("a called location needs a called_shot key")
        if self.called_shot is not None:
            loc = self.called_location or CALLED_SHOT_DEFAULT.get(self.called_shot)
            if loc is None:
                raise ValueError(f"a called shot at a {self.called_shot} must name the location")
            if loc not in CALLED_SHOT_LOCATIONS[self.called_shot]:
                raise ValueError(f"{loc.value} is not a {self.called_shot} called shot")
        return self

    @property
    def called_hit(self) -> HitLocation | None:
        """The location a called shot aims at (None without a called shot)."""
        if self.called_shot is None:
            return None
        return self.called_location or CALLED_SHOT_DEFAULT[self.called_shot]

    def cover_for(self, hit: HitLocation) -> list[Cover]:
        """The covers that hide ``hit``, from the firer outward."""
        return [c for c in self.covers if hit in c.covers]
