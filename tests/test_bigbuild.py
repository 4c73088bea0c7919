"""A large build's per-card work beyond the deck PDFs (issue 14): a large game's faces unpickled once per file that
draws them, not once for its pictures, once for its stamp and once for its drawing; findings written as plain
text where rich would print no colour, with the characters rich prints."""
from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from rich.console import Console

from generator.check.registry import Finding
from generator.check.report import PRINT_CHUNK, print_findings
from generator.errors import Source
from generator.layout import faces, primitives, stamp
from generator.layout.primitives import Document, Form, Group, Image, Page, Rect, Text, Use
from generator.load.game import load_game
from generator.outputs import parse_only
from generator.pipeline import build_game

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_large_games_faces_are_unpickled_once_per_build(tmp_path, monkeypatch):
    """The mini game built as a large one (faces in a ``FormStore``) with room for one sheet's faces: each face
    is unpickled once for both PDFs that draw it (its deck's file and the print-and-play file, written page by
    page together), where the stamp, the pictures and the drawing each unpickled it before (four times a file)."""
    monkeypatch.setattr(faces, "LARGE_GAME_FACES", 0)
    monkeypatch.setattr(faces, "KEPT_FORMS", 12)   # a sheet's nine faces and its back: less than a deck
    monkeypatch.setattr(faces, "FACE_OBJECT_BYTES", 0)   # every face pickled
    unpickled: Counter[str] = Counter()
    get = faces.FormStore.get

    def counted(self, name):
        before = self.unpickled
        form = get(self, name)
        unpickled[name] += self.unpickled - before
        return form
    monkeypatch.setattr(faces.FormStore, "get", counted)
    game = load_game(FIXTURES / "mini")
    build_game(game, tmp_path / "out", outputs=parse_only((), None, False))   # home PDFs and print-and-play
    tickets = {name: n for name, n in unpickled.items() if name.startswith("tickets-face")}
    assert len(tickets) == 11
    # the print-and-play cover shows the deck's first and last face: unpickled for it too
    assert sum(tickets.values()) <= len(tickets) + 2, tickets
    assert max(tickets.values()) <= 2, tickets
    assert faces.form_store(game).unpickled == sum(unpickled.values())


def test_a_forms_own_pictures_are_what_pictures_finds():
    """``own_pictures`` (kept as a face is stored) finds what ``pictures`` finds, in its order; a form that places
    another is left to be looked at when asked."""
    a = Image(0, 0, 5, 5, "/a.png", "a" * 64)
    b = Image(1, 1, 5, 5, "/b.png", "b" * 64)
    a2 = Image(2, 2, 9, 9, "/a2.png", "a" * 64)   # the same picture, printed elsewhere
    form = Form("f-1", (a, Rect(0, 0, 1, 1), Group((b, a2, Text(0, 0, "x", 5)))), (0, 0, 10, 10))
    found = primitives.own_pictures(form)
    assert found is not None
    assert found == tuple(primitives.pictures(form.items, {}).items()) == primitives.form_pictures(form, {})
    assert [image for _, image in found] == [a2, b]   # the last item first, a group where it is met
    assert primitives.own_pictures(Form("g-1", (Use("f-1", 0, 0),), (0, 0, 1, 1))) is None
    assert primitives.own_pictures(Form("h-1", (Rect(0, 0, 1, 1),), (0, 0, 1, 1))) == ()


def test_the_form_store_knows_a_faces_pictures_without_unpickling_it():
    store = faces.FormStore()
    art = Image(0, 0, 5, 5, "/a.png", "a" * 64)
    store.put(Form("deck-face-1", (art, Text(0, 0, "one", 5)), (0, 0, 10, 10)))
    store.put(Form("deck-face-2", (Rect(0, 0, 1, 1),), (0, 0, 10, 10)))
    store.put(Form("deck-back-3", (Use("deck-face-1", 0, 0),), (0, 0, 10, 10)))
    forms = faces.LazyForms(store)
    for name in ("deck-face-1", "deck-face-2", "deck-back-3"):
        forms.add_name(name)
    assert store.pictures("deck-face-1", forms) == ((art.digest, art),)
    assert store.pictures("deck-face-2", forms) == ()
    assert store.unpickled == 0
    assert store.pictures("deck-back-3", forms) == ((art.digest, art),)   # it places a face: looked at
    assert store.unpickled >= 1


def test_a_stamper_stamps_each_page_as_stamped_does():
    """``stamper`` (the stamp worked out as each page is drawn) puts on each page what ``stamped`` puts there,
    also after it has let its kept boxes go."""
    from generator.fonts import Typeset
    typeset = Typeset()   # pnpgen's own face
    face = Form("card-1", (Rect(0, 0, 60, 90, fill="#ff0000"), Text(2, 80, "hello", 8)), (0, 0, 60, 90))
    pages = [Page(210, 297, [Use("card-1", 10 + 5 * n, 10), Use("card-1", 10, 180 + n)]) for n in range(6)]
    doc = Document("t", pages, {"card-1": face})
    done = stamp.stamped(doc, "stamp 1.0", typeset)
    old = stamp.STAMPER_KEPT
    try:
        stamp.STAMPER_KEPT = 1   # forgets what it kept on every page
        one = stamp.stamper(doc, "stamp 1.0", typeset)
        assert one is not None
        assert [one(page) for page in pages] == [page.items[len(pages[0].items):] for page in done.pages]
    finally:
        stamp.STAMPER_KEPT = old
    assert stamp.stamper(doc, "", typeset) is None


