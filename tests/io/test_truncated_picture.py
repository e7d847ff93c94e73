"""A background picture cut short (header intact) is refused the same way by
validate, export, summary and the window's open path (issue 28)."""

from __future__ import annotations

import os

import pytest

from twtw_desktop.cli import main
from twtw_desktop.errors import LoadError
from twtw_desktop.io import open_any, save_map
from twtw_desktop.io.images import ImageHeaderError, check_complete
from twtw_desktop.io.uvtt import png_blank
from twtw_desktop.model import BackgroundImage, Map


@pytest.fixture
def cut_map(tmp_path):
    png = png_blank(64, 48)
    (tmp_path / "street.png").write_bytes(png[: len(png) // 2])
    m = Map.blank(6, 5, name="Cut")
    m.background = BackgroundImage(path="street.png", width=64, height=48)
    path = tmp_path / "cut.map.json"
    save_map(m, path)
    return path


def test_a_whole_png_passes_and_every_cut_is_refused():
    png = png_blank(64, 48)
    check_complete("png", png)
    for n in range(8, len(png)):
        with pytest.raises(ImageHeaderError):
            check_complete("png", png[:n])


def test_validate_export_summary_and_open_agree(cut_map, tmp_path, capsys):
    with pytest.raises(LoadError, match="cut short"):
        open_any(cut_map)
    assert main(["validate", str(cut_map)]) == 1
    assert "cut short" in capsys.readouterr().out
    assert main(["summary", str(cut_map)]) == 1
    assert "cut short" in capsys.readouterr().err
    if os.environ.get("TWTW_BLOCK_QT") == "1":
        return  # export draws with Qt: checked in the suite that has it
    out = tmp_path / "out.png"
    assert main(["export", str(cut_map), "--png", str(out)]) == 1
    assert "cut short" in capsys.readouterr().err
    assert not out.exists()
