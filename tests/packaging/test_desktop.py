"""The desktop integration files: launcher, file types, AppStream metadata, icons,
and packaging/install-desktop.sh --user into a throw-away XDG_DATA_HOME."""

from __future__ import annotations

import configparser
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
ICONS = ROOT / "resources" / "icons"
DESKTOP = PACKAGING / "twtw-desktop.desktop"
MIME_XML = PACKAGING / "twtw-desktop-mime.xml"
METAINFO = PACKAGING / "org.twtw_desktop.TwtwDesktop.metainfo.xml"
OWN_TYPES = {
    "application/x-twtw-encounter+json": "*.encounter.json",
    "application/x-twtw-map+json": "*.map.json",
    "application/x-twtw-party+json": "*.party.json",
}
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="freedesktop")


def _entry(path: Path) -> dict[str, str]:
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    cp.read(path, encoding="utf-8")
    return dict(cp["Desktop Entry"])


def test_version_fallback_matches_pyproject():
    import twtw_desktop
    from twtw_desktop.cli import main

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert twtw_desktop.__version__ == project["project"]["version"]
    assert main(["--version"]) == 0


def test_desktop_entry_claims_only_the_projects_own_types():
    e = _entry(DESKTOP)
    assert e["Icon"] == "twtw-desktop"
    assert e["Categories"].split(";")[0] == "Game"
    assert e["Exec"].endswith(" %f")  # the double-clicked file reaches the app
    types = [t for t in e["MimeType"].split(";") if t]
    assert set(types) == set(OWN_TYPES)
    assert "application/json" not in types


def test_mime_xml_declares_each_type_by_its_double_extension():
    import xml.etree.ElementTree as ET

    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(MIME_XML).getroot()
    declared = {
        t.get("type"): [g.get("pattern") for g in t.findall("m:glob", ns)]
        for t in root.findall("m:mime-type", ns)
    }
    assert declared == {t: [g] for t, g in OWN_TYPES.items()}


