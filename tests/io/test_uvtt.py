"""Universal VTT import and export without Qt: the parser and its limits, the map it
makes, the files it writes (and never half-writes), and the round trip."""

from __future__ import annotations

import base64
import itertools
import json
import math
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.cli import main as cli_main
from twtw_desktop.errors import LoadError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.io import load_map, save_map, uvtt, validate_file
from twtw_desktop.io.images import MAX_IMAGE_SIDE
from twtw_desktop.model.edit import image_to_map, map_to_image
from twtw_desktop.model.map import MAX_MAP_SIDE, BackgroundImage, Feature, Map, Material

from .uvtt_files import (
    png_header_only,
    png_of,
    pt,
    saloon,
    webp_vp8l_header,
    write,
)

SQ = math.sqrt(3.0)  # map units per square at one square a hex


def same_png(data: bytes, fmt: str, width: int, height: int) -> bytes:
    """The picture step without Qt: a PNG passes as it is."""
    if fmt != "png":
        raise ValueError(f"this test converter only passes PNGs, not {fmt}")
    return data


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- parsing ---------------------------------------------------------------------------


def test_parse_format_0_3(tmp_path):
    uv = uvtt.parse(write(tmp_path / "s.dd2vtt", saloon(0.3, 40)))
    assert uv.format == 0.3
    assert (uv.size, uv.ppg, uv.width, uv.height) == ((12, 9), 40, 480, 360)
    assert len(uv.walls) == 3 and len(uv.objects) == 1
    assert uv.walls[0][0] == (10, 1)
    assert [p.closed for p in uv.portals] == [True, True]  # the window has no "closed"
    assert [p.window for p in uv.portals] == [False, True]
    assert uv.lights[0].color == "#eccd8b" and uv.lights[0].range == 4
    assert uv.image_format == "png" and uv.image.startswith(b"\x89PNG")


def test_parse_format_0_2_subtracts_map_origin(tmp_path):
    """map_origin is the picture's top-left corner: a point at (origin + 10, origin +
    1) is at square (10, 1) of the picture."""
    uv = uvtt.parse(write(tmp_path / "s.df2vtt", saloon(0.2, 40, origin=(2, 3))))
    assert uv.format == 0.2
    assert uv.objects == [] and len(uv.walls) == 4  # 0.2 has no objects_line_of_sight
    assert uv.walls[0][0] == (10, 1)
    assert uv.portals[0].a == (5, 8)
    assert uv.lights[0].at == (3, 2)


def test_portal_closed_open_and_missing(tmp_path):
    data = saloon()
    data["portals"][0]["closed"] = False
    del data["portals"][1]["window"]
    uv = uvtt.parse(write(tmp_path / "p.uvtt", data))
    assert [(p.closed, p.window) for p in uv.portals] == [(False, False), (True, False)]
    m = uvtt.to_map(uv).map
    doors = [f for f in m.features if f.kind == "door"]
    assert [d.is_open for d in doors] == [True, False]


def test_image_as_data_url_or_wrapped_base64(tmp_path):
    data = saloon()
    b64 = data["image"]
    wrapped = "\n".join(b64[i : i + 76] for i in range(0, len(b64), 76))
    for image in ("data:image/png;base64," + b64, wrapped):
        uv = uvtt.parse(write(tmp_path / "i.uvtt", dict(data, image=image)))
        assert uv.image == base64.b64decode(b64)


def test_webp_header_is_read_without_decoding():
    assert uvtt.picture_header(webp_vp8l_header(300, 200)) == ("webp", 300, 200)
    with pytest.raises(ValueError, match="not a PNG or WebP"):
        uvtt.picture_header(b"GIF89a" + b"\x00" * 40)


# --- the map ---------------------------------------------------------------------------


