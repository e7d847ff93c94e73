"""Sample map "Legless Gulch" and its encounter, "Ambush at Legless Gulch".

The map (40 × 28 pointy-top hexes, one pace each)
    The gulch runs west to east. Its floor (rows 8–17, elevation 0) carries the
    wagon road; north of it a steep grade (terrain ``S``, elevation 1–5) climbs to the
    north rim (elevation 6), with a cliff face (terrain ``c``) in the west; the
    mountain trail comes down that slope from the north-east as a gentle grade
    (terrain ``g``), dropping one pace of height every two paces. South of the floor
    a gentle grade climbs to a cliff and the mesa (elevation 6), where the miners'
    tunnel goes in, their shack beside it. Legless Creek cuts across the whole map
    from north to south (water, elevation −1) through a ravine and a gorge walled by
    cliff faces; the road crosses it on a plank bridge (low hardwood rails) and
    downstream there is a knee-deep ford (rough ground at elevation −1).

Boulders are rock. The material list has no stone, so they use **brick** (AV 4,
house value shared with adobe in 000's cover table): rock stops pistol balls the
way masonry does (a Pen 2 handgun can at best ablate it) while a Sharps (Pen 4) can
still chip through, and brick keeps them drawn in a rock-red colour. Big boulders
fill a hex (impassable, full-height cover around the hex's outline); knee-high rocks
are low cover segments.

The encounter stages 000's Target Speed example (Hank's wagon east at 18 paces,
Cyril riding in the back, a vaquero coming west down the mountain trail at 8: the
tokens carry those velocities, so the attack panel shows the relative speed of 26
and its −5) with 000's Combat Example vs Miners (Miranda with her Sharps at the
bridge, the lead miner's gang in ambush). AP v2 edition, deck seed 1875.
"""

from __future__ import annotations

from ..model.encounter import Encounter
from ..model.map import CoverHeight, Label, Map, Material, Terrain
from ..rules.character import CarriedWeapon
from .common import (
    Features,
    Ground,
    Place,
    area_mid,
    bundled_sheets,
    centre,
    col_mid,
    door,
    marker,
    note,
    npc,
    sample_encounter,
    sample_map,
    walk,
    wall_x,
    window,
)

MAP_FILE = "legless_gulch.map.json"
ENCOUNTER_FILE = "legless_gulch.encounter.json"

COLS, ROWS = 40, 28

#: Rock, see the module docstring.
ROCK = Material.BRICK
RIM = 6  # elevation of the north rim and the mesa, paces
FLOOR_ROWS = (8, 17)
ROAD_ROWS = (12, 13)
#: the west cliff face on the north slope (cols, rows)
NORTH_CLIFF = ((0, 11), (3, 6))
#: the creek's water columns by stretch: (rows, first col, last col)
CREEK = [((0, 7), 18, 19), ((8, 17), 18, 20), ((18, ROWS - 1), 19, 20)]
#: the ford: shallow water over stones, rough going at the creek's level
FORD = ((17, 21), (15, 16))
#: the mine tunnel (cols, rows) into the mesa, at the elevation of the slope's top
MINE = ((30, 31), (24, ROWS - 1))
#: the miners' shack (cols, rows), thin wood
SHACK = ((34, 37), (19, 21))
#: big boulders (one hex each) and knee-high rocks (low cover segments)
BOULDERS = [(13, 10), (10, 15), (22, 10), (22, 16), (27, 13), (31, 6), (5, 20), (24, 19)]
ROCKS = [(6, 9), (16, 10), (15, 16), (26, 10), (34, 13), (30, 16), (8, 18), (38, 10)]
TAILINGS = [(27, 21), (28, 21), (27, 22), (28, 22), (29, 22), (28, 23)]
ORE_CART = (31, 22)
#: Hank's wagon: cols × the road's rows
WAGON_COLS = (5, 8)


def land_elevation(row: int) -> int:
    """Elevation of the ground in ``row`` (the gulch's cross-section)."""
    if row < 3:
        return RIM
    if row < FLOOR_ROWS[0]:
        return RIM - (row - 2)  # steep grade: 5 … 1
    if row <= FLOOR_ROWS[1]:
        return 0
    if row < 24:
        return (row - 16) // 2  # gentle grade: 1 … 3
    if row < 26:
        return row - 20  # the cliff: 4, 5
    return RIM


def _creek_cols(row: int) -> tuple[int, int]:
    for (r0, r1), c0, c1 in CREEK:
        if r0 <= row <= r1:
            return c0, c1
    raise ValueError(row)


