"""Exporting a map to PDF and PNG, checked on the rendered pages: the PDF is
rasterised with pypdfium2 and the hexes are counted and measured in the pixels."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

pdfium = pytest.importorskip("pypdfium2")
import pypdfium2.raw as pdfium_raw  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402

from twtw_desktop.hexgrid import Hex, Orientation  # noqa: E402
from twtw_desktop.model import Encounter, Feature, Map, Token  # noqa: E402
from twtw_desktop.model.map import Label, Marker  # noqa: E402
from twtw_desktop.rules.samples import sample_characters  # noqa: E402
from twtw_desktop.ui.core.document import EncounterDocument  # noqa: E402
from twtw_desktop.ui.files import export as ex  # noqa: E402
from twtw_desktop.ui.scene.frame import MapFrame  # noqa: E402

SQRT3 = math.sqrt(3.0)
PT_PER_MM = 72 / 25.4


# --- helpers -----------------------------------------------------------------------------


def _raster(path, page: int = 0, dpi: float = 100) -> np.ndarray:
    """Page ``page`` of a PDF as an RGB array (rows, cols, 3)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        bm = pdf[page].render(scale=dpi / 72, rev_byteorder=True)
        return np.array(bm.to_numpy()[..., :3], dtype=np.int32)
    finally:
        pdf.close()


def _pages(path) -> list[tuple[float, float]]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_size() for i in range(len(pdf))]
    finally:
        pdf.close()


def _text(path, page: int = 0) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        tp = pdf[page].get_textpage()
        return tp.get_text_range()
    finally:
        pdf.close()


def _px(mm: float, dpi: float) -> float:
    return mm / 25.4 * dpi


def _dark_runs(line: np.ndarray, threshold: int = 215) -> list[float]:
    """Centres of the runs of dark pixels along a line of RGB pixels."""
    dark = line[:, 0] < threshold
    runs, start = [], None
    for i, d in enumerate(dark):
        if d and start is None:
            start = i
        elif not d and start is not None:
            runs.append((start + i - 1) / 2)
            start = None
    if start is not None:
        runs.append((start + len(dark) - 1) / 2)
    return runs


def _is_ground(px: np.ndarray) -> bool:
    return bool(np.all(np.abs(px - np.array([236, 226, 200])) < 6))


def _secret_doc() -> EncounterDocument:
    """A map with Judge-only content in colours nothing public uses: a glass wall
    (blue), a trap marker (red) and a label, plus a public hardwood wall."""
    m = Map.blank(8, 6, name="Secrets")
    m.features = [
        Feature(id="w1", points=[(0.0, 6.0), (10.0, 6.0)], material="hardwood"),
        Feature(
            id="secret",
            points=[(2.0, 2.0), (12.0, 2.0)],
            material="glass",
            judge_only=True,
        ),
    ]
    m.labels = [Label(id="gold", at=(6.0, 8.0), text="Gold under the floor", judge_only=True)]
    m.markers = [Marker(id="trap", hex=(4, 4), kind="trap")]
    return EncounterDocument(Encounter(map=m))


def _blue(a: np.ndarray) -> int:
    r, b = a[..., 0], a[..., 2]
    return int(np.count_nonzero((b - r > 40) & (b > 150)))


def _red(a: np.ndarray) -> int:
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    return int(np.count_nonzero((r - g > 90) & (r - b > 90)))


# --- scale ---------------------------------------------------------------------------------


def test_parse_scale_reads_presets_units_and_numbers():
    assert ex.parse_scale("1in") == 25.4
    assert ex.parse_scale("25mm") == 25.0
    assert ex.parse_scale("25 mm") == 25.0
    assert ex.parse_scale("0.75in") == pytest.approx(19.05)
    assert ex.parse_scale("19") == 19.0
    assert ex.parse_scale(30) == 30.0
    assert ex.parse_scale(None, 22.0) == 22.0
    for bad in ("3furlongs", "", "in", "-5mm"):
        with pytest.raises(ValueError, match="not understood"):
            ex.parse_scale(bad)
    for bad in ("0mm", "1mm", "500", 1000.0, float("nan")):
        with pytest.raises(ValueError, match="choose"):
            ex.parse_scale(bad)
    with pytest.raises(ValueError):
        ex.parse_scale(True)


