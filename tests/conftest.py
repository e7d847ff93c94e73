"""Test-wide setup.

* Qt always runs offscreen in tests (no display needed), on one 1366×768 screen — the
  laptop the window is made for (the offscreen platform's own default is 800×800).
* ``TWTW_BLOCK_QT=1`` makes PySide6 unimportable, so CI can prove the rules,
  geometry and io work without Qt installed (tests/ui is skipped then).
"""

from __future__ import annotations

import importlib.abc
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if os.environ["QT_QPA_PLATFORM"] == "offscreen":
    import atexit
    import json
    import shutil
    import tempfile

    _folder = tempfile.mkdtemp(prefix="twtw-screens-")
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    _screens = os.path.join(_folder, "screens.json")
    with open(_screens, "w", encoding="utf-8") as f:
        json.dump(
            {
                "screens": [
                    {
                        "name": "laptop",
                        "x": 0,
                        "y": 0,
                        "width": 1366,
                        "height": 768,
                        "logicalDpi": 96,
                        "logicalBaseDpi": 96,
                        "dpr": 1,
                    }
                ]
            },
            f,
        )
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_screens}"


class _BlockQt(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in ("PySide6", "shiboken6", "pytestqt"):
            raise ModuleNotFoundError(f"{fullname} is blocked (TWTW_BLOCK_QT=1)", name=fullname)
        return None


if os.environ.get("TWTW_BLOCK_QT") == "1":
    sys.meta_path.insert(0, _BlockQt())

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_collection_modifyitems(config, items):
    """Slow tests first, the longest first (``@pytest.mark.slow(minutes=N)``), so that
    under ``-n auto`` each worker starts a long one at once and they all finish together
    instead of one worker meeting a four-minute test at the end."""

    def key(item):
        mark = item.get_closest_marker("slow")
        return (0, -float(mark.kwargs.get("minutes", 0))) if mark is not None else (1, 0.0)

    items.sort(key=key)  # stable: the file order within each group