def trail() -> list[tuple[tuple[int, int], int, Terrain]]:
    """The mountain trail as (cell, elevation, terrain), from the rim down to the road.

    Along the rim, then twelve paces down the slope alternating south-west and west
    (one pace of height per two paces: a gentle grade, 000), then across the floor."""
    rim = walk((39, 2), [3] * 4)
    down = walk(rim[-1], [4, 3] * 6)[1:]
    floor = walk(down[-1], [4] * 4)[1:]
    out = [(c, RIM, Terrain.ROUGH) for c in rim]  # a stony track along the rim
    for k, c in enumerate(down, start=1):
        e = RIM - (k + 1) // 2
        out.append((c, e, Terrain.GENTLE if e > 0 else Terrain.OPEN))
    out += [(c, 0, Terrain.OPEN) for c in floor]
    return out


def _ground() -> tuple[list[str], list[list[int]] | None]:
    g = Ground(COLS, ROWS)
    for row in range(ROWS):
        e = land_elevation(row)
        for col in range(COLS):
            if row < 3 or row >= 26:
                t = Terrain.ROUGH
            elif row < FLOOR_ROWS[0]:
                t = Terrain.STEEP
            elif row <= FLOOR_ROWS[1]:
                # the floor: stony in places, a deterministic scatter
                t = Terrain.ROUGH if (col * 7 + row * 5) % 9 == 0 else Terrain.OPEN
            elif row < 24:
                t = Terrain.GENTLE
            else:
                t = Terrain.CLIMB
            g.set(col, row, t, e)
    (c0, c1), (r0, r1) = NORTH_CLIFF
    g.rect((c0, c1), (r0, r1), Terrain.CLIMB)
    for row in range(ROAD_ROWS[0], ROAD_ROWS[1] + 1):
        for col in range(COLS):
            g.set(col, row, Terrain.OPEN)
    for (col, row), e, t in trail():
        g.set(col, row, t, e)
    # the creek, its ravine and gorge walls (cliff faces either side off the floor)
    for row in range(ROWS):
        c0, c1 = _creek_cols(row)
        e = land_elevation(row)
        for col in range(c0, c1 + 1):
            g.set(col, row, Terrain.WATER, max(-1, e - 2))
        if not FLOOR_ROWS[0] <= row <= FLOOR_ROWS[1]:
            g.set(c0 - 1, row, Terrain.CLIMB)
            g.set(c1 + 1, row, Terrain.CLIMB)
    # the bridge deck over the water, level with the road
    for row in range(ROAD_ROWS[0], ROAD_ROWS[1] + 1):
        c0, c1 = _creek_cols(row)
        g.rect((c0, c1), (row, row), Terrain.OPEN, 0)
    (f0, f1), (fr0, fr1) = FORD
    g.rect((f0, f1), (fr0, fr1), Terrain.ROUGH, -1)
    # the mine tunnel runs level into the mesa; the shack stands on a levelled shelf
    (m0, m1), (mr0, mr1) = MINE
    g.rect((m0, m1), (mr0, mr1), Terrain.OPEN, land_elevation(mr0 - 1))
    (s0, s1), (sr0, sr1) = SHACK
    g.rect((s0, s1), (sr0, sr1), Terrain.OPEN, land_elevation(sr1))
    for col, row in TAILINGS:
        g.set(col, row, Terrain.ROUGH)
    for col, row in BOULDERS:
        g.set(col, row, Terrain.IMPASSABLE)
    return g.result()


