"""Issue #26: an attack of a series beyond the attacker's skill level misses
automatically (000 Multiple Attacks), and the Attack panel's TN breakdown says so
before the draw — in view, not among the grey geometry notes."""

from __future__ import annotations

from .test_attack_more import ANGUS, CYRIL, FELICIA, MIRANDA, _panel
from .test_panels_support import small_document

MISS = "beyond the skill level: misses automatically (000 Multiple Attacks)"


def _cyril_at_angus(qtbot):
    """Cyril (pistol skill 2) plans a normal shot at Angus, his gun in hand."""
    doc = small_document()
    panel = _panel(qtbot, doc)
    for w in doc.character_of(CYRIL).weapons:
        w.readied = True
    doc.select(CYRIL)
    panel.set_target(ANGUS)
    panel.set_shot("normal")
    assert doc.character_of(CYRIL).skills["shooting_pistol"].level == 2
    return doc, panel


def test_attacks_beyond_the_skill_level_show_their_automatic_miss(qtbot):
    _doc, panel = _cyril_at_angus(qtbot)
    panel.set_series([(FELICIA, "snap"), (MIRANDA, "snap")])
    plan = panel.plan
    assert plan is not None and len(plan.series) == 3
    text = panel.tn_label.text()
    assert panel.tn_label.isVisibleTo(panel)
    # the third attack, and only it, misses automatically
    assert text.count(MISS) == 1
    assert "attack 3 (snap) at Miranda Valentine" in text
    assert "attack 2 (snap) at Felicia Laroq: TN" in text
    # shown as a warning of its own, ahead of the grey notes
    warning = text.index("color:#b00020")
    assert warning < text.index(MISS) < text.index("color:#555")
    assert sum(MISS in ln for ln in panel.tn_items()) == 1


def test_a_series_within_the_skill_level_shows_no_automatic_miss(qtbot):
    _doc, panel = _cyril_at_angus(qtbot)
    panel.set_series([(FELICIA, "snap")])
    assert panel.plan is not None and len(panel.plan.series) == 2
    assert "misses automatically" not in panel.tn_label.text()
    assert "color:#b00020" not in panel.tn_label.text()
    assert not any("misses automatically" in ln for ln in panel.tn_items())
