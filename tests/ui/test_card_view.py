"""The action card drawn as a card (RULES.md "The action card")."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from twtw_desktop.rules.base import Speed
from twtw_desktop.rules.deck import standard_deck
from twtw_desktop.ui.widgets.card_view import (
    CARD_H,
    CARD_W,
    SECTIONS,
    CardView,
    card_pixmap,
    card_thumbnail,
)


def _image(view: CardView) -> QImage:
    return view.grab().toImage()


def _distinct_colours(img: QImage, step: int = 3) -> int:
    seen = set()
    for y in range(0, img.height(), step):
        for x in range(0, img.width(), step):
            seen.add(img.pixel(x, y))
    return len(seen)


def _diff(a: QImage, b: QImage) -> int:
    assert a.size() == b.size()
    return sum(
        1
        for y in range(0, a.height(), 2)
        for x in range(0, a.width(), 2)
        if a.pixel(x, y) != b.pixel(x, y)
    )


@pytest.fixture
def card():
    return standard_deck()[49]  # card 50, 000's Miranda vs Miners example


def test_card_renders_as_a_card(qtbot, card):
    v = CardView(card)
    qtbot.addWidget(v)
    v.resize(300, 500)
    img = _image(v)
    assert img.width() == 300
    # a painted card has paper, ink, grid rules, highlights colours… not a blank widget
    assert _distinct_colours(img) > 20
    back = CardView(None)
    qtbot.addWidget(back)
    back.resize(300, 500)
    assert _diff(img, _image(back)) > 1000


def test_highlights_change_pixels(qtbot, card):
    v = CardView(card)
    qtbot.addWidget(v)
    v.resize(300, 500)
    plain = _image(v)
    v.highlight_cause_cells([(1, 10), (2, 10), (3, 10)], chosen=(1, 10))
    after_cause = _image(v)
    assert _diff(plain, after_cause) > 50
    v.highlight_effect_cell(5, 8)
    after_effect = _image(v)
    assert _diff(after_cause, after_effect) > 20
    v.highlight_hit_location(2)
    after_hit = _image(v)
    assert _diff(after_effect, after_hit) > 20
    v.highlight_sections({"shield", "clock"})
    assert _diff(after_hit, _image(v)) > 20
    v.clear_highlights()
    assert _diff(plain, _image(v)) == 0


def test_every_section_can_be_highlighted(qtbot, card):
    v = CardView(card)
    qtbot.addWidget(v)
    v.resize(240, 400)
    plain = _image(v)
    for name in SECTIONS:
        v.highlight_sections({name})
        assert _diff(plain, _image(v)) > 0, name
    with pytest.raises(ValueError, match="unknown card section"):
        v.highlight_sections({"saddle"})


def test_effect_rows_past_seven_mark_row_seven(qtbot, card):
    """002 Conditional Bumps: past row 7 each damage bump adds +1 to row 7's cell."""
    v = CardView(card)
    qtbot.addWidget(v)
    v.highlight_effect_cell(9, 8)
    assert v.highlights().effect == (7, 8)


def test_tooltips_name_the_cell_under_the_mouse(qtbot, card):
    v = CardView(card)
    qtbot.addWidget(v)
    v.resize(round(CARD_W), round(CARD_H))
    v.grab()  # paints, recording the regions
    texts = set()
    for y in range(40, 480, 6):
        t = v.region_text(QPointF(150, y))
        if t:
            texts.add(t.split(":")[0])
    assert any(t.startswith("Cause") for t in texts)
    assert any(t.startswith("Effect") for t in texts)
    assert any(t.startswith("Fast action") or t.startswith("Normal action") for t in texts)


def test_initiative_and_burst_highlights(qtbot, card):
    v = CardView(card)
    qtbot.addWidget(v)
    v.resize(300, 500)
    plain = _image(v)
    v.highlight_initiative(Speed.FAST, 0)
    v.highlight_burst(5)
    assert _diff(plain, _image(v)) > 20


def test_scales_and_keeps_its_shape(qtbot, card):
    v = CardView(card)
    qtbot.addWidget(v)
    assert v.heightForWidth(300) == 500
    small = card_pixmap(card, 150)
    large = card_pixmap(card, 600)
    assert (small.width(), small.height()) == (150, 250)
    assert (large.width(), large.height()) == (600, 1000)
    thumb = card_thumbnail(card, 60)
    assert thumb.width() == 60 and thumb.height() == 100
