"""What keeps a large build's memory down (issue 14), each without changing a byte of the output.

No timings here: benchmarks/bench_scale.py measures time and peak memory.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import Source
from generator.layout import expressions, faces, primitives
from generator.layout.faces import SharedFaceRenderer, kept_with
from generator.layout.primitives import Document, Form, Line, Page, Rect, Text, Use
from generator.layout.sheets import duplex_sheets
from generator.load.game import load_game
from generator.model.game import CardGeometry
from generator.outputs import parse_only
from generator.pipeline import build_game
from generator.render import pdf

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CARD = CardGeometry(44, 67, 3, 3)


def _deck_document(cards: int) -> Document:
    doc = Document("memory")
    names = []
    for n in range(cards):
        form = Form(f"face-{n}", (Rect(-3, -3, 50, 73, fill="#336699"), Text(22, 30, f"カード {n}", 9, anchor="middle")),
                    (-3, -3, 50, 73))
        names.append(doc.add_form(form))
    doc.add_form(Form("back", (Rect(-3, -3, 50, 73, fill="#222222"),), (-3, -3, 50, 73)))
    doc.pages = duplex_sheets(names, ["back"] * cards, CARD, "a4", label="memory")
    return doc


def test_pages_compressed_as_shown_give_the_same_file(tmp_path, monkeypatch):
    doc = _deck_document(20)
    pdf.render_pdf(doc, tmp_path / "packed.pdf")
    monkeypatch.setattr(pdf, "_pack", lambda c: None)
    pdf.render_pdf(doc, tmp_path / "kept.pdf")
    assert (tmp_path / "packed.pdf").read_bytes() == (tmp_path / "kept.pdf").read_bytes()


def test_shown_pages_hold_compressed_bytes_not_text(tmp_path, monkeypatch):
    kept = []
    real = pdf._pack
    monkeypatch.setattr(pdf, "_pack", lambda c: (real(c), kept.append(c._doc.Pages.pages[-1])))
    pdf.render_pdf(_deck_document(10), tmp_path / "deck.pdf")
    assert len(kept) == 4   # 10 cards, 9 to a sheet: 2 sheets, front and back
    for page in kept:
        assert page.stream is None
        assert "Filter" in page.Contents.dictionary.dict   # encoded already: save writes it as it is
        assert " re" not in str(page.Contents.content)      # not the drawing operators as text


def test_full_sheets_share_their_crop_marks():
    pages = duplex_sheets([f"f{n}" for n in range(20)], ["back"] * 20, CARD, "a4")
    marks = [[item for item in page.items if isinstance(item, Line)] for page in pages]
    fronts, backs = marks[0::2], marks[1::2]
    assert all(a is b for a, b in zip(fronts[0], fronts[1]))      # two full sheets: the same line objects
    assert all(a is b for a, b in zip(backs[0], backs[1]))
    assert len(fronts[2]) < len(fronts[0])                           # the last sheet (2 cards) marks only its own
    assert pages[0].items is not pages[2].items                      # each page's list is its own


def test_a_page_has_no_instance_dict():
    assert not hasattr(Page(210, 297), "__dict__")
    assert "__slots__" in vars(primitives.Page)


def test_a_face_asked_for_twice_is_drawn_once_without_naming_its_source(monkeypatch):
    game = load_game(FIXTURES / "mini")
    deck = next(iter(game.decks.values()))
    card = deck.cards[0]
    context = {"game": game, "deck": deck, "geometry": deck.geometry, "back": deck.back, "card": card}

    def no_text(self):
        raise AssertionError("a face's key should not format its Source (it resolves a path)")

    monkeypatch.setattr(Source, "__str__", no_text)
    first = SharedFaceRenderer(game).face(deck.layout, dict(context), card.ref, card.source, f"{deck.id}-face",
                                          deck.layout_source)
    again = SharedFaceRenderer(game).face(deck.layout, dict(context), card.ref, card.source, f"{deck.id}-face",
                                          deck.layout_source)
    assert again is first
    assert len(kept_with(game, "faces")) == 1


@pytest.mark.parametrize("only, kept", [((), False), (("pdf", "print-and-play", "print-shop", "svg", "html"), True)])
def test_the_checks_layout_is_let_go_unless_it_is_what_is_written(tmp_path, only, kept):
    """A build of the default outputs lays them out again (faces shared) and lets the check's layout of
    everything go; a build of everything writes that very layout."""
    game = load_game(FIXTURES / "mini")
    outputs = parse_only((), None, True) if kept else parse_only(only, None, False)
    build_game(game, tmp_path / "out", outputs=outputs)
    assert ("a4" in kept_with(game, "layouts")) is kept


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_game_built_as_a_large_one_writes_the_same_bytes(built_game, tmp_path, monkeypatch):
    """Faces kept compressed (``LazyForms``), the check's layout dropped and laid out again: every file of
    Germany's --all build is byte for byte what the small-game path writes."""
    from tests.golden_lib import build
    small = built_game("ttr-germany")
    monkeypatch.setattr(faces, "LARGE_GAME_FACES", 0)
    monkeypatch.setattr(faces, "FACE_OBJECT_BYTES", 0)   # every face pickled (tests/test_facecost.py: some kept)
    stored = []
    put = faces.FormStore.put
    monkeypatch.setattr(faces.FormStore, "put", lambda self, form, *size: (stored.append(form.name), put(self, form, *size)))
    large, _ = build("ttr-germany", tmp_path)
    assert len(stored) > 100   # the faces went through the store
    assert _files(large) == _files(small)


