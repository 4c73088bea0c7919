"""What every producer shares during one build: what it laid out, and what to write.

Producers lay everything out through the context; the files are written only
by ``flush`` (renderers run then). The checker lays a game out the same way
and keeps the result (``generator.check.dry``): whatever the build would
refuse, the check has met already, and a build that follows reuses it.
"""
from __future__ import annotations

import csv
import gc
import hashlib
import importlib
import io
import pickle
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, partial
from pathlib import Path
from typing import NamedTuple

from generator import cache as build_cache
from generator import fonts
from generator.csvcells import guarded
from generator.errors import BuildError, Source
from generator.layout import images
from generator.layout.cardface import FaceRenderer
from generator.layout.faces import SharedFaceRenderer, is_large
from generator.layout.primitives import Document, Page, forms_used, pictures
from generator.layout.stamp import stamper
from generator.model import dataclass_eq, dataclass_hash, dataclass_repr
from generator.model.game import Game
from generator.outputs import Outputs
from generator.paths import folded


def render_pdf(doc: Document, path: Path, stamp: Callable[[Page], list] | None = None) -> None:
    """``generator.render.pdf.render_pdf``, imported when a PDF is first written: ReportLab's PDF writer
    (``pdfgen``, ``pdfdoc``) is not imported by ``pnpgen check``, whose dry layout writes no file."""
    importlib.import_module("generator.render.pdf").render_pdf(doc, path, stamp)


def render_pdfs_together(whole: tuple, parts: list[tuple]) -> None:
    """``generator.render.pdf.render_pdfs_together``, imported as ``render_pdf`` is."""
    importlib.import_module("generator.render.pdf").render_pdfs_together(whole, parts)


@cache
def _svg():
    """``generator.render.svg``, imported when a build first writes an SVG (its ``xml.etree`` escapes with it)."""
    return importlib.import_module("generator.render.svg")


def render_svg(doc: Document, page: Page, path: Path, pictures: dict[str, str] | None = None) -> object:
    """``generator.render.svg.render_svg``, imported when an SVG is first written (a cards-only build writes none)."""
    return _svg().render_svg(doc, page, path, pictures)


#: the folder beside an SVG where the pictures it refers to are copied
PICTURES_FOLDER = "pictures"


class Pending(NamedTuple):
    """One file a build will write: its name (relative to the output folder), the function that writes it,
    and, for a file whose bytes follow from data cheap to hash, that data (``generator.cache``): ``flush``
    copies the file a build with the same data wrote instead of writing it again."""

    name: str
    write: Callable[[Path], object]
    key: Callable[[], bytes] | None = None
    #: a PDF's document, whether it is stamped, and the documents whose pages it prints (the print-and-play
    #: file's parts): ``flush`` writes such a file and its parts' files together (``render_pdfs_together``)
    pdf: PdfJob | None = None


class PdfJob(NamedTuple):
    doc: Document
    stamp: bool
    parts: tuple[Document, ...] = ()


