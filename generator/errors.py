"""One error type for everything a user can fix in their content.

Every error carries where it came from (file and line) and what to do, so the
CLI can print one clear message instead of a traceback.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path


@dataclass
class Source:
    """A place in a content file: what every model value remembers."""

    file: Path | None
    line: int | None = None

    def __str__(self) -> str:
        if self.file is None:
            return "<content>"
        name = _display_path(self.file)
        return f"{name}:{self.line}" if self.line else name


def _display_path(path: Path) -> str:
    """The path relative to the working folder where it can be; a symbolic link is named as the
    designer wrote it, not by where it leads (the message may be that it leads out of the game)."""
    cwd = Path.cwd().resolve()
    for candidate in (Path(os.path.abspath(path)), path.resolve()):
        try:
            return str(candidate.relative_to(cwd))
        except ValueError:
            continue
    return str(path)


class ContentError(Exception):
    """Content that cannot be read or used: exit status 2 in the CLI."""

    def __init__(self, source: Source | None, message: str, hint: str | None = None):
        super().__init__(message)
        self.source = source or Source(None)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.source}: error: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class ContentErrors(ContentError):
    """Several independent mistakes found in one read (every misspelt name in cards and
    routes), reported together rather than one per run."""

    def __init__(self, errors: list[ContentError]):
        super().__init__(errors[0].source, errors[0].message, errors[0].hint)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class BuildError(ContentError):
    """Content that reads fine but cannot be built (counts, overflow)."""


def did_you_mean(word: str, choices) -> str | None:
    """A 'did you mean' hint for a misspelt name, or None."""
    matches = get_close_matches(str(word), [str(c) for c in choices], n=3, cutoff=0.6)
    if not matches:
        return None
    return "did you mean " + " or ".join(repr(m) for m in matches) + "?"
