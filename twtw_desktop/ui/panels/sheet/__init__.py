"""The character sheet's parts, one idea a file (see :mod:`..sheet_panel`)."""
