"""The manual: the Markdown pages under ``resources/manual/`` (no Qt).

The README is the front page; everything else a reader needs is a page of the
manual, which ships with the app (``resources/`` is in the wheel and the bundle) and
opens offline from Help ▸ Manual. This module reads the pages for the window and for
the test that checks every link resolves: the pages in table-of-contents order, each
page's headings with the anchors GitHub gives them (so ``page.md#a-heading`` means
the same on GitHub and in the app), the links a page makes, and a search of the
manual by words. Help ▸ Quick start is the page ``quick-start.md``: the same source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .resources import resource_path

#: the page the manual opens on: its table of contents
INDEX = "index.md"
#: the page Help ▸ Quick start opens
QUICK_START = "quick-start.md"

_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def manual_dir() -> Path:
    """The folder holding the manual's pages."""
    return resource_path("manual")


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    anchor: str


@dataclass(frozen=True)
class Page:
    name: str  # file name, e.g. "user-guide.md"
    title: str  # its first "# " line
    text: str

    @property
    def headings(self) -> list[Heading]:
        return headings(self.text)


def heading_text(raw: str) -> str:
    """A heading's words as a reader sees them: code, emphasis and link marks gone."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    return re.sub(r"[`*_]", "", text).strip()


def slug(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped (``-`` and
    ``_`` kept), spaces turned into ``-``."""
    text = heading_text(title).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def _prose_lines(text: str) -> list[str]:
    """The page's lines outside fenced and indented code blocks (code is blanked)."""
    out: list[str] = []
    fenced = False
    prev_blank = True
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        indented_code = (
            prev_blank and line.startswith("    ") and not line.lstrip().startswith("- ")
        )
        if fenced or (indented_code and (not out or out[-1] == "")):
            out.append("")
            prev_blank = True
            continue
        out.append(line)
        prev_blank = not line.strip()
    return out


def headings(text: str) -> list[Heading]:
    """Every heading of a Markdown text, with its anchor (a repeated anchor gets
    ``-1``, ``-2``… as on GitHub)."""
    seen: dict[str, int] = {}
    out: list[Heading] = []
    for line in _prose_lines(text):
        m = _HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(Heading(len(m.group(1)), heading_text(m.group(2)), f"{base}-{n}" if n else base))
    return out


def links(text: str) -> list[str]:
    """Every link and picture target of a Markdown text, outside code."""
    out: list[str] = []
    for line in _prose_lines(text):
        out += _LINK.findall(_CODE_SPAN.sub("", line))
    return out


def read_page(name: str) -> Page:
    """One page by file name (a bundled file, read as text)."""
    path = manual_dir() / name
    text = path.read_text(encoding="utf-8")
    first = next((line for line in text.split("\n") if line.startswith("# ")), f"# {name}")
    return Page(name, heading_text(first[2:]), text)


@cache
def _cached(name: str, mtime: float) -> Page:
    return read_page(name)


def pages() -> list[Page]:
    """Every page of the manual: the index first, the quick start next, then the
    others by title — every ``*.md`` in the folder, so a page added there is listed."""
    folder = manual_dir()
    found = [p for p in folder.glob("*.md") if p.is_file()]
    loaded = [_cached(p.name, p.stat().st_mtime) for p in found]
    first = {INDEX: 0, QUICK_START: 1}
    return sorted(loaded, key=lambda p: (first.get(p.name, 2), p.title.lower()))


def split_target(target: str) -> tuple[str, str]:
    """``"page.md#anchor"`` → ``("page.md", "anchor")``; either part may be empty."""
    path, _, anchor = target.partition("#")
    return path, anchor


@dataclass(frozen=True)
class Hit:
    page: str
    heading: str  # the section's title ("" before the first heading)
    anchor: str
    count: int  # how many times the words occur in the section


def search(words: str) -> list[Hit]:
    """The sections of the manual that hold every word of ``words`` (case ignored),
    in page order, each with how often the words occur in it."""
    wanted = [w for w in words.lower().split() if w]
    if not wanted:
        return []
    hits: list[Hit] = []
    for page in pages():
        title, anchor = page.title, ""
        body: list[str] = []
        sections: list[tuple[str, str, str]] = []
        seen: dict[str, int] = {}
        for line in page.text.split("\n"):
            m = _HEADING.match(line)
            if m:
                sections.append((title, anchor, "\n".join(body)))
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                title, anchor, body = heading_text(m.group(2)), f"{base}-{n}" if n else base, [line]
            else:
                body.append(line)
        sections.append((title, anchor, "\n".join(body)))
        for title, anchor, text in sections:
            low = text.lower()
            if all(w in low for w in wanted):
                hits.append(Hit(page.name, title, anchor, sum(low.count(w) for w in wanted)))
    return hits
