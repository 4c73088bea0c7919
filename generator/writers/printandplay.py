"""One file to print: ``<game>-print-and-play.pdf`` and ``components.csv``.

Every producer hands its home-printer documents to the build context
(``ctx.write_pdf(..., section=title)``); this producer, registered last,
puts them in print order — cover, rules, board, cards, tokens, tiles, dice,
the rest — behind a cover page that lists every component with its count,
file and pages (a checklist for cutting). ``components.csv`` holds the same
rows. Each part starts on an odd page (a blank page is added after a part
with an odd page count) so that card backs stay behind their fronts when the
whole file is printed double-sided; one-sided pages (board tiles, fold-over
strips, stickers, die nets) start a sheet and get a blank back, so cutting one
never cuts through another (``cut_through`` finds any that would).

Forms are named by a hash of their drawing, so documents can share one form
table; a name drawn two different ways is refused rather than printed wrong.
"""
from __future__ import annotations

from generator.errors import BuildError
from generator.fonts import Typeset
from generator.layout.cardface import FaceRenderer
from generator.layout.components import KINDS, component_faces
from generator.layout.components.kind import assembly_steps, kind_label, supplies_needed
from generator.layout.components.overview import Shown, overview_page, trim
from generator.layout.faces import LazyForms, document_forms
from generator.layout.primitives import Document, Form, Page
from generator.layout.rulesheet import layout_blocks
from generator.layout.text import set_text
from generator.model.game import Game
from generator.model.rules import Heading, ListBlock, Paragraph, Span, Spans, Table
from generator.model.words import Words
from generator.papers import PAPERS
from generator.writers.cards import printed_decks
from generator.writers.context import BuildContext, Printable, csv_text

#: print order: a part whose kind names one of these goes in that place (first match wins); then components,
#: by their kind's ``print_order`` (tokens, tiles, dice, sheets); then the rest
PRINT_ORDER = ("rules", "board", "card")
#: parts printed on one side only (besides component kinds that declare ``one_sided``): each page gets a blank back
ONE_SIDED = ("board",)
CSV_COLUMNS = ("component", "kind", "count", "file", "pages")
#: the cover's table: catalogue keys of its column headers (the first, the tick box, has none)
HEADERS = ("pnp.head.component", "pnp.head.kind", "pnp.head.count", "pnp.head.file", "pnp.head.pages")
#: the cover's printing notes, by catalogue key
NOTES = ("pnp.note.size", "pnp.note.duplex", "pnp.note.cut")


def rank(kind: str) -> tuple[int, int]:
    """Where a part of this kind goes in the file: rules, boards, cards, each component kind, the rest."""
    component_kind = KINDS.get(kind)
    if component_kind is not None:
        return len(PRINT_ORDER), component_kind.print_order
    for n, word in enumerate(PRINT_ORDER):
        if word in kind:
            return n, 0
    return len(PRINT_ORDER) + 1, 0


