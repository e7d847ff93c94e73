"""Simulated colour vision deficiency for checking palettes and screenshots.

``python tests/ui/colour_vision.py IN.png OUT.png`` writes what a viewer with
deuteranopia sees (Machado, Oliveira & Fernandes 2009, severity 1, applied in linear
RGB), so a Judge's palette can be looked at, not only measured.
"""

from __future__ import annotations

import sys

import numpy as np

#: Machado et al. (2009) deuteranopia matrix, severity 1.0, on linear RGB
DEUTERANOPIA = np.array(
    [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ]
)


def _to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate_deuteranopia(rgb: np.ndarray) -> np.ndarray:
    """``rgb``: uint8 array (..., 3). Returns the simulated image, same shape/dtype."""
    lin = _to_linear(rgb.astype(np.float64) / 255.0)
    out = lin @ DEUTERANOPIA.T
    return np.round(_to_srgb(out) * 255.0).astype(np.uint8)


def distance(a, b) -> float:
    """Euclidean distance of two sRGB colours (0–441)."""
    return float(np.linalg.norm(np.asarray(a, float) - np.asarray(b, float)))


def _qimage_to_array(img) -> np.ndarray:
    from PySide6.QtGui import QImage

    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
    return buf[:, : w * 3].reshape(h, w, 3).copy()


def simulate_file(src: str, dst: str) -> None:
    from PySide6.QtGui import QImage

    arr = simulate_deuteranopia(_qimage_to_array(QImage(src)))
    h, w, _ = arr.shape
    QImage(arr.tobytes(), w, h, 3 * w, QImage.Format.Format_RGB888).save(dst)


if __name__ == "__main__":  # pragma: no cover
    simulate_file(sys.argv[1], sys.argv[2])
