"""The bonus counters from the window (002): the Rules dialog sets the session's
pool, a token's right-click menu takes, spends and hands on a counter (a refused
entry is greyed with the reason), and the attack panel spends the attacker's counter
on the card on show."""

from __future__ import annotations

from twtw_desktop.play.bonus_actions import TakeCounter
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.dialogs.rules_dialog import ChangeRulesCommand, RulesDialog
from twtw_desktop.ui.menus.token_menu import token_menu_actions
from twtw_desktop.ui.panels.attack_panel import AttackPanel

SAMPLE = maps_dir() / "main_street.encounter.json"


def _doc_with_pool(qtbot, n: int = 2) -> EncounterDocument:
    doc = EncounterDocument.open(SAMPLE)
    dlg = RulesDialog(doc)
    qtbot.addWidget(dlg)
    dlg.bonus_pool.setValue(n)
    edition, options = dlg.chosen()
    assert options.bonus_pool == n
    doc.push(ChangeRulesCommand(doc, edition, options))
    return doc


def test_the_token_menu_takes_and_hands_on_a_counter(qtbot):
    doc = EncounterDocument.open(SAMPLE)
    names = [a.text() for a in token_menu_actions(None, doc, "token-hank_daggett", "hank_daggett")]
    assert not any("Bonus counter" in n for n in names)  # no pool, no menu
    doc = _doc_with_pool(qtbot)
    acts = token_menu_actions(None, doc, "token-hank_daggett", "hank_daggett")
    bonus = next(a for a in acts if a.text().startswith("Bonus counter")).menu()
    entries = {a.text(): a for a in bonus.actions()}
    spend = next(a for t, a in entries.items() if t.startswith("Spend: Aces!"))
    assert not spend.isEnabled() and "holds no bonus counter" in spend.toolTip()
    entries["Take one (a bump spent on it)"].trigger()
    assert doc.character("hank_daggett").bonus_counter
    doc.undo_stack.undo()
    assert not doc.character("hank_daggett").bonus_counter


def test_the_attack_panel_spends_the_attackers_counter(qtbot):
    doc = _doc_with_pool(qtbot, 1)
    doc.apply(TakeCounter(who="miranda_valentine"))
    for w in doc.character("miranda_valentine").weapons:
        w.readied = True
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    doc.select("token-miranda_valentine")
    panel.set_target("token-angus_laroq")
    panel.set_shot("snap")
    assert panel.counter_combo.isVisibleTo(panel)
    panel.draw()
    panel.counter_combo.setCurrentIndex(panel.counter_combo.findData("aces"))
    panel.counter_combo.activated.emit(panel.counter_combo.currentIndex())
    assert panel.plan.request.counter == "aces"
    panel.apply()
    assert not doc.character("miranda_valentine").bonus_counter
    assert any("Aces!" in e for e in doc.encounter.log[-1].detail["effects"])
    assert not panel.counter_combo.isVisibleTo(panel)  # nothing left to spend
