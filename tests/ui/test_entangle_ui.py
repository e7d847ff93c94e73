"""003 Entanglement from the window: a figure with a lasso in hand has "Entangle with
the Lasso" on its right-click menu (a target out of reach greyed, saying why), and an
entangled figure has "Break free"."""

from __future__ import annotations

from twtw_desktop.play.actions import Draw
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.menus.token_menu import token_menu_actions

OCTAVIO = "token-octavio_vaquero"


def _submenu(acts, title):
    return next(a for a in acts if a.text().startswith(title)).menu()


def test_the_lasso_is_on_the_figures_menu(qtbot):
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    names = [a.text() for a in token_menu_actions(None, doc, OCTAVIO, OCTAVIO)]
    assert not any(n.startswith("Entanglement") for n in names)  # the lasso is stowed
    doc.apply(Draw(who=OCTAVIO, weapon="lasso"))
    acts = token_menu_actions(None, doc, OCTAVIO, OCTAVIO)
    menu = _submenu(acts, "Entanglement")
    sub = _submenu(menu.actions(), "Entangle with the Lasso")
    far = next(a for a in sub.actions() if a.text() == "Miranda Valentine")
    assert not far.isEnabled() and "reaches" in far.toolTip()
    doc.token("token-dave_perkins").entangled_by = OCTAVIO
    doc.token("token-dave_perkins").entangled_weapon = "lasso"
    acts = token_menu_actions(None, doc, "token-dave_perkins", "token-dave_perkins")
    free = next(a for a in _submenu(acts, "Entanglement").actions() if a.text() == "Break free")
    assert free.isEnabled()
    free.trigger()
    assert "Dave Perkins" in doc.encounter.log[-1].text and "003 Entanglement" in (
        doc.encounter.log[-1].text
    )


def test_trip_is_on_the_lasso_menu(qtbot):
    """003 Entanglement: "entangle and/or trip a target" — the lasso's menu offers a
    trip beside the entangle, each target greyed with the table's reason."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.apply(Draw(who=OCTAVIO, weapon="lasso"))
    menu = _submenu(token_menu_actions(None, doc, OCTAVIO, OCTAVIO), "Entanglement")
    sub = _submenu(menu.actions(), "Trip with the Lasso")
    far = next(a for a in sub.actions() if a.text() == "Miranda Valentine")
    assert not far.isEnabled() and "reaches" in far.toolTip()
