"""Help ▸ Rules reference and ``twtw-desktop rules``: every section of the five seed
pages with how the app handles it.

The hand-kept part is ``resources/rules_reference.json``: for each seed page, each
section heading as the page writes it, what kind of handling it gets (a table
action, a panel, applied automatically, a house value, only partly, not handled, or a
worked example) and how, with the table actions that play it. Lines of a table or a
list on a page (``rows``) are handled with the section they belong to. A test
checks that every heading of the pages is in the file and that every action it
names exists, so the file cannot drift from the pages or the code.

The generated part comes from the data the rules use: every table action with its
seed page (the actions' ``page``, :data:`~twtw_desktop.play.actions.ACTIONS`) and
every house value of the editions (``house_values`` in ``resources/editions``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, ValidationError

from ..errors import LoadError
from ..resources import resource_path
from ..rules.base import Strict
from ..rules.character import TEMPERAMENTS
from ..rules.editions import edition_ids, load_edition
from . import actions as actions_mod

Kind = Literal["action", "panel", "automatic", "house", "partly", "not_handled", "example"]

#: how each kind reads in the reference
KIND_LABELS: dict[str, str] = {
    "action": "table action",
    "panel": "panel",
    "automatic": "applied automatically",
    "house": "house value",
    "partly": "partly handled",
    "not_handled": "not handled",
    "example": "worked example",
}


#: what the app adds where the pages are silent altogether: (name, how), shown after
#: the actions
HOUSE_DESIGNS: tuple[tuple[str, str], ...] = (
    (
        f"NPC temperaments ({', '.join(TEMPERAMENTS)}) — house design",
        "The seed pages have no morale rules. A temperament on a character's sheet only "
        "changes what the NPC autopilot (the autopilot action, twtw-desktop plan) prefers "
        "among plans the table allows: closing in, holding cover, withdrawing when badly "
        "wounded, alone or low on Conc. It never changes a rule; every planned action is checked by "
        "why_not like anyone's, and an NPC plans only from what it can see.",
    ),
    (
        "What an NPC sees of a foe's gear — house reading",
        "The pages do not say what a character's eyes take in of another's gear. The "
        "autopilot reads a gun carried as in plain view (a gun at the hip): it takes "
        "cover from the foes it sees with a gun, and weighs a foe's blade by its reach; "
        "how well a foe shoots or walks it reckons by its own. A foe it sees stunned "
        "it reads as stunned (a figure reeling is plain to see; 000 Stun: stunned "
        "characters spend each round on their recovery check), so it fears no shot "
        "from it this round; one only remembered it reckons able. Nothing else of a "
        "foe's sheet feeds a plan.",
    ),
)


class Section(Strict):
    """One section heading of a seed page and how the app handles it."""

    heading: Annotated[str, Field(min_length=1, max_length=200)]
    kind: Kind
    how: Annotated[str, Field(min_length=1, max_length=1000)]
    actions: list[Annotated[str, Field(min_length=1, max_length=64)]] = []


class Page(Strict):
    page: Literal["000", "001", "002", "003", "004"]
    title: Annotated[str, Field(min_length=1, max_length=200)]
    sections: list[Section]
    #: a table row or list line of the page → the heading of its section
    rows: dict[str, str] = {}


class RulesReference(Strict):
    pages: list[Page]

    def section(self, page: str, heading: str) -> Section | None:
        for p in self.pages:
            if p.page == page:
                return next((s for s in p.sections if s.heading == heading), None)
        return None

    def named_actions(self) -> set[str]:
        return {a for p in self.pages for s in p.sections for a in s.actions}


@cache
def load_reference() -> RulesReference:
    """The bundled reference (LoadError naming what is wrong)."""
    path = resource_path("rules_reference.json")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise LoadError(path, f"not readable JSON ({e})") from e
    raw.pop("_comment", None)
    try:
        return RulesReference.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        raise LoadError(path, err["msg"], ".".join(str(p) for p in err["loc"])) from e


def action_pages() -> dict[str, tuple[str, str]]:
    """Every table action: its name → (seed page, one-line summary)."""
    return {
        cls.model_fields["do"].default: (cls.page, cls.summary) for cls in actions_mod.all_actions()
    }


def reference_entries() -> Iterator[tuple[int, str]]:
    """The reference as (level, text): level 0 a part, 1 a page, 2 a section, 3 a
    detail line."""
    ref = load_reference()
    pages = action_pages()
    yield 0, "The seed pages, section by section"
    for p in ref.pages:
        yield 1, f"{p.page} {p.title}"
        for s in p.sections:
            yield 2, f"{s.heading} — {KIND_LABELS[s.kind]}"
            yield 3, s.how
            for name in s.actions:
                page = pages.get(name, ("?", ""))[0]
                yield 3, f"action {name} ({page})"
            rows = [r for r, parent in p.rows.items() if parent == s.heading]
            if rows:
                yield 3, "rows: " + "; ".join(rows)
    yield 0, "Table actions and their seed pages (from the actions themselves)"
    for name, (page, summary) in sorted(pages.items()):
        yield 2, f"{name} — {page}"
        if summary:
            yield 3, summary
    yield 0, "House designs (where the pages have no rule at all)"
    for name, how in HOUSE_DESIGNS:
        yield 2, name
        yield 3, how
    yield 0, "House values (where the pages leave a number open; from the edition files)"
    for eid in edition_ids():
        ed = load_edition(eid)
        yield 1, ed.name
        for key, why in sorted(ed.house_values.items()):
            yield 2, key
            yield 3, why


def reference_text() -> str:
    """The whole reference as plain text (``twtw-desktop rules``)."""
    out: list[str] = []
    for level, text in reference_entries():
        if level == 0:
            out += ["", text.upper(), "=" * len(text)]
        elif level == 1:
            out += ["", text, "-" * len(text)]
        elif level == 2:
            out.append(f"* {text}")
        else:
            out.append(f"    {text}")
    return "\n".join(out).lstrip("\n") + "\n"


def summary_counts() -> dict[str, int]:
    """How many sections of the pages get each kind of handling."""
    counts = dict.fromkeys(KIND_LABELS, 0)
    for p in load_reference().pages:
        for s in p.sections:
            counts[s.kind] += 1
    return counts


def main(argv: list[str]) -> int:
    """``twtw-desktop rules``: print the reference (no window)."""
    parser = argparse.ArgumentParser(
        prog="twtw-desktop rules",
        description="Every section of the seed pages and how the app handles it.",
    )
    try:
        parser.parse_args(argv)
    except SystemExit as e:  # --help, or a usage mistake argparse printed
        return e.code if isinstance(e.code, int) else 2
    try:
        text = reference_text()
    except LoadError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0
