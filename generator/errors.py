"""One error type for everything a user can fix in their content.

Every error carries where it came from (file and line) and what to do, so the
CLI can print one clear message instead of a traceback.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Source:
    """A place in a content file: what every model value remembers."""

    file: Path | None
    line: int | None = None
    #: a spreadsheet cell's column, as the spreadsheet names it ("C"); None for YAML and text files
    column: str | None = None

    def __str__(self) -> str:
        if self.file is None:
            return "<content>"
        name = _display_path(self.file)
        if not self.line:
            return name
        return f"{name}:{self.line}:{self.column}" if self.column else f"{name}:{self.line}"


def _display_path(path: Path) -> str:
    """The path relative to the working folder where it can be; a symbolic link is named as the
    designer wrote it, not by where it leads (the message may be that it leads out of the game)."""
    return _shown_path(path if type(path) is _PATH_TYPE else Path(path), os.getcwd())   # a Path as it is: parsed once


_PATH_TYPE = type(Path())   # PosixPath or WindowsPath: what ``Path(...)`` makes


@functools.lru_cache(maxsize=1024)
def _shown_path(path: Path, working: str) -> str:
    """``_display_path`` once per path and working folder: a check's findings name a few files thousands of
    times (20,000 findings of a crammed board resolved 125,000 paths, 3 s)."""
    cwd = Path(working).resolve()
    for candidate in (Path(os.path.abspath(path)), path.resolve()):
        try:
            return str(candidate.relative_to(cwd))
        except ValueError:
            continue
    return str(path)


@dataclass(frozen=True)
class Diagnostic:
    """One thing to tell the designer: a check's finding, or why content cannot be read or built.

    ``code`` says what kind (``PNP301``, ``LOAD``, ``BUILD`` …), ``severity`` is ``error`` or
    ``warning``, ``source`` is where (``file`` and ``line`` as messages show them), ``hint`` what
    to do. ``subject`` is for tools, not people: the ids of what the diagnostic concerns (a board
    finding's routes as ``(a, b, n)`` and places as ids), so that a tool never parses ``message``.
    """

    code: str
    severity: str
    source: Source
    message: str
    hint: str | None = None
    subject: tuple = field(default=(), kw_only=True)

    @property
    def file(self) -> str:
        """The file as messages show it (relative to the working folder where it can be), without the line."""
        return str(Source(self.source.file))

    @property
    def line(self) -> int | None:
        return self.source.line

    @property
    def column(self) -> str | None:
        """A spreadsheet cell's column letter (``cards.csv:14:C``), else None."""
        return self.source.column

    def to_json(self) -> dict:
        return {"code": self.code, "severity": self.severity, "file": self.file, "line": self.line,
                "column": self.column, "message": self.message, "hint": self.hint}


class PnpgenError(Exception):
    """Every error pnpgen reports to a user: one or more diagnostics, and the CLI's exit status.

    A subclass says what kind of failure it is with ``exit_code`` (and ``code``, the diagnostic
    code of the errors it makes); the CLI prints the diagnostics and exits with ``exit_code``.
    """

    exit_code = 1
    code = "ERROR"
    #: what the CLI prints before the message
    label = "error"

    def __init__(self, source: Source | None, message: str, hint: str | None = None):
        super().__init__(message)
        self.source = source or Source(None)
        self.message = message
        self.hint = hint

    @property
    def diagnostics(self) -> Sequence[Diagnostic]:
        return [Diagnostic(self.code, "error", self.source, self.message, self.hint)]

    def __str__(self) -> str:
        text = f"{self.source}: error: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class ContentError(PnpgenError):
    """Content that cannot be read or used: exit status 2."""

    exit_code = 2
    code = "LOAD"


class ContentErrors(ContentError):
    """Several independent mistakes found in one read (every misspelt name in cards and
    routes), reported together rather than one per run."""

    def __init__(self, errors: list[ContentError]):
        super().__init__(errors[0].source, errors[0].message, errors[0].hint)
        self.errors = errors

    @property
    def diagnostics(self) -> Sequence[Diagnostic]:
        return [d for error in self.errors for d in error.diagnostics]

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class BuildError(PnpgenError):
    """Content that reads fine but cannot be built (counts, overflow): exit status 1.
    Not a ContentError: the content could be read."""

    exit_code = 1
    code = "BUILD"


class OutputError(PnpgenError):
    """The output folder is not free (another build writes it, it is a file or a link) or cannot
    be written: exit status 1. The content is fine."""

    exit_code = 1
    code = "OUTPUT"


class Interrupted(PnpgenError):
    """A run stopped by Ctrl-C: exit status 130 (128 + SIGINT)."""

    exit_code = 130
    code = "INTERRUPTED"
    label = "interrupted"

    def __init__(self, message: str):
        super().__init__(None, message)


class Terminated(Interrupted):
    """A run stopped by SIGTERM: exit status 143 (128 + SIGTERM)."""

    exit_code = 143


def mark_output_replaced(interrupt: KeyboardInterrupt, replaced: bool) -> None:
    """Record on a Ctrl-C (or SIGTERM) that stopped a build whether the new output had already replaced
    the old one. The interrupt itself goes on up unchanged, so the CLI still tells Ctrl-C from SIGTERM;
    ``output_replaced`` reads the record."""
    vars(interrupt)["output_replaced"] = replaced


def output_replaced(interrupt: BaseException) -> bool:
    """Whether the build ``interrupt`` stopped had already replaced its output (``mark_output_replaced``)."""
    return bool(vars(interrupt).get("output_replaced", False))


def unreadable(path: Path, error: OSError | UnicodeDecodeError, what: str = "file",
               data: bytes = b"") -> ContentError:
    """The one translation of a failed read into a ``ContentError`` at the file (and, for a byte
    that is not UTF-8, at its line and column in ``data``, so an editor can jump there)."""
    if isinstance(error, UnicodeDecodeError):
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        column = len(data[line_start:error.start].decode("utf-8", errors="replace")) + 1
        return ContentError(Source(path, line), f"not UTF-8 text: byte 0x{data[error.start]:02X} at column {column} "
                                                f"({error.reason})",
                            "save the file as UTF-8 (or retype the character at that column)")
    if isinstance(error, FileNotFoundError):
        return ContentError(Source(path), "file not found",
                            "check the path; game folders hold game.yaml and the files it lists")
    return ContentError(Source(path), f"cannot read the {what}: {error.strerror or error}",
                        "check that the file is readable")


def did_you_mean(word: str, choices) -> str | None:
    """A 'did you mean' hint for a misspelt name, or None (``difflib`` imported for a misspelling only)."""
    from difflib import get_close_matches

    matches = get_close_matches(str(word), [str(c) for c in choices], n=3, cutoff=0.6)
    if not matches:
        return None
    return "did you mean " + " or ".join(repr(m) for m in matches) + "?"
