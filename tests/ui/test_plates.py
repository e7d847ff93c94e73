"""The name plates' layout (ui/scene/plates.py): after any sequence of moves, laying
out only the plates a move can reach gives exactly what laying out every plate afresh
gives, on a crowded map where plates collide in chains."""

from __future__ import annotations

import random

from twtw_desktop.bench.ui import make_document
from twtw_desktop.hexgrid import Hex
from twtw_desktop.ui.core.commands import MoveTokenCommand
from twtw_desktop.ui.scene.map_scene import MapScene
from twtw_desktop.ui.scene.plates import PlateLayout


def _texts(scene: MapScene) -> dict[str, str | None]:
    return {tid: it.plate_text for tid, it in scene.tokens.items()}


def _fresh(scene: MapScene) -> dict[str, str | None]:
    """What a layout of every plate from scratch chooses (the scene's items keep
    their text: put back after)."""
    before = _texts(scene)
    PlateLayout().lay_out(scene._shown_items(), scene.plate_scale)
    fresh = _texts(scene)
    for tid, text in before.items():
        scene.tokens[tid].plate_text = text
    return fresh


def test_a_move_relays_only_what_it_reaches_and_matches_a_fresh_layout(qapp):
    doc = make_document(16, 4, 70)  # 70 figures on a 16×16 map...
    for i, c in enumerate(doc.encounter.characters):
        c.name = f"Laroq gunman number {i}"  # ...with long names: plates collide
    scene = MapScene(doc)
    for scale in (None, 0.42):
        scene.set_plate_scale(scale)
        texts = _texts(scene)
        assert any(t is not None for t in texts.values())  # some shortened or dropped
        assert any(t is None for t in texts.values())  # some whole
        rng = random.Random(7)
        toks = doc.encounter.tokens
        for _ in range(60):
            tok = rng.choice(toks)
            free = [
                h
                for d in range(6)
                if doc.map.contains(h := Hex(*tok.hex).neighbor(d))
                and doc.encounter.token_at(h) is None
            ]
            if not free:
                continue
            doc.push(MoveTokenCommand(doc, tok.id, rng.choice(free)))
            if rng.random() < 0.3:
                doc.undo_stack.undo()
            assert _texts(scene) == _fresh(scene)


def test_a_move_lays_out_few_plates_on_a_sparse_map(qapp, monkeypatch):
    doc = make_document(60, 4, 40)
    scene = MapScene(doc)
    placed: list[int] = []
    real = PlateLayout._place
    monkeypatch.setattr(
        PlateLayout, "_place", lambda self, order: placed.append(len(order)) or real(self, order)
    )
    tok = doc.encounter.tokens[0]
    to = next(
        h
        for d in range(6)
        if doc.map.contains(h := Hex(*tok.hex).neighbor(d)) and doc.encounter.token_at(h) is None
    )
    doc.push(MoveTokenCommand(doc, tok.id, to))
    assert placed and placed[-1] < 5  # not the forty
    assert scene.tokens[tok.id].pos() == scene.frame.center(to)  # (the scene followed)
