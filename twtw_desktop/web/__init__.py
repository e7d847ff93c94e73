"""The players' devices: each posse character's page (and the table's) in a browser on
the local network, served by the Judge's machine. No Qt here (import-linter checks it):
the window's dialog (``ui/devices_dialog.py``) and the ``serve`` command drive it.

* :mod:`.state` — what each page shows, as JSON, through the players' visibility rule;
* :mod:`.server` — HTTP and WebSocket on its own thread and asyncio loop;
* :mod:`.guard` — what one device may hold of it (timeouts, per-address bounds);
* :mod:`.net` — the addresses it may listen on;
* :mod:`.headless` — ``twtw-desktop serve`` (no window).
"""
