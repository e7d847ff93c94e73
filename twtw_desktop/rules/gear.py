"""Weapons and the gear catalog (``resources/gear/weapons.json``).

Numbers the pages print are marked with their source; numbers the pages never give
are listed in each entry's ``house_values`` so a Judge can see what was invented.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, ValidationError, model_validator

from ..errors import LoadError
from ..resources import resource_path
from .base import Effect, Speed, Strict

WeaponKind = Literal[
    "handgun",  # 120° field of fire (003)
    "long_arm",  # rifles, carbines, muskets: 60° field of fire
    "shotgun",
    "machine_gun",  # Gatling: burst
    "melee",
    "thrown",
    "entangle",  # lasso
    "explosive",  # dynamite (thrown)
]

#: Ready costs (000): 2 AP up to size 5, +1 per size above 5.
READY_BASE_AP = 2
READY_BASE_SIZE = 5

#: House rule: drawing a holstered handgun costs this much for a character with
#: Quick Draw 1 or better. It reconciles RULES example 1 (000 Action Timing: Miranda
#: draws her Peacemaker for 1 AP) with 000 Cocking and Readying (2 AP up to size 5).
QUICK_DRAW_AP = 1
#: Quick Draw level needed for :data:`QUICK_DRAW_AP` (house rule, see above).
QUICK_DRAW_MIN_LEVEL = 1

#: The gear file format this code reads and writes.
GEAR_FORMAT_VERSION = 1

#: Attribute words the bundled catalog uses (001/003/000 name most of them; the
#: catalog's own ``house_values`` say where a word is a house choice).
WEAPON_ATTRIBUTES: dict[str, str] = {
    "single_action": "must be cocked before each shot; wins initiative-based ties (000)",
    "double_action": "fires uncocked with a heavier pull; cocking it trades for single action (000)",
    "hammerless": "never needs cocking (000 Cocking and Readying)",
    "lever": "lever action repeater: the lever cocks it (1 AP, 000)",
    "breech": "breech loader",
    "muzzle_loader": "loading is a Full action in the Phases edition (004)",
    "revolver": "may fan fire if single action; Rel +1 when pushing the limit (000)",
    "crank": "hand-cranked burst weapon (000 Burst Fire)",
    "mounted": "fired from a carriage or tripod, not carried in hand",
    "short": "short melee weapon (001 Advantage)",
    "long": "long melee weapon: advantage under the weapon length rule (000/001)",
    "fast": "fast melee weapon (001 Advantage)",
    "defend": "+1 Defense in the Phases edition (003); an advantage factor (001)",
    "impact": "non-lethal: Phases brawling wounds plus 1 Conc per point (001/003)",
    "entangle": "entangles or trips instead of damaging (003 Entanglement)",
    "fragile": "broken when the victim beats the entangle TN (003 Entanglement)",
    "thrown": "thrown weapon: range increment from the edition's throwing rule (000/001)",
    "explosive": "damages everyone within the blast radius",
    "improvised": "improvised weapon, Pen 1 (000 Improvised Weapons)",
}


class Weapon(Strict):
    """A weapon's card.

    AP costs are AP v2 values (None = the weapon cannot do that). ``snap_penalty`` is
    the SP as a result modifier (e.g. −3 for the Sharps). ``cock_ap`` None means the
    weapon never needs cocking (hammerless shotguns, melee); double-action revolvers
    have a ``cock_ap`` but ``action == "double"`` lets them fire uncocked.
    """

    id: str
    name: str
    kind: WeaponKind
    skill: str
    size: Annotated[int, Field(ge=0)]
    two_handed: bool = False
    action: Literal["single", "double", "lever", "breech", "muzzle", "pump", "crank", "none"] = (
        "none"
    )
    snap_ap: Annotated[int, Field(ge=0)] | None = None
    normal_ap: Annotated[int, Field(ge=0)] | None = None
    aim_ap: Annotated[int, Field(ge=0)] | None = None
    #: an edition's own aim AP where its page prices the aim differently (001: "for a
    #: pistol like a Schofield, 2 aim actions costs 3, while 3 aim actions costs 6" —
    #: 1 AP for the first aim; 000's Cyril pays 4 for two): edition id → AP
    aim_ap_by_edition: dict[str, Annotated[int, Field(ge=0)]] = {}
    snap_penalty: Annotated[int, Field(le=0)] = 0
    cock_ap: Annotated[int, Field(ge=0)] | None = None
    reload_ap: Annotated[int, Field(ge=0)] | None = None  # per round/cartridge
    range_increment: Annotated[int, Field(ge=1)] | None = None
    pen: int = 0
    dmg: Effect | None = None
    rd: Effect | None = None
    damage_kind: Literal["deadly", "impact"] = "deadly"
    rel: Annotated[int, Field(ge=1, le=13)] | None = None
    #: AP to clear a jam (None: the house default, rules.actions.CLEAR_JAM_AP)
    clear_ap: Annotated[int, Field(ge=0, le=40)] | None = None
    accurate: Annotated[int, Field(ge=0)] = 0
    capacity: Annotated[int, Field(ge=0)] = 0
    scatter: bool = False
    burst: Literal[3, 5, 10] | None = None
    field_of_fire: Literal[60, 120] = 60
    #: Phases-edition action speed of firing/attacking (004)
    speed: Speed = Speed.NORMAL
    throwable: bool = False
    #: melee/entangle attributes: defend, punch, kick, short, long, fragile, impact…
    attributes: list[str] = []
    #: advantage value of the weapon in hand-to-hand (000 Determining Advantage)
    advantage: int = 0
    #: improvised weapons (000 Improvised Weapons): damage added to the attack type's
    #: own (bare-handed) damage; None for a weapon with its own DMG
    improvised_damage: Annotated[int, Field(ge=0, le=20)] | None = None
    #: entanglement: Strength TN to break free (003)
    entangle_tn: int | None = None
    #: explosives: blast radius in paces (house)
    blast_radius: int | None = None
    source: str = ""
    house_values: dict[str, str] = {}
    #: burst sizes the weapon can fire (000 Burst Fire: a weapon with several modes
    #: fires the smallest unless the firer says otherwise); ``burst`` is the largest.
    burst_modes: list[Literal[3, 5, 10]] = []
    #: ``cartridge``: ``reload_ap`` loads one round; ``full``: it refills the weapon
    reload_unit: Literal["cartridge", "full"] = "cartridge"
    #: Phases-edition speeds (004) of the weapon's other actions (None = not applicable)
    cock_speed: Speed | None = None
    ready_speed: Speed | None = None
    reload_speed: Speed | None = None
    aim_speed: Speed | None = None

    @property
    def ready_ap(self) -> int:
        """000: 2 AP up to size 5, +1 per size above 5 (Schofield 2, Winchester 5)."""
        return READY_BASE_AP + max(0, self.size - READY_BASE_SIZE)

    @property
    def is_holstered_kind(self) -> bool:
        """Handguns are the weapons carried in a holster (and so can be quick drawn)."""
        return self.kind == "handgun"

    def draw_cost(self, quick_draw_level: int) -> tuple[int, list[tuple[str, int, str]]]:
        """AP to draw this weapon and why, as (label, value, source) rows.

        A holstered handgun drawn by someone with Quick Draw 1+ costs
        :data:`QUICK_DRAW_AP` (house rule reconciling 000's example of Miranda drawing
        for 1 AP); everything else costs :attr:`ready_ap` (000 Cocking and Readying).
        """
        if self.is_holstered_kind and quick_draw_level >= QUICK_DRAW_MIN_LEVEL:
            return QUICK_DRAW_AP, [
                (
                    f"quick draw (Quick Draw {quick_draw_level}) of a holstered {self.name}",
                    QUICK_DRAW_AP,
                    "house rule reconciling 000 Action Timing example (draw 1 AP)",
                )
            ]
        rows = [(f"ready {self.name} (size up to {READY_BASE_SIZE})", READY_BASE_AP, "000")]
        extra = max(0, self.size - READY_BASE_SIZE)
        if extra:
            rows.append((f"size {self.size}: +1 per size above {READY_BASE_SIZE}", extra, "000"))
        return self.ready_ap, rows

    def draw_ap(self, quick_draw_level: int) -> int:
        """AP to draw/ready this weapon for a character with this Quick Draw level."""
        return self.draw_cost(quick_draw_level)[0]

    @property
    def default_burst(self) -> int | None:
        """Burst fired when the firer names none: the smallest mode (000 Burst Fire)."""
        if self.burst_modes:
            return min(self.burst_modes)
        return self.burst

    @property
    def is_mounted(self) -> bool:
        return "mounted" in self.attributes

    @property
    def is_ranged(self) -> bool:
        return self.kind in ("handgun", "long_arm", "shotgun", "machine_gun")

    @property
    def is_melee(self) -> bool:
        return self.kind in ("melee", "entangle")

    def aim_ap_in(self, edition_id: str) -> int | None:
        """The aim AP in that edition (its own entry, else ``aim_ap``)."""
        if self.aim_ap is None:
            return None
        return self.aim_ap_by_edition.get(edition_id, self.aim_ap)

    @property
    def needs_cocking(self) -> bool:
        """Must be cocked before each shot (single-action guns with a cock cost)."""
        return self.cock_ap is not None and self.action != "double"

    @model_validator(mode="after")
    def _consistent(self) -> Weapon:
        if self.is_ranged and (self.normal_ap is None or self.range_increment is None):
            raise ValueError(f"ranged weapon {self.id!r} needs normal_ap and range_increment")
        if self.dmg is None and self.kind not in ("entangle",) and self.improvised_damage is None:
            raise ValueError(f"weapon {self.id!r} needs dmg (or improvised_damage)")
        if self.improvised_damage is not None and self.dmg is not None:
            raise ValueError(f"weapon {self.id!r}: give dmg or improvised_damage, not both")
        return self

    @model_validator(mode="after")
    def _consistent_extras(self) -> Weapon:
        if (
            self.snap_ap is not None
            and self.normal_ap is not None
            and self.snap_ap > self.normal_ap
        ):
            raise ValueError(f"weapon {self.id!r}: a snap shot cannot cost more than a normal shot")
        if self.burst_modes and self.burst not in self.burst_modes:
            raise ValueError(
                f"weapon {self.id!r}: burst {self.burst} is not one of its burst_modes"
            )
        if self.kind == "entangle" and self.entangle_tn is None:
            raise ValueError(f"entangling weapon {self.id!r} needs entangle_tn")
        if self.kind == "explosive" and self.blast_radius is None:
            raise ValueError(f"explosive {self.id!r} needs blast_radius")
        unknown = sorted(set(self.house_values) - set(type(self).model_fields))
        if unknown:
            raise ValueError(
                f"weapon {self.id!r}: house_values names unknown field(s) {', '.join(unknown)}"
            )
        return self


class GearCatalog(Strict):
    """All weapons by id."""

    weapons: dict[str, Weapon]

    def weapon(self, weapon_id: str) -> Weapon:
        try:
            return self.weapons[weapon_id]
        except KeyError:
            raise KeyError(f"no weapon called {weapon_id!r} in the gear catalog") from None


def load_gear(path: Path | None = None) -> GearCatalog:
    """Load and validate a gear file; errors name the file, the weapon and the field."""
    path = path or resource_path("gear", "weapons.json")
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise LoadError(path, "file not found") from e
    except (OSError, ValueError) as e:
        raise LoadError(path, f"not readable JSON ({e})") from e
    if not isinstance(raw, dict) or not isinstance(raw.get("weapons"), list):
        raise LoadError(path, "expected an object with a 'weapons' list")
    version = raw.get("format_version", GEAR_FORMAT_VERSION)
    if version != GEAR_FORMAT_VERSION:
        raise LoadError(
            path,
            f"unsupported format_version {version!r} (this version reads {GEAR_FORMAT_VERSION})",
            "format_version",
        )
    weapons: dict[str, Weapon] = {}
    for i, entry in enumerate(raw["weapons"]):
        name = entry.get("id", f"#{i + 1}") if isinstance(entry, dict) else f"#{i + 1}"
        try:
            w = Weapon.model_validate(entry)
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(entry)"
            reason = err["msg"]
            if err["type"] == "extra_forbidden":
                reason = "unknown field (not part of the weapon schema)"
            raise LoadError(path, reason, f"weapon {name!r}, field {field}") from e
        if w.id in weapons:
            raise LoadError(path, "duplicate weapon id", f"weapon {w.id!r}")
        weapons[w.id] = w
    return GearCatalog(weapons=weapons)


@cache
def default_gear() -> GearCatalog:
    """The bundled gear catalog (cached)."""
    return load_gear()
