"""TWTW Desktop: a rules-aware hex tactical map for Judges of The West That Wasnt."""

__version__ = "0.1.0"
