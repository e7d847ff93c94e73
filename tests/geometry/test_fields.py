"""Fields of fire, arc edges, leaving the field while aimed at, the dodge front
(003 Advanced Rule: Fields of Fire; 000 dodge)."""

from __future__ import annotations

import pytest

from tests.geometry.conftest import side_wall
from twtw_desktop.errors import RulesError
from twtw_desktop.geometry.fields import (
    Arc,
    dodge_front,
    field_of_fire,
    in_field_of_fire,
    left_field_of_fire,
    perpendicular_paces,
)
from twtw_desktop.geometry.walls import WallIndex
from twtw_desktop.hexgrid import DIRECTIONS, Hex, Orientation, hex_range
from twtw_desktop.model.map import Map

ORIGIN = Hex(0, 0)


def _zigzag_left(start: Hex, paces: int) -> Hex:
    """Walk ``paces`` paces straight to the left of a firer facing 0 (east): on a hex
    map that is a zigzag of facings 1 and 2."""
    h = start
    for i in range(paces):
        h = h.neighbor(1 if i % 2 == 0 else 2)
    return h


@pytest.mark.parametrize("orientation", list(Orientation))
def test_003_example_angus_and_the_rifle_goon(orientation):
    """003 Fields of Fire: Angus (Walker Colt, a handgun: 120°) and his rifle goon
    (60°) aim at Miranda 10 paces off. Six paces to her left take her out of the
    rifle's field but not the Walker's; her full 12 paces take her out of both."""
    angus, goon = ORIGIN, ORIGIN + Hex(0, 1)  # the goon stands right next to him
    miranda = ORIGIN + Hex(10, 0)
    six, twelve = _zigzag_left(miranda, 6), _zigzag_left(miranda, 12)
    assert miranda.distance(six) == 6 and miranda.distance(twelve) == 12
    assert left_field_of_fire(goon, miranda, six, 60, orientation=orientation).left
    walker = left_field_of_fire(angus, miranda, six, 120, orientation=orientation)
    assert not walker.left
    assert walker.range_paces == 10 and walker.threshold_paces == 10
    assert left_field_of_fire(goon, miranda, twelve, 60, orientation=orientation).left
    both = left_field_of_fire(angus, miranda, twelve, 120, orientation=orientation)
    assert both.left
    assert "snap shot" in both.reasons[-1]
    # she has not simply moved 6 and 12 paces sideways on a hex map, but near enough
    assert perpendicular_paces(angus, miranda, six, orientation) == pytest.approx(5.196, abs=1e-3)
    assert perpendicular_paces(angus, miranda, twelve, orientation) == pytest.approx(
        10.392, abs=1e-3
    )


def test_true_angles_would_keep_her_in_the_walkers_field():
    """Why the perpendicular rule is the default: by the exact angle, 12 paces
    sideways at 10 paces' range is only ~46° off the line, inside ±60°."""
    miranda = Hex(10, 0)
    twelve = _zigzag_left(miranda, 12)
    exact = left_field_of_fire(ORIGIN, miranda, twelve, 120, method="angle")
    assert not exact.left and exact.method == "angle"


def test_perpendicular_rule_only_knows_60_and_120():
    with pytest.raises(RulesError):
        left_field_of_fire(ORIGIN, Hex(5, 0), Hex(5, -2), 90)
    with pytest.raises(RulesError):
        perpendicular_paces(ORIGIN, ORIGIN, Hex(1, 0))


@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("facing", range(6))
def test_60_degree_field_hex_counts(orientation, facing):
    """One hexside wide. The edges run through hex corners and, every second ring,
    through the centre of a diagonal hex, which counts (centre on the edge): ring k
    holds k hexes when k is odd and k + 1 when it is even."""
    hexes = Arc.from_facing(ORIGIN, facing, 60, orientation).hexes(6)
    for k in range(1, 7):
        assert sum(1 for h in hexes if ORIGIN.distance(h) == k) == (k + 1 if k % 2 == 0 else k)
    assert ORIGIN.neighbor(facing) in hexes
    assert ORIGIN.neighbor(facing + 1) not in hexes
    assert all(v == "in" for v in hexes.values())


@pytest.mark.parametrize("orientation", list(Orientation))
@pytest.mark.parametrize("facing", range(6))
def test_120_degree_field_colours_its_border_hexes(orientation, facing):
    arc = Arc.from_facing(ORIGIN, facing, 120, orientation)
    hexes = arc.hexes(5)
    for k in range(1, 6):
        assert sum(1 for h in hexes if ORIGIN.distance(h) == k) == 2 * k + 1
    # the hexes along the two edge directions are half outside yet count (003 figure)
    edge_hex = ORIGIN + DIRECTIONS[(facing + 1) % 6].scale(3)
    assert hexes[edge_hex] == "in"
    assert "border" in " ".join(arc.classify(edge_hex).reasons)
    assert ORIGIN.neighbor(facing + 2) not in hexes