@pytest.mark.parametrize("large", [False, True])
def test_a_large_games_check_keeps_what_it_found_not_the_documents(monkeypatch, large):
    """The check's layout of a large game is looked at and let go (PNP509's marks, the problems and the
    error are kept); a small game's is kept for the build to write."""
    import gc
    import weakref

    from generator.check.dry import laid_out
    from generator.writers.context import BuildContext

    monkeypatch.setattr(faces, "LARGE_GAME_FACES", 0 if large else 10_000)
    docs = []
    for method in ("write_pdf", "print_in_pnp"):
        real = getattr(BuildContext, method)
        monkeypatch.setattr(BuildContext, method, lambda self, doc, *a, _real=real, **k: (
            docs.append(weakref.ref(doc)), _real(self, doc, *a, **k))[1])
    game = load_game(FIXTURES / "mini")
    layout = laid_out(game)
    gc.collect()
    assert len(docs) > 3 and layout.error is None
    assert {component for _, component, nearest in layout.marks if nearest} >= {"trains", "tickets"}  # crop marks
    alive = [ref for ref in docs if ref() is not None]
    assert (layout.ctx is None) is large
    assert (alive == []) is large


@pytest.mark.parametrize("large", [False, True])
def test_a_large_games_faces_are_objects_only_while_drawn(tmp_path, monkeypatch, large):
    """After a build, a large game keeps its faces compressed (``FormStore``): at most ``KEPT_FORMS`` of them are
    objects; a small game keeps every face as one."""
    import gc

    monkeypatch.setattr(faces, "LARGE_GAME_FACES", 0 if large else 10_000)
    monkeypatch.setattr(faces, "KEPT_FORMS", 2)
    monkeypatch.setattr(faces, "FACE_OBJECT_BYTES", 0)   # none kept as objects within the store's budget

    def ticket_faces() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Form) and o.name.startswith("tickets-face"))

    expressions._LAST_CONTEXT[:] = [None, None]   # the last face scope drawn (another test's game) is let go
    before = ticket_faces()
    game = load_game(FIXTURES / "mini")
    build_game(game, tmp_path / "out", outputs=parse_only((), None, True))
    alive = ticket_faces() - before
    if large:
        assert alive <= 2
        assert len(faces.form_store(game)) >= 11 + 2   # 11 tickets, the backs, the trains …
    else:
        assert alive >= 11


def test_a_forms_pictures_are_kept_without_its_drawing():
    """What a form draws is worked out once per process (``primitives._form_pictures``), but that memo must not
    keep the form's items alive: a large game keeps its faces compressed, and 100,000 faces' items held here
    were part of an 865 MiB peak."""
    import gc

    marker = 987.654321
    form = Form("memo-face", (Rect(marker, 0, 1, 1, fill="#000000"),), (0, 0, 10, 10))
    assert primitives.pictures([Use("memo-face", 0, 0)], {"memo-face": form}) == {}
    again = Form("memo-face", (Rect(marker, 0, 1, 1, fill="#000000"),), (0, 0, 10, 10))
    assert primitives.pictures([Use("memo-face", 0, 0)], {"memo-face": again}) == {}   # an equal drawing
    del form, again
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, Rect) and o.x == marker]
