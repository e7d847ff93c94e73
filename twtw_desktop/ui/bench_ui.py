"""UI section of the project benchmark: map view frames and window start-up.

Run with the others (``python -m twtw_desktop.bench --section ui``, once this module
is listed in :data:`twtw_desktop.bench.SECTION_MODULES`) or alone:
``python -m twtw_desktop.ui.bench_ui [--quick]``.

On the geometry benchmark's 200×200 map with 500 wall segments and 50 tokens, in a
1920×1080 view offscreen, it measures in one run:

* a pan frame (scroll a few pixels, repaint the whole viewport) at 100 %;
* a zoom step with an empty tile cache (a cold frame);
* the whole map in view (warm), and cold;
* the same pan frame on a scene built from one polygon item per hex, for the ratio;
* start-up to a shown window on the sample encounter, in a fresh interpreter (warm:
  the first launch is discarded).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QPen
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

from ..bench import BenchConfig, Figure, section

VIEW_W, VIEW_H = 1920, 1080
TARGET_PAN = 8e-3
TARGET_ZOOM = 60e-3
TARGET_WHOLE = 16e-3
TARGET_RATIO = 5.0
TARGET_STARTUP = 1.0
PAN_STEP_PX = 7


def _app() -> QApplication:
    return QApplication.instance() or QApplication([sys.argv[0]])


def make_document(side: int = 200, segments: int = 500, tokens: int = 50):
    """The benchmark map as an encounter document, with characters for the tokens."""
    from ..geometry.bench import make_bench_map, make_tokens
    from ..model import Encounter
    from ..rules.samples import sample_characters
    from .document import EncounterDocument

    m = make_bench_map(side, segments)
    toks = make_tokens(m, tokens)
    base = next(iter(sample_characters().values()))
    chars = [
        base.model_copy(
            update={
                "id": t.character_id,
                "name": f"Figure {i}",
                "side": "posse" if i % 2 else "hombres",
            }
        )
        for i, t in enumerate(toks)
    ]
    enc = Encounter(name="bench", map=m, characters=chars, tokens=toks)
    return EncounterDocument(enc)


def _frame(view) -> float:
    t0 = time.perf_counter()
    view.viewport().repaint()
    return time.perf_counter() - t0


def _pan_frames(view, frames: int) -> list[float]:
    """Scroll right then back, repainting the whole viewport each frame."""
    bar = view.horizontalScrollBar()
    out = []
    direction = 1
    for i in range(frames):
        if i and i % 40 == 0:
            direction = -direction
        bar.setValue(bar.value() + direction * PAN_STEP_PX)
        out.append(_frame(view))
    return out


def per_hex_view(doc, zoom: float):
    """The comparison: the same map as one QGraphicsPolygonItem per hex (plus the same
    features and tokens), as a naive implementation would build it."""
    from .scene import style
    from .scene.frame import MapFrame
    from .scene.map_items import FeatureItem
    from .scene.token_item import TokenItem

    fr = MapFrame(doc.map)
    sc = QGraphicsScene()
    pen = QPen(style.GRID_LINE, 0)
    brushes = {}
    for h in doc.map.hexes():
        t = doc.map.terrain_at(h)
        e = doc.map.elevation_at(h)
        br = brushes.get((t, e))
        if br is None:
            br = brushes[(t, e)] = QBrush(style.terrain_colour(t, e))
        it = sc.addPolygon(fr.polygon(h), pen, br)
        it.setFlag(it.GraphicsItemFlag.ItemIsSelectable, False)
    for f in doc.map.features:
        sc.addItem(FeatureItem(f, fr, doc.cover_av()))
    for t in doc.encounter.tokens:
        sc.addItem(TokenItem(t, doc.character(t.character_id), fr))
    v = QGraphicsView(sc)
    v.setRenderHint(v.renderHints().__class__.Antialiasing, True)
    v.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    v.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    v.resize(VIEW_W, VIEW_H)
    v.scale(zoom, zoom)
    v.show()
    QApplication.processEvents()  # the window must be exposed before it paints
    return v, sc


def startup_seconds() -> float:
    """Seconds from a fresh interpreter's first import to a shown window on the sample
    encounter (the figure the process prints)."""
    code = (
        "import time; t0 = time.perf_counter()\n"
        "import os, tempfile; os.environ.setdefault('QT_QPA_PLATFORM', 'offscreen')\n"
        "from twtw_desktop.ui import settings\n"
        "settings.use_ini_folder(tempfile.mkdtemp())\n"
        "from twtw_desktop.ui.app import make_app, open_window\n"
        "app = make_app(); w = open_window(None); app.processEvents()\n"
        "w.map_view.viewport().repaint()\n"
        "print(time.perf_counter() - t0)\n"
        "w.document.undo_stack.setClean(); os._exit(0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    lines = [x for x in out.stdout.strip().splitlines() if x.strip()]
    return float(lines[-1])


@section("ui")
def ui_section(cfg: BenchConfig):
    """The figures of the issue on the 200×200 benchmark map."""
    yield from measure_ui(frames=12 if cfg.quick else 120, quick=cfg.quick)


def measure_ui(
    side: int = 200,
    segments: int = 500,
    tokens: int = 50,
    *,
    frames: int = 120,
    quick: bool = False,
    startup: bool = True,
):
    """Measure the map view on a ``side``×``side`` map; yields :class:`Figure` s."""
    from .scene.map_view import MapView

    _app()
    t0 = time.perf_counter()
    doc = make_document(side, segments, tokens)
    view = MapView(doc)
    view.resize(VIEW_W, VIEW_H)
    view.show()
    QApplication.processEvents()
    build = time.perf_counter() - t0
    yield Figure(f"build the {side}×{side} document and view", build, None)
    grid = view.map_scene.grid

    # pan at 100 %
    view.set_zoom_k(0)
    view.centerOn(view.map_scene.frame.bounds().center())
    _frame(view)  # warm the tiles in view
    pan = statistics.median(_pan_frames(view, frames))
    yield Figure("pan frame at 100 %, 1920×1080 (tiles)", pan, TARGET_PAN)

    # zoom steps, each with an empty cache (cold frames)
    cold = []
    for k in (-1, 1, -2, 2, -3, 1, 0, -1) if not quick else (-1, 1):
        grid.clear()
        t1 = time.perf_counter()
        view.set_zoom_k(k)
        view.viewport().repaint()
        cold.append(time.perf_counter() - t1)
    yield Figure("zoom step with a cold tile cache", statistics.median(cold), TARGET_ZOOM)

    # the whole map in view
    view.zoom_fit()
    grid.clear()
    whole_cold = _frame(view)
    whole = statistics.median([_frame(view) for _ in range(max(3, frames // 4))])
    yield Figure("whole map in view (warm frame)", whole, TARGET_WHOLE)
    yield Figure("whole map in view (cold frame)", whole_cold, TARGET_ZOOM)

    # one item per hex, same zoom and place, for the ratio
    view.set_zoom_k(0)
    view.centerOn(view.map_scene.frame.bounds().center())
    _frame(view)
    tiled = statistics.median(_pan_frames(view, frames))
    naive_view, _naive_scene = per_hex_view(doc, 1.0)  # keep the scene alive
    naive_view.centerOn(view.map_scene.frame.bounds().center())
    QApplication.processEvents()
    _frame(naive_view)
    naive = statistics.median(_pan_frames(naive_view, max(6, frames // 4)))
    yield Figure("pan frame, one scene item per hex", naive, None)
    yield Figure(
        "pan speed-up of tiles over item-per-hex", naive / tiled, TARGET_RATIO, kind="ratio"
    )
    naive_view.close()
    naive_view.deleteLater()
    view.close()

    if not startup:
        return
    # start-up, in a fresh interpreter (first launch discarded: warm caches)
    runs = 2 if quick else 4
    times = [startup_seconds() for _ in range(runs)]
    yield Figure(
        "start-up to a shown window, sample encounter (warm)",
        statistics.median(times[1:]),
        TARGET_STARTUP,
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    cfg = BenchConfig(quick="--quick" in args, repeats=2 if "--quick" in args else 15)
    print("== ui ==")
    slow = 0
    for fig in ui_section(cfg):
        print(fig.line())
        sys.stdout.flush()
        slow += fig.ok is False
    print(f"{slow} figure(s) over target" if slow else "all figures within target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
