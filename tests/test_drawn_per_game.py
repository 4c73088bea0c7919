"""An element that reads nothing that differs from deck to deck (the game, its palette, the vars that read only those:
a ticket's mini-map of the board) is drawn once for the game, not once per deck that uses the layout (issue 14,
branch exprsnap: 34 M instructions of Germany's deck PDFs)."""
from __future__ import annotations

from generator.layout.cardface import _PER_GAME, FaceRenderer
from generator.load.game import load_game
from tests.conftest import drawn_element_kinds
from tests.layout_lib import faces_of as _faces
from tests.layout_lib import write_layout as _layout

LAYOUT = ('vars:\n'
          '  k: "{{ game.title | length }}"\n'
          '  j: "{{ k + 1 }}"\n'
          '  d: "{{ deck.name | length + k }}"\n'
          'elements:\n'
          '  - rect: {x: 0, y: 0, w: "{{ j }}", h: 1, fill: "{{ \'ink\' if palette else \'paper\' }}"}\n'
          '  - circle: {cx: "{{ d }}", cy: 0, r: 1}\n'
          '  - line: {x1: 0, y1: 0, x2: "{{ W }}", y2: 1}\n'
          '  - repeat: 3\n'
          '    polygon: {points: [[0, 0], ["{{ n + k }}", 1], [0, 2]]}\n'
          '  - symbol: {name: "", x: 0, y: 0, size: 1}\n'
          '  - text: {x: 1, y: 1, w: 30, h: 6, size: 8, text: "{{ card.index }}"}\n')


def _drawn(monkeypatch) -> list[str]:
    return drawn_element_kinds(monkeypatch)


def test_what_reads_only_the_game_is_drawn_once_for_every_deck(mini, monkeypatch):
    _layout(mini, "v", LAYOUT)
    game = load_game(mini)
    alone = {deck: _faces(game, "v", deck) for deck in ("trains", "tickets")}   # a renderer per deck
    drawn = _drawn(monkeypatch)
    renderer = FaceRenderer(game)
    together = {deck: _faces(game, "v", deck, renderer=renderer) for deck in ("trains", "tickets")}
    assert together == alone   # the same faces, names and drawings
    assert drawn.count("rect") == 1 and drawn.count("polygon") == 3 and drawn.count("symbol") == 1
    assert drawn.count("circle") == 2 and drawn.count("line") == 2   # the deck's name, the deck's geometry
    steps = [step[2] for step in next(iter(renderer._element_steps.values()))[0]]
    assert steps == [_PER_GAME, True, True, _PER_GAME, _PER_GAME, False]


def test_another_game_draws_its_own(mini, tmp_path, monkeypatch):
    """The kept drawing is the game's: a renderer drawing another game's faces (the same layout) draws them anew."""
    _layout(mini, "v", LAYOUT)
    game = load_game(mini)
    renderer = FaceRenderer(game)
    first = _faces(game, "v", "tickets", renderer=renderer)
    drawn = _drawn(monkeypatch)
    other = load_game(mini)
    renderer.game = other
    assert _faces(other, "v", "tickets", renderer=renderer) == first
    assert drawn.count("rect") == 1
