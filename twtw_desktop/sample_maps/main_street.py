"""Sample map "Main Street" and its encounter, "Showdown on Main Street".

Written to ``maps/main_street.map.json`` and ``maps/main_street.encounter.json`` by
``python -m twtw_desktop.samples_build``.

The map (40 × 30 pointy-top hexes, one pace each)
    North of the street, west to east: the Longhorn saloon (hardwood, batwing doors
    standing open, glass windows, a bar counter, tables as rough ground, an upstairs
    balcony over the west end of its boardwalk, railed off from the street and reached
    by stairs rising from the boardwalk), an alley, the bank (brick, a
    thick-iron vault), and the livery stable (thin wood, big doors open). South: an
    adobe cantina (shutters open), the general store (thin wood, glass windows) and a
    corral (low fence, gate open). The street runs east–west between boardwalks and
    climbs a gentle grade out of town to the east; rough ground rings the edges.
    Cover in the street: Hank's wagon (low hardwood), a water trough and a horse
    trough (low), barrels — each one low-cover segment along its middle.

Walls lie midway between hex centres (:func:`wall_x`, :func:`wall_y`), so every hex
centre is clearly inside or outside a building and every step between neighbours
crosses a wall, a door, a window or nothing.

Elevation is in paces above the street (a storey ≈ 3 paces): the balcony is 3, the
stairs 1–2, the grade east of town rises 1 pace every 2 columns. This is a house
convention (the pages give no unit); see the report to the lead.

The encounter puts the posse (Miranda Valentine, Hank Daggett, Cyril Wellington,
Jonah Benton) south of the street facing the Laroq gang (Angus, Felicia — hidden on
the balcony — Dave and Clem Perkins, Octavio the vaquero) to the north. Character
sheets come from :func:`twtw_desktop.rules.samples.sample_characters`, so they match
the bundled sample file exactly. Deck seed 1873, AP v2 edition.
"""

from __future__ import annotations

from ..model.encounter import Encounter
from ..model.map import (
    TERRAIN_CODES,
    CoverHeight,
    Feature,
    Label,
    Map,
    Material,
    Terrain,
)
from .common import (
    OPENING,
    Features,
    Place,
    area_mid,
    building,
    bundled_sheets,
    centre,
    door,
    marker,
    note,
    open_ring,
    sample_encounter,
    sample_map,
    wall_x,
    wall_y,
    window,
)

MAP_FILE = "main_street.map.json"
ENCOUNTER_FILE = "main_street.encounter.json"

COLS, ROWS = 40, 30

# --- the map ---------------------------------------------------------------------------

STREET_ROWS = range(12, 19)  # the dusty street itself
NORTH_WALK, SOUTH_WALK = 11, 19  # boardwalk rows
GRADE_COLS = range(34, 40)  # the road climbs out of town to the east

BALCONY = [(c, NORTH_WALK) for c in range(3, 7)]
STAIRS = [((7, NORTH_WALK), 2), ((8, NORTH_WALK), 1)]  # rising west from the boardwalk
BALCONY_ELEVATION = 3
SALOON_TABLES = [(5, 6), (6, 8), (8, 6), (9, 8), (4, 9)]

FELICIA_HEX = (5, NORTH_WALK)


def _terrain() -> tuple[list[str], list[list[int]]]:
    codes = [[TERRAIN_CODES[Terrain.OPEN]] * COLS for _ in range(ROWS)]
    elevation = [[0] * COLS for _ in range(ROWS)]
    rough, gentle, stairs = (
        TERRAIN_CODES[t] for t in (Terrain.ROUGH, Terrain.GENTLE, Terrain.STAIRS)
    )
    for row in range(ROWS):
        for col in range(COLS):
            edge = row in (0, 1, ROWS - 2, ROWS - 1) or col in (0, 1, COLS - 2, COLS - 1)
            on_road = row in STREET_ROWS
            if col in GRADE_COLS:
                elevation[row][col] = (col - GRADE_COLS[0]) // 2 + 1
                codes[row][col] = gentle if NORTH_WALK <= row <= SOUTH_WALK else rough
            elif edge and not on_road:
                codes[row][col] = rough
    for col, row in SALOON_TABLES:
        codes[row][col] = rough
    for col, row in BALCONY:
        elevation[row][col] = BALCONY_ELEVATION
    for (col, row), height in STAIRS:
        codes[row][col] = stairs
        elevation[row][col] = height
    return ["".join(r) for r in codes], elevation


