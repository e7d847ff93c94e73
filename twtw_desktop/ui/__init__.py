"""Everything Qt lives here (the only package that imports PySide6).

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
