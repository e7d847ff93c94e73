"""The map's Throw tool with a printed deck (the Deck panel's physical-card mode): the
Judge types the throw's card, then every further card the resolution reads, each
question naming what the card is for; cancelling changes nothing; a card already
read in the throw is refused; the whole throw is one undo step (000 Throwing Things,
Missed Throws; RULES.md "The action card")."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.attack import CardNeeded
from twtw_desktop.rules.deck import standard_deck
from twtw_desktop.ui.tools import throw as throw_mod
from twtw_desktop.ui.tools.throw import throw_at

from .test_attack_more import judge_window
from .test_throw_blast import CYRIL, FELICIA, _dynamite_doc, _pos

DECK = standard_deck()


@pytest.fixture
def window(qtbot, qapp, tmp_path, monkeypatch):
    doc = _dynamite_doc()
    doc.deck.physical = True
    return judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)


def _state(doc):
    return (
        doc.deck.snapshot(),
        {c.id: c.model_copy(deep=True) for c in doc.encounter.characters},
        len(doc.encounter.log),
        doc.undo_stack.index(),
    )


def _sequence(doc, target: Hex, want) -> list:
    """The cards (throw card first, then the further cards in the order read) of a
    printed-deck throw whose outcome satisfies ``want``: each candidate is thrown for
    real and undone."""
    for first in DECK:
        rest = [c for c in DECK if c.number != first.number]
        out = throw_at(doc, CYRIL, target, weapon_id="dynamite", typed=first, typed_more=rest)
        doc.undo_stack.undo()
        if want(out):
            n = len(out.detail["cards"])
            assert out.detail["cards"] == [first.number] + [c.number for c in rest[: n - 1]]
            return [first, *rest[: n - 1]]
    pytest.fail("no printed card gives that throw")


class Judge:
    """Stands in for the printed-card dialog: answers with ``cards`` in turn
    (None = Cancel) and notes each question."""

    def __init__(self, cards) -> None:
        self.cards = list(cards)
        self.asked: list[tuple[str, str]] = []

    def __call__(self, parent, purpose: str, refusal: str = ""):
        self.asked.append((purpose, refusal))
        assert self.cards, f"asked once too often: {purpose}"
        return self.cards.pop(0)


def _throw_with(window, qtbot, monkeypatch, cards):
    judge = Judge(cards)
    monkeypatch.setattr(throw_mod, "ask_printed_card", judge)
    doc, v = window.document, window.map_view
    doc.select(CYRIL)
    window.tool_actions["throw"].trigger()
    target = doc.token(FELICIA).at
    v.center_on_hex(target)
    qtbot.mouseClick(v.viewport(), Qt.MouseButton.LeftButton, pos=_pos(window, target))
    return judge, v.tool


def test_printed_throw_that_hits_asks_for_each_card(window, qtbot, monkeypatch):
    """000 Throwing Things: the throw's card first, then a card for each person the
    blast catches (and any stun check), each question saying what it is for; the cards
    go to the printed deck's discard pile and one undo puts them all back."""
    doc = window.document
    target = doc.token(FELICIA).at
    cards = _sequence(doc, target, lambda o: o.hit and len(o.detail["cards"]) > 1)
    before = _state(doc)
    judge, tool = _throw_with(window, qtbot, monkeypatch, cards)
    out = tool.last
    assert out is not None and out.hit and out.landing == target
    purposes = [p for p, _ in judge.asked]
    assert len(purposes) == len(cards)
    assert "Cyril Wellington's throw of the Dynamite" in purposes[0]
    assert any(p.startswith("the blast on ") for p in purposes[1:])
    assert all(p != purposes[0] for p in purposes[1:])
    entry = doc.encounter.log[-1]
    assert entry.kind == "throw" and entry.detail["card"] == cards[0].number
    assert entry.detail["cards"] == [c.number for c in cards]
    assert [c.number for c in doc.deck.discard_pile()] == [c.number for c in cards]
    assert not doc.deck.in_play
    hurt = [v for v in out.blast.victims if v.damage is not None]
    for v in hurt:
        assert doc.character(v.character_id).conc == (
            before[1][v.character_id].conc - v.damage.conc_dealt
        )
    assert doc.undo_stack.index() == before[3] + 1
    doc.undo_stack.undo()
    assert _state(doc) == before
    assert not doc.deck.discard_pile()


