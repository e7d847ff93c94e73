"""Everything Qt lives here (the only package that imports PySide6)."""
