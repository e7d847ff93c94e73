"""Sample map "The Laroq hacienda" and its encounter, "Jailbreak at the Laroq
hacienda".

The map (40 × 30 pointy-top hexes, one pace each)
    An adobe compound (cols 3–32, rows 3–26) in open desert. Along its north side the
    casa: kitchen, sala (with the long table), Angus's office (desk and iron safe)
    and a bedroom, each with a door and a shuttered window onto the courtyard. The
    west wing holds the guard room and the cell block: the cell has adobe walls, a
    thick-iron door and an iron-barred window in the outer wall (bars stop a body,
    not a look). The east wing is the vaqueros' bunkhouse and the stable. In the
    middle the courtyard with its well (an adobe curb round the shaft: low cover), a
    cart and hay bales. The main gate (two hardwood leaves, barred) faces the road
    south; a postern in the west wall (left open by the posse) lets a rider out quietly. In the south-east
    corner the mirador, a tower whose roof (elevation 3) is reached by a ladder and
    walled by a low parapet, carries Angus's Gatling gun. Outside to the east, the
    corral of stolen cattle behind a low fence.

Walls meet on the hex-edge grid (:func:`wall_x`/:func:`wall_y`), so partitions end
exactly on the walls they join and every door or window sits in a gap cut out of
its wall.

The encounter follows 004's Initiative Example 2 (Miranda and Hank breaking out of
the hacienda's cell, spotted by a sentry, vaqueros closing in) and the 004 example
of Jonah escaping the cell: here Miranda and Hank have slipped in by the postern to
free Jonah, and Dave Perkins has just seen them. The Phases edition (004's speeds
and initiative bar), deck seed 1876.
"""

from __future__ import annotations

from ..model.encounter import Encounter
from ..model.map import CoverHeight, Label, Map, Material, Terrain
from ..rules.character import CarriedWeapon
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
    npc,
    row_mid,
    sample_encounter,
    sample_map,
    wall_x,
    wall_y,
    window,
)

MAP_FILE = "laroq_hacienda.map.json"
ENCOUNTER_FILE = "laroq_hacienda.encounter.json"

COLS, ROWS = 40, 30

ADOBE = Material.ADOBE
#: the compound's hexes (inclusive); its outer wall runs just outside them
WEST, EAST, NORTH, SOUTH = 3, 32, 3, 26
#: the casa's rows and its room partitions (column lines) west to east
CASA_ROWS = (NORTH, 9)
CASA_PARTITIONS = (8, 20, 25)  # kitchen | sala | office | bedroom
#: the west wing (cols), guard room above the cell block (rows split at this line)
WEST_WING = (WEST, 8)
WING_ROWS = (10, 20)
GUARD_SPLIT = 14
#: the cell (cols, rows)
CELL = ((WEST, 5), (15, 18))
CELL_DOOR_ROW = 16
#: the east wing (cols), bunkhouse above the stable (rows split at this line)
EAST_WING = (26, EAST)
STABLE_SPLIT = 15
#: the mirador (tower) in the south-east corner (cols, rows), one storey up
TOWER = ((29, EAST), (23, SOUTH))
LADDER = (28, 24)
#: the main gate's centre line (between columns 16 and 17)
GATE_LINE = 16
POSTERN_ROW = 23
WELL = (17, 16)
#: the sala's double doors are centred between columns 14 and 15 of the courtyard row
SALA_DOORS = (col_mid(14) + col_mid(15)) / 2
#: the corral outside the east wall (cols, rows)
CORRAL = ((34, 38), (6, 20))


def _ground() -> tuple[list[str], list[list[int]] | None]:
    g = Ground(COLS, ROWS, Terrain.ROUGH)  # desert scrub outside
    g.rect((WEST, EAST), (NORTH, SOUTH), Terrain.OPEN)  # swept floors and courtyard
    # the road to the gate and the path from the postern
    g.rect((GATE_LINE - 1, GATE_LINE + 2), (SOUTH + 1, ROWS - 1), Terrain.OPEN)
    g.rect((0, 1), (POSTERN_ROW - 1, ROWS - 1), Terrain.OPEN)
    (t0, t1), (tr0, tr1) = TOWER
    g.rect((t0, t1), (tr0, tr1), elev=STOREY)
    g.set(*LADDER, Terrain.LADDER, STOREY - 1)
    g.set(*WELL, Terrain.WATER)
    g.set(21, 22, Terrain.ROUGH)  # the mesquite tree
    g.set(22, 22, Terrain.ROUGH)
    (c0, c1), (r0, r1) = CORRAL
    g.rect((c0, c1), (r0, r1), Terrain.ROUGH)
    g.set(6, 4, Terrain.IMPASSABLE)  # the kitchen's hearth
    return g.result()


