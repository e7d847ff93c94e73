"""The deck: draw pile and discard counts, the last cards seen, reshuffle, the seed,
and physical-card mode with its entry form (RULES.md "The action card": the deck is
a real deck, seeded so an encounter can be replayed).

Every button is one undoable step (a :class:`SnapshotCommand` over the deck and the
log), so undoing a draw puts the card back on the pile.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...play.deck_actions import (
    DeckSeed,
    DiscardInPlay,
    DrawCard,
    EnterCard,
    PhysicalCards,
    Reshuffle,
)
from ...play.table import TableEvent
from ...rules.card import Card
from ..widgets.card_entry import PhysicalCardDialog
from ..widgets.card_view import CardDialog, CardView, card_thumbnail
from ._common import MessageLabel, VerticalScroll, attempt

#: How many recent cards the panel shows as thumbnails.
LAST_CARDS = 6
THUMB_W = 34


class DeckPanel(QWidget):
    """Deck counts, recent cards, reshuffle, seed and physical-card entry."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("DeckPanel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        body = QWidget()
        scroll = VerticalScroll(body)
        outer.addWidget(scroll)
        lay = QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)

        counts = QGridLayout()
        self.draw_label = QLabel()
        self.discard_label = QLabel()
        self.in_play_label = QLabel()
        self.reshuffle_label = QLabel()
        for lab in (self.draw_label, self.discard_label, self.in_play_label):
            lab.setStyleSheet("font-size: 15px; font-weight: bold;")
        counts.addWidget(QLabel("Draw pile"), 0, 0)
        counts.addWidget(self.draw_label, 1, 0)
        counts.addWidget(QLabel("Discard"), 0, 1)
        counts.addWidget(self.discard_label, 1, 1)
        counts.addWidget(QLabel("In play"), 0, 2)
        counts.addWidget(self.in_play_label, 1, 2)
        lay.addLayout(counts)
        lay.addWidget(self.reshuffle_label)

        box = QGroupBox("Last cards (click to view)")
        self.thumbs_layout = QHBoxLayout(box)
        self.thumbs_layout.setContentsMargins(4, 4, 4, 4)
        self.thumbs_layout.setSpacing(3)
        self.thumbs: list[QToolButton] = []
        for _ in range(LAST_CARDS):
            b = QToolButton()
            b.setIconSize(QSize(THUMB_W, round(THUMB_W * 5 / 3)))
            b.setAutoRaise(True)
            b.clicked.connect(self._open_thumb)
            self.thumbs.append(b)
            self.thumbs_layout.addWidget(b)
        self.thumbs_layout.addStretch(1)
        lay.addWidget(box)

        self._build_controls(lay)
        self.message = MessageLabel()
        lay.addWidget(self.message)
        self.current = CardView()
        self.current.setMinimumSize(120, 200)
        self.current.setMaximumHeight(420)
        self.current.clicked.connect(self._open_current)
        self.current.setToolTip("The card most recently drawn (click for a larger view)")
        lay.addWidget(self.current, 1)

        self._last: list[Card] = []
        document.changed.connect(self._on_changed)
        self.refresh()

    def _build_controls(self, lay: QVBoxLayout) -> None:
        """The deck's buttons, its seed and the switch to a printed deck."""
        buttons = QGridLayout()
        self.draw_button = QPushButton("Draw a card")
        self.draw_button.setToolTip("Draw one card (a toggle, a generic check) and show it")
        self.draw_button.clicked.connect(self.draw_card)
        self.discard_button = QPushButton("Discard in play")
        self.discard_button.setToolTip("Put every card in play on the discard pile")
        self.discard_button.clicked.connect(self.discard_in_play)
        self.reshuffle_button = QPushButton("Reshuffle")
        self.reshuffle_button.setToolTip("Gather every card and shuffle a fresh draw pile")
        self.reshuffle_button.clicked.connect(self.reshuffle)
        self.physical_button = QPushButton("Enter physical card…")
        self.physical_button.setToolTip("Type the values of a card drawn from a printed deck")
        self.physical_button.clicked.connect(self.open_physical_dialog)
        buttons.addWidget(self.draw_button, 0, 0)
        buttons.addWidget(self.discard_button, 0, 1)
        buttons.addWidget(self.reshuffle_button, 1, 0)
        buttons.addWidget(self.physical_button, 1, 1)
        lay.addLayout(buttons)

        form = QFormLayout()
        seed_row = QHBoxLayout()
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 2_000_000_000)
        self.seed_spin.setToolTip("The same seed deals the same cards in the same order")
        self.seed_button = QPushButton("New deck with seed")
        self.seed_button.clicked.connect(lambda: self.set_seed(self.seed_spin.value()))
        seed_row.addWidget(self.seed_spin, 1)
        seed_row.addWidget(self.seed_button)
        form.addRow("Seed", seed_row)
        self.physical_check = QCheckBox("Physical cards (type in each card drawn)")
        self.physical_check.toggled.connect(self._physical_toggled)
        form.addRow(self.physical_check)
        lay.addLayout(form)

    # -- view -----------------------------------------------------------------------
    def _on_changed(self, area: str) -> None:
        if area in ("deck", "all", "file"):
            self.refresh()

    def refresh(self) -> None:
        deck = self.document.deck
        self.draw_label.setText(str(deck.draw_count))
        self.discard_label.setText(str(deck.discard_count))
        self.in_play_label.setText(str(len(deck.in_play)))
        self.reshuffle_label.setText(
            f"Deck “{deck.name}”, seed {deck.seed}, reshuffled {deck.reshuffles}×"
        )
        self.seed_spin.blockSignals(True)
        self.seed_spin.setValue(min(deck.seed, self.seed_spin.maximum()))
        self.seed_spin.blockSignals(False)
        self.physical_check.blockSignals(True)
        self.physical_check.setChecked(deck.physical)
        self.physical_check.blockSignals(False)
        self.draw_button.setEnabled(not deck.physical)
        self._last = list(deck.last_cards(LAST_CARDS))
        shown = list(reversed(self._last))  # most recent first
        for i, b in enumerate(self.thumbs):
            if i < len(shown):
                card = shown[i]
                b.setIcon(QIcon(card_thumbnail(card, THUMB_W * 2)))
                b.setToolTip(f"Card {card.number}: click to view it")
                b.setProperty("card_index", i)
                b.show()
            else:
                b.hide()
        self.current.set_card(shown[0] if shown else None)

    def last_cards(self) -> list[Card]:
        """The recent cards shown, most recent first."""
        return list(reversed(self._last))

    def _open_thumb(self) -> None:
        b = self.sender()
        i = b.property("card_index") if b is not None else None
        cards = self.last_cards()
        if i is None or i >= len(cards):
            return
        self.show_card(cards[i])

    def _open_current(self) -> None:
        card = self.current.card()
        if card is not None:
            self.show_card(card)

    def show_card(self, card: Card) -> CardDialog:
        dlg = CardDialog(card, parent=self)
        dlg.open()
        return dlg

    # -- actions (each one undoable step: the table's deck actions) ------------------------
    def _apply(self, action) -> TableEvent | None:
        events: list[TableEvent] = []
        attempt(self.message, lambda: events.append(self.document.apply(action)))
        return events[0] if events else None

    def draw_card(self) -> Card | None:
        event = self._apply(DrawCard())
        return self.document.deck.card(event.cards[0]) if event is not None else None

    def discard_in_play(self) -> bool:
        return self._apply(DiscardInPlay()) is not None

    def reshuffle(self) -> bool:
        return self._apply(Reshuffle()) is not None

    def set_seed(self, seed: int) -> bool:
        """Start a fresh deck of the same cards shuffled by ``seed`` (undoable)."""
        return self._apply(DeckSeed(seed=seed)) is not None

    def _physical_toggled(self, on: bool) -> None:
        self.set_physical(on)

    def set_physical(self, on: bool) -> bool:
        ok = self._apply(PhysicalCards(on=on)) is not None
        if not ok:
            self.refresh()
        return ok

    def enter_physical(self, card: Card | dict) -> bool:
        """Put a typed-in card in play (undoable); a bad card shows why."""
        ref = card.model_dump(mode="json") if isinstance(card, Card) else card
        return self._apply(EnterCard(card=ref)) is not None

    def physical_dialog(self) -> PhysicalCardDialog:
        """The entry dialog (not shown); its accepted card goes in play."""
        dlg = PhysicalCardDialog(self)
        dlg.accepted.connect(lambda: dlg.card is not None and self.enter_physical(dlg.card))
        return dlg

    def open_physical_dialog(self) -> PhysicalCardDialog:
        dlg = self.physical_dialog()
        dlg.open()
        return dlg


__all__ = ["DeckPanel"]