def produce_printandplay(game: Game, ctx: BuildContext) -> None:
    if not ctx.wants("print-and-play"):   # not wanted, or only a part built: it would lack the rest
        return
    ctx.progress.step("print-and-play file")
    parts = sorted(ctx.result.printable, key=lambda p: rank(p.kind))  # stable: call order within a kind
    if not parts:
        return
    merged = Document(f"{game.label} — print and play", forms=document_forms(game))
    for part in parts:
        merge_forms(merged, part)
    # the picture of the components, after the cover's list: drawn from the forms the parts already hold
    shown = components_shown(game, parts, ctx.face_renderer())
    for item in shown:
        for form in item.forms:
            _add_form(merged, form)
    paper_wh = PAPERS[ctx.paper]
    picture = [overview_page(shown, paper_wh[0], paper_wh[1], game.typeset, game.words["pnp.overview"], game.title,
                             game.latin, logo_colors(game), "components")] if shown else []
    # the cover's length decides where the parts start, and the cover lists those pages: settle it
    cover_pages = 1
    for _ in range(4):
        spans, body = place_parts(parts, _odd(cover_pages), game.words, game.typeset)
        rows = checklist(game, parts, spans)
        cover = _cover(game, rows, ctx.paper, ctx.print_problem_hook()) + picture
        if len(cover) == cover_pages:
            break
        cover_pages = len(cover)
    paper = (cover[0].width, cover[0].height)
    merged.pages = cover + _blanks(_odd(len(cover)) - len(cover), paper, game.words, game.typeset) + body
    shared = cut_through(merged.pages, 1)
    if shared:   # place_parts pads every one-sided page; this guards the rule, it is not content's fault
        raise BuildError(None, f"the print-and-play file prints pages {shared} back to back with another page",
                         "every one-sided page (Page.one_sided) must get a blank back: see place_parts")
    merged.outline = [(game.words["pnp.cover"], 0)] + [(part.title, first - 1) for part, (first, _) in zip(parts, spans)]
    # written with the parts' own files (``BuildContext.flush``): each face on a page fetched and drawn once for both
    ctx.write_pdf(merged, f"{game.id}-print-and-play.pdf", "print and play", parts=tuple(part.doc for part in parts))
    ctx.write_text("components.csv", components_csv(rows), "component list", count=len(rows), unit="rows")


#: how tall the cover's picture draws a part (mm, before it shrinks to fit): a page-sized sheet, a card-sized part
#: (a card, a card aid, a die net), a piece (at most; smaller ones at real size) and a board (at most)
SHOWN_PAGE, SHOWN_CARD, SHOWN_PIECE, SHOWN_BOARD = 48.0, 32.0, 22.0, 62.0


def components_shown(game: Game, parts: list[Printable], renderer: FaceRenderer) -> list[Shown]:
    """Each printed part once, in print order, as the cover's picture shows it: a deck's first face and its back,
    the board in miniature, a component's ``overview`` forms (a die net) or its first faces (up to three)."""
    shown: list[Shown] = []
    seen: set[str] = set()
    words = game.words
    for part in parts:
        cid = part.component
        if cid is None or cid in seen:
            continue
        seen.add(cid)
        names = list(part.doc.forms)   # names: a large deck's forms are unpickled only when asked for
        if part.kind == "cards" and cid in game.decks and names:
            deck = game.decks[cid]
            count = sum(card.count for card in deck.cards)
            shown.append(Shown((part.doc.forms[names[0]], part.doc.forms[names[-1]]), SHOWN_CARD,
                               words("pnp.shown", name=deck.name, count=count)))
        elif cid in game.boards and names:
            forms = list(part.doc.forms.values())
            board = game.boards[cid]
            full = max(forms, key=lambda f: f.box[2] * f.box[3])   # the whole board; the rest are its tiles
            height = min(SHOWN_BOARD, 2 * SHOWN_BOARD * board.height / board.width)
            shown.append(Shown((full,), height, words("pnp.shown", name=board.name, count=1)))
        elif cid in game.parts:
            component = game.parts[cid]
            hook = getattr(KINDS[component.kind], "overview", None)
            drawn = hook(game, component, renderer) if hook is not None else component_faces(game, component, renderer)[:3]
            if drawn:
                shown.append(Shown(tuple(drawn), _shown_height(drawn),
                                   words("pnp.shown", name=component.name, count=component.count)))
    return shown


def _shown_height(forms: list[Form]) -> float:
    tallest = max(trim(form)[1] for form in forms)
    if tallest > 120:
        return SHOWN_PAGE
    if tallest > 40:
        return SHOWN_CARD
    return min(tallest, SHOWN_PIECE)


def logo_colors(game: Game) -> tuple[str | None, str | None, str | None]:
    """The logo block's colours on the cover: the palette's ``logo`` if it has one, else the first deck's back
    colour, with the palette's gold rules (``None``: the logo's own)."""
    palette = game.palette
    fill = palette["logo"].hex if "logo" in palette else None
    if fill is None:
        for deck in printed_decks(game):
            name = deck.back.vars.get("color")
            if isinstance(name, str) and name in palette:
                fill = palette[name].hex
                break
    accent = palette["gold"].hex if "gold" in palette else None
    return fill, accent, None


