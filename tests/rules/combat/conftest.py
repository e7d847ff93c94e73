from __future__ import annotations

import pytest

from twtw_desktop.rules.deck import Deck, standard_deck
from twtw_desktop.rules.editions import load_edition
from twtw_desktop.rules.gear import default_gear
from twtw_desktop.rules.samples import sample_characters


@pytest.fixture
def ap_v2():
    return load_edition("ap_v2")


@pytest.fixture
def phases():
    return load_edition("phases")


@pytest.fixture
def gear():
    return default_gear()


@pytest.fixture
def samples():
    """Fresh copies of the sample characters (tests may ready weapons on them)."""
    return {k: v.model_copy(deep=True) for k, v in sample_characters().items()}


@pytest.fixture
def deck():
    return Deck(standard_deck(), seed=20240601)


@pytest.fixture
def card_by_number():
    cards = {c.number: c for c in standard_deck()}
    return cards.__getitem__