def _features() -> list:
    f = Features()
    x_w, x_e = WEST - 1, EAST  # column lines of the outer wall
    y_n, y_s = NORTH - 1, SOUTH  # row lines of the outer wall
    (t0, _), (tr0, _) = TOWER

    # -- the outer wall ---------------------------------------------------------------
    f.hwall("compound-north", y_n, (x_w, x_e), ADOBE, "compound wall (north)")
    f.hwall(
        "compound-south",
        y_s,
        (x_w, t0 - 1),
        ADOBE,
        "compound wall (south)",
        [
            door("gate-west-leaf", wall_x(GATE_LINE) - 0.8, name="main gate (west leaf, barred)"),
            door("gate-east-leaf", wall_x(GATE_LINE) + 0.8, name="main gate (east leaf, barred)"),
        ],
    )
    f.vwall(
        "compound-west",
        x_w,
        (y_n, y_s),
        ADOBE,
        "compound wall (west)",
        [
            window(
                "cell-bars",
                row_mid(CELL_DOOR_ROW),
                material=Material.THICK_IRON,
                opaque=False,
                name="barred window of the cell",
            ),
            door("postern", row_mid(POSTERN_ROW), is_open=True, name="postern gate (left open)"),
        ],
    )
    f.vwall(
        "compound-east",
        x_e,
        (y_n, tr0 - 1),
        ADOBE,
        "compound wall (east)",
        [
            window("bunkhouse-loophole", row_mid(12), glass=False, name="loophole (shuttered)"),
            door("stable-back-door", row_mid(18), name="stable back door"),
        ],
    )
    # -- the mirador: a low parapet round its roof, a hatch where the ladder comes up
    parapet = CoverHeight.LOW
    f.hwall("tower-parapet-s", y_s, (t0 - 1, x_e), ADOBE, "mirador parapet", height=parapet)
    f.vwall("tower-parapet-e", x_e, (tr0 - 1, y_s), ADOBE, "mirador parapet", height=parapet)
    f.hwall("tower-parapet-n", tr0 - 1, (t0 - 1, x_e), ADOBE, "mirador parapet", height=parapet)
    f.vwall(
        "tower-parapet-w",
        t0 - 1,
        (tr0 - 1, y_s),
        ADOBE,
        "mirador parapet",
        [door("tower-hatch", row_mid(LADDER[1]), is_open=True, name="ladder head")],
        height=parapet,
    )

    # -- the casa ---------------------------------------------------------------------
    casa_s = CASA_ROWS[1]
    kitchen, sala, office = CASA_PARTITIONS
    f.hwall(
        "casa-front",
        casa_s,
        (x_w, x_e),
        ADOBE,
        "casa, courtyard wall",
        [
            window("kitchen-window", col_mid(4), glass=False),
            door("kitchen-door", col_mid(6), name="kitchen door"),
            window("sala-window-w", col_mid(11), glass=False, is_open=True),
            door("sala-door-w", SALA_DOORS - 0.8, is_open=True, name="sala doors"),
            door("sala-door-e", SALA_DOORS + 0.8, is_open=True, name="sala doors"),
            window("sala-window-e", col_mid(18), glass=False, is_open=True),
            window("office-window", col_mid(22), glass=False, is_open=True),
            door("office-door", col_mid(24), name="office door"),
            door("bedroom-door", col_mid(27), name="bedroom door"),
            window("bedroom-window", col_mid(30), glass=False),
        ],
    )
    f.vwall(
        "casa-kitchen-sala",
        kitchen,
        (y_n, casa_s),
        ADOBE,
        "casa, kitchen wall",
        [door("kitchen-sala-door", row_mid(6), is_open=True, name="kitchen door")],
    )
    f.vwall(
        "casa-sala-office",
        sala,
        (y_n, casa_s),
        ADOBE,
        "casa, office wall",
        [door("sala-office-door", row_mid(5), name="office door")],
    )
    f.vwall(
        "casa-office-bedroom",
        office,
        (y_n, casa_s),
        ADOBE,
        "casa, bedroom wall",
        [door("office-bedroom-door", row_mid(7), name="bedroom door")],
    )

    # -- the west wing: guard room, cell block, the cell ------------------------------
    w1 = WEST_WING[1]
    r1 = WING_ROWS[1]
    f.vwall(
        "west-wing-front",
        w1,
        (casa_s, r1),
        ADOBE,
        "west wing, courtyard wall",
        [
            door("guard-room-door", row_mid(12), name="guard-room door"),
            window("cell-block-window", row_mid(16), glass=False),
            door("cell-block-door", row_mid(18), is_open=True, name="cell-block door"),
        ],
    )
    f.hwall("west-wing-south", r1, (x_w, w1), ADOBE, "west wing, south wall")
    f.hwall(
        "guard-room-south",
        GUARD_SPLIT,
        (x_w, w1),
        ADOBE,
        "guard room, south wall",
        [door("guard-inner-door", col_mid(7), is_open=True, name="guard-room inner door")],
    )
    (_, c1), (_, cr1) = CELL
    f.vwall(
        "cell-east",
        c1,
        (GUARD_SPLIT, cr1),
        ADOBE,
        "cell wall",
        [
            door(
                "cell-door",
                row_mid(CELL_DOOR_ROW),
                material=Material.THICK_IRON,
                name="cell door (thick iron, locked)",
            )
        ],
    )
    f.hwall("cell-south", cr1, (x_w, c1), ADOBE, "cell wall")

    # -- the east wing: bunkhouse and stable -----------------------------------------
    e0 = EAST_WING[0]
    f.vwall(
        "east-wing-front",
        e0 - 1,
        (casa_s, r1),
        ADOBE,
        "east wing, courtyard wall",
        [
            door("bunkhouse-door", row_mid(11), name="bunkhouse door"),
            window("bunkhouse-window", row_mid(13), glass=False, is_open=True),
            door("stable-door-n", r3m(17.5) - 0.8, is_open=True, name="stable doors"),
            door("stable-door-s", r3m(17.5) + 0.8, is_open=True, name="stable doors"),
        ],
    )
    f.hwall(
        "bunkhouse-south",
        STABLE_SPLIT,
        (e0 - 1, x_e),
        ADOBE,
        "bunkhouse, south wall",
        [door("bunkhouse-stable-door", col_mid(29), name="door to the stable")],
    )
    f.hwall("east-wing-south", r1, (e0 - 1, x_e), ADOBE, "east wing, south wall")
    for i, row in enumerate((17, 19), start=1):
        f.hwall(
            f"stall-{i}",
            row,
            (30, x_e),
            Material.THIN_WOOD,
            "stall partition",
            kind="cover",
            height=CoverHeight.LOW,
        )

    # -- furniture and the courtyard --------------------------------------------------
    x, y = centre(14, 6)
    f.bar("sala-table", x - 2.2, x + 2.2, y, "long table")
    x, y = centre(22, 5)
    f.bar("office-desk", x - 1.0, x + 1.0, y, "Angus's desk")
    x, y = centre(29, 5)
    f.bar("bed", x - 0.9, x + 0.9, y, "Angus's bed")
    f.block("hearth", 6, 4, "kitchen hearth", ADOBE, CoverHeight.LOW)
    f.block("well", *WELL, "well (adobe curb)", ADOBE, CoverHeight.LOW)
    x, y = centre(12, 22)
    f.bar("cart", x - 1.2, x + 1.2, y, "two-wheeled cart")
    x, y = centre(23, 18)
    f.bar("hay-bales", x - 0.9, x + 0.9, y, "hay bales", Material.THIN_WOOD)
    x, y = centre(24, 13)
    f.bar("trough", x - 0.8, x + 0.8, y, "water trough")
    x, y = centre(10, 14)
    f.bar("barrels", x - 0.7, x + 0.7, y, "barrels")
    x, y = centre(20, 24)
    f.bar("firewood", x - 1.0, x + 1.0, y, "stacked firewood", Material.THIN_WOOD)
    x, y = centre(22, 10)
    f.bar("bench", x - 1.2, x + 1.2, y + 0.75, "bench under the office window")
    (c0, c1), (cr0, cr1) = CORRAL
    gx0, gx1, gy0, gy1 = wall_x(c0 - 1), wall_x(c1), wall_y(cr0 - 1), wall_y(cr1)
    gate = row_mid(18)
    f.gated(
        "corral-fence",
        [
            (gx0, gate - 0.8),
            (gx0, gy0),
            (gx1, gy0),
            (gx1, gy1),
            (gx0, gy1),
            (gx0, gate + 0.8),
        ],
        "corral fence",
        "corral-gate",
        "corral gate",
        material=Material.THIN_WOOD,
        kind="cover",
        height=CoverHeight.LOW,
    )
    return f.items