def _features() -> list:
    f = Features()
    # the bridge's rails along both edges of the deck, bank to bank
    c0, c1 = _creek_cols(ROAD_ROWS[0])
    low = CoverHeight.LOW
    for fid, line in (("bridge-rail-n", ROAD_ROWS[0] - 1), ("bridge-rail-s", ROAD_ROWS[1])):
        f.hwall(fid, line, (c0 - 1, c1), Material.HARDWOOD, "bridge rail", height=low, opaque=False)
    # Hank's wagon: its two sideboards (low hardwood) along the road
    w0, w1 = WAGON_COLS
    for fid, line in (("wagon-side-n", ROAD_ROWS[0] - 1), ("wagon-side-s", ROAD_ROWS[1])):
        f.hwall(
            fid,
            line,
            (w0 - 1, w1),
            Material.HARDWOOD,
            "Hank's wagon (sideboard)",
            kind="cover",
            height=low,
        )
    for i, (col, row) in enumerate(BOULDERS, start=1):
        f.block(f"boulder-{i}", col, row, "boulder (rock: AV as brick)", ROCK)
    for i, (col, row) in enumerate(ROCKS, start=1):
        x, y = centre(col, row)
        f.bar(f"rocks-{i}", x - 0.8, x + 0.8, y + 0.75, "knee-high rocks", ROCK)
    # the mine tunnel: rock walls either side, a timber frame at the mouth
    (m0, m1), (mr0, mr1) = MINE
    for fid, line in (("mine-wall-w", m0 - 1), ("mine-wall-e", m1)):
        f.vwall(fid, line, (mr0 - 1, mr1), ROCK, "mine tunnel, rock wall")
    mouth = (wall_x(m0 - 1) + wall_x(m1)) / 2
    f.hwall(
        "mine-mouth",
        mr0 - 1,
        (m0 - 1, m1),
        Material.HARDWOOD,
        "mine entrance, timber frame",
        [door("mine-entrance", mouth, is_open=True, name="mine entrance", width=2.6)],
    )
    x, y = centre(*ORE_CART)
    f.bar("ore-cart", x - 0.7, x + 0.7, y, "ore cart", Material.THIN_IRON)
    # the miners' shack
    (s0, s1), (sr0, sr1) = SHACK
    wood = Material.THIN_WOOD
    f.hwall(
        "shack-north",
        sr0 - 1,
        (s0 - 1, s1),
        wood,
        "miners' shack, north wall",
        [
            door("shack-door", col_mid(34), name="shack door"),
            window("shack-window-n", col_mid(36), glass=False, is_open=True),
        ],
    )
    f.hwall("shack-south", sr1, (s0 - 1, s1), wood, "miners' shack, south wall")
    f.vwall(
        "shack-west",
        s0 - 1,
        (sr0 - 1, sr1),
        wood,
        "miners' shack, west wall",
        [window("shack-window-w", centre(0, 20)[1], glass=False, is_open=True)],
    )
    f.vwall("shack-east", s1, (sr0 - 1, sr1), wood, "miners' shack, east wall")
    return f.items


def _labels() -> list[Label]:
    return [
        Label(id="label-gulch", at=area_mid(27, 36, 9, 9), text="Legless Gulch", size=2.0),
        Label(id="label-road", at=centre(11, 14), text="wagon road", size=0.8),
        Label(id="label-trail", at=centre(32, 2), text="mountain trail", size=0.8),
        Label(id="label-rim", at=centre(7, 1), text="north rim (6)", size=0.8),
        Label(id="label-cliff", at=area_mid(3, 9, 4, 5), text="cliff face", size=0.8),
        Label(id="label-creek", at=centre(19, 6), text="Legless Creek", size=0.7),
        Label(id="label-bridge", at=centre(19, 11), text="bridge", size=0.7),
        Label(id="label-ford", at=centre(19, 17), text="ford", size=0.7),
        Label(id="label-mesa", at=centre(8, 27), text="mesa (6)", size=0.8),
        Label(id="label-mine", at=centre(30, 26), text="mine", size=0.8),
        Label(id="label-shack", at=area_mid(34, 37, 20, 20), text="miners' shack", size=0.7),
        Label(id="label-tailings", at=centre(26, 23), text="tailings", size=0.6),
        Label(id="label-gorge", at=centre(19, 24), text="gorge", size=0.7),
    ]


