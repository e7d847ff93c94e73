"""Map tools and overlays in the real window: cover line, measure, throw, pick target,
doors, and the overlay switches."""

from __future__ import annotations

import shutil
import uuid

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.errors import RulesError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.model.map import Material
from twtw_desktop.play.attack import AttackRequest, plan_attack
from twtw_desktop.play.catalogue import weapon_in_hand
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.character import CarriedWeapon
from twtw_desktop.rules.combat.ranged import ShotSpec, ranged_tn
from twtw_desktop.rules.combat.situation import ShotSituation
from twtw_desktop.ui.core.commands import ChangeValueCommand
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.tools.throw import throw_at
from twtw_desktop.ui.window.main_window import MainWindow

SAMPLE = "main_street.encounter.json"
HANK = "token-hank_daggett"


@pytest.fixture
def window(qtbot, qapp, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    win = MainWindow(settings=AppSettings())
    qtbot.addWidget(win)
    assert win.open_path(tmp_path / SAMPLE)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    win.map_view.set_zoom_k(0)
    return win


def _pos(win, h: Hex) -> QPoint:
    v = win.map_view
    return v.mapFromScene(v.map_scene.frame.center(h))


def test_cover_line_across_a_window_lists_the_glass(window):
    """000 Cover Penetration: glass is AV 1; the saloon's front window stands between."""
    doc = window.document
    lay = doc.map.layout()
    win_feat = doc.map.feature("saloon-window-front")
    (x0, y), (x1, _) = win_feat.points
    mx = (x0 + x1) / 2
    inside = lay.pixel_to_hex(mx, y - 4.0)
    outside = lay.pixel_to_hex(mx, y + 4.0)
    window.tool_actions["cover"].trigger()
    tool = window.map_view.tool
    assert tool.name == "cover"
    cl = tool.show_line(outside, inside)
    glass = [c for c in cl.crossings if c.feature_id == "saloon-window-front"]
    assert glass and glass[0].crossing.material is Material.GLASS and glass[0].av == 1
    assert any("window of glass, AV 1" in line for line in tool.last_lines)
    assert tool.last_lines[0].split(" · ")[0] in ("visible", "partly visible", "not visible")
    assert tool._item is not None and tool._item.scene() is window.map_view.map_scene


def test_cover_line_with_the_mouse(window, qtbot):
    window.tool_actions["cover"].trigger()
    v = window.map_view
    a, b = Hex(5, 17), Hex(12, 15)
    v.center_on_hex(Hex(8, 16))
    qtbot.mousePress(v.viewport(), Qt.MouseButton.LeftButton, pos=_pos(window, a))
    qtbot.mouseMove(v.viewport(), _pos(window, b))
    qtbot.mouseRelease(v.viewport(), Qt.MouseButton.LeftButton, pos=_pos(window, b))
    assert v.tool.last is not None
    assert v.tool.last.range_paces == a.distance(b)
    assert v.overlays.target_token_id == HANK


def test_measure_gives_paces_and_range_tn(window):
    """000 Range (RULES example 2): Schofield, increment 10 — TN 5 to 9 paces, 6 to 19."""
    doc = window.document
    doc.select("token-cyril_wellington")
    window.tool_actions["measure"].trigger()
    tool = window.map_view.tool
    start = Hex(0, 5)
    r9 = tool.measure(start, Hex(9, 5))
    r12 = tool.measure(start, Hex(12, 5))
    assert (r9.paces, r9.tn) == (9, 5)
    assert (r12.paces, r12.tn) == (12, 6)
    assert "Schofield" in r12.weapon


def test_measure_reads_the_range_tn_the_attack_plan_has(window):
    """#30: Measure asks the rules for the range part of the TN, so at the distance of
    every target it reads what the attack plan starts from (000 Range: Standard + 1 an
    increment), and agrees with it at every distance (not a sum of its own)."""
    doc = window.document
    shooter = "token-cyril_wellington"
    ch = doc.character(doc.token(shooter).character_id)
    held = weapon_in_hand(doc, shooter)
    index = next(i for i, c in enumerate(ch.weapons) if c.weapon_id == held.id)
    doc.push(ChangeValueCommand(doc, ch.weapons[index], "readied", True, "characters"))
    ch = doc.character(ch.id)
    doc.select(shooter)
    window.tool_actions["measure"].trigger()
    tool = window.map_view.tool
    at = doc.token(shooter).at
    planned = 0
    for tok in doc.encounter.tokens:
        if tok.id == shooter:
            continue
        try:
            plan = plan_attack(
                doc.table,
                AttackRequest(
                    shooter_token=shooter, target_token=tok.id, weapon_index=index, cock_first=True
                ),
            )
        except RulesError:
            continue
        reading = tool.measure(at, tok.at)
        assert reading.paces == plan.situation.range_paces
        assert (reading.weapon, reading.tn) == (held.name, _range_part(plan.tn))
        planned += 1
    assert planned >= 2
    for paces in range(1, 40):  # every increment's edge, as ranged_tn reads it
        shot = ShotSpec(cock_first=True)
        tn = ranged_tn(ch, held, doc.edition, ShotSituation(range_paces=paces), shot)
        assert tool.measure(at, at + Hex(paces, 0)).tn == _range_part(tn), paces


def _range_part(tn) -> int:
    """A TN breakdown's base and range step, without the other TN items."""
    return tn.base + sum(m.value for m in tn.tn_items if m.label.startswith("range "))


def _sticks(doc) -> int:
    return sum(w.weapon_id == "dynamite" for w in doc.character("hank_daggett").weapons)


def test_throw_dynamite_that_misses_and_scatters(window, qtbot):
    """000 Missed Throws: the clock turned with 6 at the thrower, step paces astray; undo
    puts the card back on the pile."""
    doc = window.document
    hank = doc.character("hank_daggett")
    dyn = next(w for w in hank.weapons if w.weapon_id == "dynamite")
    doc.push(ChangeValueCommand(doc, dyn, "readied", True, "characters"))
    doc.select(HANK)
    window.tool_actions["throw"].trigger()
    origin = doc.token(HANK).at
    outcome = None
    for i in range(30):  # a hit stays on the stack; the next throw draws the next card
        target = Hex(origin.q + 4 + i % 8, origin.r - 3)
        hank = doc.character("hank_daggett")
        if not any(w.weapon_id == "dynamite" for w in hank.weapons):
            # a thrown stick is gone: hand Hank another for the next try
            hank.weapons = [*hank.weapons, CarriedWeapon(weapon_id="dynamite", readied=True)]
        sticks = _sticks(doc)
        deck_before = doc.deck.snapshot()
        log_before = len(doc.encounter.log)
        outcome = throw_at(doc, HANK, target)
        assert _sticks(doc) == sticks - 1  # the throw takes the stick out of his kit
        if not outcome.hit:
            break
    assert outcome is not None and not outcome.hit, "no miss in thirty throws"
    entry = doc.encounter.log[-1]
    assert entry.kind == "throw" and "misses" in entry.text and "o'clock" in entry.text
    det = entry.detail
    assert det["target"] == [target.q, target.r] and 1 <= det["hour"] <= 12
    landing = Hex(*det["landing"])
    assert landing == outcome.landing
    assert landing.distance(target) <= det["distance"]
    ov = window.map_view.overlays
    qtbot.waitUntil(lambda: ov.throw_item is not None and ov.throw_item.detail is det)
    item = ov.throw_item
    assert item is not None and item.landing == landing and item.scene() is not None
    # the clock is turned so 6 points back at Hank
    import math

    fr = window.map_view.map_scene.frame
    six = item.hour_angle(6)
    c, t = fr.center(target), fr.center(origin)
    back = math.atan2(t.y() - c.y(), t.x() - c.x())
    assert abs(math.remainder(six - back, 2 * math.pi)) < 1e-6
    window.act_undo.trigger()
    assert doc.deck.snapshot() == deck_before
    assert _sticks(doc) == sticks  # undo gives the stick back
    assert len(doc.encounter.log) == log_before
    ov.refresh()
    # the scatter clock of the undone throw is gone (an earlier throw may show instead)
    assert ov.throw_item is None or ov.throw_item.detail is not det


def test_throw_refused_when_not_readied(window):
    from twtw_desktop.errors import RulesError

    doc = window.document
    before = doc.deck.snapshot()
    with pytest.raises(RulesError, match="readied"):
        throw_at(doc, HANK, Hex(16, 15))
    assert doc.deck.snapshot() == before and doc.undo_stack.count() == 0


def test_overlays_toggle(window):
    doc = window.document
    ov = window.map_view.overlays
    doc.select("token-miranda_valentine")
    for name in ("reachable", "field_of_fire", "dodge_front"):
        window.overlay_actions[name].trigger()
        assert ov.is_enabled(name)
        assert ov.items[name].isVisible() and ov.items[name].cells, name
    reach = ov.data["reachable"]
    assert Hex(5, 16) in reach and reach[Hex(5, 16)].cost >= 1
    fof = ov.data["field_of_fire"]
    assert fof.arc.arc_deg in (60, 120)
    window.overlay_actions["corridor"].trigger()
    ov.set_target(HANK)
    assert ov.data["corridor"] is not None
    window.overlay_actions["reachable"].trigger()
    assert not ov.is_enabled("reachable") and not ov.items["reachable"].isVisible()
    doc.select(None)
    ov.refresh()
    assert not ov.items["field_of_fire"].cells


def test_pick_target_for_the_attack_panel(window, qtbot):
    got = []
    v = window.map_view
    v.center_on_hex(Hex(12, 15))
    assert window.document.pick_target(got.append)
    assert v.tool.name == "pick_target"
    qtbot.mousePress(v.viewport(), Qt.MouseButton.LeftButton, pos=_pos(window, Hex(12, 15)))
    assert got == [HANK]
    assert v.tool.name == "select"
    v.pick_target(got.append)
    qtbot.keyClick(v.viewport(), Qt.Key.Key_Escape)
    assert got == [HANK, None] and v.tool.name == "select"


def test_double_click_opens_a_door(window, qtbot):
    doc = window.document
    door = doc.map.feature("bank-door")
    assert not door.is_open
    v = window.map_view
    (x0, y0), (x1, y1) = door.points
    fr = v.map_scene.frame
    p = fr.to_scene(((x0 + x1) / 2, (y0 + y1) / 2))
    v.centerOn(p)
    qtbot.mouseDClick(v.viewport(), Qt.MouseButton.LeftButton, pos=v.mapFromScene(p))
    assert door.is_open
    assert v.map_scene.features["bank-door"].feature.is_open
    window.act_undo.trigger()
    assert not door.is_open