@dataclass(repr=False, eq=False)
class Written:
    """One line of the build's summary: a file (or folder) written, and how much is in it."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    path: Path
    pages: int      # pages of a PDF; files in a folder, rows of a table (see ``unit``)
    kind: str
    unit: str = "pages"


@dataclass(frozen=True, repr=False, eq=False)
class Printable:
    """A home-printer document that also goes into the print-and-play file.

    It still reads as the pair (section title, Document) — ``title, doc = p``,
    ``p[1]`` — as producers and tests were promised.
    """

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    title: str      # the section's title (a component's name, the rules' words["rules.section"] …)
    doc: Document
    kind: str       # what it is (cards, rules, …): the print-and-play file orders by it
    path: Path      # the standalone file it was written to
    component: str | None = None  # the id of the component it prints (None: rules, a cover …)

    def __iter__(self):
        return iter((self.title, self.doc))

    def __getitem__(self, index):
        return (self.title, self.doc)[index]


@dataclass(repr=False, eq=False)
class BuildResult:
    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    game: Game
    out_dir: Path
    files: list[Written] = field(default_factory=list)
    #: home-printer documents in call order, for the print-and-play file
    printable: list[Printable] = field(default_factory=list)
    #: what the checker found before building (warnings, or errors when built with force)
    findings: list = field(default_factory=list)
    #: lines for the summary: what this build's choice of outputs left out (``Outputs.not_written``)
    notes: list = field(default_factory=list)


class Progress:
    """What a build reports while it runs; the CLI shows it as a bar or lines."""

    def start(self, game: Game, steps: int) -> None: ...
    def step(self, message: str) -> None: ...
    def done(self) -> None: ...


@dataclass(repr=False, eq=False)
class BuildContext:
    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    game: Game
    paper: str
    staging: Path | None   # where ``flush`` writes (None while only laying out)
    final: Path            # the output folder the files are named in (a placeholder until ``flush``)
    progress: Progress
    result: BuildResult = None  # type: ignore[assignment]  # None: __post_init__ makes the build's own
    #: build despite check errors (``--force``): producers draw what they can instead of stopping
    force: bool = False
    #: ``(kind, error)``: text that would not print ("overflow", "glyph") is handed here and drawn anyway
    #: (the checker's dry layout collects it); None: ``force`` decides
    on_print_problem: Callable | None = None
    #: what ``flush`` writes, in call order
    pending: list[Pending] = field(default_factory=list)
    #: the file names recorded so far (``_claim``): each once
    claimed: dict = field(default_factory=dict)   # folded name → the name
    #: pictures already copied beside the SVGs (``_svg_pictures``)
    pictures_copied: set = field(default_factory=set)
    #: the documents SVGs are written from, each once: their text decides the font subsets' masters
    svg_documents: dict = field(default_factory=dict)
    #: what this build writes (``pnpgen build --only/--profile/--all``); the checker's layout: everything
    outputs: Outputs = field(default_factory=Outputs.everything)
    #: False: files are laid out (whatever would stop them is met) but their documents are not kept for ``flush``,
    #: only their names: a large game's check (``generator.check.dry``), whose layout is never written
    keep: bool = True

    def __post_init__(self):
        if self.result is None:
            self.result = BuildResult(self.game, self.final, notes=self.outputs.not_written())

    def wants(self, kind: str, part: str | None = None) -> bool:
        """Whether to lay out files of output ``kind`` (``generator.outputs.KINDS``) for ``part``
        (``deck:ID``, ``component:ID``, ``board:ID``, ``rules``; None: the kind's game-wide file)."""
        return self.outputs.wants(kind, part)

    def print_problem_hook(self) -> Callable | None:
        """What a layout does with text that would not print: hand it to ``on_print_problem``; with --force (the
        checker has reported it) draw it anyway; otherwise None, and the layout stops at it."""
        if self.on_print_problem is not None:
            return self.on_print_problem
        return (lambda kind, error: None) if self.force else None

    def face_renderer(self) -> FaceRenderer:
        """A renderer for card, piece and picture faces, reporting print problems through ``print_problem_hook``;
        faces the checks drew already are not drawn again."""
        return SharedFaceRenderer(self.game, on_print_problem=self.print_problem_hook())

    def write_pdf(self, doc: Document, name: str, kind: str, section: str | None = None,
                  component: str | None = None, stamp: bool = True, parts: tuple[Document, ...] = ()) -> None:
        """Record ``doc`` for ``name`` (relative to the game's output folder); ``flush`` renders it.

        ``section`` (a title) adds the document to the print-and-play file, in call order;
        ``component`` names the component it prints, for the file's checklist and components.csv.
        Every page of the file carries the game's stamp (``generator.layout.stamp``) unless ``stamp`` is False
        (the print shop's pages are the card itself); the print-and-play file gets ``doc`` unstamped and
        stamps its own pages once. ``parts``: documents whose pages ``doc`` prints (the print-and-play file's):
        ``flush`` writes their files with it, each page drawn into both at once.
        """
        self._claim(name)
        write = (lambda path: render_pdf(doc, path, self._stamper(doc) if stamp else None)) if self.keep else _not_kept
        self.pending.append(Pending(name, write, pdf=PdfJob(doc, stamp, parts) if self.keep else None))
        self.result.files.append(Written(self.final / name, len(doc.pages), kind))
        if section is not None:
            self.print_in_pnp(doc, name, kind, section, component)

    def wants_home(self, part: str) -> bool:
        """Whether ``part``'s home-printer documents are laid out: as files (``pdf``), or in the print-and-play file."""
        return self.wants("pdf", part) or self.wants("print-and-play", part)

    def write_home_pdf(self, doc: Document, name: str, kind: str, part: str, section: str | None = None,
                       component: str | None = None) -> None:
        """A home-printer document of ``part``: the file ``name`` when the build wants ``pdf`` for it, and the part
        ``section`` of the print-and-play file when it wants that (the file the checklist names either way)."""
        in_pnp = section if self.wants("print-and-play", part) else None
        if self.wants("pdf", part):
            self.write_pdf(doc, name, kind, section=in_pnp, component=component)
        elif in_pnp is not None:
            self.print_in_pnp(doc, name, kind, in_pnp, component)

    def print_in_pnp(self, doc: Document, name: str, kind: str, section: str, component: str | None = None) -> None:
        """Add ``doc`` to the print-and-play file as the part ``section`` without writing it as a file of its own
        (a build of the print-and-play file alone): ``name`` is still the file the cover's checklist names."""
        self.result.printable.append(Printable(section, doc, kind, self.final / name, component))

    def _claim(self, name: str) -> None:
        """A BuildError when a second file of this build has the name ``name``: ids of different kinds make file
        names side by side (a deck 'score-sheet' and a component 'score-sheet', a deck 'board-map-overview'), and
        the second file would replace the first without a word. The checker's layout meets it too."""
        key = folded(name)   # 'Trains.pdf' and 'trains.pdf' are one file on macOS and Windows
        if key in self.claimed:
            first = self.claimed[key]
            both = first if first == name else f"{first} and {name} (one file where case or accents are not told apart)"
            raise BuildError(Source(Path(self.game.folder) / "game.yaml"),
                             f"two outputs of the game are both named {both}: a deck, component or board id "
                             f"makes the same file name as another part of the game",
                             "rename one of them (ids of decks, components and boards become file names)")
        self.claimed[key] = name

    def _pdf(self, entry: Pending, path: Path) -> tuple:
        """What ``render_pdfs_together`` takes of a PDF to write: its document, its path, its stamp."""
        assert entry.pdf is not None
        doc, stamp = entry.pdf.doc, entry.pdf.stamp
        return doc, path, self._stamper(doc) if stamp else None

    def _stamper(self, doc: Document):
        """The game's stamp for each page of ``doc`` (``stamp.stamper``), worked out as the file is written, page
        by page: a layout only the checker sees (or a file this build does not write) never pays for finding each
        stamp's place, and a large game's faces are unpickled once for a page's stamp and its drawing."""
        return stamper(doc, self.game.stamp, self.game.typeset, self.game.printer_margin)

    def write_svg(self, doc: Document, page: Page, name: str, embed_pictures: bool = False) -> None:
        """Record one page of ``doc`` as the SVG ``name``. Its pictures are copied beside it (``_svg_pictures``),
        or, with ``embed_pictures`` (an SVG a web page shows with <img>, which loads nothing else), carried inside."""
        self._claim(name)   # a name two files would take is refused, by the check's layout too
        if not self.keep:   # nothing else about a face's SVG can fail: its name is enough
            self.pending.append(Pending(name, _not_kept))
            return
        pictures = {} if embed_pictures else self._svg_pictures(doc, page, name)
        self.svg_documents.setdefault(id(doc), doc)
        self.pending.append(Pending(name, lambda path: render_svg(doc, page, path, pictures),
                                    lambda: _svg_key(doc, page, pictures)))

    def _svg_pictures(self, doc: Document, page: Page, name: str) -> dict[str, str]:
        """The pictures ``page`` draws, digest → the path its SVG ``name`` refers to them by: each picture is
        copied once per build into a pictures/ folder beside the SVG (named by its content), so a thousand
        face SVGs with one background refer to one file instead of each carrying a copy. Beside, not in a
        folder above: SVG viewers such as librsvg load only files in the SVG's folder or below it."""
        found = pictures(page.items, doc.forms)
        folder = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        hrefs = {}
        for digest, image in sorted(found.items()):
            href = f"{PICTURES_FOLDER}/{digest[:16]}{Path(image.path).suffix.lower()}"
            target = folder + href
            if target not in self.pictures_copied:
                self.pictures_copied.add(target)
                source = image.path
                if Path(source).suffix.lower() == ".svg":   # with the files it draws inside (a viewer loads none)
                    self.pending.append(Pending(target, partial(_write_standalone_svg, source)))
                else:
                    self.pending.append(Pending(target, partial(shutil.copyfile, source)))
            hrefs[digest] = href
        if found and not folder:
            self.note_folder(PICTURES_FOLDER, "svg pictures")   # beside a top-level SVG (a board's)
        return hrefs

    def write_text(self, name: str, text: str | Callable[[], str], kind: str, count: int = 1,
                   unit: str = "file") -> None:
        """Record a UTF-8 text file (``count`` ``unit``: 11 rows, 1 file); ``text`` may be a function that makes
        it when the file is written (work only the file needs, which a check's layout skips)."""
        self._claim(name)
        self.pending.append(Pending(name, lambda path: path.write_text(text() if callable(text) else text,
                                                                        encoding="utf-8")))
        self.result.files.append(Written(self.final / name, count, kind, unit))

    def note_folder(self, name: str, kind: str) -> None:
        """Record a folder of files (e.g. svg/) once, with its file count.

        Several producers write into svg/: the first records it, later ones update its count.
        """
        count = len({entry.name for entry in self.pending if entry.name.startswith(f"{name}/")})
        entry = next((w for w in self.result.files if w.path == self.final / name), None)
        if entry is not None:
            entry.pages = count
        elif count:
            self.result.files.append(Written(self.final / name, count, kind, "files"))

    def flush(self, staging: Path, final: Path, progress: Progress,
              kept: build_cache.GameCache | None = None) -> BuildResult:
        """Write everything laid out into ``staging``; the result names the files in ``final``.

        ``kept``: the game's build cache; a file whose data it has seen is copied from it, and every
        file with a key is kept in it (``Pending.key``). The bytes are the same either way.
        The context is left as it was, so the same layout can be written again (another --out), except a large
        game's (``faces.is_large``): its documents are let go file by file.
        """
        todo = []
        for entry in self.pending:
            path = staging / entry.name
            path.parent.mkdir(parents=True, exist_ok=True)
            file_key = build_cache.key("file", entry.name, entry.key().hex()) if kept and entry.key else None
            if file_key is not None and kept is not None and kept.fetch(file_key, path):
                progress.step(entry.name)
            else:
                todo.append((entry, path, file_key))
        if any(entry.name.endswith(".svg") for entry, _, _ in todo):
            chars: dict[str, set[str]] = {}
            for doc in self.svg_documents.values():
                for face, found in _svg().text_by_face([i for p in doc.pages for i in p.items], doc.forms).items():
                    chars.setdefault(face, set()).update(found)
            fonts.prepare_web_subsets(chars)   # one cut of each font file per build, not one per deck
        large = is_large(self.game)
        if large:   # a large game's layout is the build's own, written once: each file's documents go once written
            self.pending = []
        together = _together(todo)
        later = {m for members in together.values() for m in members}
        # the last PDF written on its own or with its parts: no file's canvas comes after it to make room for
        last_pdf = max((n for n, (_, path, _) in enumerate(todo) if path.suffix == ".pdf" and n not in later), default=-1)
        for n, (entry, path, file_key) in enumerate(todo):
            if n in later:   # written with the print-and-play file, which prints its pages
                continue
            written = [(entry, path, file_key)]
            if n in together:   # this file first, then its parts, for the progress display
                written += [todo[m] for m in together[n]]
                render_pdfs_together(self._pdf(entry, path), [self._pdf(e, p) for e, p, _ in written[1:]])
            else:
                entry.write(path)
            if large:
                for m in [n, *together.get(n, ())]:
                    todo[m] = None   # type: ignore[call-overload]
            del entry
            if large and path.suffix == ".pdf" and n < last_pdf:
                gc.collect()   # a large deck's canvas and stamped pages are cycles: gone before the next file's
            for done, done_path, done_key in written:
                if done_key is not None and kept is not None:
                    kept.keep(done_key, done_path)
                progress.step(done.name)
            del written
        moved = lambda path: final / path.relative_to(self.final)  # noqa: E731
        return BuildResult(self.game, final, [replace(w, path=moved(w.path)) for w in self.result.files],
                           [replace(p, path=moved(p.path)) for p in self.result.printable],
                           list(self.result.findings))


def _together(todo: list) -> dict[int, list[int]]:
    """Which files of ``todo`` are written together (``render_pdfs_together``): a PDF whose ``PdfJob`` names
    parts, by its index, and the indexes of the PDFs of those parts still to write."""
    by_doc = {id(entry.pdf.doc): n for n, (entry, _, _) in enumerate(todo) if entry.pdf is not None}
    together: dict[int, list[int]] = {}
    taken: set[int] = set()
    for n, (entry, _, _) in enumerate(todo):
        if entry.pdf is not None and entry.pdf.parts and n not in taken:
            members = [m for m in (by_doc.get(id(doc)) for doc in entry.pdf.parts)
                       if m is not None and m != n and m not in taken and m not in together]
            if members:
                together[n] = members
                taken.update(members)
    return together


def _not_kept(path: Path) -> None:
    raise AssertionError(f"{path}: a layout made with keep=False is checked, never written")


def _svg_key(doc: Document, page: Page, pictures: dict[str, str]) -> bytes:
    """What decides a one-page SVG's bytes: the page, the forms it draws (and only those: a deck's other faces
    do not change this face's file) and where its pictures are; fonts and pictures are named by their digests."""
    used = forms_used(page.items, doc.forms)
    return hashlib.sha256(pickle.dumps((page, [doc.forms[name] for name in used], sorted(pictures.items())),
                                       protocol=5)).digest()


def csv_text(columns, rows: list[dict]) -> str:
    """``rows`` as CSV text with a header of ``columns``, "\n" line ends (the same bytes on every system)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: guarded(value) if isinstance(value, str) else value for key, value in row.items()}
                     for row in rows)   # a card named "=HYPERLINK(…)" is no formula in a spreadsheet (csvcells)
    return out.getvalue()


def _write_standalone_svg(source: str, path: Path) -> None:
    """The SVG picture ``source`` written to ``path`` as an SVG output's pictures/ folder holds it."""
    path.write_bytes(images.standalone_svg(source))
