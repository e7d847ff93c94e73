"""Generate the bundled 54-card action deck (RULES.md "The action card").

The pages describe every section of the action card but never print a whole card,
so the project ships a deck generated from a fixed seed. Run it with::

    python -m twtw_desktop.rules.deck_generator [--seed N] [--out PATH]

(``--out -`` writes to stdout; the default is ``resources/deck/standard.json``). The
same seed always produces the same file. How each section is made:

Cause grid (000 "Determining Hits", 004 "Critical Failures")
    Every grid position (row 1–5 of column dY) is treated like one die rolled 54
    times, once per card. Across the 54 cards a position holds one or two CF cells
    (34 CF among the 1,350 cells, about 1 in 40, :data:`CF_CELLS`), and the other
    cells split as evenly as possible over the faces 1..Y, then the position is
    shuffled on its own. A pool ``XdY`` therefore reads like X independent fair dice,
    and a face Y (exceptional) turns up about once in Y cells.
Effect grid (002 "Results and Effect", "Applying Bonuses and Penalties")
    Cell ``(n)Y`` is the actual sum of n rolled dY. Each column is seven dice rolled
    in turn and row n shows the running total of the first n, so moving one row down
    (a damage bump, 002's row adjustment) always adds one more die, never takes
    damage away; the columns are rolled independently, which is why 002 hedges column
    adjustments with guards. A cell's *increased effect* flag is set when the die
    that row added showed its maximum, so it appears with probability 1/Y, and a
    ``(1)Y`` cell is flagged exactly when it shows Y (the extension draws behave like
    an exploding die). Pinned cells are rolled to their printed sum.
Hit location stack (000 "Hit Location", 003 "Prone Targets")
    The standard entry (third from the top) is drawn from :data:`STANDARD_HIT_WEIGHTS`:
    chest, belly and vitals most often, then arms and legs, the head rarely. The entry
    below it sits no higher on the body (:data:`BODY_HEIGHT`), the two above sit no
    lower, each preferring nearby locations; a repeat of a location means a higher or
    lower spot within it. Triangles top to bottom are 2, 1, (0), 1. Each entry carries
    003's *prone* attribute with probability :data:`PRONE_CHANCE` (a house value: the
    page only says prone targets are much harder to hit).
Shield (000 "Armor Penetration/Ablation")
    −2..+2 from :data:`SHIELD_WEIGHTS`, mostly 0.
Burst (000 "Burst Fire")
    A hit means at least one projectile landed; burst 3 adds one hit per extra round
    with an even chance, burst 5 and burst 10 add to that for their further rounds, so
    hits never exceed the burst value and never drop as the burst grows.
Unintended targets (000 "Ancillary Effects")
    Three figure numbers 1–6 from :data:`FIGURE_WEIGHTS`, leaning high: a single stray
    shot hits someone on about one card in five (house value; the pages give none).
Wrench (001 "Equipment Failure")
    41 cards blank, and the failure numbers 1..13 once each on the other 13, so
    equipment of Rel r fails on r − 1 of the 54 cards and 001's Rel 1 rule (the 1 on
    the card, the 2 in the discard pile) works.
Clock, step, toggle, fragment (000 "Missed Throws", "The Initiative Stack")
    Hours 1–12, steps 0–6, YES/NO and fragments 0–9 are dealt as evenly as possible
    over the 54 cards and shuffled, like a designed deck.
Initiative bar (004 "Declarations")
    Centred on 004's example card (Fast 7/5/3/1, Slow 13/11/8/3) with Normal between
    (10/8/5/2); each TN moves by at most one, then the bar is made consistent: TNs
    never rise from phase I to IV and, phase by phase, Fast ≤ Normal ≤ Slow.

Pinned cards — the pages' worked examples name card numbers, so those cards are set
to reproduce them exactly (:data:`PINNED`). Pinned cause cells are swapped in from
another card at the same grid position, so every position keeps its even spread.

* Card 50 (000 "Combat Example, Miranda vs Miners"): 3d10 reads 8, 1, 3; standard hit
  location left leg; (5)8 = 14 without increased effect; wrench blank.
* Card 28 (004 "Initiative Example 2"): 2d6 reads 2, 1 (best 2); 2d10 reads 7, 4
  (best 7); row 3 of d10 is 8, so 3d10's best is 8; Fast 7/5/3/1, Normal 10/8/5/2,
  Slow 12/10/8/3 (Hank's 2 goes in phase IV, the hombres' 7 in III on Normal and I on
  Fast, Miranda's 8 in I).
* Card 42 (004 "Initiative Example"): d6 row 1 shows 6 (exceptional) and row 2 is CF,
  so any d6 pool of two or more dice is CF; d8 rows 1–3 read 6, 3, 5 so Jonah's
  Reflex (2d8, or 3d8) gives 6; Fast 7/5/3/1, Normal 10/8/6/2, Slow 13/11/8/3.
* Card 39 and 45 (002 "Column adjustments", Miranda vs Felicia): card 39's standard
  hit location is the left arm, (3)6 = 18 without increased effect and (3)4 = 11 with
  increased effect; card 45's (1)4 shows 4 with increased effect.
* Card 17 and 44 (000 "Hit-Location-Damage Draw"): card 17's wrench is blank, card
  44's shows a failure number.

002's Octavio example (card 17: 2d8 gives 19) cannot be printed on any card, since two
d8 never sum past 16, so card 17's effect grid is not pinned.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..resources import resource_path
from .base import CAUSE_ROWS, DIE_TYPES, EFFECT_ROWS, HitLocation
from .card import Card

#: 000 "The Initiative Stack" breaks ties by card number, and the deck has 54 cards.
DECK_SIZE = 54
DEFAULT_SEED = 1873
DECK_NAME = "TWTW generated standard deck"
FORMAT_VERSION = 1

#: RULES.md "The action card": CF in about 1 cause cell in 40 (54 × 25 / 40 ≈ 34).
CF_CELLS = round(DECK_SIZE * len(DIE_TYPES) * CAUSE_ROWS / 40)

#: Triangles (bumps to reach the entry) top to bottom; the standard entry has none
#: (000 "Hit Location": one or two triangles beside every other entry).
TRIANGLES: tuple[int, int, int, int] = (2, 1, 0, 1)

#: How often each location is the standard entry (004 "The Goal of Action Speeds":
#: most hits land on the torso). House values.
STANDARD_HIT_WEIGHTS: dict[HitLocation, int] = {
    HitLocation.CHEST: 20,
    HitLocation.BELLY: 16,
    HitLocation.VITALS: 10,
    HitLocation.LEFT_ARM: 8,
    HitLocation.RIGHT_ARM: 8,
    HitLocation.LEFT_LEG: 8,
    HitLocation.RIGHT_LEG: 8,
    HitLocation.HEAD: 3,
}

#: Weights of the entries that bumps reach (house values; the head is commoner here
#: because two bumps up from the torso is the classic head shot).
OTHER_HIT_WEIGHTS: dict[HitLocation, int] = {
    HitLocation.HEAD: 8,
    HitLocation.CHEST: 10,
    HitLocation.BELLY: 8,
    HitLocation.VITALS: 8,
    HitLocation.LEFT_ARM: 6,
    HitLocation.RIGHT_ARM: 6,
    HitLocation.LEFT_LEG: 6,
    HitLocation.RIGHT_LEG: 6,
}

#: How high on the body each location sits (000: the stack runs up toward the head).
BODY_HEIGHT: dict[HitLocation, int] = {
    HitLocation.HEAD: 7,
    HitLocation.CHEST: 6,
    HitLocation.LEFT_ARM: 5,
    HitLocation.RIGHT_ARM: 5,
    HitLocation.VITALS: 4,
    HitLocation.BELLY: 3,
    HitLocation.LEFT_LEG: 1,
    HitLocation.RIGHT_LEG: 1,
}

#: Chance that one stack entry carries 003's prone attribute (house value).
PRONE_CHANCE = 0.25

#: 000 "Armor Penetration/Ablation": the shield shows −2..+2; mostly 0 (house weights).
SHIELD_WEIGHTS: dict[int, int] = {-2: 1, -1: 3, 0: 6, 1: 3, 2: 1}

#: Figure numbers 1–6 on the unintended-targets icons (house weights, leaning high).
FIGURE_WEIGHTS: dict[int, int] = {1: 1, 2: 2, 3: 3, 4: 3, 5: 3, 6: 3}

#: Chance each projectile after the first of a burst also hits (house value).
BURST_EXTRA_HIT_CHANCE = 0.5

#: 001 "Equipment Failure": Rel runs 1..13.
WRENCH_NUMBERS = tuple(range(1, 14))

#: Initiative bar centres (004's example card, with Normal between Fast and Slow).
INITIATIVE_CENTRES: dict[str, tuple[int, int, int, int]] = {
    "fast": (7, 5, 3, 1),
    "normal": (10, 8, 5, 2),
    "slow": (13, 11, 8, 3),
}

#: The cards the pages' worked examples name, and what they must show. Cause cells are
#: ``(column, row) -> face``; effect cells ``(row, column) -> (value, increased)``.
PINNED: dict[int, dict[str, Any]] = {
    50: {
        "cause": {(10, 1): 8, (10, 2): 1, (10, 3): 3},
        "effect": {(5, 8): (14, False)},
        "standard_hit": HitLocation.LEFT_LEG,
        "wrench": None,
    },
    28: {
        "cause": {(6, 1): 2, (6, 2): 1, (10, 1): 7, (10, 2): 4, (10, 3): 8},
        "initiative": {
            "fast": (7, 5, 3, 1),
            "normal": (10, 8, 5, 2),
            "slow": (12, 10, 8, 3),
        },
    },
    42: {
        "cause": {(6, 1): 6, (6, 2): "CF", (8, 1): 6, (8, 2): 3, (8, 3): 5},
        "initiative": {
            "fast": (7, 5, 3, 1),
            "normal": (10, 8, 6, 2),
            "slow": (13, 11, 8, 3),
        },
    },
    39: {
        "effect": {(3, 6): (18, False), (3, 4): (11, True)},
        "standard_hit": HitLocation.LEFT_ARM,
    },
    45: {"effect": {(1, 4): (4, True)}},
    17: {"wrench": None},
    44: {"wrench": "any"},
}


# -- helpers ---------------------------------------------------------------------


def _weighted(rng: random.Random, weights: dict[Any, int]) -> Any:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _even_spread(rng: random.Random, values: Sequence[Any], count: int) -> list[Any]:
    """``count`` items covering ``values`` as evenly as possible, shuffled."""
    out = list(values) * (count // len(values))
    out += rng.sample(list(values), count % len(values))
    rng.shuffle(out)
    return out


def _cause_grids(rng: random.Random) -> list[dict[str, list[Any]]]:
    """Cause grids for all 54 cards, each position spread like a fair die."""
    positions = [(die, row) for die in DIE_TYPES for row in range(1, CAUSE_ROWS + 1)]
    cf_per_position = dict.fromkeys(positions, CF_CELLS // len(positions))
    for pos in rng.sample(positions, CF_CELLS % len(positions)):
        cf_per_position[pos] += 1
    grids: list[dict[str, list[Any]]] = [
        {str(d): [0] * CAUSE_ROWS for d in DIE_TYPES} for _ in range(DECK_SIZE)
    ]
    for die, row in positions:
        n_cf = cf_per_position[(die, row)]
        column = ["CF"] * n_cf + _even_spread(rng, range(1, die + 1), DECK_SIZE - n_cf)
        rng.shuffle(column)
        for i, face in enumerate(column):
            grids[i][str(die)][row - 1] = face
    return grids


def _dice_with_sum(rng: random.Random, n: int, die: int, total: int, last_max: bool) -> list[int]:
    """n dY rolls summing to ``total``, preferring ones whose last die matches
    ``last_max`` (the increased-effect rule); used only for pinned cells."""
    best: list[int] | None = None
    for _ in range(20_000):
        rolls = [rng.randint(1, die) for _ in range(n)]
        if sum(rolls) != total:
            continue
        if (rolls[-1] == die) == last_max:
            return rolls
        best = best or rolls
    if best is None:  # pragma: no cover - only reachable with an impossible pin
        raise ValueError(f"no {n}d{die} roll sums to {total}")
    return best


def _effect_grid(
    rng: random.Random, pins: dict[tuple[int, int], tuple[int, bool]]
) -> dict[str, list[dict[str, Any]]]:
    """One card's effect grid: per column, seven dice rolled one after another.

    Row n is the running total of the first n dice, so a damage bump (one row down)
    always adds a die. The cell shows increased effect when the die added for that
    row came up at its maximum. ``pins`` fixes ``(row, die) -> (value, increased)``.
    """
    grid: dict[str, list[dict[str, Any]]] = {}
    for die in DIE_TYPES:
        pinned = {row: v for (row, d), v in pins.items() if d == die}
        rolls: list[int] = []
        flags: dict[int, bool] = {}
        for row, (value, increased) in sorted(pinned.items()):
            if row <= len(rolls):
                raise ValueError(f"two pins in effect column d{die} overlap")
            extra = _dice_with_sum(rng, row - len(rolls), die, value - sum(rolls), increased)
            rolls += extra
            flags[row] = increased
        while len(rolls) < EFFECT_ROWS:
            rolls.append(rng.randint(1, die))
        cells = []
        for n in range(1, EFFECT_ROWS + 1):
            increased = flags.get(n, rolls[n - 1] == die)
            cells.append({"value": sum(rolls[:n]), "increased": increased})
        grid[str(die)] = cells
    return grid


def _pick_near(
    rng: random.Random, anchor: HitLocation, *, above: bool, exclude_same: bool = False
) -> HitLocation:
    """A location no lower (``above``) / no higher than ``anchor``, nearby preferred."""
    h = BODY_HEIGHT[anchor]
    weights: dict[HitLocation, float] = {}
    for loc, w in OTHER_HIT_WEIGHTS.items():
        lh = BODY_HEIGHT[loc]
        if (above and lh < h) or (not above and lh > h):
            continue
        if exclude_same and loc == anchor:
            continue
        weights[loc] = w / (1 + abs(lh - h))
    if not weights:
        return anchor
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _hit_stack(rng: random.Random, standard: HitLocation | None = None) -> list[dict[str, Any]]:
    std = standard or _weighted(rng, STANDARD_HIT_WEIGHTS)
    below = _pick_near(rng, std, above=False)
    upper = _pick_near(rng, std, above=True, exclude_same=True)
    top = _pick_near(rng, upper, above=True, exclude_same=True)
    stack = [top, upper, std, below]
    return [
        {"location": loc.value, "triangles": TRIANGLES[i], "prone": rng.random() < PRONE_CHANCE}
        for i, loc in enumerate(stack)
    ]


def _burst(rng: random.Random) -> dict[str, int]:
    def extra(n: int) -> int:
        return sum(rng.random() < BURST_EXTRA_HIT_CHANCE for _ in range(n))

    h3 = 1 + extra(2)
    h5 = h3 + extra(2)
    h10 = h5 + extra(5)
    return {"3": h3, "5": h5, "10": h10}


def _initiative(rng: random.Random) -> dict[str, list[int]]:
    bar: dict[str, list[int]] = {}
    for speed, centre in INITIATIVE_CENTRES.items():
        row = [max(1, tn + rng.choice((-1, 0, 0, 1))) for tn in centre]
        bar[speed] = sorted(row, reverse=True)
    for phase in range(4):
        bar["normal"][phase] = max(bar["normal"][phase], bar["fast"][phase])
        bar["slow"][phase] = max(bar["slow"][phase], bar["normal"][phase])
    return bar


def _pin_cause(grids: list[dict[str, list[Any]]], rng: random.Random) -> None:
    """Give the pinned cards their cause cells by swapping with unpinned cards."""
    free = [i for i in range(DECK_SIZE) if "cause" not in PINNED.get(i + 1, {})]
    for number, pin in PINNED.items():
        for (die, row), face in pin.get("cause", {}).items():
            col, r = str(die), row - 1
            mine = grids[number - 1][col]
            if mine[r] == face:
                continue
            donors = [i for i in free if grids[i][col][r] == face]
            donor = rng.choice(donors)
            mine[r], grids[donor][col][r] = grids[donor][col][r], mine[r]


# -- the deck --------------------------------------------------------------------


def _card_dicts(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    grids = _cause_grids(rng)
    _pin_cause(grids, rng)

    clocks = _even_spread(rng, range(1, 13), DECK_SIZE)
    steps = _even_spread(rng, range(0, 7), DECK_SIZE)
    toggles = _even_spread(rng, (True, False), DECK_SIZE)
    fragments = _even_spread(rng, range(0, 10), DECK_SIZE)

    blank_pins = {n for n, p in PINNED.items() if "wrench" in p and p["wrench"] is None}
    forced = [n for n, p in PINNED.items() if p.get("wrench") == "any"]
    candidates = [n for n in range(1, DECK_SIZE + 1) if n not in blank_pins and n not in forced]
    with_wrench = forced + rng.sample(candidates, len(WRENCH_NUMBERS) - len(forced))
    wrench_numbers = list(WRENCH_NUMBERS)
    rng.shuffle(wrench_numbers)
    wrenches = dict(zip(with_wrench, wrench_numbers, strict=True))

    cards = []
    for i in range(DECK_SIZE):
        number = i + 1
        pin = PINNED.get(number, {})
        effect = _effect_grid(rng, pin.get("effect", {}))
        initiative = _initiative(rng)
        if "initiative" in pin:
            initiative = {k: list(v) for k, v in pin["initiative"].items()}
        cards.append(
            {
                "number": number,
                "cause": grids[i],
                "effect": effect,
                "hit_locations": _hit_stack(rng, pin.get("standard_hit")),
                "shield": _weighted(rng, SHIELD_WEIGHTS),
                "burst": _burst(rng),
                "figures": [_weighted(rng, FIGURE_WEIGHTS) for _ in range(3)],
                "wrench": wrenches.get(number),
                "clock": clocks[i],
                "step": steps[i],
                "toggle": toggles[i],
                "fragment": fragments[i],
                "initiative": initiative,
            }
        )
    return cards


def generate_deck(seed: int = DEFAULT_SEED) -> list[Card]:
    """The 54 generated cards for ``seed`` (the bundled deck uses 1873)."""
    return [Card.model_validate(c) for c in _card_dicts(seed)]


# -- writing ---------------------------------------------------------------------


def _j(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "))


def _card_json(card: Card, indent: str = "    ") -> str:
    d = card.model_dump(mode="json")
    inner = indent + "  "
    lines = [
        f'{inner}"number": {d["number"]},',
        f'{inner}"cause": {_j(d["cause"])},',
        f'{inner}"effect": {{',
    ]
    cols = list(d["effect"].items())
    for k, (col, cells) in enumerate(cols):
        sep = "," if k < len(cols) - 1 else ""
        lines.append(f"{inner}  {_j(col)}: {_j(cells)}{sep}")
    lines.append(f"{inner}}},")
    lines.append(f'{inner}"hit_locations": {_j(d["hit_locations"])},')
    rest = ("shield", "burst", "figures", "wrench", "clock", "step", "toggle", "fragment")
    lines.append(inner + ", ".join(f"{_j(k)}: {_j(d[k])}" for k in rest) + ",")
    lines.append(f'{inner}"initiative": {_j(d["initiative"])}')
    return indent + "{\n" + "\n".join(lines) + "\n" + indent + "}"


def deck_json(cards: Sequence[Card], seed: int, name: str = DECK_NAME) -> str:
    """The deck file text: a header and one card per dozen lines."""
    head = (
        "{\n"
        f'  "format_version": {FORMAT_VERSION},\n'
        f'  "name": {_j(name)},\n'
        f'  "seed": {seed},\n'
        '  "cards": [\n'
    )
    body = ",\n".join(_card_json(c) for c in cards)
    return head + body + "\n  ]\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m twtw_desktop.rules.deck_generator",
        description="Write the generated 54-card action deck as JSON.",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--out",
        default=str(resource_path("deck", "standard.json")),
        help="output file, or - for stdout (default: the bundled deck)",
    )
    args = parser.parse_args(argv)
    text = deck_json(generate_deck(args.seed), args.seed)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)
        print(f"wrote {len(text):,} bytes to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
