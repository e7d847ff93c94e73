"""The rules reference cannot drift: every section heading of the five seed pages is
in ``resources/rules_reference.json``, every action it names exists, and the printed
reference mentions every table action with its seed page and every edition's house
values."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import twtw_desktop.play  # noqa: F401  (the actions register themselves)
from twtw_desktop.play.rules_reference import (
    action_pages,
    load_reference,
    reference_text,
    summary_counts,
)
from twtw_desktop.rules.editions import edition_ids, load_edition

#: the seed pages live beside the project (../shared/seeds), not inside it
SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
_NOT_HEADINGS = ("- ", "[hide]", "From ", "Jump to", "Back to ")


def seed_headings(text: str) -> list[str]:
    """The section headings (and table/list lines) of a seed page: short lines that do
    not end a sentence, without the page title, the wiki's contents and navigation,
    picture names and the editors' capitalised notes (EXAMPLE, FILL IN LATER)."""
    out: list[str] = []
    for i, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if i == 0 or not line or len(line) >= 70 or line[-1] in ".|?!,;:" or "|" in line:
            continue
        if line.startswith(_NOT_HEADINGS) or line == "Contents":
            continue
        if re.search(r"\.(jpe?g|png|gif)$", line, re.I):
            continue
        if line.upper() == line or line.lower() in ("example", "examples"):
            continue
        out.append(line)
    return list(dict.fromkeys(out))


def _pages() -> list[tuple[str, Path]]:
    if not SEEDS.is_dir():
        pytest.skip(f"the seed pages are not at {SEEDS}")
    return [(p.name[:3], p) for p in sorted(SEEDS.glob("*.txt"))]


def test_every_heading_of_the_seed_pages_is_in_the_reference():
    ref = load_reference()
    pages = _pages()
    assert [n for n, _ in pages] == [p.page for p in ref.pages]
    for number, path in pages:
        page = next(p for p in ref.pages if p.page == number)
        known = {s.heading for s in page.sections} | set(page.rows)
        headings = seed_headings(path.read_text(encoding="utf-8"))
        missing = [h for h in headings if h not in known]
        assert not missing, f"{number}: headings not in rules_reference.json: {missing}"
        stale = sorted(known - set(headings))
        assert not stale, f"{number}: rules_reference.json names no heading of the page: {stale}"


def test_the_data_is_consistent():
    ref = load_reference()
    known_actions = set(action_pages())
    assert ref.named_actions() <= known_actions, ref.named_actions() - known_actions
    for page in ref.pages:
        headings = [s.heading for s in page.sections]
        assert len(headings) == len(set(headings)), page.page
        assert set(page.rows.values()) <= set(headings), page.page
    counts = summary_counts()
    assert counts["not_handled"] > 0 and counts["partly"] > 0  # honest about the gaps


def test_the_reference_mentions_every_action_page_and_house_value():
    text = reference_text()
    for name, (page, _summary) in action_pages().items():
        assert f"{name} — {page}" in text
    for eid in edition_ids():
        for key in load_edition(eid).house_values:
            assert key in text


def test_the_rules_command_prints_it():
    out = subprocess.run(
        [sys.executable, "-m", "twtw_desktop", "rules"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "Setting Victory Threshold: Optional" in out.stdout
    assert "check — 002" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "twtw_desktop", "rules", "--nonsense"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
