"""Dynamite on the map: everyone within the blast radius of where it lands takes the
blast on Apply, as one undo step; a wall between shields them; the throw tool and the
attack panel both show the players the throw (000 Throwing Things, Missed Throws,
Cover Penetration; the blast rule is the house rule of
:mod:`twtw_desktop.rules.combat.blast`)."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, Qt

from twtw_desktop.hexgrid import Hex
from twtw_desktop.model.map import Feature, Material
from twtw_desktop.play.throw import blast_exposures
from twtw_desktop.rules.character import CarriedWeapon
from twtw_desktop.ui.panels.attack_panel import AttackPanel
from twtw_desktop.ui.tools.throw import throw_at

from .test_attack_more import card_that, judge_window, put_on_top
from .test_panels_support import small_document

CYRIL, FELICIA, ANGUS, MIRANDA = (
    "t_cyril_wellington",
    "t_felicia_laroq",
    "t_angus_laroq",
    "t_miranda_valentine",
)


def _dynamite_doc():
    doc = small_document()
    cyril = doc.character("cyril_wellington")
    cyril.weapons = [*cyril.weapons, CarriedWeapon(weapon_id="dynamite", readied=True)]
    # Felicia (9, 3) is the target; Angus (10, 5) is 3 paces from her, inside the blast
    return doc


def _throw_panel(qtbot, doc) -> AttackPanel:
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(300, 900)
    doc.select(CYRIL)
    panel.set_mode("thrown")
    panel.set_target(FELICIA)
    panel.set_shot("normal")
    assert panel.plan is not None
    return panel


def _wall_between(doc, a: Hex, b: Hex, material=Material.ADOBE) -> Feature:
    """A full wall across the middle of the line from ``a`` to ``b``."""
    lay = doc.map.layout()
    (ax, ay), (bx, by) = lay.hex_to_pixel(a), lay.hex_to_pixel(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    px, py = -dy / n * 2.0, dx / n * 2.0
    f = Feature(id="blast-wall", kind="wall", points=[(mx - px, my - py), (mx + px, my + py)])
    f.material = material
    doc.map.features.append(f)
    doc.changed.emit("map")
    return f


def test_a_hit_blasts_everyone_near_the_target_on_apply(qtbot):
    """The dynamite lands on Felicia; Angus, 3 paces off, takes the blast with a card
    of his own. Apply writes both sheets and one undo puts everything back."""
    doc = _dynamite_doc()
    panel = _throw_panel(qtbot, doc)
    assert any("explosive: everyone within 3 paces" in g for g in panel.plan.geometry)

    def both_hurt(p) -> bool:
        r = p.record
        return (
            r.hits > 0
            and r.blast is not None
            and any(v.character_id == "angus_laroq" and v.damage for v in r.blast.victims)
        )

    n = card_that(doc, panel.plan, both_hurt)
    put_on_top(doc.deck, n)
    before = {c.id: c.model_copy(deep=True) for c in doc.encounter.characters}
    p = panel.draw()
    rec = p.record
    assert "Blast (3 p)" in panel.result_label.text()
    victims = {v.character_id: v for v in rec.blast.victims}
    assert "felicia_laroq" not in victims  # she took the throw itself
    assert rec.blast.centre == tuple(doc.token(FELICIA).hex)
    assert doc.character("angus_laroq") == before["angus_laroq"]  # a preview changes nothing
    panel.apply()
    angus = doc.character("angus_laroq")
    dmg = victims["angus_laroq"].damage
    assert angus.conc == before["angus_laroq"].conc - dmg.conc_dealt
    assert angus.wounds[dmg.location] == before["angus_laroq"].wounds[dmg.location] + (
        dmg.wounds_added
    )
    entry = doc.encounter.log[-1]
    assert any(line.startswith("Angus Laroq (3 p)") for line in entry.detail["blast"])
    assert all(w.weapon_id != "dynamite" for w in doc.character("cyril_wellington").weapons)
    assert not doc.deck.in_play
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    for c in doc.encounter.characters:
        assert c == before[c.id]
    assert not doc.deck.discard_pile()


def test_a_wall_shields_from_the_blast(qtbot):
    """Cover between the blast and a person is met like cover against a shot: an
    adobe wall (AV 4) against dynamite's Pen 2 deflects it, or lets only reduced
    damage through on a +2 shield (000 Cover Penetration)."""
    doc = _dynamite_doc()
    felicia, angus = doc.token(FELICIA).at, doc.token(ANGUS).at
    _wall_between(doc, felicia, angus)
    exposures = blast_exposures(doc, felicia, 3)
    by_tok = {e.token_id: e for e in exposures}
    assert [c.material for c in by_tok[ANGUS].covers] == ["adobe"]
    assert by_tok[FELICIA].distance == 0 and by_tok[FELICIA].covers == ()
    panel = _throw_panel(qtbot, doc)
    n = card_that(doc, panel.plan, lambda p: p.record.hits > 0 and p.record.blast.victims)
    put_on_top(doc.deck, n)
    rec = panel.draw().record
    v = next(v for v in rec.blast.victims if v.character_id == "angus_laroq")
    assert v.covers and v.covers[0].av == 4
    assert v.deflected or (v.effect is not None and v.effect.source == "RD")


def test_the_throw_tool_blasts_too(qtbot):
    """The map's throw tool: where the bundle lands, it goes off — the wounds are in
    the same undo step as the draw."""
    doc = _dynamite_doc()
    before = {c.id: c.model_copy(deep=True) for c in doc.encounter.characters}
    target = doc.token(FELICIA).at
    out = throw_at(doc, CYRIL, target, weapon_id="dynamite")
    assert out.blast is not None and out.thrower == doc.token(CYRIL).at
    assert out.target == target
    caught = {v.character_id for v in out.blast.victims}
    near = {
        t.character_id
        for t in doc.encounter.tokens
        if out.landing.distance(t.at) <= 3 and not before[t.character_id].dead
    }
    assert caught == near
    entry = doc.encounter.log[-1]
    assert entry.kind == "throw" and "It goes off" in entry.text and "blast" in entry.detail
    for v in out.blast.victims:
        if v.damage is not None:
            assert doc.character(v.character_id).conc == (
                before[v.character_id].conc - v.damage.conc_dealt
            )
    assert not doc.deck.in_play
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    for c in doc.encounter.characters:
        assert c == before[c.id]


# -- showing the players --------------------------------------------------------------------


@pytest.fixture
def window(qtbot, qapp, tmp_path, monkeypatch):
    return judge_window(qtbot, qapp, tmp_path, monkeypatch, _dynamite_doc())


def _pos(win, h: Hex) -> QPoint:
    v = win.map_view
    return v.mapFromScene(v.map_scene.frame.center(h))


def test_throw_tool_shows_the_players_the_scatter(window, qtbot):
    doc = window.document
    v = window.map_view
    doc.select(CYRIL)
    window.tool_actions["throw"].trigger()
    tool = v.tool
    assert tool.name == "throw" and tool.show_button.isHidden()
    target = Hex(6, 6)
    v.center_on_hex(target)
    qtbot.mouseClick(v.viewport(), Qt.MouseButton.LeftButton, pos=_pos(window, target))
    assert tool.last is not None and tool.last.target == target
    assert tool.show_button.isVisible()
    with qtbot.waitSignal(doc.playersShow, timeout=1000) as sig:
        qtbot.mouseClick(tool.show_button, Qt.MouseButton.LeftButton)
    assert sig.args[0] == "scatter"
    assert sig.args[1] == (doc.token(CYRIL).at, target, tool.last.landing)
    qtbot.keyClick(v.viewport(), Qt.Key.Key_Escape)
    assert tool.show_button.isHidden()


def test_panel_shows_the_players_a_missed_throw(window, qtbot):
    doc = window.document
    panel = window.findChild(AttackPanel)
    doc.select(CYRIL)
    panel.set_mode("thrown")
    panel.set_target(FELICIA)
    panel.set_shot("normal")
    n = card_that(doc, panel.plan, lambda p: not p.record.hit.success)
    put_on_top(doc.deck, n)
    p = panel.draw()
    assert p.outcome.landing is not None and panel.show_scatter_button.isEnabled()
    with qtbot.waitSignal(doc.playersShow, timeout=1000) as sig:
        qtbot.mouseClick(panel.show_scatter_button, Qt.MouseButton.LeftButton)
    thrower, target, landing = sig.args[1]
    assert sig.args[0] == "scatter" and landing == p.outcome.landing
    assert thrower == doc.token(CYRIL).at and target == doc.token(FELICIA).at
    assert landing.distance(target) <= p.record.scatter.distance
