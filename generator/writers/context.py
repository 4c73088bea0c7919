"""What every producer shares during one build: what it laid out, and what to write.

Producers lay everything out through the context; the files are written only
by ``flush`` (renderers run then). The checker lays a game out the same way
and keeps the result (``generator.check.dry``): whatever the build would
refuse, the check has met already, and a build that follows reuses it.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator import fonts
from generator.layout.cardface import FaceRenderer
from generator.layout.faces import SharedFaceRenderer
from generator.layout.primitives import Document, Page, pictures
from generator.layout.stamp import stamped
from generator.model.game import Game
from generator.render.pdf import render_pdf
from generator.render.svg import render_svg, text_by_face

#: the folder beside an SVG where the pictures it refers to are copied
PICTURES_FOLDER = "pictures"


@dataclass
class Written:
    """One line of the build's summary: a file (or folder) written, and how much is in it."""

    path: Path
    pages: int      # pages of a PDF; files in a folder, rows of a table (see ``unit``)
    kind: str
    unit: str = "pages"


@dataclass(frozen=True)
class Printable:
    """A home-printer document that also goes into the print-and-play file.

    It still reads as the pair (section title, Document) — ``title, doc = p``,
    ``p[1]`` — as producers and tests were promised.
    """

    title: str      # the section's title (a component's name, the rules' words["rules.section"] …)
    doc: Document
    kind: str       # what it is (cards, rules, …): the print-and-play file orders by it
    path: Path      # the standalone file it was written to
    component: str | None = None  # the id of the component it prints (None: rules, a cover …)

    def __iter__(self):
        return iter((self.title, self.doc))

    def __getitem__(self, index):
        return (self.title, self.doc)[index]


@dataclass
class BuildResult:
    game: Game
    out_dir: Path
    files: list[Written] = field(default_factory=list)
    #: home-printer documents in call order, for the print-and-play file
    printable: list[Printable] = field(default_factory=list)
    #: what the checker found before building (warnings, or errors when built with force)
    findings: list = field(default_factory=list)


class Progress:
    """What a build reports while it runs; the CLI shows it as a bar or lines."""

    def start(self, game: Game, steps: int) -> None: ...
    def step(self, message: str) -> None: ...
    def done(self) -> None: ...


@dataclass
class BuildContext:
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
    #: what ``flush`` writes, in call order: (name relative to the output folder, writer(path))
    pending: list = field(default_factory=list)
    #: pictures already copied beside the SVGs (``_svg_pictures``)
    pictures_copied: set = field(default_factory=set)
    #: the documents SVGs are written from, each once: their text decides the font subsets' masters
    svg_documents: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.result is None:
            self.result = BuildResult(self.game, self.final)

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
                  component: str | None = None, stamp: bool = True) -> None:
        """Record ``doc`` for ``name`` (relative to the game's output folder); ``flush`` renders it.

        ``section`` (a title) adds the document to the print-and-play file, in call order;
        ``component`` names the component it prints, for the file's checklist and components.csv.
        Every page of the file carries the game's stamp (``generator.layout.stamp``) unless ``stamp`` is False
        (the print shop's pages are the card itself); the print-and-play file gets ``doc`` unstamped and
        stamps its own pages once.
        """
        printed = stamped(doc, self.game.stamp, self.game.typeset, self.game.printer_margin) if stamp else doc
        self.pending.append((name, lambda path: render_pdf(printed, path)))
        self.result.files.append(Written(self.final / name, len(doc.pages), kind))
        if section is not None:
            self.result.printable.append(Printable(section, doc, kind, self.final / name, component))

    def write_svg(self, doc: Document, page: Page, name: str, embed_pictures: bool = False) -> None:
        """Record one page of ``doc`` as the SVG ``name``. Its pictures are copied beside it (``_svg_pictures``),
        or, with ``embed_pictures`` (an SVG a web page shows with <img>, which loads nothing else), carried inside."""
        pictures = {} if embed_pictures else self._svg_pictures(doc, page, name)
        self.svg_documents.setdefault(id(doc), doc)
        self.pending.append((name, lambda path: render_svg(doc, page, path, pictures)))

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
                self.pending.append((target, lambda path, source=source: shutil.copyfile(source, path)))
            hrefs[digest] = href
        if found and not folder:
            self.note_folder(PICTURES_FOLDER, "svg pictures")   # beside a top-level SVG (a board's)
        return hrefs

    def write_text(self, name: str, text: str, kind: str, count: int = 1, unit: str = "file") -> None:
        """Record a UTF-8 text file (``count`` ``unit``: 11 rows, 1 file)."""
        self.pending.append((name, lambda path: path.write_text(text, encoding="utf-8")))
        self.result.files.append(Written(self.final / name, count, kind, unit))

    def note_folder(self, name: str, kind: str) -> None:
        """Record a folder of files (e.g. svg/) once, with its file count.

        Several producers write into svg/: the first records it, later ones update its count.
        """
        count = len({written for written, _ in self.pending if written.startswith(f"{name}/")})
        entry = next((w for w in self.result.files if w.path == self.final / name), None)
        if entry is not None:
            entry.pages = count
        elif count:
            self.result.files.append(Written(self.final / name, count, kind, "files"))

    def flush(self, staging: Path, final: Path, progress: Progress) -> BuildResult:
        """Write everything laid out into ``staging``; the result names the files in ``final``.

        The context is left as it was, so the same layout can be written again (another --out).
        """
        chars: dict[str, set[str]] = {}
        for doc in self.svg_documents.values():
            for face, found in text_by_face([i for p in doc.pages for i in p.items], doc.forms).items():
                chars.setdefault(face, set()).update(found)
        fonts.prepare_web_subsets(chars)   # one cut of each font file per build, not one per deck
        for name, write in self.pending:
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            write(path)
            progress.step(name)
        moved = lambda path: final / path.relative_to(self.final)  # noqa: E731
        return BuildResult(self.game, final, [replace(w, path=moved(w.path)) for w in self.result.files],
                           [replace(p, path=moved(p.path)) for p in self.result.printable],
                           list(self.result.findings))
