"""UI tests need PySide6; they are skipped when Qt is blocked or missing."""

import pytest

pytest.importorskip("PySide6.QtWidgets")


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path, monkeypatch):
    """Each test keeps the app's data (untitled journals) in its own folder."""
    monkeypatch.setenv("TWTW_DATA_DIR", str(tmp_path / "app-data"))