def _features() -> list[Feature]:
    f = Features()
    front_n, front_s = NORTH_WALK - 1, SOUTH_WALK + 1  # rows just inside the fronts

    # Longhorn saloon: cols 3–12, rows 3–10, hardwood.
    building(
        f,
        "saloon",
        "Longhorn saloon",
        (3, 12),
        (3, 10),
        Material.HARDWOOD,
        # the balcony and its stairs (cols 3–8) are upstairs: no ground-floor opening
        south=[
            door("saloon-batwings", centre(10, front_n)[0], is_open=True, name="batwing doors"),
            window("saloon-window-front", centre(12, front_n)[0]),
        ],
        north=[door("saloon-back-door", centre(10, 3)[0], name="back door")],
        west=[window("saloon-window-side", centre(3, 6)[1])],
        east=[
            window(
                "saloon-window-alley", centre(12, 6)[1], is_open=True, name="glass window (raised)"
            )
        ],
    )
    # The balcony's railing: a low "wall" — it stops anyone stepping between the
    # street and the upstairs hexes, but not sight, and gives low cover up there.
    rail_y, rail_west, rail_east = wall_y(NORTH_WALK), wall_x(2), wall_x(STAIRS[-1][0][0])
    f.add(
        "saloon-balcony-rail",
        [(rail_west, wall_y(NORTH_WALK - 1)), (rail_west, rail_y), (rail_east, rail_y)],
        kind="wall",
        material=Material.HARDWOOD,
        height=CoverHeight.LOW,
        opaque=False,
        name="balcony railing",
    )
    f.add(
        "saloon-bar",
        [centre(4, 4), centre(9, 4)],
        kind="cover",
        material=Material.HARDWOOD,
        height=CoverHeight.LOW,
        name="bar counter",
    )

    # Bank: cols 16–23, rows 4–10, brick, with a thick-iron vault in the back corner.
    building(
        f,
        "bank",
        "Bank",
        (16, 23),
        (4, 10),
        Material.BRICK,
        south=[
            window("bank-window-w", centre(17, front_n)[0]),
            door("bank-door", centre(19, front_n)[0], name="bank door"),
            window("bank-window-e", centre(22, front_n)[0]),
        ],
    )
    f.add(
        "bank-counter",
        [(wall_x(15), wall_y(7)), (centre(20, 7)[0], wall_y(7))],
        kind="cover",
        material=Material.HARDWOOD,
        height=CoverHeight.LOW,
        name="teller's counter",
    )
    vx0, vx1, vy0, vy1 = wall_x(20), wall_x(22), wall_y(3), wall_y(5)
    door_x = centre(21, 5)[0]
    f.gated(
        "bank-vault",
        open_ring(vx0, vx1, vy0, vy1, door_x, vy1),
        "vault (strongbox) wall",
        "bank-vault-door",
        "vault door",
        material=Material.THICK_IRON,
    )

    # Livery stable: cols 26–33, rows 3–10, thin wood, big doors standing open.
    big_door = (centre(29, front_n)[0] + centre(30, front_n)[0]) / 2
    f.wall(
        "livery-south",
        (wall_x(25), wall_y(front_n)),
        (wall_x(33), wall_y(front_n)),
        Material.THIN_WOOD,
        "Livery stable, south wall",
        [
            door(
                "livery-doors-w",
                big_door - OPENING / 2,
                is_open=True,
                material=Material.THIN_WOOD,
                name="stable doors",
            ),
            door(
                "livery-doors-e",
                big_door + OPENING / 2,
                is_open=True,
                material=Material.THIN_WOOD,
                name="stable doors",
            ),
        ],
    )
    x0, x1, y0, y1 = wall_x(25), wall_x(33), wall_y(2), wall_y(front_n)
    f.wall("livery-north", (x0, y0), (x1, y0), Material.THIN_WOOD, "Livery stable, north wall")
    f.wall(
        "livery-west",
        (x0, y0),
        (x0, y1),
        Material.THIN_WOOD,
        "Livery stable, west wall",
        [
            window(
                "livery-window", centre(26, 6)[1], glass=False, is_open=True, name="hayloft hatch"
            )
        ],
    )
    f.wall("livery-east", (x1, y0), (x1, y1), Material.THIN_WOOD, "Livery stable, east wall")
    for i, col in enumerate((28, 31)):
        f.vwall(
            f"livery-stall-{i + 1}",
            col,
            (2, 6),
            Material.THIN_WOOD,
            "stall partition",
            kind="cover",
            height=CoverHeight.LOW,
        )

    # Cantina del Sol: cols 4–11, rows 20–26, adobe, shutters open.
    building(
        f,
        "cantina",
        "Cantina del Sol",
        (4, 11),
        (20, 26),
        Material.ADOBE,
        north=[
            window("cantina-window-w", centre(5, front_s)[0], glass=False, is_open=True),
            door("cantina-door", centre(8, front_s)[0], is_open=True),
            window("cantina-window-e", centre(10, front_s)[0], glass=False, is_open=True),
        ],
        south=[door("cantina-back-door", centre(6, 26)[0], name="back door")],
    )

    # General store: cols 15–22, rows 20–26, thin wood, glass windows.
    building(
        f,
        "store",
        "General store",
        (15, 22),
        (20, 26),
        Material.THIN_WOOD,
        north=[
            window("store-window-w", centre(16, front_s)[0]),
            door("store-door", centre(18, front_s)[0], name="store door"),
            window("store-window-e", centre(21, front_s)[0]),
        ],
    )

    # Corral: a low thin-wood fence, cols 26–32, rows 21–26, gate open.
    gx0, gx1, gy0, gy1 = wall_x(25), wall_x(32), wall_y(20), wall_y(26)
    gate = centre(29, 21)[0]
    f.gated(
        "corral-fence",
        open_ring(gx0, gx1, gy0, gy1, gate, gy0),
        "corral fence",
        "corral-gate",
        "corral gate",
        material=Material.THIN_WOOD,
        kind="cover",
        height=CoverHeight.LOW,
        gate_open=True,
    )

    # Street furniture along the boardwalk edges and in the street (see Features.bar).
    edge_n, edge_s = wall_y(NORTH_WALK), wall_y(SOUTH_WALK - 1)
    f.bar("water-trough", centre(16, 12)[0] - 0.5, centre(17, 12)[0] + 0.5, edge_n, "water trough")
    f.bar("horse-trough", centre(26, 12)[0], centre(28, 12)[0], edge_n, "horse trough")
    f.bar("wagon", centre(18, 14)[0] - 0.6, centre(20, 15)[0] + 0.6, wall_y(14), "Hank's wagon")
    x = centre(14, NORTH_WALK)[0]
    f.bar("barrel-1", x - 0.7, x + 0.7, edge_n, "barrels")
    x = centre(16, SOUTH_WALK)[0]
    f.bar("barrel-2", x - 0.7, x + 0.7, edge_s, "barrels")
    x, y = centre(24, 20)
    f.bar("barrel-3", x - 0.3, x + 0.3, y, "barrel")
    return f.items