def _make_icons():
    """packaging/make_icons.py as a module (``packaging`` is also a PyPI package)."""
    spec = importlib.util.spec_from_file_location("make_icons", PACKAGING / "make_icons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_icon_files_hold_every_size():
    mi = _make_icons()
    ICNS_TYPES, ICO_SIZES, PNG_SIZES = mi.ICNS_TYPES, mi.ICO_SIZES, mi.PNG_SIZES
    for s in PNG_SIZES:
        png = (ICONS / f"app-{s}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (s, s)
    ico = (ICONS / "app.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind, count) == (0, 1, len(ICO_SIZES))
    sizes = []
    for i in range(count):
        w, _h, _c, _r, _p, _bpp, size, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * i : 22 + 16 * i]
        )
        assert ico[offset : offset + 8] == b"\x89PNG\r\n\x1a\n"
        assert offset + size <= len(ico)
        sizes.append(w or 256)
    assert sorted(sizes) == sorted(ICO_SIZES)
    icns = (ICONS / "app.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    pos, kinds = 8, []
    while pos < len(icns):
        kind, length = icns[pos : pos + 4].decode(), struct.unpack(">I", icns[pos + 4 : pos + 8])[0]
        assert icns[pos + 8 : pos + 16] == b"\x89PNG\r\n\x1a\n"
        kinds.append(kind)
        pos += length
    assert pos == len(icns) and kinds == list(ICNS_TYPES)


@linux_only
@pytest.mark.skipif(not shutil.which("desktop-file-validate"), reason="desktop-file-utils")
def test_desktop_file_validates():
    out = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
    assert out.returncode == 0 and not out.stdout.strip(), out.stdout + out.stderr


@linux_only
@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstream")
def test_metainfo_validates_with_the_readme_screenshot():
    assert "packaging/screenshots/main_window.png" in METAINFO.read_text(encoding="utf-8")
    assert (ROOT / "packaging" / "screenshots" / "main_window.png").is_file()
    out = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def _install(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_DATA_HOME=str(data))
    return subprocess.run(
        ["bash", str(PACKAGING / "install-desktop.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.fixture
def recorder(tmp_path: Path) -> Path:
    """A stand-in for the app in a folder with a space: writes the arguments it got."""
    folder = tmp_path / "My Apps"
    folder.mkdir()
    prog = folder / "record"
    prog.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{tmp_path}/opened.txt"\n')
    prog.chmod(0o755)
    return prog


@linux_only
def test_install_desktop_user(tmp_path: Path, recorder: Path):
    data = tmp_path / "share"
    out = _install(data, "--user", "--exec", str(recorder))
    assert out.returncode == 0, out.stderr
    entry = _entry(data / "applications" / "twtw-desktop.desktop")
    assert entry["Exec"] == f'"{recorder}" %f'
    assert entry["Icon"] == "twtw-desktop"
    for s in (16, 32, 48, 256, 512):
        assert (data / f"icons/hicolor/{s}x{s}/apps/twtw-desktop.png").is_file()
    assert (data / "icons/hicolor/scalable/apps/twtw-desktop.svg").is_file()
    assert (data / "mime/packages/twtw-desktop-mime.xml").is_file()
    if shutil.which("update-mime-database"):
        globs = (data / "mime" / "globs2").read_text()
        for t, g in OWN_TYPES.items():
            assert f"{t}:{g}" in globs
    if shutil.which("desktop-file-validate"):
        v = subprocess.run(
            ["desktop-file-validate", str(data / "applications" / "twtw-desktop.desktop")],
            capture_output=True,
            text=True,
        )
        assert v.returncode == 0, v.stdout

    out = _install(data, "--user", "--uninstall")
    assert out.returncode == 0, out.stderr
    assert not (data / "applications" / "twtw-desktop.desktop").exists()
    assert not (data / "icons/hicolor/48x48/apps/twtw-desktop.png").exists()


@linux_only
def test_install_desktop_refuses_bad_use(tmp_path: Path):
    out = _install(tmp_path / "share", "--system")
    assert out.returncode == 2 and "unknown option --system" in out.stderr
    out = _install(tmp_path / "share", "--user", "--exec", str(tmp_path / "nothing"))
    assert out.returncode == 1 and "not an executable program" in out.stderr
    assert not (tmp_path / "share" / "applications").exists()  # nothing half-installed


@linux_only
@pytest.mark.skipif(
    not (shutil.which("gio") and shutil.which("update-mime-database")),
    reason="needs gio and shared-mime-info",
)
def test_double_click_on_an_encounter_opens_it_in_the_app(tmp_path: Path, recorder: Path):
    """What a file manager does on a double-click (``gio open``): the encounter file is
    recognised as our type by its name and handed to the installed launcher's program;
    a plain .json file is not ours."""
    data = tmp_path / "share"
    assert _install(data, "--user", "--exec", str(recorder)).returncode == 0
    games = tmp_path / "Games"
    games.mkdir()
    enc = games / "showdown.encounter.json"
    shutil.copy(ROOT / "maps" / "main_street.encounter.json", enc)
    plain = games / "notes.json"
    plain.write_text('{"a": 1}\n')
    env = {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "XDG_DATA_HOME": str(data),
        "XDG_DATA_DIRS": "/usr/share",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }

    def content_type(p: Path) -> str:
        out = subprocess.run(
            ["gio", "info", "-a", "standard::content-type", str(p)],
            capture_output=True,
            text=True,
            env=env,
        )
        return out.stdout.rsplit(":", 1)[-1].strip()

    assert content_type(enc) == "application/x-twtw-encounter+json"
    assert content_type(plain) != "application/x-twtw-encounter+json"
    subprocess.run(["gio", "open", str(enc)], env=env, timeout=30, check=True)
    opened = tmp_path / "opened.txt"
    for _ in range(100):  # gio starts the program and returns at once
        if opened.exists() and opened.read_text().strip():
            break
        subprocess.run(["sleep", "0.1"])
    assert opened.read_text().splitlines() == [str(enc)]


def test_make_icons_writes_every_file(tmp_path: Path):
    pytest.importorskip("PySide6.QtSvg")
    mi = _make_icons()
    assert mi.main([str(tmp_path)]) == 0
    for s in mi.PNG_SIZES:
        png = (tmp_path / f"app-{s}.png").read_bytes()
        assert struct.unpack(">II", png[16:24]) == (s, s)
    assert (tmp_path / "app.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (tmp_path / "app.icns").read_bytes()[:4] == b"icns"
    assert not list(tmp_path.glob("*.tmp"))


def test_window_icon_is_the_app_icon():
    pytest.importorskip("PySide6.QtWidgets")
    from twtw_desktop.ui.window.app import make_app

    app = make_app()
    sizes = {s.width() for s in app.windowIcon().availableSizes()}
    assert {16, 32, 48, 256} <= sizes
    assert app.desktopFileName() == "twtw-desktop"
