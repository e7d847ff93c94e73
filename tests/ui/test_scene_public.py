"""The scene's public mode (players' screen, prints without the Judge's layers), its
layers, and saving a document opened from a bare map file."""

from __future__ import annotations

from twtw_desktop.io import detect_kind, load_map, save_map
from twtw_desktop.model import Encounter, Feature, Map, Token
from twtw_desktop.model.map import Label, Marker, Note
from twtw_desktop.rules.samples import sample_characters
from twtw_desktop.ui.core.commands import ChangeValueCommand
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.scene.map_scene import LAYERS, MapScene


def _doc() -> EncounterDocument:
    m = Map.blank(12, 9)
    m.features = [
        Feature(id="w1", points=[(0.0, 0.0), (6.0, 0.0)], material="adobe"),
        Feature(id="secret", points=[(0.0, 3.0), (6.0, 3.0)], judge_only=True),
        Feature(id="d1", kind="door", points=[(8.0, 3.0), (8.0, 5.0)]),
    ]
    m.labels = [
        Label(id="l1", at=(1.0, 1.0), text="Saloon"),
        Label(id="l2", at=(2.0, 2.0), text="Gold under the floor", judge_only=True),
    ]
    m.notes = [Note(id="n1", hex=(2, 2), text="The sheriff is bribed")]
    m.markers = [
        Marker(id="m1", hex=(3, 3), kind="trap"),
        Marker(id="m2", hex=(4, 3), kind="objective", judge_only=False),
    ]
    chars = sample_characters()
    a, b = list(chars.values())[:2]
    enc = Encounter(
        map=m,
        characters=[a, b],
        tokens=[
            Token(id="seen", character_id=a.id, hex=(4, 4)),
            Token(id="lurker", character_id=b.id, hex=(6, 4), hidden=True),
        ],
    )
    return EncounterDocument(enc)


def test_public_scene_never_makes_items_for_judge_only_content(qtbot):
    doc = _doc()
    judge = MapScene(doc)
    public = MapScene(doc, public=True)
    assert set(judge.tokens) == {"seen", "lurker"}
    assert set(public.tokens) == {"seen"}
    assert set(judge.features) == {"w1", "secret", "d1"}
    assert set(public.features) == {"w1", "d1"}
    assert set(judge.others) == {"l1", "l2", "n1", "m1", "m2"}
    assert set(public.others) == {"l1", "m2"}
    # every item the public scene holds is one of those
    assert len(public.items()) == len(public.tokens) + len(public.features) + len(public.others)


def test_public_scene_follows_hiding_and_unhiding(qtbot):
    doc = _doc()
    public = MapScene(doc, public=True)
    doc.push(ChangeValueCommand(doc, doc.token("seen"), "hidden", True, "tokens"))
    assert "seen" not in public.tokens
    doc.push(ChangeValueCommand(doc, doc.token("lurker"), "hidden", False, "tokens"))
    assert set(public.tokens) == {"lurker"}
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert set(public.tokens) == {"seen"}
    doc.push(ChangeValueCommand(doc, doc.map.labels[1], "judge_only", False, "map"))
    assert "l2" in public.others


def test_layers_hide_and_lock(qtbot):
    doc = _doc()
    sc = MapScene(doc)
    assert all(sc.layer_visible(n) and not sc.layer_locked(n) for n in LAYERS)
    sc.set_layer_visible("walls", False)
    assert not sc.features["w1"].isVisible()
    assert sc.features["d1"].isVisible()  # doors are on the objects layer
    sc.set_layer_visible("notes", False)
    assert not sc.others["n1"].isVisible() and sc.others["l1"].isVisible()
    sc.set_layer_visible("terrain", False)
    assert sc.grid.show_terrain is False
    sc.set_layer_locked("labels", True)
    assert sc.layer_locked("labels")
    sc.rebuild()  # a rebuild keeps the layer state
    assert not sc.features["w1"].isVisible()


def test_a_map_file_opened_alone_saves_as_a_map(qtbot, tmp_path):
    p = tmp_path / "street.map.json"
    save_map(Map.blank(8, 6, name="Street"), p)
    doc = EncounterDocument.open(p)
    assert doc.kind == "map"
    doc.push(ChangeValueCommand(doc, doc.map, "name", "Main Street", "map"))
    doc.save()
    assert detect_kind(p) == "map"
    assert load_map(p).name == "Main Street"
    # Save As an encounter puts the map inside an encounter file
    q = tmp_path / "street.encounter.json"
    doc.save(q)
    assert doc.kind == "encounter" and detect_kind(q) == "encounter"
