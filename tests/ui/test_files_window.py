"""Hostile files against the window and the export (the io tests cover validate and
summary), and the one picture loader: big pictures decode off the GUI thread, refused
ones say why, and the sheet never overflows a spin box."""

from __future__ import annotations

import json
import os
import uuid

import pytest
from PySide6.QtGui import QImage, QImageReader
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.cli import main
from twtw_desktop.errors import LoadError
from twtw_desktop.io import open_any, save_map
from twtw_desktop.model import BackgroundImage, Map
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.scene import picture
from twtw_desktop.ui.scene.map_scene import MapScene
from twtw_desktop.ui.window.main_window import MainWindow

from ..io.strategies import png_header
from ..io.test_faults import _limited, hostile_corpus

POSIX = os.name == "posix"


@pytest.fixture
def window(qapp, qtbot, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox,
        "critical",
        staticmethod(lambda _p, title, text, *a, **k: shown.append((title, text))),
    )
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    win = MainWindow(settings=AppSettings())
    qtbot.addWidget(win)
    win.shown_errors = shown
    return win


@pytest.mark.slow
@pytest.mark.skipif(not POSIX, reason="FIFOs, symlinks and SIGALRM")
def test_the_window_and_the_export_refuse_every_hostile_file(window, tmp_path, capsys):
    (tmp_path / "corpus").mkdir()
    corpus = hostile_corpus(tmp_path / "corpus")
    for name, path in corpus.items():
        before = len(window.shown_errors)
        with _limited(20):
            assert not window.open_path(path, ask=False), name
        assert len(window.shown_errors) == before + 1, name
        title, text = window.shown_errors[-1]
        assert title == "Cannot open the file" and "Traceback" not in text, name
        with _limited(20):
            code = main(["export", str(path), "--png", str(tmp_path / "out.png")])
        out = capsys.readouterr()
        assert code != 0 and "Traceback" not in out.out + out.err, name
        assert not (tmp_path / "out.png").exists(), name


def _real_png(path, w: int, h: int) -> None:
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(0x806040)
    assert img.save(str(path), "PNG")


def _map_with_picture(tmp_path, name: str, w: int, h: int, declared=None) -> Map:
    m = Map.blank(6, 6, name="pic")
    dw, dh = declared or (w, h)
    m.background = BackgroundImage(path=name, width=dw, height=dh)
    save_map(m, tmp_path / "pic.map.json")
    return m


def test_a_small_picture_loads_at_once_and_a_big_one_in_a_worker(qtbot, tmp_path, monkeypatch):
    _real_png(tmp_path / "bg.png", 64, 48)
    _map_with_picture(tmp_path, "bg.png", 64, 48)
    doc = EncounterDocument.open(tmp_path / "pic.map.json")
    scene = MapScene(doc)
    assert scene.background is not None and not scene.background_loading
    monkeypatch.setattr(picture, "BIG_PIXELS", 100)  # every picture counts as big
    scene2 = MapScene(doc)
    assert scene2.background_loading  # the GUI thread did not wait for the decode
    qtbot.waitUntil(lambda: scene2.background is not None, timeout=10_000)
    assert not scene2.background_loading and scene2.background_error is None


def test_a_picture_refused_by_the_reader_says_why(qtbot, tmp_path):
    # a header that passes our own check but does not decode
    (tmp_path / "bad.png").write_bytes(png_header(40, 30) + b"\x00" * 100)
    _map_with_picture(tmp_path, "bad.png", 40, 30)
    doc = EncounterDocument.open(tmp_path / "pic.map.json")
    scene = MapScene(doc)
    assert scene.background is None
    assert "could not be decoded" in scene.background_error


def test_the_reader_enforces_the_limits_itself(tmp_path):
    with pytest.raises(LoadError, match="16384 pixels a side"):
        picture.decode_bytes(tmp_path / "m.map.json", "bomb.png", png_header(20_000, 100))
    assert QImageReader.allocationLimit() != 0  # the limit was restored, not removed


def test_the_export_waits_for_a_big_picture(qtbot, tmp_path, monkeypatch):
    _real_png(tmp_path / "bg.png", 64, 48)
    _map_with_picture(tmp_path, "bg.png", 64, 48)
    monkeypatch.setattr(picture, "BIG_PIXELS", 100)
    doc = EncounterDocument.open(tmp_path / "pic.map.json")
    scene = MapScene(doc)
    scene.wait_for_background()
    assert scene.background is not None and not scene.background_loading


@pytest.mark.skipif(not POSIX, reason="symlinks")
def test_save_map_as_copies_the_picture_with_the_same_checks(tmp_path):
    from twtw_desktop.io import SaveError, copy_picture

    src = tmp_path / "a"
    src.mkdir()
    _real_png(src / "bg.png", 64, 48)
    m = _map_with_picture(src, "bg.png", 64, 48)
    dst = tmp_path / "b"
    dst.mkdir()
    copied = copy_picture(src / "pic.map.json", m.background, dst / "new.map.json")
    assert (
        copied == (dst / "bg.png").resolve()
        and copied.read_bytes() == (src / "bg.png").read_bytes()
    )
    # a picture linked to /dev/zero is never copied (nor read)
    (src / "zero.png").symlink_to("/dev/zero")
    m.background = BackgroundImage(path="zero.png", width=64, height=48)
    with pytest.raises(LoadError, match="leads outside the map's folder"):
        copy_picture(src / "pic.map.json", m.background, dst / "new.map.json")
    # a link in the target folder cannot carry the copy elsewhere
    out = tmp_path / "elsewhere"
    out.mkdir()
    (dst / "sub").symlink_to(out)
    (src / "sub").mkdir()
    _real_png(src / "sub" / "p.png", 8, 8)
    m.background = BackgroundImage(path="sub/p.png", width=8, height=8)
    with pytest.raises(SaveError, match="outside the map's folder"):
        copy_picture(src / "pic.map.json", m.background, dst / "new.map.json")
    assert list(out.iterdir()) == []


def test_validate_and_the_window_agree_on_a_deck_file_outside(window, tmp_path):
    from twtw_desktop.model import Encounter

    data = Encounter(map=Map.blank(4, 4)).model_dump(mode="json")
    data["deck_file"] = "../../etc/passwd"
    p = tmp_path / "e.encounter.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(p)]) == 1
    assert not window.open_path(p, ask=False)
    with pytest.raises(LoadError, match="deck file"):
        open_any(p)


def test_the_sheet_shows_values_at_the_schema_limits(qtbot):
    from twtw_desktop.model import Encounter
    from twtw_desktop.rules.samples import sample_characters
    from twtw_desktop.ui.panels.sheet_panel import SheetPanel

    c = next(iter(sample_characters().values()))
    c = c.model_copy(update={"move": 100, "run": 100, "conc": -999, "bleeding": 999})
    doc = EncounterDocument(Encounter(map=Map.blank(4, 4), characters=[c]))
    panel = SheetPanel(doc)
    qtbot.addWidget(panel)
    panel.show_character(c.id)
    assert panel.int_spins["move"].value() == 100