def r3m(row: float) -> float:
    """The y of a (possibly fractional) row's centre line."""
    return round(1.5 * row, 3)


def _labels() -> list[Label]:
    k, s, o = CASA_PARTITIONS
    return [
        Label(id="label-hacienda", at=area_mid(11, 23, 12, 12), text="Hacienda Laroq", size=1.8),
        Label(id="label-kitchen", at=area_mid(WEST, k, 7, 7), text="kitchen", size=0.8),
        Label(id="label-sala", at=area_mid(k + 1, s, 4, 4), text="sala", size=1.0),
        Label(id="label-office", at=area_mid(s + 1, o, 8, 8), text="office", size=0.8),
        Label(id="label-bedroom", at=area_mid(o + 1, EAST, 7, 7), text="bedroom", size=0.8),
        Label(id="label-guard", at=area_mid(WEST, 8, 10, 10), text="guard room", size=0.8),
        Label(id="label-cell", at=area_mid(WEST, 5, 17, 17), text="cell", size=0.8),
        Label(id="label-bunkhouse", at=area_mid(26, EAST, 14, 14), text="bunkhouse", size=0.8),
        Label(id="label-stable", at=area_mid(26, EAST, 20, 20), text="stable", size=0.8),
        Label(id="label-courtyard", at=area_mid(12, 22, 19, 19), text="courtyard", size=1.2),
        Label(id="label-well", at=centre(17, 17), text="well", size=0.6),
        Label(id="label-mirador", at=area_mid(29, EAST, 22, 22), text="mirador (3)", size=0.7),
        Label(
            id="label-gate", at=(wall_x(GATE_LINE), wall_y(SOUTH) + 1.6), text="main gate", size=0.8
        ),
        Label(id="label-postern", at=centre(0, 25), text="postern", size=0.6),
        Label(id="label-corral", at=area_mid(34, 38, 5, 5), text="corral", size=0.9),
        Label(id="label-road", at=centre(17, 29), text="road to the border", size=0.7),
        Label(
            id="label-cattle",
            at=area_mid(34, 38, 13, 13),
            text="stolen cattle (old brands)",
            size=0.6,
            judge_only=True,
        ),
    ]