def _labels() -> list[Label]:
    return [
        Label(id="label-saloon", at=area_mid(3, 12, 3, 10), text="Longhorn Saloon", size=1.4),
        Label(id="label-bank", at=area_mid(16, 23, 4, 10), text="Bank", size=1.4),
        Label(id="label-vault", at=area_mid(21, 22, 4, 5), text="vault", size=0.6),
        Label(id="label-livery", at=area_mid(26, 33, 3, 10), text="Livery Stable", size=1.4),
        Label(id="label-cantina", at=area_mid(4, 11, 20, 26), text="Cantina del Sol", size=1.4),
        Label(id="label-store", at=area_mid(15, 22, 20, 26), text="General Store", size=1.4),
        Label(id="label-corral", at=area_mid(26, 32, 21, 26), text="Corral", size=1.2),
        Label(id="label-street", at=centre(24, 15), text="Main Street", size=2.0),
        Label(id="label-balcony", at=centre(3, NORTH_WALK), text="balcony (upstairs)", size=0.6),
        Label(id="label-stairs", at=centre(8, NORTH_WALK), text="stairs", size=0.6),
        Label(id="label-boardwalk-n", at=centre(20, NORTH_WALK), text="boardwalk", size=0.6),
        Label(id="label-boardwalk-s", at=centre(12, SOUTH_WALK), text="boardwalk", size=0.6),
        Label(id="label-grade", at=centre(36, 15), text="grade to Legless Gulch", size=0.8),
    ]