TRICKY = ["plain words", "[bold]not bold[/]", "a [1] b [x=y] c", "back\\slash\\", "\\[escaped]", "tab\there",
          "carriage\rreturn", "bell\x07", "日本語のテキスト、幅の広い文字", "e\u0301 combining", ":smile: :warning:",
          "x" * 300, "[link=https://example.com]link[/link]", "trailing space ", "", "new\nline", "[/]", "[", "]"]


def _findings() -> list[Finding]:
    found = []
    for n, message in enumerate(TRICKY):
        file = f"deck{n % 3}[x].yaml"
        found.append(Finding("PNP402", "warning" if n % 2 else "error", Source(Path(file), n + 1), message,
                             hint=TRICKY[-n] if n % 4 else None, game="g",
                             waived=TRICKY[n - 1] if n % 5 == 3 else None))
    found.append(Finding("PNP101", "error", Source(None, 3), "no file", game="g"))
    found.append(Finding("PNP101", "warning", Source(Path("cards.xlsx"), 4, "C"), "a cell", hint="h", game="g"))
    found.append(Finding("PNP101", "warning", Source(Path("cards.xlsx")), "no line", game="g"))
    found.sort(key=Finding.sort_key)
    return found


def _printed(findings, plain: bool) -> str:
    out = io.StringIO()
    # record=True keeps rich's own way (what the plain text must equal); it does not change what it prints
    console = Console(file=out, color_system=None, highlight=False, emoji=False, record=not plain, width=80)
    print_findings(findings, console)
    return out.getvalue()


def test_findings_written_plain_are_what_rich_prints():
    findings = _findings()
    assert _printed(findings, plain=True) == _printed(findings, plain=False)
    many = findings * (PRINT_CHUNK // 10 + 3)   # over a chunk: lines are written in order across chunks
    assert _printed(many, plain=True) == _printed(many, plain=False)


def test_findings_on_a_terminal_are_still_coloured():
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", highlight=False, emoji=False)
    print_findings(_findings()[:3], console)
    assert "\x1b[" in out.getvalue()


def test_findings_text_is_pinned():
    findings = [Finding("PNP402", "warning", Source(Path("decks.yaml"), 7), "ticket A–B duplicates [x]",
                        hint="remove one", game="g"),
                Finding("PNP101", "error", Source(Path("decks.yaml"), 9), "bad", game="g", waived="on purpose")]
    assert _printed(findings, plain=True) == ("decks.yaml\n"
                                              "  decks.yaml:7: warning PNP402 ticket A–B duplicates [x]\n"
                                              "    hint: remove one\n"
                                              "  decks.yaml:9: waived PNP101 bad\n"
                                              "    reason: on purpose\n")


def _pages_doc(title: str, pages, forms) -> Document:
    return Document(title, pages, dict(forms))


def test_files_written_together_are_the_files_written_alone(tmp_path):
    """``render_pdfs_together``: the print-and-play file and its parts' files, page by page at once, are byte for
    byte what ``render_pdf`` writes for each alone: with a part it prints in order (with a blank between two of
    its pages), a part it does not print, a part with no pages, and the stamp worked out once for both."""
    from generator.fonts import Typeset
    from generator.render import pdf

    typeset = Typeset()
    faces_ = [Form(f"card-{n}", (Rect(0, 0, 60, 90, fill="#ff0000" if n % 2 else "#0000ff"),
                                 Text(2, 80, f"card {n}", 8)), (0, 0, 60, 90)) for n in range(6)]
    forms = {f.name: f for f in faces_}
    deck_pages = [Page(210, 297, [Use(f.name, 10, 10 + 0.5 * n), Use(f.name, 100, 10)]) for n, f in enumerate(faces_)]
    deck = _pages_doc("deck", deck_pages, forms)
    other = _pages_doc("other", [Page(210, 297, [Use("card-1", 20, 20)])], forms)
    empty = _pages_doc("empty", [], forms)
    cover = Page(210, 297, [Text(20, 20, "cover", 12)])
    blank = Page(210, 297, [Text(100, 150, "blank", 8)])
    body = [Page(p.width, p.height, p.items, label="deck") for p in deck_pages]
    whole = _pages_doc("whole", [cover, *body[:3], blank, *body[3:]], forms)
    whole.outline = [("cover", 0), ("deck", 1)]

    def stamp_of(doc):
        return stamp.stamper(doc, "stamp 1.0", typeset)

    docs = {"whole": whole, "deck": deck, "other": other, "empty": empty}
    for name, doc in docs.items():
        pdf.render_pdf(doc, tmp_path / f"alone-{name}.pdf", stamp_of(doc))
    pdf._DRAWINGS.clear()
    pdf.render_pdfs_together((whole, tmp_path / "together-whole.pdf", stamp_of(whole)),
                             [(doc, tmp_path / f"together-{name}.pdf", stamp_of(doc))
                              for name, doc in docs.items() if name != "whole"])
    for name in docs:
        assert (tmp_path / f"together-{name}.pdf").read_bytes() == (tmp_path / f"alone-{name}.pdf").read_bytes(), name


def test_the_print_and_play_file_is_written_with_its_parts(tmp_path, monkeypatch):
    """A build hands the print-and-play file and the home PDFs it prints to ``render_pdfs_together`` in one call."""
    from generator.writers import context

    calls = []
    real = context.render_pdfs_together
    monkeypatch.setattr(context, "render_pdfs_together",
                        lambda whole, parts: (calls.append((whole[1].name, sorted(p[1].name for p in parts))),
                                              real(whole, parts)))
    game = load_game(FIXTURES / "mini")
    build_game(game, tmp_path / "out", outputs=parse_only((), None, False))
    assert len(calls) == 1
    whole, parts = calls[0]
    assert whole.endswith("print-and-play.pdf")
    assert {"tickets.pdf", "trains.pdf"} <= set(parts)
