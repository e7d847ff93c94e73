"""The project's error types.

Two families, because the Judge meets them in two different ways:

* :class:`LoadError` — a file (deck, gear catalog, map, encounter…) that cannot be
  read. The message names the file and, where there is one, the bad entry/field.
* :class:`RulesError` — a request the rules refuse (a snap shot with an uncocked
  single-action revolver, a ninth attack with skill 2…). The message is one sentence a
  Judge understands, and the refused call has changed no state.

A command line typed wrong meets :class:`OneLineParser`: the mistake in one line.
"""

from __future__ import annotations

import argparse
from typing import NoReturn


class TwtwError(Exception):
    """Base class of every error this project raises on purpose."""


class LoadError(TwtwError):
    """A file could not be loaded or saved.

    ``path`` is the file, ``where`` the entry/field inside it (may be empty) and
    ``reason`` the plain-language cause. ``str(err)`` joins them into one line.
    """

    def __init__(self, path: object, reason: str, where: str = "") -> None:
        self.path = str(path)
        self.where = where
        self.reason = reason
        loc = f" at {where}" if where else ""
        super().__init__(f"{self.path}{loc}: {reason}")


class RulesError(TwtwError, ValueError):
    """The rules refuse this request; nothing was changed."""


class OneLineParser(argparse.ArgumentParser):
    """The commands' argument parser: a usage mistake is one line on stderr ("PROG:
    what is wrong (see --help)") and exit status 2, not argparse's usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")