def test_describe_scale():
    assert ex.describe_scale(25.4) == "1 in (25.4 mm)"
    assert ex.describe_scale(25.0) == "25 mm"


# --- page size, scale and hex count -----------------------------------------------------------


@pytest.mark.parametrize(
    ("paper", "orientation", "size_pt"),
    [
        ("letter", "portrait", (612.0, 792.0)),
        ("a4", "portrait", (595.3, 841.9)),
        ("a4", "landscape", (841.9, 595.3)),
    ],
)
def test_pdf_page_size(qapp, tmp_path, paper, orientation, size_pt):
    out = tmp_path / "map.pdf"
    r = ex.export_pdf(Map.blank(5, 4), out, paper=paper, orientation=orientation)
    assert r.pages == 1 and r.paper == paper and r.orientation == orientation
    (w, h), *_ = _pages(out)
    assert w == pytest.approx(size_pt[0], abs=0.5)
    assert h == pytest.approx(size_pt[1], abs=0.5)


@pytest.mark.parametrize("orientation", [Orientation.POINTY, Orientation.FLAT])
@pytest.mark.parametrize(("scale", "mm"), [("1in", 25.4), ("25mm", 25.0), (19.0, 19.0)])
def test_rendered_hex_pitch_and_count_match_the_scale(qapp, tmp_path, orientation, scale, mm):
    """Along a line through one row (column) of hex centres the grid crosses a hexside
    every hex width: count those crossings and measure their period in the page."""
    cols, rows = 6, 5
    m = Map.blank(cols, rows, orientation)
    out = tmp_path / "pitch.pdf"
    dpi = 150
    ex.export_pdf(m, out, scale=scale, coordinates=False)
    plan = ex.plan_pages(m, scale=scale)
    assert plan.pages == 1
    img = _raster(out, 0, dpi)
    fr = MapFrame(m)
    if orientation is Orientation.POINTY:
        # row 0: centres share y; vertical hexsides cross the line
        y_mm = plan.scene_to_page(0, 0, *fr.center_xy(m.hex_at(0, 0)))[1]
        x0, x1 = plan.content_x, plan.content_x + plan.content_w
        line = img[round(_px(y_mm, dpi)), round(_px(x0, dpi)) : round(_px(x1, dpi)), :]
        expected = cols + 1  # the sides between hexes and the two map edges
    else:
        # column 0: centres share x; horizontal hexsides cross the line
        x_mm = plan.scene_to_page(0, 0, *fr.center_xy(m.hex_at(0, 0)))[0]
        y0, y1 = plan.content_y, plan.content_y + plan.content_h
        line = img[round(_px(y0, dpi)) : round(_px(y1, dpi)), round(_px(x_mm, dpi)), :]
        expected = rows + 1
    runs = _dark_runs(line)
    assert len(runs) == expected, runs
    pitch_px = (runs[-1] - runs[0]) / (len(runs) - 1)
    assert pitch_px / dpi * 25.4 == pytest.approx(mm, rel=0.01)


def test_page_label_names_map_page_and_scale(qapp, tmp_path):
    out = tmp_path / "label.pdf"
    ex.export_pdf(Map.blank(5, 4, name="Gulch"), out, scale="25mm")
    text = _text(out)
    assert "Gulch" in text and "page 1 of 1" in text
    assert "1 hex = 25 mm flat to flat" in text


# --- tiling ------------------------------------------------------------------------------------


