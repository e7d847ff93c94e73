"""Sample map "The Longhorn saloon" (interior) and its encounter, "Trouble at the
Longhorn".

The map (32 × 26 pointy-top hexes, one pace each), north to south
    A back alley (rows 0–2) with the saloon's back door and a stack of barrels. The
    saloon itself (cols 2–29, rows 3–19, hardwood): an upstairs gallery along the
    north wall (rows 3–4, elevation 3 = one storey) behind a low railing, reached by
    stairs (terrain ``s``, elevation 1–2) along the west wall; the main floor with
    card tables (each a table hex of rough ground with a low hardwood cover segment
    across it); an upright piano against the west wall (full hardwood cover, its body
    impassable); the bar counter (low hardwood cover) with the back bar behind it;
    and the back room (cols 21–29, rows 3–7) where the poker game is. Glass windows
    face the boardwalk either side of the batwing doors (standing open). South of
    the front wall: the boardwalk with hitching rails, then Main Street.

This is the Longhorn of the Main Street map drawn at table scale: Main Street's
footprint is schematic, this one is roomy enough to fight in.

The encounter is 000's Asserting Dominance (Hank brawling with Dave Perkins, who
ends up between the piano and the wall) run together with 004's Initiative
Example (Jonah has won too much at poker from the Perkins brothers), with Felicia
Laroq hidden on the gallery. AP v2 edition, deck seed 1874.
"""

from __future__ import annotations

from ..model.encounter import Encounter
from ..model.map import CoverHeight, Label, Map, Material, Terrain
from .common import (
    STOREY,
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
    row_mid,
    sample_encounter,
    sample_map,
    wall_x,
    wall_y,
    window,
)

MAP_FILE = "longhorn_saloon.map.json"
ENCOUNTER_FILE = "longhorn_saloon.encounter.json"

COLS, ROWS = 32, 26

#: the saloon's hexes (inclusive): the walls run just outside them
WEST, EAST, NORTH, SOUTH = 2, 29, 3, 19
#: the upstairs gallery along the north wall (cols, rows), one storey up
GALLERY = ((WEST, 20), (NORTH, 4))
#: stairs up the west wall: (rows, elevation) pairs, bottom step first
STAIRS_COLS = (2, 3)
STAIR_STEPS = [(8, 1), (7, 1), (6, 2), (5, 2)]
#: the back room (cols, rows)
BACK_ROOM = ((21, EAST), (NORTH, 7))
#: the bar counter runs along this column line, from BAR_ROWS[0] to BAR_ROWS[1]
BAR_LINE, BAR_ROWS = 24, (8, 16)
#: the piano's body (impassable), against the west wall
PIANO = [(2, 13), (2, 14)]
#: card tables on the main floor; the poker table in the back room comes last
TABLES = [(8, 7), (13, 7), (18, 8), (10, 11), (15, 11), (20, 13), (7, 16), (12, 16), (17, 16)]
POKER_TABLE = (25, 5)
#: a cast-iron stove in the middle of the floor (impassable, low cover)
STOVE = (5, 10)
DOOR_COL = 14  # the batwing doors, in the front wall
BOARDWALK = (20, 21)


def _ground() -> tuple[list[str], list[list[int]] | None]:
    g = Ground(COLS, ROWS)
    for col in range(COLS):  # the dusty street's and the alley's outer edges
        g.set(col, 0, Terrain.ROUGH)
        g.set(col, ROWS - 1, Terrain.ROUGH)
    (c0, c1), (r0, r1) = GALLERY
    g.rect((c0, c1), (r0, r1), elev=STOREY)
    for row, height in STAIR_STEPS:
        for col in STAIRS_COLS:
            g.set(col, row, Terrain.STAIRS, height)
    for col, row in PIANO:
        g.set(col, row, Terrain.IMPASSABLE)
    g.set(*STOVE, Terrain.IMPASSABLE)
    for col, row in [*TABLES, POKER_TABLE]:
        g.set(col, row, Terrain.ROUGH)
    return g.result()


