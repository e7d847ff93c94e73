"""Everything Qt lives here (the only package that imports PySide6).

Start-up: the Qt-free layers the window needs are imported here, before PySide6.
Once PySide6 is loaded, its import hook reads the source of every module imported
after it (to look for its ``__feature__`` switches), which costs a tenth of a
second over the model, geometry, rules, the table (play: the document holds one)
and their libraries.
"""

import numpy  # noqa: F401
import pydantic  # noqa: F401
import shapely  # noqa: F401

from .. import geometry, io, model, play, rules, sample_maps  # noqa: F401
from ..rules import action_track, combat, deck, phases, samples  # noqa: F401