def test_tiling_gives_the_expected_pages_with_shared_overlap(qapp, tmp_path):
    cols, rows = 24, 6
    m = Map.blank(cols, rows, name="Long street")
    out = tmp_path / "tiles.pdf"
    r = ex.export_pdf(m, out, scale="1in", paper="letter", orientation="portrait")
    # by hand: a pointy map is cols + ½ hexes wide, 1.5 rows + ½ hex radius tall
    width = (cols + 0.5) * 25.4 + 2 * ex.MAP_PAD_MM
    radius = 25.4 / SQRT3
    height = (1.5 * (rows - 1) + 2) * radius + 2 * ex.MAP_PAD_MM
    content_w = 215.9 - 2 * ex.PAGE_MARGIN_MM
    content_h = 279.4 - 2 * ex.PAGE_MARGIN_MM - ex.HEADER_MM
    ov = ex.OVERLAP_MM
    page_cols = math.ceil((width - ov) / (content_w - ov))
    assert height < content_h
    assert (r.rows, r.cols, r.pages) == (1, page_cols, page_cols)
    assert page_cols == 4
    assert len(_pages(out)) == page_cols
    texts = [_text(out, i) for i in range(page_cols)]
    assert "page 2 of 4 (row 1 of 1, column 2 of 4)" in texts[1]
    assert "overlaps page 1" in texts[1] and "overlaps page 3" in texts[1]
    # the strip page 1 shares with page 2 prints the same map on both
    dpi = 100
    plan = ex.plan_pages(m, scale="1in", paper="letter", orientation="portrait")
    a, b = _raster(out, 0, dpi), _raster(out, 1, dpi)
    y0, y1 = round(_px(plan.content_y + 3, dpi)), round(_px(plan.content_y + content_h - 3, dpi))
    trim = 2.0  # the dashed guides mark the strip's edges, one on each page
    a0 = round(_px(plan.content_x + plan.step_x + trim, dpi))
    b0 = round(_px(plan.content_x + trim, dpi))
    w = round(_px(ov - 2 * trim, dpi))
    strip_a, strip_b = a[y0:y1, a0 : a0 + w], b[y0:y1, b0 : b0 + w]
    assert strip_a.std() > 10, "the strip holds map, not blank paper"
    assert np.abs(strip_a - strip_b).mean() < 3
    # and a strip just outside the overlap does not match
    elsewhere = b[y0:y1, b0 + w + 40 : b0 + 2 * w + 40]
    assert np.abs(strip_a - elsewhere).mean() > np.abs(strip_a - strip_b).mean() + 2


def test_registration_marks_sit_in_the_overlap_on_both_pages():
    m = Map.blank(24, 20)
    plan = ex.plan_pages(m, scale="1in", paper="letter", orientation="portrait")
    assert plan.rows > 1 and plan.cols > 1
    marks = plan.registration_marks()
    assert len(marks) == 2 * (plan.rows * (plan.cols - 1) + plan.cols * (plan.rows - 1))
    for sx, sy in marks:
        on = [
            (r, c)
            for r in range(plan.rows)
            for c in range(plan.cols)
            if plan.sheet_origin(r, c)[0] <= sx <= plan.sheet_origin(r, c)[0] + plan.content_w
            and plan.sheet_origin(r, c)[1] <= sy <= plan.sheet_origin(r, c)[1] + plan.content_h
        ]
        assert len(on) >= 2, (sx, sy)


def test_auto_orientation_takes_fewer_pages():
    m = Map.blank(30, 6)  # wide and short: landscape wins
    auto = ex.plan_pages(m, scale="1in", paper="letter")
    portrait = ex.plan_pages(m, scale="1in", paper="letter", orientation="portrait")
    assert auto.orientation == "landscape" and auto.pages < portrait.pages


def test_too_many_pages_is_refused_with_nothing_written(qapp, tmp_path):
    out = tmp_path / "huge.pdf"
    with pytest.raises(ex.ExportError, match="pages"):
        ex.export_pdf(Map.blank(200, 200), out, scale="100mm")
    assert list(tmp_path.iterdir()) == []


# --- what is shown ------------------------------------------------------------------------------


def test_coordinates_present_and_absent(qapp, tmp_path):
    m = Map.blank(5, 4)
    on, off = tmp_path / "on.pdf", tmp_path / "off.pdf"
    ex.export_pdf(m, on, scale="1in")
    ex.export_pdf(m, off, scale="1in", coordinates=False)
    assert "0101" in _text(on) and "0504" in _text(on)
    assert "0101" not in _text(off) and "0504" not in _text(off)
    # and in the pixels: ink near the top of a hex only with coordinates
    dpi = 120
    plan = ex.plan_pages(m, scale="1in")
    fr = MapFrame(m)
    cx, cy = plan.scene_to_page(0, 0, *fr.center_xy(m.hex_at(2, 1)))
    rad = 25.4 / SQRT3
    box = (
        slice(round(_px(cy - 0.74 * rad, dpi)), round(_px(cy - 0.45 * rad, dpi))),
        slice(round(_px(cx - 0.3 * rad, dpi)), round(_px(cx + 0.3 * rad, dpi))),
    )

    def ink(path) -> int:
        a = _raster(path, 0, dpi)[box]
        return int(np.count_nonzero(a[..., 0] < 200))

    assert ink(on) > 20
    assert ink(off) == 0


