"""Everything Qt lives here (the only package that imports PySide6).

The window asks :mod:`twtw_desktop.play` for every rule and changes the game only
through the table's actions. The window is laid out in rooms, from the window down
to what every room builds on; no two rooms import each other, directly or round a
loop (the import-linter contract "no import cycles" holds them):

* :mod:`.window` — start-up (:mod:`.window.app`), the main window and its parts
  (files, actions, layout, dock title bars), autosave and recovery, the autopilot,
  the preferences;
* :mod:`.files` — the File menu: export to PNG or PDF, Universal VTT import, party
  files, the character library, the sample maps;
* :mod:`.devices` — the players' devices: their dialog, their requests, the picture
  cut for their pages;
* :mod:`.editor` — the map editor; :mod:`.players` — the players' screen;
* :mod:`.panels` — the docks, one module per dock: attack, action track, character
  sheet, deck, log;
* :mod:`.cover_overlay` — covering fire drawn on the Judge's map;
* :mod:`.tools` — the map tools (select and drag, measure, cover line, throw, pick a
  target); :mod:`.scene` — the map view: grid painter, feature and token items,
  overlays;
* :mod:`.menus` — one module per menu: a token's right-click menu, rules, covering
  fire, hand to hand, mounts, Help;
* :mod:`.dialogs` — one module per table dialog: an action, checks, first aid and
  rest, speed, the Judge's override, rules and options, Help's manual and rules
  reference; :mod:`.widgets` — the card, the card entry, the body diagram;
* :mod:`.core` — what every room builds on: the document (Qt signals and the undo
  stack over the table), the undo commands, settings, folders, actions, icons.

Start-up: the Qt-free layers the window needs are imported here, before PySide6.
Once PySide6 is loaded, its import hook reads the source of every module imported
after it (to look for its ``__feature__`` switches), which costs a tenth of a
second over the model, geometry, rules, the table (play: the document holds one)
and their libraries. Only what the first frame needs is imported here: the table's
actions (``play.actions``, the action families, the journal) are not — the first
frame checks no action — and come just after it, with the panels and add-ons. The cyclic garbage collector does not run while they load (its
passes over their objects cost tens of milliseconds), and what they made is frozen
(``gc.freeze``: never scanned again; the few hundred objects of garbage among it stay
for the life of the process).
"""

import gc

# these imports make some 85,000 long-lived objects (modules, classes, the pydantic
# models' fields) and next to no garbage (about 500 objects): no collector passes
# while they load, then they are frozen (never scanned again, as they live as long
# as the process)
_collecting = gc.isenabled()
gc.disable()
try:
    import numpy  # noqa: F401
    import pydantic  # noqa: F401
    import shapely  # noqa: F401

    from .. import geometry, io, model, play, rules  # noqa: F401
    from ..geometry import raster  # noqa: F401  (the map's grid painter)
    from ..io import journal as io_journal  # noqa: F401  (the document)
    from ..play import in_sight, table, visibility  # noqa: F401  (the document, the map)
    from ..rules import combat, deck  # noqa: F401
finally:
    gc.freeze()
    if _collecting:
        gc.enable()