def main_street_map() -> Map:
    """The sample map "Main Street"."""
    return sample_map(
        (COLS, ROWS),
        _terrain(),
        name="Main Street",
        features=_features(),
        labels=_labels(),
        notes=[
            note(
                "note-felicia",
                FELICIA_HEX,
                "Felicia waits upstairs on the saloon balcony, hidden from the posse. "
                "She opens fire the moment Angus draws.",
            ),
            note(
                "note-vault",
                (21, 4),
                "The vault holds the cattlemen's payroll, $4,000 in gold coin. "
                "That is what the Laroqs came for.",
            ),
        ],
        markers=[
            marker(
                "marker-ambush",
                FELICIA_HEX,
                "ambush",
                "Felicia's ambush: a clear line down Main Street from the balcony.",
            )
        ],
        description=(
            "A Western main street at high noon. The Longhorn saloon, the bank and the "
            "livery stable stand north of the street; the Cantina del Sol, the general "
            "store and the corral south of it. Boardwalks run along both sides; the road "
            "climbs a gentle grade east toward Legless Gulch. Elevation is in paces "
            "above the street (the saloon balcony is 3)."
        ),
    )


# --- the encounter ---------------------------------------------------------------------

PLACES: list[Place] = [
    Place("miranda_valentine", 13, 17, "angus_laroq", why="in the open street"),
    Place("hank_daggett", 19, 15, "dave_perkins", why="behind his wagon"),
    Place("cyril_wellington", 16, SOUTH_WALK, "clem_perkins", why="behind barrels"),
    Place("jonah_benton", 8, 20, "angus_laroq", why="in the cantina doorway"),
    Place("angus_laroq", 10, 13, "miranda_valentine", why="in the street"),
    Place("felicia_laroq", *FELICIA_HEX, "miranda_valentine", hidden=True, why="upstairs"),
    Place("dave_perkins", 16, NORTH_WALK, "hank_daggett", why="behind the water trough"),
    Place("clem_perkins", 14, NORTH_WALK, "cyril_wellington", why="behind barrels"),
    Place("octavio_vaquero", 27, NORTH_WALK, "hank_daggett", why="behind the horse trough"),
]


def main_street_encounter() -> Encounter:
    """The sample encounter: the posse against the Laroq gang on Main Street."""
    return sample_encounter(
        bundled_sheets(),
        PLACES,
        name="Showdown on Main Street",
        edition="ap_v2",
        map_ref=MAP_FILE,
        deck_seed=1873,
        notes=(
            "High noon. The Laroq gang has come for the bank's payroll; the posse stands "
            "in their way. Angus faces Miranda across the street, the Perkins brothers "
            "and Octavio take cover along the north boardwalk, and Felicia waits unseen "
            "on the saloon balcony."
        ),
    )


build_map = main_street_map
build_encounter = main_street_encounter