def test_judge_only_content_is_left_out_by_default(qapp, tmp_path):
    doc = _secret_doc()
    public, judge = tmp_path / "public.pdf", tmp_path / "judge.pdf"
    ex.export_pdf(doc, public, scale="1in", coordinates=False)
    ex.export_pdf(doc, judge, scale="1in", coordinates=False, judge_layers=True)
    pub, jud = _raster(public, 0, 80), _raster(judge, 0, 80)
    assert _blue(pub) == 0 and _red(pub) == 0
    assert _blue(jud) > 100 and _red(jud) > 20
    assert "Gold under the floor" not in _text(public)
    assert "Gold under the floor" in _text(judge)
    assert "JUDGE'S COPY" in _text(judge) and "JUDGE" not in _text(public)
    # the public wall prints in both
    brown = lambda a: int(  # noqa: E731
        np.count_nonzero((abs(a[..., 0] - 110) < 12) & (abs(a[..., 1] - 66) < 12))
    )
    assert brown(pub) > 100 and brown(jud) > 100


def test_png_leaves_judge_content_out_too(qapp, tmp_path):
    doc = _secret_doc()
    out = tmp_path / "public.png"
    ex.export_png(doc, out, scale="1in", dpi=60)
    img = QImage(str(out)).convertToFormat(QImage.Format.Format_RGB888)
    a = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine())
    a = a[:, : img.width() * 3].reshape(img.height(), img.width(), 3).astype(np.int32)
    assert _blue(a) == 0 and _red(a) == 0


def test_tokens_only_when_asked_and_hidden_ones_only_for_the_judge(qapp, tmp_path):
    m = Map.blank(8, 6)
    chars = list(sample_characters().values())[:2]
    enc = Encounter(
        map=m,
        characters=chars,
        tokens=[
            Token(id="seen", character_id=chars[0].id, hex=(2, 2)),
            Token(id="lurker", character_id=chars[1].id, hex=(5, 3), hidden=True),
        ],
    )
    doc = EncounterDocument(enc)
    none, public, judge = (tmp_path / f"{n}.pdf" for n in ("none", "public", "judge"))
    ex.export_pdf(doc, none, coordinates=False)
    ex.export_pdf(doc, public, coordinates=False, tokens=True)
    ex.export_pdf(doc, judge, coordinates=False, tokens=True, judge_layers=True)
    plan = ex.plan_pages(doc)
    fr = MapFrame(m)
    dpi = 80

    def at(path, h: Hex) -> np.ndarray:
        x, y = plan.scene_to_page(0, 0, *fr.center_xy(h))
        return _raster(path, 0, dpi)[round(_px(y, dpi)), round(_px(x, dpi))]

    seen, lurker = Hex(2, 2), Hex(5, 3)
    assert _is_ground(at(none, seen)) and _is_ground(at(none, lurker))
    assert not _is_ground(at(public, seen)) and _is_ground(at(public, lurker))
    assert not _is_ground(at(judge, lurker))


def test_pdf_is_vector(qapp, tmp_path):
    out = tmp_path / "vector.pdf"
    ex.export_pdf(_secret_doc(), out, judge_layers=True)
    pdf = pdfium.PdfDocument(str(out))
    try:
        kinds = {o.type for o in pdf[0].get_objects(max_depth=8)}
    finally:
        pdf.close()
    assert pdfium_raw.FPDF_PAGEOBJ_PATH in kinds
    assert pdfium_raw.FPDF_PAGEOBJ_IMAGE not in kinds


# --- PNG -------------------------------------------------------------------------------------------


