"""``python -m twtw_desktop.bench``: the same as ``twtw-desktop bench``."""

from . import main

raise SystemExit(main())
