"""The NPC autopilot's figures (section ``tactics``).

``autopilot_samples``: planning every NPC of each sample encounter once, its first
round begun (the slowest sample is the figure; every sample's time in the note).
``autopilot_50_vs_8_200``: 50 NPCs against a posse of 8 on the 200×200 benchmark map
with 500 wall segments. Both plan on a scratch copy, as the window's worker does.
"""

from __future__ import annotations

from ..model.encounter import Encounter, Token
from ..play.actions import StartActionTime, StartRound
from ..play.session import open_table
from ..play.table import Table
from ..resources import maps_dir
from ..rules.samples import sample_characters
from ..tactics.planner import plan_round
from . import BenchContext, Measured, figure
from .geometry import make_bench_map, make_tokens

SAMPLES = ("main_street", "legless_gulch", "longhorn_saloon", "laroq_hacienda")
TARGET_SAMPLE = 150e-3
TARGET_BIG = 2.0


def sample_in_round(name: str) -> Table:
    """A sample encounter with action time and its first round begun."""
    table = open_table(maps_dir() / f"{name}.encounter.json").table
    table.apply(StartActionTime())
    table.apply(StartRound())
    return table


def big_table(side: int, npcs: int = 50, posse: int = 8) -> Table:
    """``npcs`` copies of Angus Laroq against ``posse`` of the sample posse on the bench map."""
    m = make_bench_map(side, max(50, 500 * side // 200))
    spots = make_tokens(m, npcs + posse)
    folks = sample_characters()
    party = [c for c in folks.values() if c.side == "posse"]
    chars = []
    tokens = []
    for i, spot in enumerate(spots):
        base = party[i % len(party)] if i < posse else folks["angus_laroq"]
        c = base.model_copy(update={"id": f"c{i}", "name": f"{base.name} {i}"}, deep=True)
        chars.append(c)
        tokens.append(Token(id=f"t{i}", character_id=c.id, hex=spot.hex, facing=spot.facing))
    enc = Encounter(name="bench", map=m, characters=chars, tokens=tokens)
    table = Table(enc, m)
    table.apply(StartActionTime())
    table.apply(StartRound())
    return table


@figure(
    "autopilot_samples", "the autopilot plans every NPC of a sample (the slowest of the four)",
    section="tactics", target_s=TARGET_SAMPLE,
)  # fmt: skip
def autopilot_samples(ctx: BenchContext) -> Measured:
    reps = max(1, min(ctx.reps(), 7))
    times: dict[str, float] = {}
    for name in SAMPLES:
        table = sample_in_round(name)

        def plan(table: Table = table) -> None:
            plan_round(table)

        times[name] = ctx.measure(plan, repeats=reps)
    worst = max(times.values())
    note = ", ".join(f"{n} {t * 1e3:.0f} ms" for n, t in times.items())
    return Measured(worst, note=note)


@figure(
    "autopilot_50_vs_8_200", "the autopilot plans 50 NPCs against 8 on a 200×200 map, 500 walls",
    section="tactics", target_s=TARGET_BIG, side=200,
)  # fmt: skip
def autopilot_50_vs_8_200(ctx: BenchContext) -> Measured:
    reps = max(1, min(ctx.reps(), 3))
    table = big_table(ctx.side(200))
    t = ctx.measure(lambda: plan_round(table), repeats=reps)
    return Measured(t, note=f"{t / 50 * 1e3:.0f} ms per NPC")
