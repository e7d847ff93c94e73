"""UI tests need PySide6; they are skipped when Qt is blocked or missing."""

import pytest

pytest.importorskip("PySide6.QtWidgets")