def _features() -> list:
    f = Features()
    hw = Material.HARDWOOD
    front = [
        window("window-front-1", col_mid(5)),
        window("window-front-2", col_mid(9)),
        door("batwing-doors", col_mid(DOOR_COL), is_open=True, name="batwing doors"),
        window("window-front-3", col_mid(19)),
        window("window-front-4", col_mid(23)),
    ]
    # the outer walls: north (with the back room's back door), south (the front),
    # west and east
    f.hwall(
        "saloon-north",
        NORTH - 1,
        (WEST - 1, EAST),
        hw,
        "Longhorn saloon, north wall",
        [door("back-door", col_mid(27), name="back door (bolted)")],
    )
    f.hwall("saloon-south", SOUTH, (WEST - 1, EAST), hw, "Longhorn saloon, front wall", front)
    f.vwall(
        "saloon-west",
        WEST - 1,
        (NORTH - 1, SOUTH),
        hw,
        "Longhorn saloon, west wall",
        [
            window("window-gallery", row_mid(4), name="gallery window"),
            window("window-west-1", row_mid(11)),
            window("window-west-2", row_mid(17)),
        ],
    )
    f.vwall(
        "saloon-east",
        EAST,
        (NORTH - 1, SOUTH),
        hw,
        "Longhorn saloon, east wall",
        [
            window("window-back-room", row_mid(5), glass=False, name="back-room shutters"),
            window("window-east", row_mid(18)),
        ],
    )
    # the back room: a partition west of it and one south of it with the door
    (bc0, _), (_, br1) = BACK_ROOM
    f.vwall("back-room-west", bc0 - 1, (NORTH - 1, br1), hw, "back room, west wall")
    f.hwall(
        "back-room-south",
        br1,
        (bc0 - 1, EAST),
        hw,
        "back room, south wall",
        [door("back-room-door", col_mid(22), is_open=True, name="back-room door")],
    )
    # the gallery railing and the stair banister: one low rail that stops a step
    # between upstairs and the floor but not sight (low cover up there)
    (_, gc1), (_, gr1) = GALLERY
    stair_foot = STAIR_STEPS[0][0]
    f.add(
        "gallery-rail",
        [
            (wall_x(STAIRS_COLS[1]), wall_y(stair_foot)),
            (wall_x(STAIRS_COLS[1]), wall_y(gr1)),
            (wall_x(gc1), wall_y(gr1)),
        ],
        kind="wall",
        material=hw,
        height=CoverHeight.LOW,
        opaque=False,
        name="gallery railing and banister",
    )
    # the bar counter and its south return to the east wall
    f.add(
        "bar-counter",
        [
            (wall_x(BAR_LINE), wall_y(BAR_ROWS[0])),
            (wall_x(BAR_LINE), wall_y(BAR_ROWS[1])),
            (wall_x(EAST), wall_y(BAR_ROWS[1])),
        ],
        kind="cover",
        material=hw,
        height=CoverHeight.LOW,
        name="bar counter",
    )
    # the piano: its outline against the west wall, full-height hardwood
    (_, p0), (_, p1) = PIANO[0], PIANO[-1]
    x_wall, x_face = wall_x(WEST - 1), wall_x(PIANO[0][0])
    f.add(
        "piano",
        [
            (x_wall, wall_y(p0 - 1)),
            (x_face, wall_y(p0 - 1)),
            (x_face, wall_y(p1)),
            (x_wall, wall_y(p1)),
        ],
        kind="cover",
        material=hw,
        height=CoverHeight.FULL,
        name="upright piano",
    )
    # tables: one low segment across each table hex
    for i, (col, row) in enumerate(TABLES, start=1):
        x, y = centre(col, row)
        f.bar(f"table-{i}", x - 0.7, x + 0.7, y, "card table")
    x, y = centre(*POKER_TABLE)
    f.bar("poker-table", x - 0.7, x + 0.7, y, "poker table")
    f.block("stove", *STOVE, "pot-bellied stove", Material.THIN_IRON, CoverHeight.LOW)
    # outside: hitching rails along the boardwalk's edge, barrels in the alley
    edge = wall_y(BOARDWALK[1])
    f.bar(
        "hitching-rail-w",
        centre(3, 22)[0],
        centre(10, 22)[0],
        edge,
        "hitching rail",
        Material.THIN_WOOD,
    )
    f.bar(
        "hitching-rail-e",
        centre(18, 22)[0],
        centre(26, 22)[0],
        edge,
        "hitching rail",
        Material.THIN_WOOD,
    )
    f.bar("alley-barrels", centre(22, 1)[0] - 0.7, centre(23, 1)[0] + 0.7, wall_y(0), "barrels")
    f.bar(
        "water-trough", centre(11, 22)[0] + 0.5, centre(13, 22)[0] - 0.5, wall_y(22), "water trough"
    )
    return f.items