def test_printed_throw_that_misses_scatters_by_its_own_card(window, qtbot, monkeypatch):
    """000 Missed Throws: a miss goes the card's step toward its clock hour — the
    throw's own card, so the scatter asks for no card of its own."""
    doc = window.document
    target = doc.token(FELICIA).at
    cards = _sequence(doc, target, lambda o: not o.hit and o.landing != target)
    before = _state(doc)
    judge, tool = _throw_with(window, qtbot, monkeypatch, cards)
    out = tool.last
    assert out is not None and not out.hit
    assert out.detail["hour"] == cards[0].clock
    assert out.landing == Hex(*out.detail["landing"]) and out.landing != target
    assert out.landing.distance(target) <= out.detail["distance"]
    assert len(judge.asked) == len(cards)
    assert not any("scatter" in p for p, _ in judge.asked[1:])
    assert tool.show_button.isVisible()
    assert [c.number for c in doc.deck.discard_pile()] == [c.number for c in cards]
    doc.undo_stack.undo()
    assert _state(doc) == before


@pytest.mark.parametrize("answered", [0, 1])
def test_cancelling_a_printed_throw_changes_nothing(window, qtbot, monkeypatch, answered):
    """Cancel on the throw's card, or on a blast victim's card after the throw's card
    was typed: the deck, the sheets, the log and the undo stack are as they were."""
    doc = window.document
    target = doc.token(FELICIA).at
    cards = _sequence(doc, target, lambda o: len(o.detail["cards"]) > 1)
    before = _state(doc)
    judge, tool = _throw_with(window, qtbot, monkeypatch, [*cards[:answered], None])
    assert len(judge.asked) == answered + 1
    assert tool.last is None and tool.show_button.isHidden()
    assert _state(doc) == before
    assert any(w.weapon_id == "dynamite" for w in doc.character("cyril_wellington").weapons)


def test_a_card_already_in_the_throw_is_refused(window, qtbot, monkeypatch):
    """The throw's own card typed again for a blast victim is refused and asked for
    again, with the reason; the throw then goes ahead on the fresh card."""
    doc = window.document
    target = doc.token(FELICIA).at
    cards = _sequence(doc, target, lambda o: len(o.detail["cards"]) > 1)
    judge, tool = _throw_with(window, qtbot, monkeypatch, [cards[0], cards[0], *cards[1:]])
    assert tool.last is not None
    (p1, r1), (p2, r2) = judge.asked[1:3]
    assert p2 == p1 and not r1
    assert not any(r for _, r in judge.asked[3:])  # the fresh cards were taken
    assert f"Card {cards[0].number} is already part of this throw" in r2
    assert doc.encounter.log[-1].detail["cards"] == [c.number for c in cards]
    assert doc.undo_stack.index() == 1


def test_throw_at_names_the_missing_card_and_changes_nothing(window):
    """Without the cards it needs, throw_at raises CardNeeded naming the card and
    leaves the document alone; a number typed twice is refused."""
    doc = window.document
    target = doc.token(FELICIA).at
    cards = _sequence(doc, target, lambda o: len(o.detail["cards"]) > 1)
    before = _state(doc)
    with pytest.raises(CardNeeded, match="throw of the Dynamite"):
        throw_at(doc, CYRIL, target)
    with pytest.raises(CardNeeded) as need:
        throw_at(doc, CYRIL, target, typed=cards[0])
    assert need.value.index == 0 and need.value.purpose != ""
    with pytest.raises(Exception, match="typed in twice"):
        throw_at(doc, CYRIL, target, typed=cards[0], typed_more=[cards[0]])
    assert _state(doc) == before


def test_the_dialog_hook_says_what_the_card_is_for(qtbot, monkeypatch):
    """The real hook opens the Deck panel's physical-card form titled with the card's
    purpose, shows why the last card was refused, and gives None on Cancel."""
    from twtw_desktop.ui.widgets.card_entry import PhysicalCardDialog

    seen = {}

    def fill(dlg):
        qtbot.addWidget(dlg)
        seen["title"] = dlg.windowTitle()
        seen["message"] = dlg.message.text()
        dlg.form.set_card(DECK[4])
        return QDialog.DialogCode.Accepted if dlg.try_accept() else QDialog.DialogCode.Rejected

    monkeypatch.setattr(PhysicalCardDialog, "exec", fill)
    card = throw_mod.ask_printed_card(None, "Felicia Laroq's stun check", "Card 3 is taken.")
    assert card == DECK[4]
    assert seen == {
        "title": "Type the card drawn for Felicia Laroq's stun check",
        "message": "Card 3 is taken.",
    }
    monkeypatch.setattr(PhysicalCardDialog, "exec", lambda dlg: QDialog.DialogCode.Rejected)
    assert throw_mod.ask_printed_card(None, "the blast on Angus Laroq") is None
