"""The project's error types.

Two families, because the Judge meets them in two different ways:

* :class:`LoadError` — a file (deck, gear catalog, map, encounter…) that cannot be
  read. The message names the file and, where there is one, the bad entry/field.
* :class:`RulesError` — a request the rules refuse (a snap shot with an uncocked
  single-action revolver, a ninth attack with skill 2…). The message is one sentence a
  Judge understands, and the refused call has changed no state.
"""

from __future__ import annotations


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