def _labels() -> list[Label]:
    (_, (gr0, gr1)) = GALLERY
    (bc0, bc1), (br0, _) = BACK_ROOM
    return [
        Label(id="label-saloon", at=area_mid(8, 19, 12, 14), text="Longhorn Saloon", size=1.6),
        Label(id="label-gallery", at=area_mid(4, 9, gr0, gr1), text="gallery (upstairs)", size=0.8),
        Label(id="label-stairs", at=centre(2, 9), text="stairs up", size=0.6),
        Label(id="label-back-room", at=area_mid(bc0, bc1, br0, br0), text="back room", size=0.9),
        Label(id="label-bar", at=centre(23, 15), text="bar", size=0.8),
        Label(id="label-back-bar", at=area_mid(26, 29, 11, 12), text="back bar & mirror", size=0.6),
        Label(id="label-piano", at=centre(3, 12), text="piano", size=0.6),
        Label(id="label-boardwalk", at=centre(6, 20), text="boardwalk", size=0.7),
        Label(id="label-street", at=area_mid(10, 20, 23, 24), text="Main Street", size=1.4),
        Label(id="label-alley", at=centre(9, 1), text="back alley", size=0.8),
        Label(
            id="label-gallery-elev",
            at=centre(16, 3),
            text="elevation 3 (one storey)",
            size=0.5,
            judge_only=True,
        ),
    ]


def build_map() -> Map:
    """The sample map "The Longhorn saloon"."""
    return sample_map(
        (COLS, ROWS),
        _ground(),
        name="The Longhorn saloon",
        features=_features(),
        labels=_labels(),
        notes=[
            note(
                "note-piano",
                (2, 15),
                "Between the piano and the west wall: a figure driven here is "
                "cornered (000 Asserting Dominance: Hank works Dave toward the "
                "piano). The piano is hardwood, AV 3, and taller than a man "
                "crouching behind it.",
            ),
            note(
                "note-bar",
                (26, 10),
                "Sam the barkeep keeps a sawn-off shotgun under the counter. The "
                "back-bar mirror and the bottles are unintended targets for any "
                "stray shot fired across the bar (000 Ancillary Effects).",
            ),
            note(
                "note-back-door",
                (27, 3),
                "The back door is bolted from inside: unbolting it takes an "
                "action before it can be opened. Beyond it the alley leads to the "
                "livery, Jonah's best way out.",
            ),
            note(
                "note-gallery",
                (10, 4),
                "The gallery is one storey up (elevation 3). Its railing gives low "
                "cover to anyone on it and stops a step down; jumping over means "
                "a fall of 3 paces.",
            ),
        ],
        markers=[
            marker(
                "marker-ambush-gallery",
                (12, 3),
                "ambush",
                "Felicia Laroq waits on the gallery, hidden; she fires on the first "
                "posse member to draw.",
            ),
            marker(
                "marker-trap-rail",
                (17, 4),
                "trap",
                "Rotten length of railing: a figure shoved or thrown against it "
                "breaks through and falls 3 paces to the floor.",
            ),
            marker(
                "marker-winnings",
                POKER_TABLE,
                "objective",
                "Jonah's winnings, $340 in coin and paper, still on the poker table.",
            ),
        ],
        description=(
            "Inside the Longhorn saloon on Main Street, one evening. An upstairs gallery "
            "runs along the north wall, up stairs by the west wall; card tables fill the "
            "floor (low hardwood cover); an upright piano stands against the west wall; "
            "the bar counter (low hardwood cover) runs down the east side, and the poker "
            "game is in the back room. Batwing doors open onto the boardwalk; the back "
            "door opens onto the alley. Elevation is in paces (the gallery is 3)."
        ),
    )


PLACES: list[Place] = [
    Place("miranda_valentine", 24, 11, "dave_perkins", why="at the bar"),
    Place("hank_daggett", 3, 15, "dave_perkins", why="brawling with Dave by the piano"),
    Place("cyril_wellington", 11, 16, "octavio_vaquero", why="at a card table near the door"),
    Place("jonah_benton", 24, 5, "pete_perkins", why="at the poker table"),
    Place("dave_perkins", 2, 15, "hank_daggett", why="cornered between piano and wall"),
    Place("pete_perkins", 26, 5, "jonah_benton", why="across the poker table"),
    Place("clem_perkins", 25, 6, "jonah_benton", why="beside Jonah at the poker table"),
    Place("felicia_laroq", 12, 3, "miranda_valentine", hidden=True, why="on the gallery"),
    Place("octavio_vaquero", 16, 20, "cyril_wellington", why="on the boardwalk, at the doors"),
]


def build_encounter() -> Encounter:
    """The sample encounter "Trouble at the Longhorn"."""
    sheets = bundled_sheets()
    return sample_encounter(
        sheets,
        PLACES,
        name="Trouble at the Longhorn",
        edition="ap_v2",
        map_ref=MAP_FILE,
        deck_seed=1874,
        notes=(
            "Evening at the Longhorn. Jonah has cleaned out the Perkins brothers at poker "
            "in the back room, and Pete and Clem have their Bowie knives out. Out on the "
            "floor Hank has been brawling with Dave Perkins and has him backed against "
            "the piano (000 Asserting Dominance). Miranda is at the bar, Cyril at a "
            "table by the door; Octavio loiters outside the batwings, and Felicia Laroq "
            "watches from the gallery, unseen."
        ),
    )