def test_map_covers_the_picture_and_walls_sit_on_it(tmp_path):
    uv = uvtt.parse(write(tmp_path / "s.dd2vtt", saloon(0.3, 40)))
    for hex_size in (0.5, 1.0, 1.5, 2.0, 3.0):
        m = uvtt.to_map(uv, hex_size=hex_size, material=Material.ADOBE).map
        u = SQ / hex_size
        bg = m.background
        assert (bg.x, bg.y, bg.width, bg.height) == (0, 0, 480, 360)
        assert bg.scale == pytest.approx(u / 40)
        lay = m.layout()
        # every picture pixel (the centres of every 4th, and of the last) is on a hex
        for px in [*range(0, 480, 4), 479]:
            for py in [*range(0, 360, 4), 359]:
                h = lay.pixel_to_hex((px + 0.5) * bg.scale, (py + 0.5) * bg.scale)
                assert m.contains(h), (hex_size, px, py)
        # and one column or row fewer would not do
        cols, rows = uvtt.hexes_to_cover(12 * u, 9 * u)
        assert (m.cols, m.rows) == (cols, rows)
        wall = m.features[0]
        assert wall.kind == "wall" and wall.material is Material.ADOBE
        assert wall.points[0] == pytest.approx((10 * u, 1 * u))
        # a wall point in map units lands on the same picture pixel as in the file
        assert map_to_image(bg, *wall.points[0]) == pytest.approx((400, 40))


def test_hexes_to_cover_is_tight():
    """Every point of the rectangle is on the map, and one column or row fewer
    leaves some point off it."""
    for w, h in [(0.1, 0.1), (SQ, 1.0), (20.0, 13.0), (100.3, 77.7), (5 * SQ, 7.0)]:
        cols, rows = uvtt.hexes_to_cover(w, h)
        inside = [(w * i / 40 + 1e-9, h * j / 40 + 1e-9) for i in range(41) for j in range(41)]
        inside = [(min(x, w - 1e-9), min(y, h - 1e-9)) for x, y in inside]

        def covers(c, r, pts=inside):
            m = Map.blank(c, r)
            lay = m.layout()
            return all(m.contains(lay.pixel_to_hex(x, y)) for x, y in pts)

        assert covers(cols, rows)
        if cols > 1:
            assert not covers(cols - 1, rows)
        if rows > 1:
            assert not covers(cols, rows - 1)


def test_every_segment_kept_objects_doors_windows_lights(tmp_path):
    uv = uvtt.parse(write(tmp_path / "s.dd2vtt", saloon(0.3, 40)))
    m = uvtt.to_map(uv).map
    kinds = [f.kind for f in m.features]
    assert kinds == ["wall"] * 4 + ["door", "window"]
    counter = m.features[3]
    expected = [(2 * SQ, 3 * SQ), (5 * SQ, 3 * SQ), (5 * SQ, 4 * SQ)]
    for p, q in zip(counter.points, expected, strict=True):
        assert p == pytest.approx(q)
    window = m.features[5]
    assert window.material is Material.GLASS and not window.is_open
    (note,) = m.notes
    assert "radius 4 paces" in note.text and "#eccd8b" in note.text
    assert Hex(*note.hex) == m.layout().pixel_to_hex(3 * SQ, 2 * SQ)
    # at two squares a hex the light reaches two paces
    m2 = uvtt.to_map(uv, hex_size=2).map
    assert "radius 2 paces" in m2.notes[0].text


def test_sight_on_the_imported_map_stops_at_the_drawn_walls(tmp_path):
    """The point of importing: line of sight is right at every wall and door."""
    from twtw_desktop.geometry.sight import visible
    from twtw_desktop.geometry.walls import WallIndex

    m = uvtt.to_map(uvtt.parse(write(tmp_path / "s.dd2vtt", saloon()))).map
    index = WallIndex(m)
    lay = m.layout()

    def at(x, y):  # the hex at grid square (x, y)
        return lay.pixel_to_hex(x * SQ, y * SQ)

    west, east = at(4, 6), at(9, 6)  # either side of the inner wall x = 7, y 1..5
    assert visible(m, index, at(4, 6.5), at(9, 6.5))  # below the inner wall's end
    assert not visible(m, index, at(4, 2), at(9.5, 2))  # through the inner wall
    assert visible(m, index, west, at(3, 6))
    assert not visible(m, index, at(5.5, 7), at(5.5, 8.8))  # through the closed door
    assert not visible(m, index, east, at(12, 6))  # through the outer wall


def test_long_polylines_are_cut_without_losing_a_segment(tmp_path):
    data = saloon()
    n = 25_000
    data["line_of_sight"] = [[pt(1 + 10 * i / n, 1 + (i % 2) * 0.01) for i in range(n)]]
    uv = uvtt.parse(write(tmp_path / "long.uvtt", data))
    walls = [f for f in uvtt.to_map(uv).map.features if f.kind == "wall"]
    assert len(walls) == 3 + 1  # three pieces and the counter
    segments = sum(len(w.points) - 1 for w in walls[:3])
    assert segments == n - 1
    assert walls[0].points[-1] == walls[1].points[0]