def _add_form(merged: Document, form: Form) -> None:
    known = merged.forms.get(form.name)
    if known is not None and known != form:
        raise BuildError(None, f"the cover's picture draws form '{form.name}' differently from the part that prints it",
                         "forms must be named by a hash of their drawing (see cardface.py); rename one")
    merged.forms.setdefault(form.name, form)


def _odd(pages: int) -> int:
    """Pages taken once padded to an even count: the next part starts on an odd page."""
    return pages + pages % 2


def place_parts(parts: list[Printable], first_page: int, words: Words,
                typeset: Typeset) -> tuple[list[tuple[int, int]], list[Page]]:
    """Each part's first and last page in the merged file, and the pages after the cover (with blanks).

    A one-sided page (board tiles, fold-over strips, stickers, die nets: cut
    from one side, so nothing may print behind them) starts a sheet and gets
    a blank page behind it; duplex parts keep their fronts and backs paired.
    """
    spans, pages = [], []
    number = first_page + 1
    for part in parts:
        size = (part.doc.pages[-1].width, part.doc.pages[-1].height)
        placed: list[Page] = []
        last = number
        part_one_sided = one_sided(part)
        for page in part.doc.pages:
            page = _labelled(page, part.title, part_one_sided)
            if page.one_sided and len(placed) % 2:   # it would land on the back of the page before it
                placed += _blanks(1, size, words, typeset)
            placed.append(page)
            last = number + len(placed) - 1
            if page.one_sided:
                placed += _blanks(1, size, words, typeset)
        spans.append((number, last))
        if len(placed) % 2:
            placed += _blanks(1, size, words, typeset)
        pages += placed
        number += len(placed)
    return spans, pages


def cut_through(pages: list[Page], first_page: int) -> list[int]:
    """File page numbers of one-sided pages that share their sheet with a printed page when the file is printed
    double-sided (page ``first_page`` is a front): cutting out one would cut through the other."""
    shared = []
    for i, page in enumerate(pages):
        partner = i + 1 if (first_page + i) % 2 else i - 1
        if page.one_sided and 0 <= partner < len(pages) and pages[partner].label != "blank":
            shared.append(first_page + i)
    return shared


def one_sided(part: Printable) -> bool:
    component_kind = KINDS.get(part.kind)
    if component_kind is not None:
        return component_kind.one_sided
    return any(word in part.kind for word in ONE_SIDED)


def merge_forms(merged: Document, part: Printable) -> None:
    if isinstance(part.doc.forms, LazyForms) and isinstance(merged.forms, LazyForms) and \
            part.doc.forms.store is merged.forms.store:   # one store, one drawing per name: nothing to compare
        for name in part.doc.forms:
            merged.forms.add_name(name)
        return
    for name, form in part.doc.forms.items():
        known = merged.forms.get(name)
        if known is not None and known is not form and known != form:
            raise BuildError(None, f"two parts of the print-and-play file draw form '{name}' differently "
                                   f"({part.title})",
                             "forms must be named by a hash of their drawing (see cardface.py); rename one")
        merged.forms.setdefault(name, form)


def _labelled(page: Page, title: str, one_sided: bool = False) -> Page:
    return Page(page.width, page.height, page.items, page.trim_box, page.bleed_box,
                f"{title}: {page.label}" if page.label else title, page.one_sided or one_sided)


def _blanks(count: int, paper: tuple[float, float], words: Words, typeset: Typeset) -> list[Page]:
    width, height = paper
    note = set_text(typeset, width / 2, height / 2, words["pnp.blank"], 8.0, "#9a9a9a", "middle")
    return [Page(width, height, [note],
                 label="blank") for _ in range(count)]


