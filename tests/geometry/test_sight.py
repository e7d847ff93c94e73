"""Line of sight, cover lines and the fog of war (000 Hit Location and Cover)."""

from __future__ import annotations

import pytest

from tests.geometry.conftest import side_wall
from twtw_desktop.geometry.sight import (
    ALL_BUT_HEAD,
    ALL_LOCATIONS,
    cover_line,
    visible,
    visible_hexes,
)
from twtw_desktop.geometry.walls import PACE, WallIndex
from twtw_desktop.hexgrid import Hex, Orientation, facing_toward
from twtw_desktop.model.map import Feature, Map
from twtw_desktop.rules.base import HitLocation as H
from twtw_desktop.rules.character import Posture

LEGS_BELLY = frozenset({H.LEFT_LEG, H.RIGHT_LEG, H.BELLY})


def _street(orientation):
    """A 20×7 map; shooter at column 1 and target at column 11 of row 3."""
    m = Map.blank(20, 7, orientation)
    shooter, target = m.hex_at(1, 3), m.hex_at(11, 3)
    return m, shooter, target


def test_open_ground_is_visible_with_no_cover(orientation, ap_v2):
    m, s, t = _street(orientation)
    idx = WallIndex.for_edition(m, ap_v2)
    cl = cover_line(m, idx, s, t, Posture.STANDING, ap_v2)
    assert cl.visibility == "visible"
    assert cl.range_paces == s.distance(t)
    assert cl.crossings == ()
    assert cl.to_covers() == ()
    assert any("all 7 sight lines" in r for r in cl.reasons)
    assert len(cl.samples) == 7


def test_same_hex():
    m = Map.blank(4, 4)
    cl = cover_line(m, WallIndex(m), Hex(1, 1), Hex(1, 1))
    assert cl.visibility == "visible" and cl.range_paces == 0


def test_a_full_wall_across_the_line_hides_the_target(orientation, ap_v2):
    m, s, t = _street(orientation)
    lay = m.layout()
    mid = m.hex_at(6, 3)
    x, y = lay.hex_to_pixel(mid)
    m.features = [Feature(id="barn", points=[(x, y - 8), (x + 0.3, y + 8)], material="brick")]
    idx = WallIndex.for_edition(m, ap_v2)
    cl = cover_line(m, idx, s, t, edition=ap_v2)
    assert cl.visibility == "not_visible"
    (c,) = cl.crossings
    assert c.feature_id == "barn" and c.av == 4 and c.covers == ALL_LOCATIONS
    assert not visible(m, idx, s, t)


def _corner_map(orientation, ap_v2, end_offset):
    """A wall coming down from the shooter's left, ending ``end_offset`` map units from
    the centre line, halfway between shooter and target."""
    m, s, t = _street(orientation)
    lay = m.layout()
    (sx, sy), (tx, ty) = lay.hex_to_pixel(s), lay.hex_to_pixel(t)
    mx, my = (sx + tx) / 2, (sy + ty) / 2
    # unit normal pointing to the shooter's left (screen y down)
    dx, dy = (tx - sx), (ty - sy)
    n = (dx * dx + dy * dy) ** 0.5
    lx, ly = dy / n, -dx / n
    far = (mx + lx * 10, my + ly * 10)
    end = (mx + lx * end_offset, my + ly * end_offset)
    m.features = [Feature(id="saloon", points=[far, end], material="hardwood")]
    return m, s, t, WallIndex.for_edition(m, ap_v2)


def test_half_behind_a_corner_covers_one_side(orientation, ap_v2):
    """002's example: Felicia with her left half behind the saloon corner — a left arm
    hit strikes the wall. Here the corner is on the shooter's left; a target facing
    the shooter has her right side there, one facing away her left."""
    m, s, t, idx = _corner_map(orientation, ap_v2, 0.2)
    cl = cover_line(m, idx, s, t, edition=ap_v2)
    assert cl.visibility == "partly"
    (c,) = cl.crossings
    assert c.covers == {H.RIGHT_ARM, H.RIGHT_LEG}
    facing_away = _facing_from(m, s, t, away=True)
    cl2 = cover_line(m, idx, s, t, edition=ap_v2, target_facing=facing_away)
    assert cl2.crossings[0].covers == {H.LEFT_ARM, H.LEFT_LEG}
    (cover,) = cl2.to_covers()
    assert cover.feature_id == "saloon" and cover.material == "hardwood" and cover.av == 3
    assert H.LEFT_ARM in cover.covers


def _facing_from(m, s, t, away):
    f = facing_toward(t, s)
    return (f + 3) % 6 if away else f


def test_a_corner_across_the_middle_covers_all_but_the_head(orientation, ap_v2):
    m, s, t, idx = _corner_map(orientation, ap_v2, -0.3)
    cl = cover_line(m, idx, s, t, edition=ap_v2)
    assert cl.visibility == "partly"
    assert cl.crossings[0].covers == ALL_BUT_HEAD


def _fence(m, near_hex, fid="fence", toward=0, material="thin_wood"):
    return side_wall(m, near_hex, toward, fid, kind="cover", height="low", material=material)


