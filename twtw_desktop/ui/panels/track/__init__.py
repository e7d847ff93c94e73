"""The track panel's parts, one idea a file (see :mod:`..track_panel`)."""
