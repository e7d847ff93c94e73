"""``twtw-desktop export``: headless PDF/PNG export from a map or an encounter file,
what it prints, and its exit codes (one-line errors, nothing left behind)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("PySide6.QtWidgets")
pdfium = pytest.importorskip("pypdfium2")

from twtw_desktop.cli import main  # noqa: E402
from twtw_desktop.resources import maps_dir  # noqa: E402

ENCOUNTER = maps_dir() / "main_street.encounter.json"
MAP = maps_dir() / "main_street.map.json"


def _pages(path) -> int:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def test_pdf_from_an_encounter(tmp_path, capsys):
    out = tmp_path / "street.pdf"
    assert main(["export", str(ENCOUNTER), "--pdf", str(out), "--scale", "1in"]) == 0
    said = capsys.readouterr()
    assert said.err == ""
    (line,) = said.out.splitlines()
    pages = _pages(out)
    assert line.startswith(f"wrote {out}: {pages} pages")
    assert "Letter" in line and "1 hex = 1 in (25.4 mm) flat to flat" in line


def test_pdf_and_png_from_a_map_with_options(tmp_path, capsys):
    pdf, png = tmp_path / "m.pdf", tmp_path / "m.png"
    argv = ["export", str(MAP), "--pdf", str(pdf), "--png", str(png), "--scale", "25mm"]
    argv += ["--paper", "a4", "--orientation", "landscape", "--dpi", "50", "--no-coords"]
    argv += ["--judge"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "A4 landscape" in lines[0] and "25 mm" in lines[0]
    assert "px at 50 dpi" in lines[1]
    doc = pdfium.PdfDocument(str(pdf))
    try:
        w, h = doc[0].get_size()
        text = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    assert w > h  # landscape
    assert "JUDGE'S COPY" in text and "0101" not in text
    assert png.stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["--pdf", "{tmp}/x.pdf", "--scale", "3furlongs"], 1, "3furlongs"),
        (["--pdf", "{tmp}/missing/x.pdf"], 1, "does not exist"),
        (["--pdf", "{tmp}/x.pdf", "--paper", "b5"], 1, "b5"),
        (["--png", "{tmp}/x.pdf"], 1, "must end in .png"),
        (["--png", "{tmp}/x.png", "--dpi", "5"], 1, "resolution"),
        ([], 2, "--pdf"),
        (["--pdff", "{tmp}/x.pdf"], 2, "unrecognized"),
    ],
)
def test_failures_exit_non_zero_with_one_line(tmp_path, capsys, args, code, needle):
    argv = ["export", str(MAP), *(a.replace("{tmp}", str(tmp_path)) for a in args)]
    assert main(argv) == code
    said = capsys.readouterr()
    assert said.out == ""
    lines = said.err.splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_a_missing_or_broken_map_file(tmp_path, capsys):
    assert main(["export", str(tmp_path / "nope.map.json"), "--pdf", str(tmp_path / "x.pdf")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "nope.map.json" in err[0] and "not found" in err[0]
    broken = tmp_path / "broken.map.json"
    broken.write_text('{"format_version": 1, "cols": 3}', encoding="utf-8")
    assert main(["export", str(broken), "--pdf", str(tmp_path / "x.pdf")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "broken.map.json" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.map.json"]


def test_runs_headless_without_a_display(tmp_path):
    """A fresh interpreter with no display and no Qt platform chosen still exports."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    out = tmp_path / "headless.pdf"
    run = subprocess.run(
        [sys.executable, "-m", "twtw_desktop", "export", str(MAP), "--pdf", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"wrote {out}:")
    assert _pages(out) >= 1
