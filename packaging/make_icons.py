"""Render the app icon's PNG, ICO and ICNS files from ``resources/icons/app.svg``.

    python packaging/make_icons.py [OUT_DIR]      # default: resources/icons

Writes ``app-16.png`` … ``app-512.png`` (the freedesktop hicolor sizes and the window
icon), ``app.ico`` (Windows: the executable's icon) and ``app.icns`` (macOS: the .app's
icon). The generated files are committed; run this again after changing the SVG.

Qt's SVG renderer draws the PNGs (no other image library is needed, nothing is
fetched). The two container formats are simple enough to write here:

* ICO: a 6-byte header (reserved 0, type 1, image count), one 16-byte entry per image
  (width and height, 0 meaning 256; colour count 0; reserved 0; 1 plane; 32 bits per
  pixel; data size; data offset), then the images. Each image is a whole PNG file,
  which Windows reads since Vista.
* ICNS: the magic ``icns`` and the file's total length (big-endian uint32), then
  one block per image: a four-letter type, the block's length including its 8-byte
  header, and a PNG file. The types used are the PNG ones macOS reads since 10.7.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "app.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: ICNS block type -> pixel size (the @2x types hold the doubled size)
ICNS_TYPES = {
    "icp4": 16,
    "icp5": 32,
    "icp6": 64,
    "ic07": 128,
    "ic08": 256,
    "ic09": 512,
    "ic10": 1024,
    "ic11": 32,
    "ic12": 64,
    "ic13": 256,
    "ic14": 512,
}


def render_png(svg: Path, size: int) -> bytes:
    """The SVG drawn at ``size`` × ``size`` pixels, as PNG file bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO file holding the given PNG images (size -> PNG bytes)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, images = b"", b""
    for s in sizes:
        data = pngs[s]
        dim = 0 if s >= 256 else s
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        images += data
        offset += len(data)
    return header + entries + images


def icns_bytes(blocks: dict[str, bytes]) -> bytes:
    """An ICNS file holding the given PNG images (block type -> PNG bytes)."""
    body = b"".join(
        kind.encode("ascii") + struct.pack(">I", len(data) + 8) + data
        for kind, data in blocks.items()
    )
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)  # never a half-written icon


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else SVG.parent
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sizes = sorted(set(PNG_SIZES) | set(ICO_SIZES) | set(ICNS_TYPES.values()))
    pngs = {s: render_png(SVG, s) for s in sizes}
    for s in PNG_SIZES:
        _write(out / f"app-{s}.png", pngs[s])
    _write(out / "app.ico", ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    _write(out / "app.icns", icns_bytes({k: pngs[s] for k, s in ICNS_TYPES.items()}))
    print(f"wrote app-{{{','.join(map(str, PNG_SIZES))}}}.png, app.ico, app.icns to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
