"""Character sheets.

Traits are dice pools (``3d10``); a skill has a level and the trait it rolls with,
and its pool is ``<level>d<trait die>`` (003: "skill is 3 and his Dexterity d10").
Unskilled (level 0) uses the trait's own pool.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, field_validator, model_validator

from ..errors import RulesError
from .base import Mutable, Pool, Strict, WoundLocation
from .checks import ComplexCheck

if TYPE_CHECKING:
    from .editions import Edition

#: Wounds a location holds; the 5th disables it (000/001 Hit Location and Damage).
MAX_WOUNDS = 5

TRAITS = (
    "coordination",  # 000's ranged-attack trait (001/003 call it Dexterity)
    "acuity",
    "quickness",  # 000 initiative test
    "reflex",  # 004 initiative
    "fortitude",  # stun checks
    "bravery",  # tactical aiming, surprise recovery
    "strength",  # throwing range, entanglement
)

#: Skill names the bundled gear and sample characters use, with the trait each
#: usually rolls with. The pages name them loosely ("Firearms: Pistol" in 000,
#: "Shooting: Rifle" in 000, "Fighting: Brawl" in 001); these ids are the house
#: spelling. A sheet may carry other skills too.
SKILLS: dict[str, str] = {
    "shooting_pistol": "coordination",
    "shooting_rifle": "coordination",
    "shooting_shotgun": "coordination",
    "shooting_gatling": "coordination",
    "fighting_brawl": "coordination",
    "fighting_knife": "coordination",
    "fighting_sword": "coordination",
    "fighting_club": "strength",
    "fighting_lasso": "coordination",
    "throwing": "coordination",
    "demolitions": "coordination",
    "medicine": "acuity",
    "riding": "coordination",
    "gambling": "acuity",
}


class Posture(StrEnum):
    STANDING = "standing"
    PRONE = "prone"
    DUCKED = "ducked"  # ducked behind cover (000: duck/emerge 1 AP)


class SkillRating(Mutable):
    level: Annotated[int, Field(ge=0, le=5)]
    trait: str

    @field_validator("trait")
    @classmethod
    def _known_trait(cls, v: str) -> str:
        # checked here too so a bad sheet's error names the skill's own field
        if v not in TRAITS:
            raise ValueError(f"unknown trait {v!r}; traits are {', '.join(TRAITS)}")
        return v


class CarriedWeapon(Mutable):
    """A weapon a character carries, with its state."""

    weapon_id: Annotated[str, Field(max_length=64)]
    readied: bool = False
    cocked: bool = False
    loaded: Annotated[int, Field(ge=0, le=1000)] = 0
    hand: Literal["main", "off"] | None = None
    #: carried with every chamber loaded (000: risks discharge on a calamity)
    fully_loaded: bool = False
    #: equipment failure (000 Ancillary Effects, wrench against Rel): "jammed" until
    #: cleared (the clear_jam action), "broken" until mended away from the fight
    failure: Literal["jammed", "broken"] | None = None


def _zero_wounds() -> dict[WoundLocation, int]:
    return {loc: 0 for loc in WoundLocation}


#: most complex checks one sheet keeps in progress at once
MAX_CHECKS_IN_PROGRESS = 20


class CheckInProgress(Strict):
    """A complex check a character is working on (002 Complex Checks): its name and the
    victories collected so far, kept on the sheet so it survives save, reopen and undo."""

    task: Annotated[str, Field(min_length=1, max_length=80)]
    check: ComplexCheck


#: the NPC autopilot's temperaments (a house design: the pages have no morale rules)
Temperament = Literal["reckless", "steady", "cautious", "cowardly"]
TEMPERAMENTS: tuple[str, ...] = ("reckless", "steady", "cautious", "cowardly")


class Character(Mutable):
    """A character sheet: every field the rules model reads."""

    id: Annotated[str, Field(min_length=1, max_length=64)]
    name: Annotated[str, Field(min_length=1, max_length=200)]
    side: Literal["posse", "hombres", "neutral"] = "hombres"
    traits: dict[str, Pool]
    skills: dict[str, SkillRating] = {}
    ap: Annotated[int, Field(ge=0, le=40)]
    initiative: Annotated[int, Field(ge=1, le=20)]  # IN
    # bounds: what a sheet can mean (a broken file must not reach the arithmetic)
    move: Annotated[int, Field(ge=0, le=100)]
    run: Annotated[int, Field(ge=0, le=100)]
    size: Annotated[int, Field(ge=1, le=100)]
    conc_max: Annotated[int, Field(ge=0, le=999)]
    conc: Annotated[int, Field(ge=-999, le=999)]
    damage_bonus: Annotated[int, Field(ge=-99, le=99)] = 0
    quick_draw: Annotated[int, Field(ge=0, le=5)] = 0
    wounds: dict[WoundLocation, Annotated[int, Field(ge=0, le=5)]] = Field(
        default_factory=_zero_wounds
    )
    stunned: bool = False
    unconscious: bool = False
    concussed: bool = False
    dead: bool = False
    bleeding: Annotated[int, Field(ge=0, le=999)] = 0  # Conc lost per round (optional rule)
    #: first aid given to a location's present wounds (001 Healing: one check per
    #: wounded area): "tried" (failed) or "bound" (dressed: it bleeds no more until it
    #: is wounded again, a house value). A new wound there clears the entry.
    wound_care: dict[WoundLocation, Literal["tried", "bound"]] = {}
    weapons: Annotated[list[CarriedWeapon], Field(max_length=100)] = []
    posture: Posture = Posture.STANDING
    behind_cover: bool = False
    #: a creature's natural armour, an AV over every location (000 Armor Penetration/
    #: Ablation: "Some creatures may have natural armor, which works like cover, due to
    #: thick hide or other natural protection"); people have none (0)
    natural_armor: Annotated[int, Field(ge=0, le=20)] = 0
    #: "d10" style die of the character's Reflex for Phases tie breaks lives in traits
    notes: Annotated[str, Field(max_length=50_000)] = ""
    #: out of action for the rest of the scene (001's optional risk rule)
    out_of_scene: bool = False
    #: holds a bonus counter from the group's pool (002 The Bonus Counter: one at most)
    bonus_counter: bool = False
    #: how the NPC autopilot plays this character (twtw_desktop/tactics): a house
    #: design — the seed pages have no morale rules, so it never changes a rule, only
    #: what the planner prefers (closing in, holding cover, withdrawing)
    temperament: Temperament = "steady"
    #: sheet fields whose numbers are invented (the pages never give them), with why
    house_values: dict[str, str] = {}
    #: complex checks under way (002), by task name
    checks: Annotated[list[CheckInProgress], Field(max_length=MAX_CHECKS_IN_PROGRESS)] = []

    @field_validator("traits")
    @classmethod
    def _known_traits(cls, v: dict[str, Pool]) -> dict[str, Pool]:
        unknown = sorted(set(v) - set(TRAITS))
        if unknown:
            raise ValueError(
                f"unknown trait(s) {', '.join(unknown)}; traits are {', '.join(TRAITS)}"
            )
        return v

    @field_validator("wounds", mode="before")
    @classmethod
    def _fill_wounds(cls, v: object) -> object:
        if isinstance(v, dict):
            full = {loc.value: 0 for loc in WoundLocation}
            for k, n in v.items():
                key = k.value if isinstance(k, WoundLocation) else k
                if key not in full:
                    raise ValueError(
                        f"{key!r} is not a wound location "
                        f"({', '.join(loc.value for loc in WoundLocation)})"
                    )
                full[key] = n
            return full
        return v

    @model_validator(mode="after")
    def _skills_use_known_traits(self) -> Character:
        for name, s in self.skills.items():
            if s.trait not in TRAITS:
                raise ValueError(f"skill {name!r} rolls with unknown trait {s.trait!r}")
        return self

    @field_validator("house_values")
    @classmethod
    def _house_values_name_fields(cls, v: dict[str, str]) -> dict[str, str]:
        unknown = sorted(k for k in v if k.split(".")[0] not in cls.model_fields)
        if unknown:
            raise ValueError(f"house_values names unknown sheet field(s) {', '.join(unknown)}")
        return v

    # -- derived values ---------------------------------------------------------

    def trait_pool(self, trait: str) -> Pool:
        try:
            return self.traits[trait]
        except KeyError:
            raise RulesError(f"{self.name} has no {trait.title()} trait on the sheet.") from None

    def skill_level(self, skill: str) -> int:
        s = self.skills.get(skill)
        return s.level if s else 0

    def skill_pool(self, skill: str, fallback_trait: str = "coordination") -> Pool:
        """Pool for a skill: ``level d(trait die)``, or the trait pool if unskilled."""
        s = self.skills.get(skill)
        if s is None or s.level == 0:
            return self.trait_pool(s.trait if s else fallback_trait)
        die = self.trait_pool(s.trait).die
        return Pool(count=s.level, die=die)

    @property
    def wound_level(self) -> int:
        """The highest wound count in any location (000/001)."""
        return max(self.wounds.values(), default=0)

    def carried(self, weapon_id: str) -> CarriedWeapon:
        for w in self.weapons:
            if w.weapon_id == weapon_id:
                return w
        raise RulesError(f"{self.name} does not carry a {weapon_id}.")

    @property
    def out_of_action(self) -> bool:
        return self.dead or self.unconscious or self.concussed or self.out_of_scene

    # -- wounds ------------------------------------------------------------------

    @property
    def disabled_locations(self) -> list[WoundLocation]:
        """Locations holding the full five wounds (000: disabled)."""
        return [loc for loc, n in self.wounds.items() if n >= MAX_WOUNDS]

    def wound_ap_penalty(self, edition: Edition) -> int:
        """AP lost to wounds: the edition's table row for the wound level (000 Wound Effects)."""
        return edition.ap_penalty(self.wound_level)

    def ap_after_wounds(self, edition: Edition) -> int:
        """AP available this round after the wound penalty (never below 0)."""
        return max(0, self.ap - self.wound_ap_penalty(edition))

    def stun_tn(self, edition: Edition) -> int:
        """Stun TN for the current wound level; Conc-only uses the first row (001)."""
        return edition.stun_tn(self.wound_level)

    def wound_level_name(self, edition: Edition) -> str:
        row = edition.wound_row(self.wound_level)
        return row.name if row else "Unhurt"
