"""What every producer shares during one build: where to write, what was written."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.layout.cardface import FaceRenderer
from generator.layout.primitives import Document, Page
from generator.model.game import Game
from generator.render.pdf import render_pdf
from generator.render.svg import render_svg


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

    title: str      # the section's title (a component's name, "ルール / Rules" …)
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
    staging: Path
    final: Path
    progress: Progress
    result: BuildResult = None
    #: build despite check errors (``--force``): producers draw what they can instead of stopping
    force: bool = False

    def __post_init__(self):
        if self.result is None:
            self.result = BuildResult(self.game, self.final)

    def face_renderer(self) -> FaceRenderer:
        """A renderer for card, piece and picture faces. With --force the checker has already
        reported text that does not fit or print, so it is drawn anyway instead of stopping the build."""
        return FaceRenderer(self.game, on_print_problem=(lambda kind, error: None) if self.force else None)

    def write_pdf(self, doc: Document, name: str, kind: str, section: str | None = None,
                  component: str | None = None) -> Path:
        """Render ``doc`` to ``name`` (relative to the game's output folder) and record it.

        ``section`` (a title) adds the document to the print-and-play file, in call order;
        ``component`` names the component it prints, for the file's checklist and components.csv.
        """
        path = self.staging / name
        path.parent.mkdir(parents=True, exist_ok=True)
        render_pdf(doc, path)
        self.result.files.append(Written(self.final / name, len(doc.pages), kind))
        if section is not None:
            self.result.printable.append(Printable(section, doc, kind, self.final / name, component))
        return path

    def write_svg(self, doc: Document, page: Page, name: str) -> Path:
        path = self.staging / name
        path.parent.mkdir(parents=True, exist_ok=True)
        render_svg(doc, page, path)
        return path

    def write_text(self, name: str, text: str, kind: str, count: int = 1, unit: str = "file") -> Path:
        """Write a UTF-8 text file and record it (``count`` ``unit``: 11 rows, 1 file)."""
        path = self.staging / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.result.files.append(Written(self.final / name, count, kind, unit))
        return path

    def note_folder(self, name: str, kind: str) -> None:
        """Record a folder of files (e.g. svg/) once, with its file count.

        Several producers write into svg/: the first records it, later ones update its count.
        """
        count = sum(1 for p in (self.staging / name).rglob("*") if p.is_file())
        entry = next((w for w in self.result.files if w.path == self.final / name), None)
        if entry is not None:
            entry.pages = count
        elif count:
            self.result.files.append(Written(self.final / name, count, kind, "files"))