@pytest.mark.parametrize(
    ("posture", "covers"),
    [
        (Posture.STANDING, LEGS_BELLY),
        (Posture.DUCKED, ALL_BUT_HEAD),
        (Posture.PRONE, ALL_LOCATIONS),
    ],
)
def test_low_cover_next_to_the_target(orientation, ap_v2, posture, covers):
    m, s, t = _street(orientation)
    # a knee-high fence along the target's hexside toward the shooter, and its
    # neighbours', long enough to lie across the whole hex
    lay = m.layout()
    (sx, sy), (tx, ty) = lay.hex_to_pixel(s), lay.hex_to_pixel(t)
    d = ((tx - sx) ** 2 + (ty - sy) ** 2) ** 0.5
    ux, uy = (tx - sx) / d, (ty - sy) / d
    cx, cy = tx - ux * PACE * 0.5, ty - uy * PACE * 0.5
    m.features = [
        Feature(
            id="fence",
            kind="cover",
            height="low",
            material="thin_wood",
            points=[(cx - uy * 3, cy + ux * 3), (cx + uy * 3, cy - ux * 3)],
        )
    ]
    idx = WallIndex.for_edition(m, ap_v2)
    cl = cover_line(m, idx, s, t, posture, ap_v2)
    assert cl.visibility == "visible"  # low cover never blocks sight
    (c,) = cl.crossings
    assert c.covers == covers
    assert c.av == 2


def test_low_cover_far_from_the_target_does_not_count(orientation, ap_v2):
    m, s, t = _street(orientation)
    m.features = [_fence(m, s, toward=0)]  # right in front of the shooter
    idx = WallIndex.for_edition(m, ap_v2)
    cl = cover_line(m, idx, s, t, Posture.PRONE, ap_v2)
    (c,) = cl.crossings
    assert c.covers == frozenset()
    assert "only counts within" in c.reason
    assert cl.to_covers() == ()
    # a prone shooter fires along the ground: the same fence now covers the target
    cl2 = cover_line(m, idx, s, t, Posture.STANDING, ap_v2, Posture.PRONE)
    assert cl2.crossings[0].covers == LEGS_BELLY


def test_a_glass_window_is_seen_through_but_covers(orientation, ap_v2):
    m, s, t = _street(orientation)
    lay = m.layout()
    x, y = lay.hex_to_pixel(m.hex_at(6, 3))
    m.features = [
        Feature(id="win", kind="window", material="glass", points=[(x, y - 6), (x + 0.1, y + 6)])
    ]
    idx = WallIndex.for_edition(m, ap_v2)
    cl = cover_line(m, idx, s, t, edition=ap_v2)
    assert cl.visibility == "visible"
    assert cl.crossings[0].covers == ALL_LOCATIONS and cl.crossings[0].av == 1


def test_an_open_door_is_not_in_the_line_of_fire(orientation, ap_v2):
    m, s, t = _street(orientation)
    lay = m.layout()
    x, y = lay.hex_to_pixel(m.hex_at(6, 3))
    m.features = [Feature(id="d", kind="door", is_open=True, points=[(x, y - 6), (x, y + 6)])]
    idx = WallIndex.for_edition(m, ap_v2)
    cl = cover_line(m, idx, s, t, edition=ap_v2)
    assert cl.visibility == "visible" and cl.crossings == ()


def test_edition_supplies_av_when_the_index_has_none(ap_v2):
    m, s, t = _street(Orientation.POINTY)
    x, y = m.layout().hex_to_pixel(m.hex_at(6, 3))
    m.features = [Feature(id="w", points=[(x, y - 6), (x, y + 6)], material="thick_iron")]
    idx = WallIndex(m)
    assert cover_line(m, idx, s, t).crossings[0].av == 0
    assert cover_line(m, idx, s, t, edition=ap_v2).crossings[0].av == 5


def test_to_covers_feeds_the_combat_situation(ap_v2):
    """The cover line maps onto the combat engine's plain inputs."""
    from twtw_desktop.rules.combat.situation import Cover, ShotSituation

    m, s, t, idx = _corner_map(Orientation.FLAT, ap_v2, 0.2)
    cl = cover_line(m, idx, s, t, edition=ap_v2)
    covers = cl.to_covers()
    assert all(isinstance(c, Cover) for c in covers)
    shot = ShotSituation(range_paces=cl.range_paces, visibility=cl.to_visibility(), covers=covers)
    assert [c.feature_id for c in shot.cover_for(H.RIGHT_ARM)] == ["saloon"]
    assert shot.cover_for(H.HEAD) == []


def test_visible_hexes_match_visible(orientation):
    m = Map.blank(14, 10, orientation)
    lay = m.layout()
    x, y = lay.hex_to_pixel(m.hex_at(6, 4))
    m.features = [
        Feature(id="w", points=[(x, y - 5), (x + 0.5, y + 4)]),
        side_wall(m, m.hex_at(3, 7), 1, "d", kind="door"),
        side_wall(m, m.hex_at(9, 2), 0, "c", kind="cover", height="low"),
    ]
    idx = WallIndex(m)
    viewer = m.hex_at(2, 4)
    seen = visible_hexes(m, idx, [viewer])
    expected = {h for h in m.hexes() if visible(m, idx, viewer, h)}
    assert seen == expected
    assert viewer in seen and len(seen) < m.cols * m.rows
    partial = visible_hexes(m, idx, [viewer], any_part=True)
    assert partial >= seen
    near = visible_hexes(m, idx, [viewer], max_range=3)
    assert near == {h for h in seen if viewer.distance(h) <= 3}
    two = visible_hexes(m, idx, [viewer, m.hex_at(12, 4)])
    assert two >= seen


def test_visible_same_hex_and_off_map_viewers():
    m = Map.blank(5, 5)
    idx = WallIndex(m)
    assert visible(m, idx, Hex(1, 1), Hex(1, 1))
    assert visible_hexes(m, idx, [Hex(-50, -50)]) == set()