def test_degenerate_polylines_are_skipped_and_counted(tmp_path):
    data = saloon()
    data["line_of_sight"] += [[pt(2, 2)], [pt(3, 3), pt(3, 3)], []]
    report = uvtt.to_map(uvtt.parse(write(tmp_path / "d.uvtt", data)))
    assert report.skipped == 3
    assert "3 empty walls skipped" in report.describe()


def test_hex_size_limits(tmp_path):
    uv = uvtt.parse(write(tmp_path / "s.dd2vtt", saloon()))
    for bad in (0, -1, 0.1, 1000, math.nan, math.inf):
        with pytest.raises(ValueError, match="hex size"):
            uvtt.to_map(uv, hex_size=bad)


def test_picture_too_big_for_the_map_names_the_hex_size_that_fits(tmp_path):
    """A grid wider than MAX_MAP_SIDE squares needs bigger hexes, and says how big."""
    side = MAX_MAP_SIDE + 20
    data = saloon(ppg=1)
    data["resolution"]["map_size"] = pt(side, 10)
    uv = uvtt.parse(write(tmp_path / "wide.uvtt", data))
    with pytest.raises(ValueError, match=f"more than {MAX_MAP_SIDE} a side") as e:
        uvtt.to_map(uv)
    need = float(str(e.value).rsplit("at least ", 1)[1].split()[0])
    m = uvtt.to_map(uv, hex_size=need).map
    assert m.cols <= MAX_MAP_SIDE
    with pytest.raises(ValueError):
        uvtt.to_map(uv, hex_size=need - 0.02)


# --- writing ---------------------------------------------------------------------------


def test_import_file_writes_a_valid_map_and_its_picture(tmp_path):
    src = write(tmp_path / "saloon.dd2vtt", saloon())
    out = tmp_path / "out" / "saloon.map.json"
    out.parent.mkdir()
    report = uvtt.import_file(src, out, same_png, material=Material.BRICK)
    assert listing(out.parent) == ["saloon.map.json", "saloon.png"]
    assert report.picture == out.parent / "saloon.png"
    assert validate_file(out) == []
    m = load_map(out)
    assert m.background.path == "saloon.png"
    assert {f.material for f in m.features if f.kind == "wall"} == {Material.BRICK}
    # importing again over the same map reuses the identical picture
    uvtt.import_file(src, out, same_png)
    assert listing(out.parent) == ["saloon.map.json", "saloon.png"]


def test_a_different_picture_of_the_same_name_is_not_overwritten(tmp_path):
    (tmp_path / "saloon.png").write_bytes(b"someone else's picture")
    src = write(tmp_path / "saloon.dd2vtt", saloon())
    uvtt.import_file(src, tmp_path / "saloon.map.json", same_png)
    assert (tmp_path / "saloon.png").read_bytes() == b"someone else's picture"
    assert load_map(tmp_path / "saloon.map.json").background.path == "saloon-2.png"


def test_failed_map_save_removes_the_picture(tmp_path, monkeypatch):
    from twtw_desktop.io import files

    src = write(tmp_path / "saloon.dd2vtt", saloon())

    def refuse(*_a, **_k):
        raise files.SaveError(tmp_path / "x.map.json", "disk full")

    monkeypatch.setattr(uvtt, "save_map", refuse)  # the import's own name for it
    with pytest.raises(uvtt.UvttError, match="disk full"):
        uvtt.import_file(src, tmp_path / "x.map.json", same_png)
    assert listing(tmp_path) == ["saloon.dd2vtt"]


def test_failed_picture_step_writes_nothing(tmp_path):
    def broken(*_a):
        raise ValueError("the PNG picture cannot be decoded")

    src = write(tmp_path / "saloon.dd2vtt", saloon())
    with pytest.raises(uvtt.UvttError, match="cannot be decoded"):
        uvtt.import_file(src, tmp_path / "x.map.json", broken)
    with pytest.raises(uvtt.UvttError, match="decoder gave"):
        uvtt.import_file(src, tmp_path / "x.map.json", lambda *a: png_header_only(5, 5))
    with pytest.raises(uvtt.UvttError, match="does not exist"):
        uvtt.import_file(src, tmp_path / "nowhere" / "x.map.json", same_png)
    assert listing(tmp_path) == ["saloon.dd2vtt"]