def checklist(game: Game, parts: list[Printable], spans: list[tuple[int, int]]) -> list[dict]:
    """The component list in print order: every component, and every printed part no component names.

    A component's parts are those its producer wrote for it (``component=`` in
    ``ctx.write_pdf``: a die's nets, a deck's sheets); ``pages`` are where they
    are in the merged file.
    """
    rows: list[dict] = []
    by_component: dict[str, dict] = {}
    components = game.components()
    for part, (first, last) in zip(parts, spans):
        pages = f"{first}-{last}" if last > first else str(first)
        owner = next((c for c in components if c.id == part.component), None)
        if owner is None:
            rows.append({"component": part.title, "kind": part.kind, "count": 1, "file": part.path.name,
                         "pages": pages})
            continue
        row = by_component.get(owner.id)
        if row is None:
            row = by_component[owner.id] = {"component": owner.name, "kind": owner.kind,
                                            "count": owner.count, "file": part.path.name, "pages": pages}
            rows.append(row)
        else:  # one component printed in several files (dice: nets and stickers)
            row["file"] += f" {part.path.name}"
            row["pages"] += f" {pages}"
    rows += [{"component": c.name, "kind": c.kind, "count": c.count, "file": "", "pages": ""}
             for c in components if c.id not in by_component]
    return rows


def components_csv(rows: list[dict]) -> str:
    return csv_text(CSV_COLUMNS, rows)


def _supplies(game: Game) -> list[str]:
    """What the game needs besides paper and a printer, in the game's words: a cutting tool always; sleeves of each
    card size; what the components declare (card stock, glue, blank dice); tape for board tiles."""
    words = game.words
    needs = [words["pnp.need.cut"]]
    sizes = list(dict.fromkeys(f"{deck.geometry.width:g} × {deck.geometry.height:g} mm" for deck in printed_decks(game)))
    if sizes:
        needs.append(words("pnp.need.sleeves", sizes=words["punct.list"].join(sizes)))
    needs += [words[key] for key in supplies_needed(game.parts.values())]
    if game.boards:   # each board prints as tiles to tape together
        needs.append(words["pnp.need.tape"])
    return needs


def _cover(game: Game, rows: list[dict], paper: str, on_print_problem=None) -> list[Page]:
    words = game.words
    source = game.source
    title = words["pnp.title"]
    blocks = [Heading(1, (Span(game.label),), source),
              Paragraph((Span(title, True), Span(words("pnp.items", count=len(rows)))), source)]
    if game.addons:
        addons = words["punct.list"].join(a.title for a in game.addons)
        blocks.append(Paragraph((Span(words("pnp.with", addons=addons)),), source))
    cells: list[list[Spans]] = [
        [(Span("□"),), (Span(r["component"]),), (Span(kind_label(words, r["kind"])),),
         (Span(str(r["count"])),), (Span(r["file"] or "—"),), (Span(r["pages"] or "—"),)] for r in rows]
    header: list[Spans] = [(Span(""),), *((Span(words[key]),) for key in HEADERS)]
    blocks.append(Table(header, cells, ["center", "left", "left", "right", "left", "right"], source))
    blocks.append(ListBlock(False, 1, [[Paragraph((Span(words[note]),), source)] for note in NOTES], source))
    blocks.append(Heading(2, (Span(words["pnp.need"]),), source))
    blocks.append(ListBlock(False, 1, [[Paragraph((Span(need),), source)] for need in _supplies(game)], source))
    steps = assembly_steps(game.parts.values())   # fold, glue, cut: what turns the sheets into pieces
    if steps:
        blocks.append(Heading(2, (Span(words["pnp.assembly"]),), source))
        blocks.append(ListBlock(True, 1, [[Paragraph((Span(words[step]),), source)] for step in steps], source))
    pages, _forms = layout_blocks(blocks, paper, f"{game.title} — {title}", columns=1,
                                  on_print_problem=on_print_problem, families=game.fonts)
    return pages
