"""``python -m twtw_desktop`` is the same as the ``twtw-desktop`` command.

The import is absolute: PyInstaller runs this file as a top-level script (no parent
package), where a relative import fails and nothing of ``twtw_desktop`` is collected.
"""

import sys

from twtw_desktop.cli import main

sys.exit(main())