# --- hostile input ---------------------------------------------------------------------


def _hostile_cases() -> dict[str, tuple[bytes | dict, str]]:
    s = saloon()
    no_res = dict(s)
    del no_res["resolution"]
    gif = dict(s, image=base64.b64encode(b"GIF89a" + b"\x00" * 100).decode())
    text = dict(s, image="this is not base64 at all!")
    bomb = dict(s, image=base64.b64encode(png_header_only(100_000, 100_000)).decode())
    webp_bomb = dict(s, image=base64.b64encode(webp_vp8l_header(16384, 16384)).decode())
    million = json.loads(json.dumps(s))
    million["resolution"]["map_size"] = pt(1001, 1000)
    million["resolution"]["pixels_per_grid"] = 1
    long_grid = json.loads(json.dumps(s))
    long_grid["resolution"]["map_size"] = pt(1_000_000, 1)
    ppg0 = json.loads(json.dumps(s))
    ppg0["resolution"]["pixels_per_grid"] = 0
    far = json.loads(json.dumps(s))
    far["line_of_sight"][0][0] = pt(1e9, 1)
    bad_point = json.loads(json.dumps(s))
    bad_point["line_of_sight"][0][0] = {"x": "1", "y": 2}
    bad_closed = json.loads(json.dumps(s))
    bad_closed["portals"][0]["closed"] = "yes"
    one_bound = json.loads(json.dumps(s))
    one_bound["portals"][0]["bounds"] = [pt(1, 1)]
    bad_colour = json.loads(json.dumps(s))
    bad_colour["lights"][0]["color"] = "sunset"
    fmt9 = dict(s, format=9)
    return {
        "not json": (b"<html>not a map</html>", "not valid JSON"),
        "a list": (b"[1, 2, 3]", "not a Universal VTT file"),
        "no format": ({k: v for k, v in s.items() if k != "format"}, "no format"),
        "format 9": (fmt9, "format 9 is not supported"),
        "no resolution": (no_res, "no resolution"),
        "gif": (gif, "not a PNG or WebP"),
        "not base64": (text, "not base64"),
        "header bomb": (bomb, "100000×100000 pixels, too large"),
        "webp bomb": (webp_bomb, "too large"),
        "million squares": (million, "squares is more than a map of"),
        "long grid": (long_grid, "map_size x"),
        "ppg 0": (ppg0, "pixels_per_grid 0"),
        "far point": (far, "far outside the map"),
        "text number": (bad_point, "expected a number"),
        "closed yes": (bad_closed, "closed must be true or false"),
        "one bound": (one_bound, "two bounds points"),
        "colour": (bad_colour, "not an ARGB hex colour"),
        "deep": (b"[" * 10_000 + b"]" * 10_000, "nested more than"),
        "nan": (b'{"format": NaN}', "must be finite"),
    }


