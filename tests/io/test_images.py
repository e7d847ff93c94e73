"""Background pictures: path confinement and header-only size checks."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import LoadError
from twtw_desktop.io import check_background, image_size
from twtw_desktop.model import BackgroundImage

from .strategies import jpeg_header, png_header


def bg(path: str, width: int = 640, height: int = 480) -> BackgroundImage:
    return BackgroundImage(path=path, width=width, height=height)


@pytest.fixture
def map_file(tmp_path) -> Path:
    folder = tmp_path / "maps"
    folder.mkdir()
    path = folder / "street.map.json"
    path.write_text("{}")
    return path


def test_png_and_jpeg_sizes_come_from_the_header(tmp_path):
    (tmp_path / "a.png").write_bytes(png_header(640, 480))
    (tmp_path / "b.jpg").write_bytes(jpeg_header(1024, 768, app_segments=3))
    (tmp_path / "c.jpg").write_bytes(jpeg_header(33, 44, fill=True))
    assert image_size(tmp_path / "a.png") == ("png", 640, 480)
    assert image_size(tmp_path / "b.jpg") == ("jpeg", 1024, 768)
    assert image_size(tmp_path / "c.jpg") == ("jpeg", 33, 44)


def test_a_good_background_is_returned_resolved(map_file):
    (map_file.parent / "pics").mkdir()
    (map_file.parent / "pics" / "street.png").write_bytes(png_header(640, 480))
    got = check_background(map_file, bg("pics/street.png"))
    assert got == (map_file.parent / "pics" / "street.png").resolve()
    assert check_background(map_file, bg("pics\\street.png")) == got  # Windows separators


def test_a_decompression_bomb_header_is_refused(map_file):
    (map_file.parent / "bomb.png").write_bytes(png_header(100_000, 100_000))
    with pytest.raises(LoadError, match=r"100000×100000 pixels; the limit is 16384") as e:
        check_background(map_file, bg("bomb.png", 16_384, 16_384))
    assert e.value.where == "background.path" and str(map_file) in str(e.value)
    (map_file.parent / "wide.jpg").write_bytes(jpeg_header(12_000, 10_000))
    with pytest.raises(LoadError, match="457 MB decoded; the limit is 256 MB"):
        check_background(map_file, bg("wide.jpg", 12_000, 10_000))


def test_declared_size_must_match(map_file):
    (map_file.parent / "a.png").write_bytes(png_header(640, 481))
    with pytest.raises(LoadError, match="is a 640×481 PNG, but the map declares 640×480") as e:
        check_background(map_file, bg("a.png"))
    assert e.value.where == "background.width"


@pytest.mark.parametrize(
    "path",
    ["../../etc/passwd.png", "../secret.png", "pics/../../x.png", "..\\..\\x.png"],
)
def test_paths_climbing_out_are_refused(map_file, path):
    (map_file.parent.parent / "secret.png").write_bytes(png_header(640, 480))
    with pytest.raises(LoadError, match=r"uses '\.\.' to leave the map's folder"):
        check_background(map_file, bg(path))


@pytest.mark.parametrize("path", ["/etc/x.png", "C:\\pics\\x.png", "c:x.png", "\\\\srv\\x.png"])
def test_absolute_paths_are_refused(map_file, path):
    with pytest.raises(LoadError, match="absolute"):
        check_background(map_file, bg(path))


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_symlinks_resolving_outside_are_refused(map_file):
    outside = map_file.parent.parent / "outside.png"
    outside.write_bytes(png_header(640, 480))
    (map_file.parent / "inside.png").symlink_to(outside)
    with pytest.raises(LoadError, match="leads outside the map's folder"):
        check_background(map_file, bg("inside.png"))
    (map_file.parent / "sub").symlink_to(map_file.parent.parent)
    with pytest.raises(LoadError, match="leads outside"):
        check_background(map_file, bg("sub/outside.png"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"GIF89a" + bytes(20), "a GIF picture"),
        (b"hello world", "not a PNG or JPEG"),
        (png_header(640, 480, crc_ok=False), "checksum"),
        (png_header(640, 480)[:20], "truncated"),
        (png_header(0, 480), "impossible size"),
        (b"\xff\xd8\xff\xe0\x00\x10" + bytes(14) + b"\xff\xda\x00\x02", "no frame header"),
        (jpeg_header(640, 480)[:-20], "truncated"),
    ],
)
def test_broken_or_foreign_pictures_are_refused(map_file, content, message):
    (map_file.parent / "p.png").write_bytes(content)
    with pytest.raises(LoadError, match=message):
        check_background(map_file, bg("p.png"))


def test_missing_and_odd_targets(map_file):
    with pytest.raises(LoadError, match="not found"):
        check_background(map_file, bg("nope.png"))
    (map_file.parent / "dir.png").mkdir()
    with pytest.raises(LoadError, match="not a regular file"):
        check_background(map_file, bg("dir.png"))
    with pytest.raises(LoadError, match="names no file"):
        check_background(map_file, bg("./"))


@settings(max_examples=100)
@given(st.binary(max_size=200), st.sampled_from([b"", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff"]))
def test_random_picture_bytes_give_only_load_error(blob, head):
    with tempfile.TemporaryDirectory() as tmp:
        map_path = Path(tmp) / "m.map.json"
        (Path(tmp) / "p.png").write_bytes(head + blob)
        with contextlib.suppress(LoadError):
            check_background(map_path, bg("p.png"))