@pytest.mark.parametrize("arc_deg", [60, 120])
def test_arc_edges_option_marks_half_in_hexes_for_the_toggle(arc_deg):
    """003 Optional Rule: Arc edges — a hex half inside the arc needs the toggle."""
    arc = Arc.from_facing(ORIGIN, 0, arc_deg)
    with_toggle = arc.hexes(4, arc_edges=True)
    plain = arc.hexes(4)
    edge = {h for h, v in with_toggle.items() if v == "edge"}
    assert edge and edge <= set(plain)
    assert {h for h, v in with_toggle.items() if v == "in"} == set(plain) - edge
    h = next(iter(edge))
    check = arc.classify(h, arc_edges=True)
    assert check.status == "edge" and "toggle" in check.reasons[-1]
    assert check.angle == pytest.approx(arc_deg / 2)


def test_narrow_arcs_drop_straddling_hexes_whose_centre_is_outside():
    arc = Arc.toward(ORIGIN, Hex(7, -2), 60)
    status = {h: arc.classify(h).status for h in hex_range(ORIGIN, 7) if h != ORIGIN}
    wide = Arc.toward(ORIGIN, Hex(7, -2), 120)
    # some straddlers: outside a 60° arc by centre, yet partly inside
    codes, _ = arc.classify_many([h.q for h in status], [h.r for h in status], arc_edges=True)
    straddlers = [h for h, c in zip(status, codes.tolist(), strict=True) if c == 2]
    out = [h for h in straddlers if status[h] == "out"]
    assert out, "expected straddling hexes with their centre outside"
    assert all(arc.classify(h).angle > 30 for h in out)
    assert wide.classify(Hex(7, -2)).inside


def test_classify_reasons_and_the_firers_own_hex():
    check = in_field_of_fire(ORIGIN, 0, 60, Hex(4, 0))
    assert check.inside and check.angle == pytest.approx(0)
    assert "003 Fields of Fire" in check.reasons[0]
    assert in_field_of_fire(ORIGIN, 0, 60, ORIGIN).status == "out"
    assert in_field_of_fire(ORIGIN, 0, 60, Hex(-3, 0)).status == "out"
    with pytest.raises(RulesError):
        Arc.from_facing(ORIGIN, 0, 0)
    with pytest.raises(RulesError):
        Arc.toward(ORIGIN, ORIGIN, 60)


def test_orientation_does_not_change_the_answer():
    for facing in range(6):
        for arc in (60, 120):
            a = Arc.from_facing(ORIGIN, facing, arc, Orientation.POINTY).hexes(5, arc_edges=True)
            b = Arc.from_facing(ORIGIN, facing, arc, Orientation.FLAT).hexes(5, arc_edges=True)
            assert a == b


def test_dodge_front_is_the_120_degree_front():
    front = dodge_front(ORIGIN, 2)
    assert front.arc_deg == 120
    assert front.contains(ORIGIN.neighbor(2)) and front.contains(ORIGIN.neighbor(1))
    assert front.contains(ORIGIN.neighbor(3))
    assert not front.contains(ORIGIN.neighbor(5))
    assert not front.contains(ORIGIN.neighbor(0))


def test_field_of_fire_on_a_map_with_sight(orientation):
    m = Map.blank(30, 20, orientation)
    shooter = m.hex_at(2, 10)
    wall_hex = shooter + DIRECTIONS[0].scale(3)
    m.features = [side_wall(m, wall_hex, d, f"w{d}") for d in (0, 1, 5)]
    idx = WallIndex(m)
    facing = 0
    fof = field_of_fire(m, idx, shooter, facing, 120, 12)
    assert fof.visible <= set(fof.hexes)
    assert all(m.contains(h) for h in fof.hexes)
    behind = wall_hex + DIRECTIONS[0].scale(2)
    assert behind in fof.hexes and behind not in fof.visible
    assert shooter + DIRECTIONS[0] in fof.visible
    assert fof.polygon.area > 0
    assert fof.arc.half == 60
    no_sight = field_of_fire(m, idx, shooter, facing, 120, 12, with_sight=False)
    assert no_sight.visible == frozenset() and no_sight.hexes == fof.hexes
    aimed = field_of_fire(m, idx, shooter, facing, 60, 12, toward=m.hex_at(10, 4))
    assert m.hex_at(10, 4) in aimed.hexes


def test_polygon_covers_the_field():
    from shapely.geometry import Point

    arc = Arc.from_facing(ORIGIN, 1, 60)
    poly = arc.polygon(8)
    lay = arc.layout
    for h in arc.hexes(7):
        assert poly.buffer(1e-9).contains(Point(lay.hex_to_pixel(h)))