def build_map() -> Map:
    """The sample map "The Laroq hacienda"."""
    return sample_map(
        (COLS, ROWS),
        _ground(),
        name="The Laroq hacienda",
        features=_features(),
        labels=_labels(),
        notes=[
            note(
                "note-cell",
                (4, 16),
                "The cell door is thick iron (AV 5) and locked; Angus carries the "
                "key. The window bars are thick iron too: they stop a body, not a "
                "look or a pistol shot.",
            ),
            note(
                "note-gatling",
                (31, 25),
                "Angus's Gatling gun stands on the mirador. Octavio cranks it "
                "(skill 2d8, 000 Combat Example: Angus cranks his Gatling); it "
                "fires bursts of 3, 5 or 10 and reads the card's burst section.",
            ),
            note(
                "note-walls",
                (10, 24),
                "All walls are adobe, AV 4. Pistols (Pen 2) can at best ablate "
                "them; rifles can punch through. The gate leaves are hardwood, "
                "AV 3, barred from inside.",
            ),
            note(
                "note-cattle",
                (36, 15),
                "The corral holds the rustled herd, not yet rebranded: proof enough "
                "for the Mexican authorities (000 Combat Example).",
            ),
        ],
        markers=[
            marker(
                "marker-trap-bell",
                (18, 25),
                "trap",
                "Alarm bell by the gate: ringing it (one action) turns out the "
                "bunkhouse and puts Octavio on the Gatling.",
            ),
            marker(
                "marker-ambush-office",
                (22, 7),
                "ambush",
                "Felicia waits in the office, hidden, covering the courtyard through the window.",
            ),
            marker(
                "marker-ambush-bunkhouse",
                (29, 11),
                "ambush",
                "Two vaqueros in the bunkhouse come out shooting when the bell rings.",
            ),
            marker(
                "marker-keys",
                (21, 4),
                "objective",
                "The cell key hangs in Angus's office; the ledger of rustled herds is in the safe.",
            ),
        ],
        description=(
            "Angus Laroq's fortified hacienda south of the border. Adobe walls (AV 4) "
            "enclose the casa, a west wing with the guard room and the cell (thick-iron "
            "door, barred window), an east wing with the bunkhouse and the stable, and a "
            "courtyard with a well. The main gate faces the road; a postern opens in the "
            "west wall. The mirador in the south-east corner (elevation 3, reached by a "
            "ladder) carries a Gatling gun. Outside to the east, the corral."
        ),
    )


