"""``python -m twtw_desktop`` is the same as the ``twtw-desktop`` command."""

import sys

from .cli import main

sys.exit(main())