def test_png_size_resolution_and_pitch(qapp, tmp_path):
    cols, rows = 7, 5
    m = Map.blank(cols, rows)
    out = tmp_path / "map.png"
    dpi = 100
    r = ex.export_png(m, out, scale="1in", dpi=dpi, coordinates=False)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (r.width_px, r.height_px)
    radius = 25.4 / SQRT3
    width_mm = (cols + 0.5) * 25.4 + 2 * ex.MAP_PAD_MM
    height_mm = (1.5 * (rows - 1) + 2) * radius + 2 * ex.MAP_PAD_MM
    assert img.width() == math.ceil(_px(width_mm, dpi))
    assert img.height() == math.ceil(_px(height_mm, dpi))
    assert img.dotsPerMeterX() == round(dpi / 25.4 * 1000)
    # one row of hexes: cols + 1 hexsides, one hex (1 inch = dpi pixels) apart
    y = round(_px(ex.MAP_PAD_MM + radius, dpi))
    rgb = img.convertToFormat(QImage.Format.Format_RGB888)
    a = np.frombuffer(rgb.constBits(), np.uint8).reshape(rgb.height(), rgb.bytesPerLine())
    line = a[y, : rgb.width() * 3].reshape(rgb.width(), 3).astype(np.int32)
    runs = _dark_runs(line)
    assert len(runs) == cols + 1
    assert (runs[-1] - runs[0]) / cols == pytest.approx(dpi, rel=0.01)


def test_png_refuses_a_picture_too_large(qapp, tmp_path):
    out = tmp_path / "big.png"
    with pytest.raises(ex.ExportError, match="pixels"):
        ex.export_png(Map.blank(200, 200), out, scale="1in", dpi=600)
    assert list(tmp_path.iterdir()) == []


# --- files ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kw", "message"),
    [
        ("missing/out.pdf", {}, "does not exist"),
        ("out.png", {}, "must end in .pdf"),
        ("out.pdf", {"scale": "3furlongs"}, "3furlongs"),
        ("out.pdf", {"scale": "2mm"}, "choose 5–100 mm"),
        ("out.pdf", {"paper": "b5"}, "b5"),
        ("out.pdf", {"orientation": "sideways"}, "sideways"),
    ],
)
def test_bad_path_or_options_name_the_problem_and_write_nothing(qapp, tmp_path, name, kw, message):
    old = tmp_path / "keep.txt"
    old.write_text("old")
    with pytest.raises(ex.ExportError, match=message) as err:
        ex.export_pdf(Map.blank(4, 4), tmp_path / name, **kw)
    assert name.split("/")[-1] in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]
    assert old.read_text() == "old"


def test_png_bad_resolution(qapp, tmp_path):
    with pytest.raises(ex.ExportError, match="resolution"):
        ex.export_png(Map.blank(4, 4), tmp_path / "x.png", dpi=5)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary(qapp, tmp_path, monkeypatch):
    out = tmp_path / "map.pdf"
    out.write_bytes(b"old pdf")

    def broken(tmp, target, plan, scene, progress=None):
        tmp.write_bytes(b"%PDF half")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ex, "_write_pdf", broken)
    with pytest.raises(RuntimeError):
        ex.export_pdf(Map.blank(4, 4), out)
    assert out.read_bytes() == b"old pdf"
    assert [p.name for p in tmp_path.iterdir()] == ["map.pdf"]


def test_export_replaces_an_existing_file(qapp, tmp_path):
    out = tmp_path / "map.pdf"
    out.write_bytes(b"old pdf")
    ex.export_pdf(Map.blank(4, 4), out)
    assert out.read_bytes().startswith(b"%PDF")
    assert [p.name for p in tmp_path.iterdir()] == ["map.pdf"]


def test_export_from_an_encounter_file_and_a_loaded_map(qapp, tmp_path):
    from twtw_desktop.io import load_encounter
    from twtw_desktop.resources import maps_dir

    path = maps_dir() / "main_street.encounter.json"
    r = ex.export_pdf(path, tmp_path / "a.pdf", scale="25mm", paper="a4")
    assert r.pages == len(_pages(tmp_path / "a.pdf")) > 1
    r2 = ex.export_png(load_encounter(path), tmp_path / "b.png", dpi=40)
    assert QImage(str(tmp_path / "b.png")).width() == r2.width_px
    assert "Main Street" in _text(tmp_path / "a.pdf")
    assert os.path.getsize(tmp_path / "a.pdf") > 10_000


def test_progress_reports_pages_and_can_cancel(qapp, tmp_path):
    m = Map.blank(24, 6)
    seen: list[tuple[int, int]] = []
    r = ex.export_pdf(
        m, tmp_path / "a.pdf", orientation="portrait", progress=lambda d, n: seen.append((d, n))
    )
    assert seen == [(i, r.pages) for i in range(r.pages)]
    out = tmp_path / "b.pdf"
    with pytest.raises(ex.ExportError, match="cancelled"):
        ex.export_pdf(m, out, progress=lambda d, n: d < 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf"]
