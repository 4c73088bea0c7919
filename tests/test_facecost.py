"""What a card face costs to lay out, key, store and fetch (issue 14, branch facecost): counts, not times.

A large game's ``FormStore`` keeps faces as objects within a budget (pickled beyond it), a face's key reads a card
geometry's numbers instead of its repr, a per-card element's drawing is found by a flat key, and a filter with one
argument is called without building argument lists. Each without changing a byte: the builds below compare files.
benchmarks/results.md ("facecost") has the times.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from jinja2 import StrictUndefined

from generator.errors import Source
from generator.jinja_sandbox import BoundedSandbox
from generator.layout import cardface, expressions, faces
from generator.layout.deck import draw_deck
from generator.layout.primitives import Form, Group, Rect, Text
from generator.load.game import load_game
from generator.model.game import CardGeometry
from generator.outputs import parse_only
from generator.pipeline import build_game
from tests.layout_lib import Thing, faces_of, write_layout

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _build(tmp_path: Path, name: str):
    expressions.forget_context()
    game = load_game(FIXTURES / "mini")
    out = tmp_path / name
    build_game(game, out, outputs=parse_only((), None, True))
    return game, _files(out)


def test_a_large_games_faces_are_objects_within_the_budget_and_the_files_the_same(tmp_path, monkeypatch):
    """The mini game built small (faces as Forms), large with room for every face (kept as objects: none pickled,
    none unpickled), large with room for a few (the rest pickled, and unpickled to be drawn) and large with none:
    the same bytes in every file."""
    _, small = _build(tmp_path, "small")
    monkeypatch.setattr(faces, "LARGE_GAME_FACES", 0)
    game, objects = _build(tmp_path, "objects")
    store = faces.form_store(game)
    assert len(store) > 10 and store.pickled == 0 and store.unpickled == 0
    assert 0 < store.object_bytes <= faces.FACE_OBJECT_BYTES
    assert objects == small

    monkeypatch.setattr(faces, "FACE_OBJECT_BYTES", store.object_bytes // 3)
    game, some = _build(tmp_path, "some")
    store = faces.form_store(game)
    assert store.pickled > 0 and len(store._objects) > 0 and len(store) == store.pickled + len(store._objects)
    assert store.object_bytes <= faces.FACE_OBJECT_BYTES
    assert store.unpickled >= 1
    assert some == small

    monkeypatch.setattr(faces, "FACE_OBJECT_BYTES", 0)
    game, none = _build(tmp_path, "none")
    assert len(faces.form_store(game)._objects) == 0
    assert none == small


def test_the_store_keeps_an_object_only_with_its_size_and_within_the_budget(monkeypatch):
    monkeypatch.setattr(faces, "FACE_OBJECT_BYTES", 1000)
    store = faces.FormStore()
    a = Form("deck-face-a", (Rect(0, 0, 1, 1),), (0, 0, 10, 10))
    b = Form("deck-face-b", (Rect(0, 0, 2, 2),), (0, 0, 10, 10))
    c = Form("deck-face-c", (Rect(0, 0, 3, 3),), (0, 0, 10, 10))
    d = Form("deck-face-d", (Rect(0, 0, 4, 4),), (0, 0, 10, 10))
    store.put(a, 600)
    store.put(b, 600)      # 1,200 > 1,000: pickled
    store.put(c, 400)      # fits beside a
    store.put(d)           # size unknown (a document's own form): pickled
    store.put(a, 600)      # kept already: nothing changes
    assert (store.object_bytes, store.pickled, len(store)) == (1000, 2, 4)
    assert store.get("deck-face-a") is a and store.get("deck-face-c") is c and store.unpickled == 0
    assert store.get("deck-face-b") == b and store.get("deck-face-b") is not b and store.unpickled == 1
    assert "deck-face-d" in store and store.get("deck-face-d") == d


def test_a_faces_size_counts_what_it_drew_alone():
    """``FaceRenderer.fresh``: the primitives drawn anew for the face last drawn. The first ticket draws all of its
    own; a later one finds the deck's constant elements and the texts met before, and counts only what is new."""
    game = load_game(FIXTURES / "mini")
    deck = game.decks["tickets"]
    renderer = cardface.FaceRenderer(game)
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back}
    fresh = []
    for card in deck.cards:
        form = renderer.face(deck.layout, dict(context, card=card), card.ref, card.source, "t")
        fresh.append(renderer.fresh)
        if len(fresh) == 1:
            assert renderer.fresh == cardface._primitives(form.items)
    assert fresh[0] == 10 and max(fresh[1:]) < fresh[0], fresh
    # the fifth ticket (Hamburg → Berlin, 7): its names and points were all met before
    assert fresh[4] == 0, fresh
    # the seventh (Berlin → Hamburg, 5) differs from the first only by its points: its badge is new
    assert 0 < fresh[6] < fresh[0], fresh
    assert faces.face_bytes(form, 0) == faces.FORM_BYTES + faces.ITEM_BYTES * len(form.items)
    assert cardface._primitives((Rect(0, 0, 1, 1), Group((Rect(0, 0, 1, 1), Group((Text(0, 0, "x", 5),)))))) == 5


