"""Hand-built cards and characters for the combat tests.

``make_card`` fills every section with quiet defaults (no wrench, no increased
effect, figures 6) and takes overrides for the parts a test cares about.
"""

from __future__ import annotations

from twtw_desktop.rules.base import HitLocation
from twtw_desktop.rules.card import Card
from twtw_desktop.rules.character import CarriedWeapon, Character

DIES = (4, 6, 8, 10, 12)

STACK = (
    ("head", 2),
    ("chest", 1),
    ("belly", 0),
    ("left_leg", 1),
)


def make_card(
    number: int = 1,
    *,
    cause: dict[int, list] | None = None,
    effects: dict[tuple[int, int], int | tuple[int, bool]] | None = None,
    stack: tuple[tuple[str, int] | tuple[str, int, bool], ...] = STACK,
    shield: int = 0,
    burst: tuple[int, int, int] = (1, 2, 5),
    figures: tuple[int, int, int] = (6, 6, 6),
    wrench: int | None = None,
    clock: int = 12,
    step: int = 0,
    toggle: bool = True,
) -> Card:
    """A valid card. ``cause`` maps a die to its 5 rows (missing rows/dice are 1s);
    ``effects`` maps (row, die) to a value or (value, increased)."""
    cause_grid = {str(d): [1, 1, 1, 1, 1] for d in DIES}
    for die, rows in (cause or {}).items():
        cells = list(rows) + [1] * (5 - len(rows))
        cause_grid[str(die)] = cells
    effect_grid = {str(d): [{"value": n, "increased": False} for n in range(1, 8)] for d in DIES}
    for (row, die), v in (effects or {}).items():
        value, inc = v if isinstance(v, tuple) else (v, False)
        effect_grid[str(die)][row - 1] = {"value": value, "increased": inc}
    hit_locations = []
    for entry in stack:
        loc, tri, *rest = entry
        hit_locations.append(
            {"location": loc, "triangles": tri, "prone": bool(rest[0]) if rest else False}
        )
    return Card.model_validate(
        {
            "number": number,
            "cause": cause_grid,
            "effect": effect_grid,
            "hit_locations": hit_locations,
            "shield": shield,
            "burst": {"3": burst[0], "5": burst[1], "10": burst[2]},
            "figures": figures,
            "wrench": wrench,
            "clock": clock,
            "step": step,
            "toggle": toggle,
            "fragment": 0,
            "initiative": {
                "fast": [7, 5, 3, 1],
                "normal": [9, 7, 5, 3],
                "slow": [13, 11, 8, 3],
            },
        }
    )


class CardSupply:
    """A scripted ``more`` callable: hands out the given cards in order."""

    def __init__(self, *cards: Card) -> None:
        self.cards = list(cards)
        self.drawn: list[int] = []

    def __call__(self) -> Card:
        if not self.cards:
            raise AssertionError("the test drew more cards than it supplied")
        c = self.cards.pop(0)
        self.drawn.append(c.number)
        return c


def person(
    id: str = "target",
    *,
    size: int = 6,
    conc: int = 14,
    skills: dict[str, tuple[int, str]] | None = None,
    traits: dict[str, str] | None = None,
    weapons: list[CarriedWeapon] | None = None,
    damage_bonus: int = 0,
    wounds: dict[str, int] | None = None,
) -> Character:
    base_traits = {
        "coordination": "3d10",
        "acuity": "2d8",
        "quickness": "2d8",
        "reflex": "2d8",
        "fortitude": "2d8",
        "bravery": "2d8",
        "strength": "2d8",
    }
    base_traits.update(traits or {})
    return Character(
        id=id,
        name=id.replace("_", " ").title(),
        traits=base_traits,
        skills={k: {"level": lvl, "trait": t} for k, (lvl, t) in (skills or {}).items()},
        ap=12,
        initiative=5,
        move=8,
        run=16,
        size=size,
        conc_max=conc,
        conc=conc,
        damage_bonus=damage_bonus,
        weapons=weapons or [],
        wounds=wounds or {},
    )


def armed(
    weapon_id: str, *, readied: bool = True, cocked: bool = False, loaded: int = 6
) -> CarriedWeapon:
    return CarriedWeapon(weapon_id=weapon_id, readied=readied, cocked=cocked, loaded=loaded)


def jonah_fanner() -> Character:
    """Jonah: pistol 3 on Coordination 3d10, a loaded Colt Peacemaker (fan firing)."""
    return person(
        "jonah",
        skills={"shooting_pistol": (3, "coordination")},
        traits={"coordination": "3d10"},
        weapons=[armed("colt_peacemaker", loaded=6)],
    )


def ready(character, weapon_id, *, cocked=False, loaded=None):
    """Ready (and optionally cock) the first carried weapon with this id, in place."""
    for w in character.weapons:
        if w.weapon_id == weapon_id:
            w.readied = True
            w.cocked = cocked
            if loaded is not None:
                w.loaded = loaded
            return character
    raise AssertionError(f"{character.id} carries no {weapon_id}")


LOCATIONS = [loc.value for loc in HitLocation]