PLACES: list[Place] = [
    Place("jonah_benton", 5, 16, "miranda_valentine", why="locked in the cell"),
    Place("miranda_valentine", 6, 16, "jonah_benton", why="at the cell door"),
    Place("hank_daggett", 8, 18, "dave_perkins", why="inside the cell-block door"),
    Place("cyril_wellington", 0, 23, 0, why="outside the postern with the horses"),
    Place("dave_perkins", 12, 19, "hank_daggett", why="the sentry who spotted them"),
    Place("pete_perkins", 4, 11, "clem_perkins", why="in the guard room"),
    Place("clem_perkins", 6, 12, "pete_perkins", why="in the guard room"),
    Place("angus_laroq", 13, 7, "dave_perkins", why="in the sala"),
    Place("felicia_laroq", 22, 7, "dave_perkins", hidden=True, why="in the office"),
    Place("octavio_vaquero", 30, 24, "dave_perkins", why="on the mirador, at the Gatling"),
    Place("vaquero_1", 28, 11, "dave_perkins", hidden=True, why="in the bunkhouse"),
    Place("vaquero_2", 30, 13, "dave_perkins", hidden=True, why="in the bunkhouse"),
]


def build_encounter() -> Encounter:
    """The sample encounter "Jailbreak at the Laroq hacienda"."""
    sheets = bundled_sheets()
    sheets["vaquero_1"] = npc(sheets, "octavio_vaquero", "vaquero_1", "Vaquero (Ramón)")
    sheets["vaquero_2"] = npc(sheets, "octavio_vaquero", "vaquero_2", "Vaquero (Tomás)")
    # Octavio mans the Gatling: the gun is on his sheet for this encounter only
    sheets["octavio_vaquero"].weapons.append(CarriedWeapon(weapon_id="gatling_gun", loaded=40))
    return sample_encounter(
        sheets,
        PLACES,
        name="Jailbreak at the Laroq hacienda",
        edition="phases",
        map_ref=MAP_FILE,
        deck_seed=1876,
        notes=(
            "Night at the Laroq hacienda. Angus has Jonah locked in the cell. Miranda "
            "and Hank slipped in by the postern (Cyril waits outside with the horses) "
            "and have reached the cell door, but Dave Perkins, on sentry in the "
            "courtyard, has just seen them. The Perkins brothers doze in the guard room, "
            "Angus is in the sala, Felicia in the office, two vaqueros in the bunkhouse "
            "and Octavio on the mirador with the Gatling. (004 Initiative Example 2; "
            "Phases edition.)"
        ),
    )
