"""A step's snapshots share the copies of what it did not change (issue 40's F6
frame budget) and still undo and redo exactly; a step that may change anything
names the areas it did change."""

from __future__ import annotations

from twtw_desktop.play.actions import EndSegment, StartActionTime, StartRound
from twtw_desktop.play.session import open_table
from twtw_desktop.play.snapshot import areas_changed
from twtw_desktop.resources import maps_dir

SAMPLE = maps_dir() / "main_street.encounter.json"


def test_unchanged_objects_share_one_copy_and_undo_stays_exact():
    table = open_table(SAMPLE).table
    start = table.state_fingerprint()
    table.apply(StartActionTime())  # copies every token, sheet and feature, twice
    step = table.steps[table.position - 1]
    b, a = step.before, step.after
    shared = 0
    for before, after, changed in (
        (b.tokens, a.tokens, step.tokens),
        (b.characters, a.characters, step.characters),
        (b.features, a.features, step.features),
    ):
        for x, y in zip(before or [], after or [], strict=True):
            # what the step did not change: the after snapshot holds the very copy
            # the before took; what it changed was copied afresh
            assert (x is y) == (x.id not in changed)
            shared += x is y
    assert shared == len(b.tokens or []) + len(b.characters or []) + len(b.features or []) > 80
    after = table.state_fingerprint()
    table.undo()
    assert table.state_fingerprint() == start
    table.redo()
    assert table.state_fingerprint() == after


def test_a_copy_is_not_reused_once_the_object_changed():
    table = open_table(SAMPLE).table
    table.apply(StartActionTime())
    tok = table.encounter.tokens[0]
    first = table.copies.of(tok)
    assert table.copies.of(tok) is first
    tok.facing = (tok.facing + 1) % 6
    second = table.copies.of(tok)
    assert second is not first and second == tok and first != tok


def test_the_areas_a_step_changed_are_named():
    table = open_table(SAMPLE).table
    table.apply(StartActionTime())
    step = table.steps[table.position - 1]
    assert "mode" in areas_changed(step.before, step.after)
    table.apply(StartRound())
    table.apply(EndSegment())
    step = table.steps[table.position - 1]
    named = areas_changed(step.before, step.after)
    assert named is not None and "track" in named and "mode" not in named
