"""Everything Qt lives here (the only package that imports PySide6).

The window asks :mod:`twtw_desktop.play` for every rule and changes the game only
through the table's actions; what lives where here:

* the window — :mod:`.app` (start-up), :mod:`.main_window` (menus, docks, files),
  :mod:`.document` (the open encounter: Qt signals and the undo stack over the
  table), :mod:`.commands` (the undo commands), :mod:`.actions` (menu and toolbar
  actions), :mod:`.settings`, :mod:`.preferences`;
* :mod:`.panels` — the docks, one module per dock: attack, action track, character
  sheet, deck, log;
* :mod:`.scene` — the map view: grid painter, feature and token items, overlays;
  :mod:`.tools` — the map tools (select and drag, measure, cover line, throw, pick a
  target); :mod:`.widgets` — the card, the card entry, the body diagram;
* menus and dialogs, one module each, named after what they do: checks
  (:mod:`.check_dialog`), first aid and rest (:mod:`.care_dialog`), covering fire
  (:mod:`.cover_menu`, :mod:`.cover_overlay`), hand to hand (:mod:`.melee_menu`),
  mounts (:mod:`.mount_menu`), speed (:mod:`.speed_dialog`), a token's right-click
  menu (:mod:`.token_menu`), the Judge's override (:mod:`.judge_dialog`), rules and
  options (:mod:`.rules_dialog`), Help (:mod:`.help_menu`, :mod:`.manual_dialog`,
  :mod:`.rules_reference`),
  files (:mod:`.export_dialog`, :mod:`.uvtt_dialog`, :mod:`.party_dialogs`,
  :mod:`.library`, :mod:`.samples_menu`, :mod:`.recovery`, :mod:`.autosave`);
* :mod:`.editor` — the map editor; :mod:`.players` — the players' screen;
  :mod:`.devices_dialog` — the players' devices (served by :mod:`twtw_desktop.web`).

Start-up: the Qt-free layers the window needs are imported here, before PySide6.
Once PySide6 is loaded, its import hook reads the source of every module imported
after it (to look for its ``__feature__`` switches), which costs a tenth of a
second over the model, geometry, rules, the table (play: the document holds one)
and their libraries. The cyclic garbage collector does not run while they load (its
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
    from ..play import journal, visibility  # noqa: F401  (the document, the map)
    from ..rules import action_track, combat, deck, phases, samples  # noqa: F401
finally:
    gc.freeze()
    if _collecting:
        gc.enable()