def build_map() -> Map:
    """The sample map "Legless Gulch"."""
    return sample_map(
        (COLS, ROWS),
        _ground(),
        name="Legless Gulch",
        features=_features(),
        labels=_labels(),
        notes=[
            note(
                "note-speed",
                (7, 12),
                "Hank drives his team east at 18 paces; the vaquero rides west down "
                "the trail at 8. Relative speed 26: −5 to Cyril's shot (000 Target "
                "Speed). The tokens carry these velocities; zero them once the "
                "wagon stops.",
            ),
            note(
                "note-boulders",
                (13, 11),
                "Boulders are solid rock, drawn with the brick material (AV 4): a "
                "handgun at best chips them, a Sharps can punch through. A Judge who "
                "wants them bullet-proof can switch them to thick iron (AV 5) in the "
                "editor.",
            ),
            note(
                "note-creek",
                (19, 9),
                "The creek runs fast and deep: it is swum, not walked (house rule). "
                "The ford downstream is knee-deep, rough going, and the wagon can "
                "cross there if the bridge goes.",
            ),
            note(
                "note-cliffs",
                (1, 6),
                "Cliff faces are climbed at +2 AP per pace, the steep grade costs "
                "+1 AP per pace going up, the trail's gentle grade +1 per 2 paces "
                "(000 Movement AP Cost).",
            ),
        ],
        markers=[
            marker(
                "marker-trap-bridge",
                (19, 12),
                "trap",
                "Two bundles of dynamite are wired under the bridge; the fuse runs "
                "to the lead miner behind the boulder east of it. Lit, it blows "
                "when the Judge says; everyone on the deck takes the blast.",
            ),
            marker(
                "marker-ambush-miners",
                (23, 10),
                "ambush",
                "The miners lie in wait behind the boulders on the east bank.",
            ),
            marker(
                "marker-ambush-rim",
                (37, 2),
                "ambush",
                "A second vaquero waits on the rim where the trail starts down.",
            ),
            marker(
                "marker-gold",
                (31, 26),
                "objective",
                "The miners' strongbox is hidden in the tunnel.",
            ),
        ],
        description=(
            "A dry gulch in the hills east of town. The wagon road runs along the floor "
            "and crosses Legless Creek on a plank bridge; a ford lies downstream. A "
            "steep grade and a cliff face climb to the north rim, where the mountain "
            "trail comes down; to the south a gentle grade rises to the mesa and the "
            "miners' tunnel. Elevation is in paces above the gulch floor (rim and mesa "
            "6, creek −1). Boulders are rock, drawn as brick (AV 4)."
        ),
    )


#: the wagon's speed and the vaquero's, paces per round (000 Target Speed)
WAGON_VELOCITY = (18.0, 0.0)
VAQUERO_VELOCITY = (-8.0, 0.0)


def _places() -> list[Place]:
    t = [c for c, _, _ in trail()]
    return [
        Place("hank_daggett", 8, 12, 0, velocity=WAGON_VELOCITY, why="driving the wagon east"),
        Place(
            "cyril_wellington",
            6,
            13,
            "octavio_vaquero",
            velocity=WAGON_VELOCITY,
            why="in the wagon bed, riding shotgun",
        ),
        Place(
            "miranda_valentine",
            16,
            13,
            "lead_miner",
            why="at the bridge with her Sharps",
        ),
        Place("jonah_benton", 14, 10, "octavio_vaquero", why="beside a boulder, scouting"),
        Place(
            "octavio_vaquero",
            *t[8],
            3,
            mounted=True,
            velocity=VAQUERO_VELOCITY,
            why="riding west down the trail",
        ),
        Place("vaquero_2", *t[1], 3, hidden=True, mounted=True, why="waiting on the rim"),
        Place("lead_miner", 23, 10, "miranda_valentine", why="behind the boulder, with the fuse"),
        Place("miner_rufus", 23, 16, "miranda_valentine", hidden=True, why="behind a boulder"),
        Place("miner_amos", 28, 13, "hank_daggett", hidden=True, why="behind a boulder"),
    ]


def build_encounter() -> Encounter:
    """The sample encounter "Ambush at Legless Gulch"."""
    sheets = bundled_sheets()
    sheets["vaquero_2"] = npc(sheets, "octavio_vaquero", "vaquero_2", "Vaquero")
    sheets["miner_rufus"] = npc(sheets, "lead_miner", "miner_rufus", "Rufus (miner)")
    sheets["miner_amos"] = npc(sheets, "lead_miner", "miner_amos", "Amos (miner)")
    # 000 Combat Example, Angus cranks his Gatling: Octavio, the vaquero (Gatling 2d8),
    # mans the gang's Gatling gun, a full feed magazine in it (after his lasso and Colt)
    sheets["octavio_vaquero"].weapons.append(CarriedWeapon(weapon_id="gatling_gun", loaded=40))
    places = _places()
    return sample_encounter(
        sheets,
        places,
        name="Ambush at Legless Gulch",
        edition="ap_v2",
        map_ref=MAP_FILE,
        deck_seed=1875,
        notes=(
            "Hank is driving his wagon east down Legless Gulch with Cyril in the back "
            "riding shotgun, Miranda and Jonah scouting ahead at the bridge. A vaquero "
            "comes down the mountain trail at a trot, and the lead miner's gang waits "
            "behind the boulders across the creek with a fuse to the dynamite under the "
            "bridge. Another rider waits on the rim. (000 Target Speed; 000 Combat "
            "Example vs Miners.)"
        ),
    )
