"""Issue #25, in the real window at 1366×768: while the drawn card shows in the Attack
panel, the attacker's target and weapon stay in view (pinned above the panel's
scrolling part, not scrolled away), and so do Draw, Apply and Put back (pinned below
it)."""

from __future__ import annotations

import pytest

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_attack_more import judge_window

pytestmark = pytest.mark.slow


def _whole(widget) -> bool:
    """Shown, and every pixel of it in view (nothing scrolled or clipped away)."""
    seen = widget.visibleRegion().boundingRect()
    return widget.isVisible() and seen.size() == widget.rect().size()


def _rows_shown(widget) -> int:
    """How many of the widget's pixel rows are in view."""
    return widget.visibleRegion().boundingRect().height() if widget.isVisible() else 0


@pytest.mark.parametrize("sample", ["main_street.encounter.json", "legless_gulch.encounter.json"])
def test_the_target_and_weapon_stay_in_view_with_the_drawn_card(
    qtbot, qapp, tmp_path, monkeypatch, sample
):
    doc = EncounterDocument.open(maps_dir() / sample)
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    panel = win.docks["dock_attack"].widget()
    assert isinstance(panel, AttackPanel)
    win.docks["dock_attack"].raise_()
    for tok in doc.encounter.tokens:  # the first figure with a gun and someone to shoot
        doc.select(tok.id)
        if panel.target_token() and panel.weapon_combo.currentData() is not None:
            break
    else:
        pytest.fail(f"{sample}: nobody to shoot at")
    assert panel.shooter_token() == tok.id
    target, weapon = panel.target_combo.currentText(), panel.weapon_combo.currentText()
    assert panel.draw() is not None, panel.message.text()
    qtbot.wait(20)  # the panel lays out the result and the card
    assert panel.card_view.card() is not None
    # who attacks whom with what: in view, as chosen
    for w in (panel.shooter_label, panel.target_combo, panel.weapon_combo):
        assert _whole(w), w.objectName() or type(w).__name__
    assert (panel.target_combo.currentText(), panel.weapon_combo.currentText()) == (
        target,
        weapon,
    )
    # the card shows: its result line and the table of its cells in view
    assert _whole(panel.result_label) and panel.result_label.text()
    assert _rows_shown(panel.card_view) >= 200, _rows_shown(panel.card_view)
    # Draw, Apply and Put back pinned in view (Draw done: Apply and Put back to press)
    for b in (panel.draw_button, panel.apply_button, panel.clear_button):
        assert _whole(b), b.text()
    assert panel.apply_button.isEnabled() and panel.clear_button.isEnabled()
    # pressing on: the spends scroll into view under the card
    panel.scroll.ensureWidgetVisible(panel.spend_box)
    assert _whole(panel.target_combo) and _whole(panel.weapon_combo)
