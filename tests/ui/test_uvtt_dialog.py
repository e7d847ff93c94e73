"""File ▸ Import battle map… and File ▸ Export Universal VTT…: the Qt picture step,
the preview dialog, and the window's menu entries."""

from __future__ import annotations

import base64
import uuid

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QSettings
from PySide6.QtGui import QColor, QImage, QImageWriter
from PySide6.QtWidgets import QDialog, QGraphicsPathItem

from tests.io.uvtt_files import png_header_only, saloon, write
from twtw_desktop.cli import main as cli_main
from twtw_desktop.io import load_map, uvtt, validate_file
from twtw_desktop.model.map import Material
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.files.uvtt_dialog import ImportDialog, picture_to_png
from twtw_desktop.ui.window.main_window import MainWindow


def _webp(width: int, height: int) -> bytes:
    if b"webp" not in [bytes(f) for f in QImageWriter.supportedImageFormats()]:
        pytest.skip("this Qt has no WebP plugin")
    img = QImage(width, height, QImage.Format.Format_RGB32)
    img.fill(QColor(200, 180, 150))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    assert img.save(buf, "WEBP")
    return bytes(buf.data())


@pytest.fixture
def window(qtbot, tmp_path):
    ini = QSettings(
        str(tmp_path / f"settings-{uuid.uuid4().hex[:8]}.ini"), QSettings.Format.IniFormat
    )
    win = MainWindow(settings=AppSettings(ini))
    qtbot.addWidget(win)
    return win


# --- the picture step ------------------------------------------------------------------


def test_a_png_passes_unchanged_after_decoding(qapp, tmp_path):
    uv = uvtt.parse(write(tmp_path / "s.dd2vtt", saloon()))
    assert picture_to_png(uv.image, "png", uv.width, uv.height) == uv.image


def test_a_webp_becomes_a_png_of_the_same_size(qapp):
    webp = _webp(64, 48)
    png = picture_to_png(webp, "webp", 64, 48)
    assert uvtt.picture_header(png) == ("png", 64, 48)


def test_a_broken_picture_is_refused(qapp):
    with pytest.raises(ValueError, match="cannot be decoded"):
        picture_to_png(png_header_only(40, 30), "png", 40, 30)
    with pytest.raises(ValueError, match="too large"):
        picture_to_png(png_header_only(100_000, 100_000), "png", 100_000, 100_000)


def test_cli_import_of_a_webp_map_writes_a_png_and_validates(qapp, tmp_path, capsys):
    data = saloon()
    data["image"] = base64.b64encode(_webp(480, 360)).decode()
    src = write(tmp_path / "web.df2vtt", data)
    out = tmp_path / "web.map.json"
    assert cli_main(["import", str(src), str(out), "--hex-size", "2", "--material", "brick"]) == 0
    assert "web.png" in capsys.readouterr().out
    assert validate_file(out) == []
    m = load_map(out)
    assert (m.background.width, m.background.height) == (480, 360)
    assert (tmp_path / "web.png").read_bytes().startswith(b"\x89PNG")
    assert {f.material for f in m.features if f.kind == "wall"} == {Material.BRICK}
    assert cli_main(["import", str(src), str(out), "--material", "cheese"]) == 2


# --- the dialog ------------------------------------------------------------------------


def test_the_preview_shows_picture_walls_and_grid_and_follows_the_hex_size(qtbot, tmp_path):
    src = write(tmp_path / "s.dd2vtt", saloon())
    dlg = ImportDialog(src, Material.ADOBE)
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: dlg.uv is not None, timeout=10_000)
    assert dlg.chosen_material() is Material.ADOBE
    assert "13×12 hexes" in dlg.summary.text()
    assert "4 walls" in dlg.summary.text() and "1 door," in dlg.summary.text()
    assert dlg.buttons.button(dlg.buttons.StandardButton.Ok).isEnabled()
    paths = [i for i in dlg.scene.items() if isinstance(i, QGraphicsPathItem)]
    assert len(paths) == 4  # grid, walls, doors, windows
    assert dlg._pixmap_item is not None and not dlg._pixmap_item.pixmap().isNull()
    dlg.hex_size.setValue(2.0)
    assert "7×6 hexes" in dlg.summary.text()
    assert dlg.chosen_hex_size() == 2.0
    assert dlg.progress.isHidden()


def test_the_preview_says_why_a_file_is_refused(qtbot, tmp_path):
    src = tmp_path / "bad.dd2vtt"
    src.write_text("not json")
    dlg = ImportDialog(src)
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: dlg.error is not None, timeout=10_000)
    assert "not valid JSON" in dlg.summary.text()
    assert not dlg.buttons.button(dlg.buttons.StandardButton.Ok).isEnabled()


# --- the window ------------------------------------------------------------------------


def test_the_file_menu_has_import_and_export(window):
    names = [a.objectName() for a in window.file_menu.actions()]
    assert "act_import_uvtt" in names and "act_export_uvtt" in names


def test_import_opens_the_map_with_the_editors_material(window, tmp_path, monkeypatch):
    window.editor.palette.material = Material.THIN_IRON
    src = write(tmp_path / "saloon.dd2vtt", saloon())
    out = tmp_path / "saloon.map.json"

    def accept(dlg):
        dlg.wait_loaded()
        from PySide6.QtWidgets import QApplication

        for _ in range(50):
            QApplication.processEvents()
            if dlg.uv is not None:
                break
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ImportDialog, "exec", accept)
    assert window.uvtt.import_map(src, out)
    m = window.document.map
    assert window.document.path == out or window.document.map_path == out
    assert m.background.path == "saloon.png"
    walls = [f for f in m.features if f.kind == "wall"]
    assert walls and {f.material for f in walls} == {Material.THIN_IRON}
    # and export it again
    assert window.uvtt.export_map(tmp_path / "again.uvtt")
    assert len(uvtt.parse(tmp_path / "again.uvtt").walls) == 4


def test_a_cancelled_import_writes_nothing(window, tmp_path, monkeypatch):
    src = write(tmp_path / "saloon.dd2vtt", saloon())

    def cancel(dlg):
        dlg.wait_loaded()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(ImportDialog, "exec", cancel)
    assert not window.uvtt.import_map(src, tmp_path / "x.map.json")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".ini")) == [
        "saloon.dd2vtt"
    ]


def test_a_battle_map_dropped_on_the_window_is_imported(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    src = write(tmp_path / "saloon.dd2vtt", saloon())
    asked: list = []
    monkeypatch.setattr(window.uvtt, "import_map", lambda path: asked.append(path))

    def mime(*paths):
        m = QMimeData()
        m.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
        return m

    action = Qt.DropAction.CopyAction
    none = Qt.MouseButton.NoButton
    mods = Qt.KeyboardModifier.NoModifier
    other = mime(tmp_path / "notes.txt")
    enter = QDragEnterEvent(QPoint(5, 5), action, other, none, mods)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()
    good = mime(src)
    enter = QDragEnterEvent(QPoint(5, 5), action, good, none, mods)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(window, QDropEvent(QPointF(5, 5), action, good, none, mods))
    qtbot.waitUntil(lambda: asked == [src], timeout=2000)
    two = mime(src, src)
    assert window.uvtt.dropped_map(two) is None