def test_a_faces_key_reads_the_geometrys_numbers_not_its_repr(monkeypatch):
    calls = []
    monkeypatch.setattr(CardGeometry, "__repr__", lambda self: calls.append(self) or "geometry")
    src = Source(Path("/game/decks.yaml"), 3)
    card = Thing(name="a")

    def key(geometry, what="card 1"):
        return faces._key("ttr-ticket", {"card": card, "geometry": geometry, "n": 1}, what, src, "t-face", None)

    assert key(CardGeometry(44, 67, 3, 3)) == key(CardGeometry(44, 67, 3, 3))   # by value
    assert key(CardGeometry(44, 67, 3, 3))[0] != key(CardGeometry(44, 67, 3, 2))[0]
    assert key(CardGeometry(44, 67, 3, 3))[0] != key(CardGeometry(44, 67, 3, 3), "card 2")[0]
    assert key(CardGeometry(44, 67, 3, 3))[1] == (card,)   # kept alive with the face: its id is in the key
    assert calls == []


@pytest.mark.parametrize("values, shown", [((1, 1.0, True, "1"), ["1", "1.0", "True", "1"])])
def test_per_card_values_equal_as_numbers_are_drawn_each_as_it_prints(tmp_path, values, shown):
    """A per-card element's drawing is kept by its values' types and values: 1, 1.0 and True are equal as keys of
    a dict, but print differently; "1" prints as 1 does and is drawn again (its type differs), the same."""
    shutil.copytree(FIXTURES / "mini", tmp_path / "mini")
    game = load_game(tmp_path / "mini")
    write_layout(game.folder, "v", 'elements:\n  - text: {x: 1, y: 1, w: 40, h: 5, text: "{{ card.v }}"}\n')
    deck = game.decks["tickets"]
    for n, card in enumerate(deck.cards):
        card.values["v"] = values[n] if n < len(values) else "x"
    drawn = faces_of(game, "v")[:len(values)]
    texts = [item.text for form in drawn for item in form.items if isinstance(item, Text)]
    assert texts == shown
    assert drawn[0].name == drawn[3].name and len({form.name for form in drawn[:3]}) == 3


def test_a_filter_with_one_argument_makes_its_eval_context_once(monkeypatch):
    """``join`` asks for an eval context: made once per compiled expression, not on every card; the value is
    Jinja's own, and the sandbox's bounded join still measures what it joins."""
    made = []

    class Counted(expressions.EvalContext):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(expressions, "EvalContext", Counted)
    env = BoundedSandbox(undefined=StrictUndefined)
    text = "ends | map(attribute='name') | join(' / ')"
    run = expressions.compile_expression(env, text)
    assert run is not None
    ends = [Thing(name="Berlin"), Thing(name="Köln")]
    for _ in range(5):
        assert run({"ends": ends}) == env.compile_expression(text)(ends=ends) == "Berlin / Köln"
    assert len(made) == 1
    test = expressions.compile_expression(env, "x is sequence")
    assert test is not None and test({"x": [1]}) is True and test({"x": 1}) is False
    long = [Thing(name="x" * 1000)] * 1100   # 1,100,000 characters: past the sandbox's MAX_JINJA_SEQUENCE
    with pytest.raises(Exception, match="join"):
        run({"ends": long})


def test_a_large_deck_is_drawn_once_and_found_twice(monkeypatch):
    """The check draws a large game's faces (keeping them in the store); the dry layout and the build find them by
    key: one ``FaceRenderer.face`` per distinct face, none pickled within the budget."""
    monkeypatch.setattr(faces, "LARGE_GAME_FACES", 0)
    drawn = []
    face = cardface.FaceRenderer.face
    monkeypatch.setattr(cardface.FaceRenderer, "face", lambda self, *a, **k: drawn.append(a[2]) or face(self, *a, **k))
    game = load_game(FIXTURES / "mini")
    deck = game.decks["tickets"]
    for _ in range(3):
        art = draw_deck(game, deck, faces.NamingFaceRenderer(game))
    assert len(drawn) == len(deck.cards) + 1   # each ticket and the back, once
    assert all(isinstance(face, faces.FaceName) for face in art.faces)
    store = faces.form_store(game)
    assert store.pickled == 0 and all(isinstance(store.get(face.name), Form) for face in art.faces)


def test_a_decks_face_keys_are_worked_out_once_per_deck(monkeypatch):
    """``draw_deck`` with a ``SharedFaceRenderer`` (the check, its dry layout, the build) finds each face by a key
    worked out once per deck (``faces.deck_keys``), again only when the deck's cards or context are other objects."""
    keyed = []
    key = faces._key
    monkeypatch.setattr(faces, "_key", lambda *a: keyed.append(a[2]) or key(*a))
    game = load_game(FIXTURES / "mini")
    deck = game.decks["tickets"]
    first = [draw_deck(game, deck, faces.SharedFaceRenderer(game)) for _ in range(3)]
    cards = len(deck.cards)
    assert keyed.count(deck.cards[0].ref) == 1 and len([k for k in keyed if k.startswith("tickets card")]) == cards
    assert all(a.name == b.name for art in first[1:] for a, b in zip(first[0].faces, art.faces))
    keyed.clear()
    deck.cards[3] = deck.cards[4]   # another card object in the list: worked out again, and drawn as that card
    again = draw_deck(game, deck, faces.SharedFaceRenderer(game))
    assert len([k for k in keyed if k.startswith("tickets card")]) == cards
    assert again.faces[3].name == first[0].faces[4].name
    keyed.clear()
    from generator.writers.cards import with_bleed
    wider = draw_deck(game, with_bleed(deck, 5.0), faces.SharedFaceRenderer(game))   # another geometry
    assert len([k for k in keyed if k.startswith("tickets card")]) == cards
    assert wider.faces[0].name != first[0].faces[0].name
