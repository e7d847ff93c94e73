"""TWTW Desktop: a rules-aware hex tactical map for Judges of The West That Wasnt."""

#: the version when no package metadata is installed (a PyInstaller bundle); keep it
#: equal to pyproject.toml's (tests/packaging/test_version.py checks)
__version__ = "0.1.0"