@pytest.mark.parametrize("case", sorted(_hostile_cases()))
def test_hostile_files_are_refused_in_one_line_and_write_nothing(tmp_path, case, capsys):
    content, reason = _hostile_cases()[case]
    src = tmp_path / "bad.dd2vtt"
    if isinstance(content, dict):
        write(src, content)
    else:
        src.write_bytes(content)
    with pytest.raises(uvtt.UvttError) as e:
        uvtt.parse(src)
    assert reason in str(e.value)
    assert "\n" not in str(e.value)
    # the command line: one line on stderr, exit 1, nothing written
    assert cli_main(["import", str(src), str(tmp_path / "out.map.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and reason in err
    assert listing(tmp_path) == ["bad.dd2vtt"]


def test_too_many_points_are_counted_before_parsing(tmp_path):
    data = saloon()
    line = [pt(1 + i % 2, 1) for i in range(uvtt.MAX_POINTS // 100 + 1)]
    data["line_of_sight"] = [line] * 100
    with pytest.raises(uvtt.UvttError, match="wall points"):
        uvtt.parse(write(tmp_path / "many.uvtt", data))


@pytest.mark.slow
@pytest.mark.parametrize("cap", [None, 200 * 1024 * 1024])
def test_ten_million_points_are_refused_quickly(tmp_path, monkeypatch, cap):
    """Ten million points: refused by the file-size cap, or (with a cap as large as
    200 MB) from the byte count, without building ten million objects."""
    import tracemalloc

    if cap is not None:
        monkeypatch.setattr(uvtt, "MAX_FILE_BYTES", cap)
    s = saloon()
    head = json.dumps({k: v for k, v in s.items() if k != "line_of_sight"})[:-1]
    src = tmp_path / "ten_million.uvtt"
    with open(src, "wb") as f:
        f.write(head.encode() + b', "line_of_sight": [[')
        chunk = b'{"x":1,"y":2},' * 100_000
        for _ in range(100):
            f.write(chunk)
        f.write(b'{"x":1,"y":3}]]}')
    size = src.stat().st_size
    tracemalloc.start()
    try:
        with pytest.raises(uvtt.UvttError, match=r"limit") as e:
            uvtt.parse(src)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # refused by the points count, or by the file-size cap when that is below the file
    assert "points" in e.value.reason or size > uvtt.MAX_FILE_BYTES
    assert peak < 2 * size  # the bytes read, and nothing built from them
    assert listing(tmp_path) == ["ten_million.uvtt"]


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(uvtt.UvttError, match="not found"):
        uvtt.parse(tmp_path / "nope.dd2vtt")
    with pytest.raises(uvtt.UvttError, match="folder"):
        uvtt.parse(tmp_path)


# --- export ----------------------------------------------------------------------------


def _picture_map(folder: Path, *, x=0.0, y=0.0, scale=SQ / 40, rotation=0) -> tuple[Map, Path]:
    import numpy as np

    (folder / "pic.png").write_bytes(png_of(np.full((360, 480, 3), 200, dtype=np.uint8)))
    m = Map.blank(20, 20)
    m.background = BackgroundImage(
        path="pic.png", x=x, y=y, scale=scale, rotation=rotation, width=480, height=360
    )
    path = folder / "pic.map.json"
    save_map(m, path)
    return m, path


def test_export_writes_walls_portals_and_the_picture(tmp_path):
    m, path = _picture_map(tmp_path)
    m.features = [
        Feature(id="w1", points=[(1, 1), (5, 1), (5, 4)]),
        Feature(id="c1", kind="cover", points=[(2, 2), (3, 2)]),
        Feature(id="c2", kind="cover", height="low", points=[(2, 3), (3, 3)]),
        Feature(id="d1", kind="door", points=[(6, 1), (7, 1)], is_open=True),
        Feature(id="g1", kind="window", points=[(8, 1), (9, 1)]),
    ]
    report = uvtt.export_file(m, path, tmp_path / "out.uvtt")
    assert report.left_out == 1 and report.walls == 1 and report.portals == 2
    data = json.loads((tmp_path / "out.uvtt").read_text())
    assert data["format"] == 0.3
    assert data["resolution"] == {
        "map_origin": {"x": 0, "y": 0},
        "map_size": {"x": 12, "y": 9},
        "pixels_per_grid": 40,
    }
    assert base64.b64decode(data["image"]) == (tmp_path / "pic.png").read_bytes()
    assert len(data["objects_line_of_sight"]) == 1
    door, window = data["portals"]
    assert door["closed"] is False and "window" not in door
    assert window["closed"] is True and window["window"] is True
    assert door["bounds"][0]["x"] == pytest.approx(6 / SQ)


def test_lights_come_back_from_their_notes(tmp_path):
    src = write(tmp_path / "saloon.dd2vtt", saloon())
    uvtt.import_file(src, tmp_path / "saloon.map.json", same_png)
    m = load_map(tmp_path / "saloon.map.json")
    m.notes.append(m.notes[0].model_copy(update={"id": "n2", "text": "Ambush here"}))
    uvtt.export_file(m, tmp_path / "saloon.map.json", tmp_path / "back.uvtt")
    (light,) = uvtt.parse(tmp_path / "back.uvtt").lights
    assert light.range == 4 and light.color == "#eccd8b" and light.intensity == 1
    centre = m.layout().hex_to_pixel(Hex(*m.notes[0].hex))
    assert light.at == pytest.approx((centre[0] / SQ, centre[1] / SQ))


def test_export_without_a_background_draws_a_plain_picture(tmp_path):
    m = Map.blank(10, 8)
    m.features = [Feature(id="w1", points=[(1, 1), (5, 1)])]
    uvtt.export_file(m, None, tmp_path / "plain.uvtt")
    uv = uvtt.parse(tmp_path / "plain.uvtt")
    assert uv.width > 0 and uv.image.startswith(b"\x89PNG")
    back = uvtt.to_map(uv).map
    (w,) = [f for f in back.features if f.kind == "wall"]
    dx = w.points[0][0] - 1
    dy = w.points[0][1] - 1
    assert w.points[1] == pytest.approx((5 + dx, 1 + dy))


def test_export_refusals_write_nothing(tmp_path):
    m, path = _picture_map(tmp_path)
    (tmp_path / "pic.png").unlink()
    with pytest.raises(LoadError, match="not found"):
        uvtt.export_file(m, path, tmp_path / "out.uvtt")
    with pytest.raises(uvtt.UvttError, match="does not exist"):
        uvtt.export_file(Map.blank(3, 3), None, tmp_path / "no" / "out.uvtt")
    assert not (tmp_path / "out.uvtt").exists()
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_cli_export_uvtt_and_back(tmp_path, capsys):
    m, path = _picture_map(tmp_path)
    m.features = [Feature(id="w1", points=[(1, 1), (5, 1)])]
    save_map(m, path)
    assert cli_main(["export", str(path), "--uvtt", str(tmp_path / "o.uvtt")]) == 0
    assert "1 wall," in capsys.readouterr().out
    assert cli_main(["export", str(path), "--uvtt", "x.uvtt", "--png", "x.png"]) == 2


# --- the round trip --------------------------------------------------------------------

# points as fractions of the picture's width and height
_coord = st.floats(0, 1, allow_nan=False)
_point = st.tuples(_coord, _coord)


def _distinct(pts):
    return all(math.dist(a, b) > 1e-3 for a, b in itertools.pairwise(pts))


_walls = st.lists(st.lists(_point, min_size=2, max_size=6).filter(_distinct), max_size=6)
_doors = st.lists(
    st.tuples(
        st.tuples(_point, _point).filter(_distinct),
        st.booleans(),
        st.sampled_from(["door", "window"]),
    ),
    max_size=5,
)


@pytest.fixture(scope="module")
def picture_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("roundtrip")


@settings(max_examples=60)
@given(
    walls=_walls,
    doors=_doors,
    x=st.floats(-20, 5),
    y=st.floats(-20, 5),
    scale=st.floats(0.02, 0.2),
    rotation=st.sampled_from([0, 60, 120, 180, 240, 300]),
)
def test_round_trip_keeps_every_wall_and_door(picture_folder, walls, doors, x, y, scale, rotation):
    """import(export(map)) puts every wall and door on the same picture pixels,
    within a hundredth of a hex, whatever the picture's placement."""
    m, path = _picture_map(picture_folder, x=x, y=y, scale=scale, rotation=rotation)

    def on_picture(pts):
        return [image_to_map(m.background, fx * 480, fy * 360) for fx, fy in pts]

    feats = [Feature(id=f"w{i}", points=on_picture(pts)) for i, pts in enumerate(walls)]
    feats += [
        Feature(id=f"d{i}", kind=kind, points=on_picture(ab), is_open=is_open)
        for i, (ab, is_open, kind) in enumerate(doors)
    ]
    m.features = feats
    out = picture_folder / "rt.uvtt"
    uvtt.export_file(m, path, out)
    back = uvtt.to_map(uvtt.parse(out)).map
    tol = 0.01 * SQ / scale  # a hundredth of a hex, in picture pixels

    def close(a_pts, b_pts, bg_a, bg_b):
        assert len(a_pts) == len(b_pts)
        for p, q in zip(a_pts, b_pts, strict=True):
            pa = map_to_image(bg_a, *p)
            pb = map_to_image(bg_b, *q)
            assert math.dist(pa, pb) < tol

    def by_kind(mm, kinds):
        return [f for f in mm.features if f.kind in kinds]

    for kinds in (("wall",), ("door", "window")):
        a, b = by_kind(m, kinds), by_kind(back, kinds)
        assert len(a) == len(b)
        for fa, fb in zip(a, b, strict=True):
            assert fa.kind == fb.kind and fa.is_open == fb.is_open
            close(fa.points, fb.points, m.background, back.background)
    assert back.background.scale == pytest.approx(scale)
    assert back.background.width == 480 and MAX_IMAGE_SIDE >= 480
