"""The sheet shows a jammed weapon and its Clear jam button plays the table's
clear_jam (000 equipment failure) as one undo step."""

from __future__ import annotations

from twtw_desktop.ui.panels.sheet_panel import SheetPanel

from .test_panels_support import small_document


def test_clear_jam_from_the_sheet(qtbot):
    doc = small_document("ap_v2")
    panel = SheetPanel(doc)
    qtbot.addWidget(panel)
    doc.select("t_miranda_valentine")
    miranda = doc.character("miranda_valentine")
    panel.clear_jam_button.click()
    assert "Select a jammed weapon" in panel.message.text()
    weapons = list(miranda.weapons)
    weapons[0] = weapons[0].model_copy(update={"failure": "jammed"})
    assert panel._commit("weapons", weapons, "jam")
    assert panel.weapons_table.item(0, 0).text().endswith("— jammed")
    panel.weapons_table.selectRow(0)
    panel.clear_jam_button.click()
    assert miranda.weapons[0].failure is None
    assert not panel.weapons_table.item(0, 0).text().endswith("jammed")
    assert "clears the" in doc.encounter.log[-1].text
    panel.weapons_table.selectRow(0)
    panel.clear_jam_button.click()
    assert "not jammed" in panel.message.text()
