"""Guard against PySide6-Essentials 6.12.0's None refcount corruption.

6.12.0 drops one reference to ``None`` on every call of a method returning nothing;
a few thousand calls abort Python 3.11 with ``none_dealloc``. pyproject pins <6.12;
this test catches a future bump that brings the bug back.
"""

import sys

from PySide6.QtWidgets import QGraphicsRectItem


def test_setpos_does_not_leak_none_references(qapp):
    item = QGraphicsRectItem(0, 0, 1, 1)
    before = sys.getrefcount(None)
    for i in range(10_000):
        item.setPos(i, i)
    after = sys.getrefcount(None)
    assert abs(after - before) <= 10, f"None refcount moved by {after - before}"
