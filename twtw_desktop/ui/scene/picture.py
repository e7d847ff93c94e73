"""The one Qt loader of the pictures a map names (backgrounds): safe, and off the GUI
thread when big.

The path and file checks are io's (:func:`twtw_desktop.io.checked_picture`: inside
the map's folder, a regular file read after ``os.stat``, ≤ 64 MB, header size within
16384 px a side and 256 MB decoded). Here the checked bytes are decoded with
``QImageReader``: its header size is checked again before decoding, and its
allocation limit (256 MB) makes Qt itself refuse anything bigger. Every path that
shows a background — the window, the players' screen, the export — goes through
:class:`PictureLoader`.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, Signal
from PySide6.QtGui import QImage, QImageReader

from ...errors import LoadError
from ...io import MAX_IMAGE_DECODED_BYTES, check_picture_size, checked_picture, image_size
from ...io.images import ImageHeaderError
from ...model.map import BackgroundImage

#: Pictures with more pixels than this decode in a worker thread (the scene shows a
#: "loading" note meanwhile); smaller ones decode at once.
BIG_PIXELS = 4_000_000


def decode_picture(map_path: Path | str, background: BackgroundImage) -> QImage:
    """Check and decode a map's background picture. Raises LoadError (one line naming
    the file, the limit and the value found)."""
    pic = checked_picture(map_path, background)
    return decode_bytes(map_path, background.path, pic.data)


def decode_bytes(map_path: Path | str, shown: str, data: bytes) -> QImage:
    where = "background.path"
    try:  # io's own header check first: the reader never sees an oversized picture
        _fmt, width, height = image_size(data)
        check_picture_size(width, height)
    except ImageHeaderError as e:
        raise LoadError(map_path, f"background {shown!r}: {e}", where) from None
    buf = QBuffer()
    buf.setData(QByteArray(data))
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buf)
    reader.setAutoTransform(False)
    size = reader.size()  # the header only
    if not size.isValid():
        raise LoadError(
            map_path, f"background {shown!r} could not be decoded ({reader.errorString()})", where
        )
    try:
        check_picture_size(size.width(), size.height())
    except ImageHeaderError as e:
        raise LoadError(map_path, f"background {shown!r}: {e}", where) from None
    old = QImageReader.allocationLimit()
    QImageReader.setAllocationLimit(MAX_IMAGE_DECODED_BYTES // (1024 * 1024))
    try:
        img = reader.read()
    finally:
        QImageReader.setAllocationLimit(old)
    if img.isNull():
        raise LoadError(
            map_path, f"background {shown!r} could not be decoded ({reader.errorString()})", where
        )
    return img


class PictureLoader(QObject):
    """Loads one background at a time; ``done(generation, QImage | None, error)``
    arrives on the GUI thread. A newer :meth:`start` makes older results stale (they
    are dropped)."""

    done = Signal(int, object, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.generation = 0
        self._thread: threading.Thread | None = None
        self._result: tuple[int, QImage | None, str] | None = None

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, map_path: Path | str, background: BackgroundImage) -> bool:
        """Begin loading; True when it runs in the background (a big picture), False
        when it finished already (``done`` was emitted)."""
        self.generation += 1
        gen = self.generation
        big = background.width * background.height > BIG_PIXELS
        if not big:
            self._finish(gen, *self._load(map_path, background))
            return False

        def work() -> None:
            img, err = self._load(map_path, background)
            self._result = (gen, img, err)
            self.done.emit(gen, img, err)  # queued to the GUI thread

        self._thread = threading.Thread(target=work, name="twtw-picture", daemon=True)
        self._thread.start()
        return True

    def wait(self) -> None:
        """Block until a background load finishes (the export, which must draw it)."""
        t = self._thread
        if t is not None:
            t.join()

    @staticmethod
    def _load(map_path: Path | str, background: BackgroundImage) -> tuple[QImage | None, str]:
        try:
            return decode_picture(map_path, background), ""
        except LoadError as e:
            return None, str(e)
        except MemoryError:
            return None, f"{map_path}: background {background.path!r} is too large to decode"

    def _finish(self, gen: int, img: QImage | None, err: str) -> None:
        self._result = (gen, img, err)
        self.done.emit(gen, img, err)

    def take(self) -> tuple[int, QImage | None, str] | None:
        """The last result (after :meth:`wait`), once."""
        r, self._result = self._result, None
        return r
