"""The rule sheet as data: chapters of blocks, read from Markdown.

Blocks are what the layout (PDF) needs to know about the text — headings,
paragraphs, lists, tables, notes, pictures of components — and nothing about
Markdown syntax, so the PDF layout never parses text. Each block keeps the
source line it came from, for error messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import Source
from generator.model import dataclass_eq, dataclass_repr
from generator.model.spans import Span as Span  # (its home is model.spans; the rules' readers and writers take it here)
from generator.model.spans import Spans as Spans
from generator.paths import special_kind

if TYPE_CHECKING:   # a picture's example is planned when a rules.md asks (``load.rules``): not every reader's import
    from generator.model.examples import Example

#: the rule sheet's source, in a game's folder and in an add-on's
RULES_FILE = "rules.md"


def has_rules_file(folder: Path) -> bool:
    """Whether ``folder`` holds a rules file to read: a file, or something else there by that name (a named pipe,
    which reading refuses)."""
    return (folder / RULES_FILE).is_file() or special_kind(folder / RULES_FILE) is not None


def plain(spans: Spans) -> str:
    return "".join(span.text for span in spans)


@dataclass(repr=False, eq=False)
class Heading:
    """A heading of the rules."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    level: int
    spans: Spans
    source: Source


@dataclass(repr=False, eq=False)
class Paragraph:
    """A paragraph of the rules."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    spans: Spans
    source: Source


@dataclass(repr=False, eq=False)
class ListBlock:
    """A list of the rules, numbered or not."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    ordered: bool
    start: int
    items: list[list]  # each item: its blocks
    source: Source


@dataclass(repr=False, eq=False)
class Table:
    """A table of the rules."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    header: list[Spans]
    rows: list[list[Spans]]
    align: list[str]  # left | center | right per column
    source: Source


@dataclass(repr=False, eq=False)
class Note:
    """A block quote: printed as a side-barred note (注意, 例)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    blocks: list
    source: Source


@dataclass(repr=False, eq=False)
class Picture:
    """Artwork of a component (``component:<id>`` in Markdown), drawn from the model, or a picture file."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    component: str
    caption: str
    faces: int | None  # how many distinct faces to show (None: all)
    source: Source
    #: a picture file of the game instead (``![caption](art/x.png)``): ``component`` is its path as written
    file: bool = False
    #: a rule example instead (``![caption](example:claim?a=…&b=…)``): what ``generator.model.examples`` worked
    #: out for it (an ``Example``), filled when the chapter is read
    example: Example | None = None


@dataclass(repr=False, eq=False)
class Rule:
    """A thematic break (``---``)."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    source: Source


#: any block of a rule sheet (what ``generator.load.rules`` parses Markdown into)
Block = Heading | Paragraph | ListBlock | Table | Note | Picture | Rule


@dataclass(repr=False, eq=False)
class Chapter:
    """One rules file: the game's own, or an add-on's appended to it."""

    __repr__ = dataclass_repr
    __eq__ = dataclass_eq

    title: str
    markdown: str  # after Jinja: what the HTML is rendered from
    blocks: list
    source: Source  # the rules.md file
    component_ids: tuple[str, ...] = field(default_factory=tuple)
